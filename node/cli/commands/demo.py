"""``fairtable demo``: node processes play a whole game over TCP; every transcript is verified.

One node hosts a table, the others join it (the ``--host-table`` and ``--join`` flags of
``fairtable node``), bots play every decision, and each node writes its transcript. The
demo compares the files byte for byte and runs the verifier on each.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from fairtable.games import registry
from fairtable.games.contract import GameError
from fairtable.games.results import describe
from fairtable.node.cli.options import parse_options
from fairtable.protocol.errors import ProtocolError
from fairtable.protocol.session.verify import verify_chunks

TIMEOUT = 120.0


def add_parser(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "demo", help="local node processes play a game over TCP; verify and compare the transcripts",
        description="Starts one node per seat on free local ports, one hosts and the others join, bots play a "
                    "full game, then every transcript is verified and all are compared.",
    )
    parser.add_argument("--game", default="towers", help="game id (default towers)")
    parser.add_argument("--variant", help="variant (default: the game's first)")
    parser.add_argument("--seats", type=int, help="number of seats, one node each (default: the fewest the game allows)")
    parser.add_argument("--options", action="append", default=[], help="table options: key=value (repeat, or comma-separate) or a JSON object")
    parser.add_argument("--out", type=Path, help="directory for the nodes' data, logs and transcripts (default: a new temporary one)")
    parser.add_argument("--bots", default="greedy,random",
                        help="bots of the host and the guests, in seat order, repeated as needed (default greedy,random)")
    parser.set_defaults(run=run)


def node_command(data: Path, name: str, bot: str, *flags: str) -> list[str]:
    return [sys.executable, "-m", "fairtable.node.cli", "node", "--data", str(data), "--name", name, "--bot", bot,
            "--discovery", "off", *flags]


def start_node(command: list[str], log: Path) -> tuple[subprocess.Popen, str]:
    """Start a node process; return it and the address it listens on (from its first line)."""
    with open(log, "ab") as stderr:
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=stderr, text=True)
    assert process.stdout is not None
    line = process.stdout.readline()
    if " listening on " not in line:
        process.kill()
        raise SystemExit(f"fairtable demo: a node did not start; see {log}")
    return process, line.rsplit(" ", 1)[1].strip()


def run(args: argparse.Namespace) -> int:
    try:
        game = registry.get(args.game)
        variant = args.variant or game.variants[0]
        options = parse_options(args.options, game.options_for(variant))
        seats = args.seats or game.min_seats
        game.setup(variant, options, seats)
    except (GameError, ValueError) as exc:
        raise SystemExit(f"fairtable demo: {exc}") from None
    bots = args.bots.split(",")
    if not bots or not set(bots) <= {"random", "greedy"}:
        raise SystemExit("fairtable demo: --bots takes random or greedy, comma-separated, e.g. greedy,random")
    names = ["host", *(f"guest-{n}" for n in range(1, seats))]
    out = args.out or Path(tempfile.mkdtemp(prefix="fairtable-demo-"))
    out.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    table = ["--host-table", game.id, "--variant", variant, "--options", json.dumps(options), "--seats", str(seats)]
    host, address = start_node(node_command(out / "host", "host", bots[0], *table, "--until-done"), out / "host.log")
    processes = [host]
    for seat, name in enumerate(names[1:], start=1):
        guest, _ = start_node(node_command(out / name, name, bots[seat % len(bots)], "--join", address, "--until-done"),
                              out / f"{name}.log")
        processes.append(guest)
    for process in processes:
        try:
            process.communicate(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            for other in processes:
                other.kill()
            raise SystemExit(f"fairtable demo: no result within {TIMEOUT:g} s; see the logs in {out}") from None
    seconds = time.perf_counter() - started
    files = [sorted((out / name / "tables").glob("*/transcript.ftt")) for name in names]
    if any(len(found) != 1 for found in files):
        raise SystemExit(f"fairtable demo: a node wrote no transcript; see the logs in {out}")
    data = [found[0].read_bytes() for found in files]
    for name, content in zip(names, data):
        (out / f"{name}.ftt").write_bytes(content)
    try:
        reports = [verify_chunks([content]) for content in data]
    except ProtocolError as exc:
        raise SystemExit(f"fairtable demo: a transcript is unreadable: {exc}") from None
    report = reports[0]
    identical = all(content == data[0] for content in data)
    print(f"game          {report.game} ({report.variant}), {seats} seats, bots {', '.join(bots[n % len(bots)] for n in range(seats))}")
    print(f"result        {describe(report.result, names)}")
    print(f"envelopes     {report.envelopes}")
    print(f"identical     {'yes' if identical else 'NO'}")
    print(f"verification  {' / '.join('VALID' if r.valid else 'VIOLATIONS FOUND' for r in reports)}")
    print(f"time          {seconds:.2f} s ({seats} processes, start to all exited)")
    print(f"transcripts   {'  '.join(str(out / f'{name}.ftt') for name in names)}")
    return 0 if identical and all(r.valid for r in reports) else 1
