"""A local control path: the ``fairtable node`` flags drive the node through ``NodeService`` alone.

``--host-table`` offers a table and starts it once every seat is taken, ``--join`` takes a
seat at the first open table of a host, ``--until-done`` returns once every table here is
settled: finished, written, and every peer holding the same final head. ``--host-tournament`` and ``--join-tournament`` do the
same for a duel tournament, which then runs by itself; ``--until-done`` waits for its end. The
demo and the tests use these flags; a client of the local API does the same through the same
service calls.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import trio

from fairtable.games import describe
from fairtable.node.lobby.exchange import OTHER_KEY, JoinRefused
from fairtable.node.lobby.invite import Invite
from fairtable.node.node import Node
from fairtable.node.service import NodeService, ServiceError

log = logging.getLogger("fairtable.node")

RETRY = 0.2
FINAL_REFUSALS = frozenset({"unknown", "full", "started", "version", "bad-request", OTHER_KEY})
"""Refusals of a join that asking again cannot change (``seated`` can: the host has not yet seen
this node's previous connection close)."""
SETTLE_SECONDS = 10.0
"""How long a finished node waits for its peers to confirm they hold the end of every table."""
LINGER_SECONDS = 120.0
"""How long a node whose tournament is over waits at most for every participant to hold all of
it, serving its transcripts meanwhile (a participant that never returns must not hold it forever)."""


async def host_and_start(service: NodeService, game: str, variant: str, options: dict, seats: int) -> None:
    """Offer a table and start it as soon as it is full."""
    listing = await service.host(game, variant, options, seats)
    print(f"hosting table {listing.lobby_id}: {game} ({variant}), {seats} seats", flush=True)
    print(f"invite {await service.invite(listing.lobby_id)}", flush=True)
    async for update in service.updates():
        if update.lobby_id == listing.lobby_id and update.phase == "lobby" and len(update.seats) == seats:
            try:
                await service.start(listing.lobby_id)
                return
            except ServiceError as exc:
                log.warning("table %s did not start: %s", listing.lobby_id, exc)


async def join_first(service: NodeService, peer: str) -> None:
    """Take a seat at the first open table of ``peer``, waiting for one to be offered."""
    await _join_first_open("table", peer, service.list_tables, service.join, lambda table: table.seats)


async def join_invite(service: NodeService, invite: Invite) -> None:
    """Take the seat an invite offers, asking again while its host cannot be reached (it may not listen
    yet, a relay may be restarting); a refusal that asking again cannot change raises :class:`JoinRefused`.
    A node started again with the same ``--join`` already sits at the table (its journal): nothing to do."""
    if any(update.lobby_id == invite.lobby_id for update in await service.my_tables()):
        log.info("table %s: already seated here", invite.lobby_id)
        return
    while True:
        try:
            await service.join(invite.address, invite.lobby_id, invite.fingerprint)
            print(f"joined table {invite.lobby_id} at {invite.fingerprint}", flush=True)
            return
        except JoinRefused as exc:
            if exc.refusal in FINAL_REFUSALS:
                raise
            log.info("%s", exc)
        except ServiceError as exc:
            log.info("%s", exc)
        await trio.sleep(RETRY)


async def host_tournament(service: NodeService, participants: int, options: dict) -> None:
    lobby = await service.host_tournament(participants, options)
    print(f"hosting tournament {lobby.lobby_id}: {participants} participants", flush=True)


async def join_first_tournament(service: NodeService, peer: str) -> None:
    """Enter the first open tournament of ``peer``, waiting for one to be offered."""
    await _join_first_open("tournament", peer, service.list_tournaments, service.join_tournament,
                           lambda lobby: lobby.participants)


async def _join_first_open(what: str, peer: str, offers: Callable[[str], Awaitable[Sequence[Any]]],
                           join: Callable[[str, str], Awaitable[object]], room: Callable[[Any], int]) -> None:
    """Join the first offer of ``peer`` not started and with ``room`` left, asking again until one is."""
    while True:
        try:
            for offer in await offers(peer):
                if not offer.started and len(offer.joined) < room(offer):
                    await join(peer, offer.lobby_id)
                    print(f"joined {what} {offer.lobby_id} at {peer}", flush=True)
                    return
        except ServiceError as exc:
            log.info("%s", exc)
        await trio.sleep(RETRY)


async def until_tournament_done(node: Node) -> None:
    """Return once every tournament here is finished and every participant holds all of it
    (each told the others, so nobody still needs a transcript from this node)."""
    while not node.tournaments.finished:
        await node.updates_hub.changed()
    for status in node.tournaments.statuses():
        champion = status.progress["champion"]
        print(f"tournament {status.tournament} finished: {status.participants[champion]} wins; "
              f"bundle {status.folder}", flush=True)
    with trio.move_on_after(LINGER_SECONDS):
        while not node.tournaments.settled:
            await node.updates_hub.changed()
    with trio.move_on_after(SETTLE_SECONDS):
        await node.wait_settled()


async def until_done(node: Node) -> None:
    """Return once this node sits at a table and every one is settled: finished, its transcript
    written, and every peer holding the same final head. A finish that a fork withdraws is no end,
    and no fixed wait can tell how long a partitioned peer stays away."""
    await node.wait_settled()
    for table in node.tables.values():
        names = [seat.name for seat in table.genesis.genesis.seats]
        print(f"table {table.table_id.hex()} finished: {describe(table.session.result, names)}, {len(table.envelopes)} envelopes, "
              f"transcript {table.files.dir / 'transcript.ftt'}", flush=True)
