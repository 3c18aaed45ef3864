"""The peer processes of the NAT world tests (``python -m tests.node.natpeer MODE ...``), one JSON line each.

- ``listen``: a libp2p host for seat key ``--seed``, reserving a slot at ``--relay``; prints its
  addresses, then echoes every value on every channel it accepts.
- ``tcp-echo``: the same echo over today's direct TCP channel (the baseline figures).
- ``dial``: channels to ``--tcp`` (direct TCP) and to ``--to`` (a relayed multiaddr), a few round
  trips on each, then with ``--punch`` a DCUtR hole punch and a fresh channel; prints what held
  and the timings (seconds, measured here, never asserted on).
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import time
from typing import Any

import trio

from fairtable.node.peer.channel import Channel, accept_channel, open_channel
from fairtable.node.peer.p2p import open_host, relayed
from fairtable.protocol.identity import SecretKey

MARKER = "fairtable-plaintext-marker"
"""Sent inside every test message: found in the relay's capture, it would be plaintext the relay saw."""
ROUND_TRIPS = 50
BULK = 32
"""Values of 60 000 bytes each sent (and echoed) over the relayed channel with ``--bulk``: the relay's CPU per megabyte."""


def key(seed: int) -> SecretKey:
    return SecretKey.from_seed(bytes([seed]) * 32)


async def echo(channel: Channel) -> None:
    try:
        while True:
            await channel.send(await channel.receive())
    except Exception:  # the dialler hung up
        return


async def listen(args: argparse.Namespace) -> None:
    async with open_host(key(args.seed), [f"/ip4/0.0.0.0/tcp/{args.port}"], echo) as host:
        await host.reserve(args.relay)
        print(json.dumps({"addresses": host.addresses()}), flush=True)
        await trio.sleep_forever()


async def tcp_echo(args: argparse.Namespace) -> None:
    secret = key(args.seed)

    async def serve(stream: trio.SocketStream) -> None:
        await echo(await accept_channel(stream, secret))

    async with trio.open_nursery() as nursery:
        await nursery.start(trio.serve_tcp, serve, args.port)
        print(json.dumps({"port": args.port}), flush=True)


async def measure(channel: Channel, opened: float) -> dict[str, Any]:
    rtts = []
    for number in range(ROUND_TRIPS):
        sent = {"n": number, "text": MARKER}
        start = time.perf_counter()
        await channel.send(sent)
        if await channel.receive() != sent:
            raise AssertionError("the echo differs from what was sent")
        rtts.append(time.perf_counter() - start)
    return {"setup": opened, "rtts": rtts, "relayed": relayed(channel)}


async def dial(args: argparse.Namespace) -> None:
    secret, peer = key(args.seed), key(args.peer).public
    result: dict[str, Any] = {}
    host_ip, port = args.tcp.rsplit(":", 1)
    start = time.perf_counter()
    stream = await trio.open_tcp_stream(host_ip, int(port))
    async with await open_channel(stream, secret, expected=key(args.tcp_seed).public) as channel:
        result["tcp"] = await measure(channel, time.perf_counter() - start)
    async with open_host(secret, [f"/ip4/0.0.0.0/tcp/{args.port}"], echo) as host:
        await host.reserve(args.relay)
        start = time.perf_counter()
        channel = await host.dial(args.to, peer)
        result["relay"] = await measure(channel, time.perf_counter() - start)
        if args.bulk:
            for number in range(BULK):
                await channel.send({"n": number, "text": MARKER, "bulk": bytes([number]) * 60000})
                await channel.receive()
        if args.punch:
            start = time.perf_counter()
            result["punch"] = await host.hole_punch(peer)
            result["punch_seconds"] = time.perf_counter() - start
            result["direct"] = host.is_direct(peer)
            start = time.perf_counter()
            async with await host.dial(args.to, peer) as fresh:
                result["punched"] = await measure(fresh, time.perf_counter() - start)
            result["relay_after"] = await measure(channel, 0.0)
        await channel.aclose()
    print(json.dumps(result), flush=True)


def main() -> None:
    logging.basicConfig(level=logging.CRITICAL)
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=["listen", "tcp-echo", "dial"])
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--port", type=int, default=4002)
    parser.add_argument("--relay")
    parser.add_argument("--to")
    parser.add_argument("--peer", type=int)
    parser.add_argument("--tcp")
    parser.add_argument("--tcp-seed", type=int)
    parser.add_argument("--punch", action="store_true")
    parser.add_argument("--bulk", action="store_true")
    args = parser.parse_args()
    run = {"listen": listen, "tcp-echo": tcp_echo, "dial": dial}[args.mode]
    try:
        trio.run(run, args)
    except Exception as exc:
        print(json.dumps({"error": f"{type(exc).__name__}: {exc}"}), flush=True)
        sys.exit(1)


if __name__ == "__main__":
    main()

