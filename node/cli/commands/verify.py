"""``fairtable verify FILE...``: check transcripts; exit 0 valid, 1 violation found, 2 unreadable."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from fairtable.games.contract import GameError
from fairtable.node.api.jsonvalues import jsonable
from fairtable.node.cli.progress import progress
from fairtable.protocol.errors import ProtocolError
from fairtable.protocol.session.verify import Report, find_equivocations, load, verify
from fairtable.protocol.transcript_file import TranscriptFile

VALID, VIOLATION, UNREADABLE = 0, 1, 2
CHUNK = 1 << 16


def add_parser(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "verify", help="verify transcript files",
        description="Replay each transcript with every revealed seed and check every message, shuffle, deal and move. "
                    "Exit status: 0 all valid, 1 a violation was found, 2 a file is unreadable or malformed.",
    )
    parser.add_argument("files", nargs="+", type=Path, metavar="FILE", help="transcript files (.ftt)")
    parser.add_argument("--json", action="store_true", help="print one JSON object per file, one per line")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    status = VALID
    loaded: list[TranscriptFile] = []
    with progress(len(args.files), "verifying") as advance:
        for path in args.files:
            status = max(status, _verify_one(path, args.json, loaded))
            advance()
    for violation in find_equivocations(loaded):
        status = max(status, VIOLATION)
        if args.json:
            print(json.dumps({"equivocation": jsonable(violation.to_value())}, sort_keys=True))
        else:
            print(f"EQUIVOCATION: seat {violation.seat} signed two different envelopes for slot {violation.index}")
    return status


def _verify_one(path: Path, as_json: bool, loaded: list[TranscriptFile]) -> int:
    """Verify and report one file (kept in ``loaded`` for the equivocation check); its exit status."""
    started = time.perf_counter()
    try:
        with open(path, "rb") as stream:
            file, broken = load(iter(lambda: stream.read(CHUNK), b""))
        report = verify(file, broken)
    except OSError as exc:
        _print_error(path, f"cannot read: {exc.strerror}", as_json)
        return UNREADABLE
    except (ProtocolError, GameError) as exc:
        _print_error(path, f"malformed transcript: {exc}", as_json)
        return UNREADABLE
    loaded.append(file)
    seconds = time.perf_counter() - started
    if as_json:
        print(json.dumps({"file": str(path), "seconds": round(seconds, 4), **jsonable(report.to_value())}, sort_keys=True))
    else:
        _print_report(path, report, seconds)
    return VALID if report.valid else VIOLATION


def _print_error(path: Path, message: str, as_json: bool) -> None:
    if as_json:
        print(json.dumps({"error": message, "file": str(path), "valid": False}, sort_keys=True))
    else:
        print(f"{path}: {message}", file=sys.stderr)


def _print_report(path: Path, report: Report, seconds: float) -> None:
    print(f"{path}: {'VALID' if report.valid else 'VIOLATIONS FOUND'}")
    print(f"  game      {report.game} ({report.variant})")
    for seat, fingerprint in enumerate(report.seats):
        print(f"  seat {seat}    {fingerprint}")
    if report.result is not None:
        winners = ", ".join(f"seat {w}" for w in report.result.winners) or "draw"
        print(f"  result    {winners} ({report.result.reason})")
    else:
        print("  result    none (the game did not finish)")
    print(f"  envelopes {report.envelopes}")
    print(f"  time      {seconds:.3f} s")
    for violation in report.violations:
        who = f"seat {violation.seat}" if violation.seat is not None else f"one of seats {list(violation.suspects)}"
        print(f"  VIOLATION at envelope {violation.index}: {who} broke {violation.rule}: {violation.detail}")
