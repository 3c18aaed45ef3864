"""``fairtable verify FILE...``: check transcripts and say, for each, valid, whom it names, or what is missing.

Exit status, the worst over all files (a violation outranks an unreadable file, which outranks
an unfinished one): 0 every file valid; 1 a violation found; 2 a file that is not a readable
transcript; 3 a file incomplete or damaged, with no violation in any file.

A tournament bundle (its folder, or its ``tournament.ftr``) is verified table by table, each
line printed as its table is checked; the statuses are those of its worst table.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from fairtable.games.results import describe
from fairtable.node.api.jsonvalues import jsonable
from fairtable.node.cli.tournament_text import render
from fairtable.node.tournament.files import TournamentFiles
from fairtable.protocol.errors import ProtocolError
from fairtable.protocol.session.verify import DAMAGED, INCOMPLETE, VALID, VIOLATION, Report, find_equivocations, load, verify
from fairtable.protocol.tournament.bundle import COUNTED, FOREIGN, MISSING, UNREADABLE, TableCheck, verify_bundle

EXIT_VALID, EXIT_VIOLATION, EXIT_UNREADABLE, EXIT_UNFINISHED = 0, 1, 2, 3
SEVERITY = (EXIT_VALID, EXIT_UNFINISHED, EXIT_UNREADABLE, EXIT_VIOLATION)
"""Exit statuses from least to most severe: the command exits with the most severe one seen."""
EXIT_OF = {VALID: EXIT_VALID, VIOLATION: EXIT_VIOLATION, INCOMPLETE: EXIT_UNFINISHED, DAMAGED: EXIT_UNFINISHED}
HEADLINE = {VALID: "VALID", VIOLATION: "VIOLATIONS FOUND", INCOMPLETE: "INCOMPLETE", DAMAGED: "DAMAGED"}
CHUNK = 1 << 16
TOURNAMENT_SUFFIX = ".ftr"
BUNDLE_EXIT = {**EXIT_OF, FOREIGN: EXIT_UNREADABLE, UNREADABLE: EXIT_UNREADABLE, MISSING: EXIT_UNFINISHED}
BUNDLE_HEADLINE = {**HEADLINE, FOREIGN: "NOT THIS TABLE", UNREADABLE: "UNREADABLE", MISSING: "MISSING"}

DESCRIPTION = """\
Replay each transcript with every revealed seed and check every message, shuffle, deal and move.
Each file is VALID; or VIOLATIONS FOUND, each naming (envelope index, seat, rule) with the seat's
signed envelope as evidence; or INCOMPLETE (the chain is intact and correct but the table did not
finish: the report says who was due to send what); or DAMAGED (the bytes after a readable prefix
are broken: cut inside a record, a bad or missing end record, an envelope that does not continue
the chain; the prefix is verified all the same).

A tournament bundle (a folder holding tournament.ftr and one transcript per table, or the
tournament.ftr in it) is verified table by table as the record calls for them; standings,
bracket and prizes are recomputed from the verified tables only, and every missing or invalid
table is named.

exit status (the most severe over all files):
  0  every file is valid (a bundle: every table valid, the tournament complete)
  1  a violation was found in some file (or an equivocation across files, or a table of a bundle)
  2  a file is not a readable transcript at all (no header or genesis, unknown game); a bundle's
     tournament file unreadable, or a table that is not the one the record calls for
  3  a file is incomplete or damaged, and no violation was found; a bundle with a missing or
     unfinished table
"""


def add_parser(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "verify", help="verify transcript files", description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("files", nargs="+", type=Path, metavar="FILE",
                        help="transcript files (.ftt), or tournament bundles (a folder with tournament.ftr, or that file)")
    parser.add_argument("--json", action="store_true", help="print one JSON object per file, one per line (with its status)")
    parser.set_defaults(run=run)


def _worse(a: int, b: int) -> int:
    return max(a, b, key=SEVERITY.index)


def run(args: argparse.Namespace) -> int:
    status = EXIT_VALID
    loaded = []
    for path in args.files:
        if is_bundle(path):
            status = _worse(status, verify_bundle_at(path, args.json))
            continue
        started = time.perf_counter()
        try:
            with open(path, "rb") as stream:
                file, broken = load(iter(lambda: stream.read(CHUNK), b""))
            report = verify(file, broken)
        except OSError as exc:
            status = _worse(status, EXIT_UNREADABLE)
            _print_error(path, f"cannot read: {exc.strerror}", args.json)
            continue
        except ProtocolError as exc:
            status = _worse(status, EXIT_UNREADABLE)
            _print_error(path, f"{_unreadable(exc)}: {exc}", args.json)
            continue
        loaded.append(file)
        names = [seat.name for seat in file.transcript.genesis.genesis.seats]
        seconds = time.perf_counter() - started
        status = _worse(status, EXIT_OF[report.status])
        if args.json:
            print(json.dumps({"file": str(path), "seconds": round(seconds, 4), **jsonable(report.to_value())}, sort_keys=True))
        else:
            _print_report(path, report, names, seconds)
    for violation in find_equivocations(loaded):
        status = _worse(status, EXIT_VIOLATION)
        if args.json:
            print(json.dumps({"equivocation": jsonable(violation.to_value())}, sort_keys=True))
        else:
            print(f"EQUIVOCATION: seat {violation.seat} signed two different envelopes for slot {violation.index}")
    return status


def is_bundle(path: Path) -> bool:
    return path.is_dir() or path.name.endswith(TOURNAMENT_SUFFIX)


def verify_bundle_at(path: Path, as_json: bool) -> int:
    """Verify the tournament bundle at ``path``; the exit status of its worst table."""
    files = TournamentFiles(path if path.is_dir() else path.parent)
    try:
        tournament = files.tournament()
    except OSError as exc:
        _print_error(path, f"cannot read the tournament file: {exc.strerror or exc}", as_json)
        return EXIT_UNREADABLE
    except ProtocolError as exc:
        _print_error(path, f"not a tournament bundle: {exc}", as_json)
        return EXIT_UNREADABLE
    names = [p.name for p in tournament.signed.record.participants]
    started = time.perf_counter()
    if not as_json:
        print(f"{path}: tournament {tournament.tournament_id.hex()}, {len(names)} participants")

    def shown(check: TableCheck) -> None:
        if not as_json:
            spec = check.table.spec
            seats = " v ".join(names[p] for p in spec.seats)
            print(f"  {BUNDLE_HEADLINE[check.verdict]:<16} round {spec.round} {spec.label:<18} {seats}: {check.detail}", flush=True)

    report = verify_bundle(tournament, files.table, shown)
    status = EXIT_VALID
    for check in report.checks:
        status = _worse(status, BUNDLE_EXIT[check.verdict])
    if not report.progress.finished:
        status = _worse(status, EXIT_UNFINISHED)
    seconds = time.perf_counter() - started
    if as_json:
        print(json.dumps({"file": str(path), "tournament": tournament.tournament_id.hex(), "participants": names,
                          "complete": report.complete, "seconds": round(seconds, 4), "status": status,
                          "tables": [check.to_value() for check in report.checks],
                          "progress": jsonable(report.progress.to_value())}, sort_keys=True))
        return status
    print("\n".join(f"  {line}" for line in render(report.progress.to_value(), names)))
    counted = sum(check.status == COUNTED for check in report.checks)
    verdict = "COMPLETE" if report.complete else "INCOMPLETE" if status in (EXIT_VALID, EXIT_UNFINISHED) else "NOT VALID"
    print(f"{path}: {verdict}: {counted} of {len(report.checks)} tables counted, in {seconds:.3f} s")
    return status


def _unreadable(exc: Exception) -> str:
    """An incomplete file (cut short while written or copied) is said to be one, apart from one that is no transcript."""
    return "incomplete file (cut short)" if "file ends" in str(exc) else "malformed transcript"


def _print_error(path: Path, message: str, as_json: bool) -> None:
    if as_json:
        print(json.dumps({"error": message, "file": str(path), "status": "unreadable", "valid": False}, sort_keys=True))
    else:
        print(f"{path}: {message}", file=sys.stderr)


def _print_report(path: Path, report: Report, names: list[str], seconds: float) -> None:
    print(f"{path}: {HEADLINE[report.status]}")
    print(f"  game      {report.game} ({report.variant})")
    for seat, fingerprint in enumerate(report.seats):
        print(f"  seat {seat}    {fingerprint}  {names[seat]}")
    if report.result is not None:
        print(f"  result    {describe(report.result, names)}")
    else:
        print("  result    none (the game did not finish)")
    print(f"  envelopes {report.envelopes}")
    print(f"  time      {seconds:.3f} s")
    if report.damage is not None:
        print(f"  DAMAGED after the first {report.envelopes} envelopes, which were verified: {report.damage}")
    for owed in report.owed:
        print(f"  INCOMPLETE: the transcript ends while seat {owed.seat} was due to send {owed.kind!r} (envelope {owed.index})")
    for violation in report.violations:
        who = f"seat {violation.seat}" if violation.seat is not None else f"one of seats {list(violation.suspects)}"
        print(f"  VIOLATION at envelope {violation.index}: {who} broke {violation.rule}: {violation.detail}")
