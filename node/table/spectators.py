"""The spectators of the tables this node sits at: each is sent the table's envelopes as they are placed.

A spectator's node opens a channel to any seat's node and sends ``watch`` naming a started table
(``spec/node.md``, "Spectators"). Every envelope is public (``spec/fairness.md`` §8: there are no
private channels; a card shown to one seat stays closed under that seat's own key), so the seat's
node sends a spectator what it would relay to a seat: its chain in order (again from the slot a fork
replaced), then, once the table is finished, what it holds off the chain. Nothing that is not an
envelope leaves: not the seat's secret, its committed choices or its view. The spectator's node
checks every envelope with the verifier's replica, knowing only what is public.
"""

from __future__ import annotations

import logging
from functools import partial

import trio

from fairtable.node.peer.channel import Channel
from fairtable.node.peer.errors import ChannelClosed, ChannelError
from fairtable.node.peer.messages import BadMessage, message, parse
from fairtable.node.ratelimit import TokenBucket
from fairtable.node.table.live import LiveTable
from fairtable.node.table.mesh import Mesh
from fairtable.node.tasks import race

log = logging.getLogger("fairtable.node")

MAX_SPECTATORS = 16
"""Spectators one table serves at once: each costs a connection and one send per envelope."""
SILENCE_FACTOR = 3
"""A spectator silent for this many heartbeats (it pings every heartbeat) is gone."""
RATE = 4.0
BURST = 16.0
"""Messages per second a spectator may send (it has only ``ping`` to say), and the burst it may save up."""


class Spectators:
    """Serves ``watch`` connections for the started tables of ``mesh``."""

    def __init__(self, mesh: Mesh, heartbeat: float) -> None:
        self._mesh = mesh
        self._heartbeat = heartbeat
        self._watching: dict[bytes, int] = {}

    def count(self, table: LiveTable) -> int:
        """How many spectators watch ``table`` through this node now."""
        return self._watching.get(table.table_id, 0)

    async def serve(self, channel: Channel, first: dict, who: str) -> None:
        """Answer a ``watch``: refused, or the genesis and then every envelope until the spectator goes."""
        table = self._mesh.find(first["table"])
        if table is None:
            await channel.send(message("refused", code="unknown", reason=f"this node sits at no started table {first['table'][:64]}"))
            return
        if self.count(table) >= MAX_SPECTATORS:
            await channel.send(message("refused", code="full", reason=f"table {table.name} has {MAX_SPECTATORS} spectators here already"))
            return
        self._watching[table.table_id] = self.count(table) + 1
        log.info("table %s: spectator %s watches (%d here)", table.name, who, self.count(table))
        try:
            await channel.send(message("watching", genesis=table.genesis.to_value(), lobby=table.lobby))
            await race(partial(self._send, channel, table), partial(self._receive, channel))
        except ChannelClosed:
            pass
        except (ChannelError, BadMessage) as exc:
            log.info("spectator %s of table %s: %s; closing", who, table.name, exc)
        finally:
            self._watching[table.table_id] -= 1
            await channel.aclose()

    async def _send(self, channel: Channel, table: LiveTable) -> None:
        """The chain as it grows (from the first slot a fork replaced, when one did), the envelopes
        off the chain once the table is finished, and a ``ping`` after each quiet heartbeat."""
        sent: list[bytes] = []
        evidence: set[bytes] = set()
        while True:
            version = table.version
            chain = table.envelopes
            common = min(len(sent), len(chain))
            while common and chain[common - 1].hash != sent[common - 1]:
                common -= 1
            del sent[common:]
            for index in range(common, len(chain)):
                await channel.send(message("env", env=chain[index].to_value()))
                sent.append(chain[index].hash)
            if table.finished:
                for envelope in table.replica.off_chain():
                    if envelope.hash not in evidence:
                        evidence.add(envelope.hash)
                        await channel.send(message("ev", env=envelope.to_value()))
            with trio.move_on_after(self._heartbeat):
                await table.wait_change(version)
            if table.version == version:
                await channel.send(message("ping"))

    async def _receive(self, channel: Channel) -> None:
        """A spectator only pings; anything else, a flood or silence ends its watch."""
        bucket = TokenBucket(RATE, BURST)
        while True:
            parse(await channel.receive(timeout=SILENCE_FACTOR * self._heartbeat), "ping")
            if not bucket.take():
                raise BadMessage(f"message flood: more than {RATE:g} messages per second")
