"""``fairtable demo``: two node processes play a whole game over TCP; both transcripts are verified.

One node hosts a table, the other joins it (the ``--host-table`` and ``--join`` flags of
``fairtable node``), bots play every decision, and each node writes its transcript. The
demo compares the two files byte for byte and runs the verifier on them.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from fairtable.games import registry
from fairtable.games.contract import GameError
from fairtable.protocol.errors import ProtocolError
from fairtable.protocol.session.verify import verify_chunks

TIMEOUT = 60.0


def add_parser(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "demo", help="two local node processes play a game over TCP; verify and compare the transcripts",
        description="Starts two nodes on free local ports, one hosts and one joins, bots play a full game, "
                    "then both transcripts are verified and compared.",
    )
    parser.add_argument("--game", default="towers", help="game id (default towers)")
    parser.add_argument("--out", type=Path, help="directory for the nodes' data, logs and transcripts (default: a new temporary one)")
    parser.add_argument("--bots", default="greedy,random", help="bot of the host and of the guest (default greedy,random)")
    parser.set_defaults(run=run)


def node_command(data: Path, name: str, bot: str, *flags: str) -> list[str]:
    return [sys.executable, "-m", "fairtable.node.cli", "node", "--data", str(data), "--name", name, "--bot", bot, *flags]


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
    except GameError as exc:
        raise SystemExit(f"fairtable demo: {exc}") from None
    bots = args.bots.split(",")
    if len(bots) != 2 or not set(bots) <= {"random", "greedy"}:
        raise SystemExit("fairtable demo: --bots takes two of random, greedy, e.g. greedy,random")
    out = args.out or Path(tempfile.mkdtemp(prefix="fairtable-demo-"))
    out.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    host, address = start_node(node_command(out / "host", "host", bots[0], "--host-table", game.id, "--until-done"),
                               out / "host.log")
    guest, _ = start_node(node_command(out / "guest", "guest", bots[1], "--join", address, "--until-done"),
                          out / "guest.log")
    for process in (host, guest):
        try:
            process.communicate(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            host.kill()
            guest.kill()
            raise SystemExit(f"fairtable demo: no result within {TIMEOUT:g} s; see the logs in {out}") from None
    seconds = time.perf_counter() - started
    files = [sorted((out / side / "tables").glob("*/transcript.ftt")) for side in ("host", "guest")]
    if any(len(found) != 1 for found in files):
        raise SystemExit(f"fairtable demo: a node wrote no transcript; see the logs in {out}")
    data = [found[0].read_bytes() for found in files]
    for side, content in zip(("host", "guest"), data):
        (out / f"{side}.ftt").write_bytes(content)
    try:
        reports = [verify_chunks([content]) for content in data]
    except ProtocolError as exc:
        raise SystemExit(f"fairtable demo: a transcript is unreadable: {exc}") from None
    report = reports[0]
    winners = ", ".join(f"seat {seat}" for seat in report.result.winners) if report.result else "none"
    print(f"game          {report.game} ({report.variant}), {bots[0]} bot hosting, {bots[1]} bot joining")
    print(f"result        {winners or 'draw'} ({report.result.reason if report.result else 'unfinished'})")
    print(f"envelopes     {report.envelopes}")
    print(f"identical     {'yes' if data[0] == data[1] else 'NO'}")
    print(f"verification  {' / '.join('VALID' if r.valid else 'VIOLATIONS FOUND' for r in reports)}")
    print(f"time          {seconds:.2f} s (two processes, start to both exited)")
    print(f"transcripts   {out / 'host.ftt'}  {out / 'guest.ftt'}")
    return 0 if data[0] == data[1] and all(r.valid for r in reports) else 1
