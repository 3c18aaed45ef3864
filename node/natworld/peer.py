"""The peer processes of the NAT world (``python -m fairtable.node.natworld.peer MODE ...``).

- ``tcp-echo``: a seat that echoes every value on every channel over today's direct TCP (the baseline).
- ``peer``: a libp2p host for seat key ``--seed`` that echoes every value on every channel it
  accepts and holds a reservation at each ``--relay`` (as a node does: announced even while the
  relay does not answer, made again when lost). It prints
  ``{"addresses": [...]}``, then answers each command read from stdin (one JSON object a line)
  with one JSON line, and ends at the end of stdin:

  - ``{"do": "tcp", "address": "HOST:PORT", "peer": SEED}``: a TCP channel to that seat becomes the current one;
  - ``{"do": "dial", "reach": REACH, "peer": SEED}``: a channel to that seat's reach, dialled as a
    node dials (:mod:`fairtable.node.peer.dial`), becomes the current one;
  - ``{"do": "echo", "count": N, "bulk": B}``: N round trips on the current channel (each value
    carrying B bytes more), or ``{"broken": why}``;
  - ``{"do": "punch"}``: a DCUtR hole punch towards the current channel's peer;
  - ``{"do": "held", "relay": ADDRESS}``: wait (up to three handshake timeouts) until the host holds its reservation there again;
  - ``{"do": "reachability", "direct": [MULTIADDR, ...]}``: ask the relays to dial these addresses back, as a node
    does: ``{"reachability": "public"|"private"|"unknown", "reached": [...], "line": ...}``.

  A channel that cannot be opened is answered ``{"failed": why}``.

  Times are seconds measured here: figures for a report, never asserted on by a test.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import sys
import time
from typing import Any

import trio

from fairtable.node.peer.channel import Channel, accept_channel, open_channel
from fairtable.node.peer.dial import connect
from fairtable.node.peer.errors import ChannelError
from fairtable.node.peer.p2p import PUNCH_SECONDS, P2PHost, open_host, relayed
from fairtable.node.peer.reach import parse_address
from fairtable.node.peer.reservations import Schedule
from fairtable.protocol import SecretKey

MARKER = "fairtable-plaintext-marker"
"""Sent inside every echoed value: found in a relay's capture, it would be plaintext the relay saw."""
TIMEOUT = 20.0
RESERVATIONS = Schedule(every=0.5, cap=4.0)
"""Looked at twice a second; a relay away is tried again at most 4 s apart."""
POLL_SECONDS = 0.1


def key(seed: int) -> SecretKey:
    return SecretKey.from_seed(bytes([seed]) * 32)


async def echo(channel: Channel) -> None:
    try:
        while True:
            await channel.send(await channel.receive())
    except Exception:  # the dialler hung up, or the connection broke: this echo is over
        return


async def tcp_echo(args: argparse.Namespace) -> None:
    secret = key(args.seed)

    async def serve(stream: trio.SocketStream) -> None:
        try:
            channel = await accept_channel(stream, secret)
        except Exception:  # a dialler that hung up in its handshake
            return
        await echo(channel)

    async with trio.open_nursery() as nursery:
        await nursery.start(trio.serve_tcp, serve, args.port)
        print(json.dumps({"port": args.port}), flush=True)


class Driver:
    """One host and its current channel, driven by commands."""

    def __init__(self, host: P2PHost, secret: SecretKey) -> None:
        self.host = host
        self.secret = secret
        self.channel: Channel | None = None

    async def run(self, command: dict[str, Any]) -> dict[str, Any]:
        kind = command["do"]
        if kind in ("tcp", "dial"):
            return await self.open(command)
        if kind == "echo":
            return await self.echo(command.get("count", 1), command.get("bulk", 0))
        if kind == "punch":
            assert self.channel is not None
            start, punched = time.perf_counter(), False
            with trio.move_on_after(PUNCH_SECONDS):
                punched = await self.host.hole_punch(self.channel.peer)
            return {"punch": punched, "direct": self.host.is_direct(self.channel.peer), "seconds": time.perf_counter() - start}
        if kind == "held":
            # libp2p signals no reservation made. A reservation made again after its relay came back
            # may wait for a renewal tick and a try begun while the relay was away (each up to
            # TIMEOUT) before the one that holds: allow three.
            for _ in range(int(3 * TIMEOUT / POLL_SECONDS)):
                if self.host.holds(command["relay"], 0):
                    return {"held": True}
                await trio.sleep(POLL_SECONDS)
            return {"held": False}
        if kind == "reachability":
            learnt = await self.host.check_reachability(command["direct"])
            return {"reachability": learnt.status, "reached": list(learnt.reached), "line": learnt.line()}
        raise ValueError(f"unknown command {kind!r}")

    async def open(self, command: dict[str, Any]) -> dict[str, Any]:
        if self.channel is not None:
            await self.channel.aclose()
        peer = key(command["peer"]).public
        start = time.perf_counter()
        if command["do"] == "tcp":
            stream = await trio.open_tcp_stream(*parse_address(command["address"]))
            self.channel = await open_channel(stream, self.secret, expected=peer, timeout=TIMEOUT)
        else:
            self.channel = await connect(command["reach"], peer, self.secret, self.host, TIMEOUT)
        return {"setup": time.perf_counter() - start, "relayed": relayed(self.channel)}

    async def echo(self, count: int, bulk: int) -> dict[str, Any]:
        assert self.channel is not None
        rtts = []
        try:
            for number in range(count):
                sent = {"n": number, "text": MARKER, "bulk": bytes([number % 256]) * bulk}
                start = time.perf_counter()
                with trio.fail_after(TIMEOUT):
                    await self.channel.send(sent)
                    if await self.channel.receive() != sent:
                        raise AssertionError("the echo differs from what was sent")
                rtts.append(time.perf_counter() - start)
        except (trio.TooSlowError, ChannelError, OSError) as exc:
            return {"broken": f"{type(exc).__name__}: {exc}", "rtts": rtts}
        return {"rtts": rtts, "relayed": relayed(self.channel)}


async def peer(args: argparse.Namespace) -> None:
    secret = key(args.seed)
    async with open_host(secret, [f"/ip4/0.0.0.0/tcp/{args.port}"], echo, handshake_timeout=TIMEOUT) as host, \
            trio.open_nursery() as nursery:
        for relay in args.relay:
            with contextlib.suppress(ChannelError):  # announced anyway, and reserved once the relay answers
                await host.hold(relay)
        nursery.start_soon(host.keep_reservations, RESERVATIONS)
        print(json.dumps({"addresses": host.addresses()}), flush=True)
        driver = Driver(host, secret)
        commands = trio.wrap_file(sys.stdin)
        while line := await commands.readline():
            try:
                answer = await driver.run(json.loads(line))
            except ChannelError as exc:
                answer = {"failed": f"{type(exc).__name__}: {exc}"}
            print(json.dumps(answer), flush=True)
        nursery.cancel_scope.cancel()


def main() -> None:
    logging.basicConfig(level=logging.WARNING)
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=["peer", "tcp-echo"])
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--port", type=int, default=4002)
    parser.add_argument("--relay", action="append", default=[])
    args = parser.parse_args()
    run = {"peer": peer, "tcp-echo": tcp_echo}[args.mode]
    try:
        trio.run(run, args)
    except Exception as exc:
        print(json.dumps({"error": "; ".join(f"{type(leaf).__name__}: {leaf}" for leaf in _leaves(exc))}), flush=True)
        sys.exit(1)


def _leaves(exc: BaseException) -> list[BaseException]:
    """The exceptions inside trio's nested exception groups."""
    if isinstance(exc, BaseExceptionGroup):
        return [leaf for inner in exc.exceptions for leaf in _leaves(inner)]
    return [exc]


if __name__ == "__main__":
    main()
