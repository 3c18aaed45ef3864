"""``fairtable relay``: run a public circuit relay for friends' nodes behind home routers.

Prints its full address (ending ``/p2p/<peer id>``) on the first line once it listens, so a
script can read it, then a one-line status every ``--status-seconds``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import BinaryIO

import trio

from fairtable.node import datalock
from fairtable.node.keystore import KeyFileError


def add_parser(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "relay", help="run a public relay (libp2p circuit relay v2, AutoNAT) for nodes behind NAT routers",
        description="Forward encrypted bytes between nodes that cannot dial each other, within limits. A relay "
                    "learns who talks to whom, when and how much; it cannot read or change a move.",
    )
    parser.add_argument("--data", type=Path, required=True, help="folder for the relay's own key")
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on (default: all)")
    parser.add_argument("--port", type=int, default=4001, help="TCP port (default: 4001; 0 picks one)")
    parser.add_argument("--reservations", type=int, default=64, help="reservations held in all (one per peer)")
    parser.add_argument("--circuits", type=int, default=8, help="circuits open through one reservation at a time")
    parser.add_argument("--circuit-seconds", type=int, default=4 * 3600, help="a circuit is cut after this long")
    parser.add_argument("--circuit-bytes", type=int, default=64 << 20, help="a circuit is cut after this many bytes")
    parser.add_argument("--status-seconds", type=float, default=60.0, help="how often to print the status line")
    parser.add_argument("--capture", type=Path, help="append every byte the relay forwards to this file (an audit)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    for name in ("reservations", "circuits", "circuit_seconds", "circuit_bytes"):
        if getattr(args, name) < 1:
            print(f"fairtable relay: --{name.replace('_', '-')} must be at least 1", file=sys.stderr)
            return 2
    if not 0 <= args.port <= 65535:
        print(f"fairtable relay: --port {args.port} is not a TCP port", file=sys.stderr)
        return 2
    try:
        from fairtable.node.relay import RelayOptions, RelayStatus, run_relay
    except ImportError as exc:
        print(f"fairtable relay: libp2p is not installed ({exc}); install it with pip install 'fairtable[p2p]'",
              file=sys.stderr)
        return 2
    options = RelayOptions(reservations=args.reservations, circuits=args.circuits,
                           circuit_seconds=args.circuit_seconds, circuit_bytes=args.circuit_bytes)

    def ready(address: str) -> None:
        print(address, flush=True)

    def status(now: RelayStatus) -> None:
        print(now.line(), flush=True)

    capture: BinaryIO | None = None
    try:
        args.data.mkdir(parents=True, exist_ok=True)
        datalock.hold(args.data)
        capture = open(args.capture, "ab") if args.capture else None
        trio.run(run_relay, args.data, args.host, args.port, options, ready, status, args.status_seconds, capture)
    except (datalock.DataInUse, KeyFileError) as exc:
        print(f"fairtable relay: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"fairtable relay: cannot listen on {args.host}:{args.port} or write its files: {exc.strerror or exc}",
              file=sys.stderr)
        return 2
    finally:
        if capture is not None:
            capture.close()
    return 0
