"""``fairtable verify FILE...``: check transcripts; exit 0 valid, 1 violation found, 2 unreadable."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from fairtable.games.contract import GameError
from fairtable.games.results import describe
from fairtable.node.api.jsonvalues import jsonable
from fairtable.protocol.errors import ProtocolError
from fairtable.protocol.session.verify import Report, find_equivocations, load, verify

VALID, VIOLATION, UNREADABLE = 0, 1, 2
CHUNK = 1 << 16


def add_parser(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "verify", help="verify transcript files",
        description="Replay each transcript with every revealed seed and check every message, shuffle, deal and move. "
                    "Exit status: 0 all valid, 1 a violation was found, 2 a file is unreadable, malformed, damaged or incomplete "
                    "(damage is never reported as a seat's violation).",
    )
    parser.add_argument("files", nargs="+", type=Path, metavar="FILE", help="transcript files (.ftt)")
    parser.add_argument("--json", action="store_true", help="print one JSON object per file, one per line")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    status = VALID
    loaded = []
    for path in args.files:
        started = time.perf_counter()
        try:
            with open(path, "rb") as stream:
                file, broken = load(iter(lambda: stream.read(CHUNK), b""))
            report = verify(file, broken)
        except OSError as exc:
            status = max(status, UNREADABLE)
            _print_error(path, f"cannot read: {exc.strerror}", args.json)
            continue
        except (ProtocolError, GameError) as exc:
            status = max(status, UNREADABLE)
            _print_error(path, f"{_unreadable(exc)}: {exc}", args.json)
            continue
        if broken is not None:
            # A broken link is damage (a flipped byte, a bad copy), not a seat's doing: no seat signed it.
            status = max(status, UNREADABLE)
            _print_error(path, f"damaged file: envelope {broken.index} does not belong to the chain ({broken.reason}); "
                               f"the {broken.index} envelopes before it are intact. Not evidence of cheating: "
                               "ask a player for a whole copy", args.json)
            continue
        loaded.append(file)
        names = [seat.name for seat in file.transcript.genesis.genesis.seats]
        seconds = time.perf_counter() - started
        if not report.valid:
            status = max(status, VIOLATION)
        if args.json:
            print(json.dumps({"file": str(path), "seconds": round(seconds, 4), **jsonable(report.to_value())}, sort_keys=True))
        else:
            _print_report(path, report, names, seconds)
    for violation in find_equivocations(loaded):
        status = max(status, VIOLATION)
        if args.json:
            print(json.dumps({"equivocation": jsonable(violation.to_value())}, sort_keys=True))
        else:
            print(f"EQUIVOCATION: seat {violation.seat} signed two different envelopes for slot {violation.index}")
    return status


def _unreadable(exc: Exception) -> str:
    """An incomplete file (cut short while written or copied) is said to be one, apart from one that is no transcript."""
    return "incomplete file (cut short)" if "file ends" in str(exc) else "malformed transcript"


def _print_error(path: Path, message: str, as_json: bool) -> None:
    if as_json:
        print(json.dumps({"error": message, "file": str(path), "valid": False}, sort_keys=True))
    else:
        print(f"{path}: {message}", file=sys.stderr)


def _print_report(path: Path, report: Report, names: list[str], seconds: float) -> None:
    print(f"{path}: {'VALID' if report.valid else 'VIOLATIONS FOUND'}")
    print(f"  game      {report.game} ({report.variant})")
    for seat, fingerprint in enumerate(report.seats):
        print(f"  seat {seat}    {fingerprint}  {names[seat]}")
    if report.result is not None:
        print(f"  result    {describe(report.result, names)}")
    else:
        print("  result    none (the game did not finish)")
    print(f"  envelopes {report.envelopes}")
    print(f"  time      {seconds:.3f} s")
    for violation in report.violations:
        who = f"seat {violation.seat}" if violation.seat is not None else f"one of seats {list(violation.suspects)}"
        print(f"  VIOLATION at envelope {violation.index}: {who} broke {violation.rule}: {violation.detail}")
