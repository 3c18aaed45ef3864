"""``fairtable demo``: node processes play a whole game over TCP; every transcript is verified.

One node hosts a table, the others join it (the ``--host-table`` and ``--join`` flags of
``fairtable node``), bots play every decision, and each node writes its transcript. The
demo compares the files byte for byte and runs the verifier on each.

``--tournament N``: N node processes play a whole duel tournament (``--host-tournament`` and
``--join-tournament``); every node's bundle must hold the same files, and the host's bundle is
verified table by table as ``fairtable verify`` does.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from fairtable.games import GameError, describe, registry
from fairtable.node.cli.commands.verify import verify_bundle_at
from fairtable.node.cli.options import parse_options, parse_tournament_options
from fairtable.protocol import ProtocolError
from fairtable.protocol.session import verify_chunks
from fairtable.protocol.tournament import Format, RecordError, stage_options

TIMEOUT = 120.0
TOURNAMENT_TIMEOUT = 900.0


def add_parser(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "demo", help="local node processes play a game over TCP; verify and compare the transcripts",
        description="Starts one node per seat on free local ports, one hosts and the others join, bots play a "
                    "full game, then every transcript is verified and all are compared.",
    )
    parser.add_argument("--game", help="game id (default towers)")
    parser.add_argument("--variant", help="variant (default: the game's first)")
    parser.add_argument("--seats", type=int, help="number of seats, one node each (default: the fewest the game allows)")
    parser.add_argument("--options", action="append", default=[],
                        help="table options: key=value (repeat, or comma-separate) or a JSON object; with --tournament "
                             "the tournament's: advance=1, STAGE.OPTION=value (e.g. group.cycles=2)")
    parser.add_argument("--tournament", type=int, metavar="N",
                        help="instead of one table: N node processes (4, 8, 12 or 16) play a whole duel tournament")
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
    if args.tournament is not None:
        return run_tournament(args)
    try:
        game = registry.get(args.game or "towers")
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
    wait_all(processes, TIMEOUT, out)
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


def wait_all(processes: list[subprocess.Popen], timeout: float, out: Path) -> None:
    """Wait for every node process to exit; kill them all and say so past ``timeout``."""
    deadline = time.monotonic() + timeout
    for process in processes:
        try:
            process.communicate(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            for other in processes:
                other.kill()
            raise SystemExit(f"fairtable demo: no result within {timeout:g} s; see the logs in {out}") from None
    failed = [n for n, process in enumerate(processes) if process.returncode != 0]
    if failed:
        raise SystemExit(f"fairtable demo: node process {failed[0]} exited with status {processes[failed[0]].returncode}; "
                         f"see the logs in {out}")


def run_tournament(args: argparse.Namespace) -> int:
    """``--tournament N``: N node processes play a duel tournament; its bundle is verified."""
    if args.game not in (None, "duel") or args.variant or args.seats:
        raise SystemExit("fairtable demo: --tournament plays duel; --game, --variant and --seats do not go with it")
    try:
        options = parse_tournament_options(args.options, stage_options())
        Format.check(options, args.tournament)
    except (RecordError, ValueError) as exc:
        raise SystemExit(f"fairtable demo: {exc}") from None
    bots = args.bots.split(",")
    if not bots or not set(bots) <= {"random", "greedy"}:
        raise SystemExit("fairtable demo: --bots takes random or greedy, comma-separated, e.g. greedy,random")
    names = [f"p{n + 1}" for n in range(args.tournament)]
    out = args.out or Path(tempfile.mkdtemp(prefix="fairtable-tournament-"))
    out.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    host, address = start_node(node_command(out / names[0], names[0], bots[0], "--host-tournament", str(args.tournament),
                                            "--tournament-options", json.dumps(options), "--until-done"),
                               out / f"{names[0]}.log")
    processes = [host]
    for n, name in enumerate(names[1:], start=1):
        guest, _ = start_node(node_command(out / name, name, bots[n % len(bots)], "--join-tournament", address, "--until-done"),
                              out / f"{name}.log")
        processes.append(guest)
    print(f"tournament    {args.tournament} node processes, host {names[0]} at {address}; logs in {out}", flush=True)
    wait_all(processes, TOURNAMENT_TIMEOUT, out)
    seconds = time.perf_counter() - started
    bundles = [sorted((out / name / "tournaments").glob("*")) for name in names]
    if any(len(found) != 1 for found in bundles):
        raise SystemExit(f"fairtable demo: a node holds no tournament; see the logs in {out}")
    contents = [{path.name: path.read_bytes() for path in found[0].iterdir() if path.name != "peers"} for found in bundles]
    identical = all(content == contents[0] for content in contents)
    bundle = out / "bundle"
    shutil.rmtree(bundle, ignore_errors=True)
    shutil.copytree(bundles[0][0], bundle, ignore=shutil.ignore_patterns("peers"))
    status = verify_bundle_at(bundle, as_json=False)
    print(f"identical     {'yes' if identical else 'NO'}: every node's bundle holds the same {len(contents[0]) - 1} tables")
    print(f"time          {seconds:.2f} s ({args.tournament} processes, start to all exited)")
    print(f"bundle        {bundle}  (fairtable verify {bundle})")
    return status if identical else max(status, 1)
