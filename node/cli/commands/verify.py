"""``fairtable verify FILE...``: check transcripts and say, for each, valid, whom it names, or what is missing.

Files are verified by one process per CPU core (``--jobs``), each file whole in one process,
streamed (``verify_stream``: memory bounded however long the file is); results print in input
order, the same as with ``--jobs 1``. Files of one table that disagree on a slot (a fork, or an
equivocation) are found from each file's envelope hashes; only they are read again (whole) and
verified together, as one replica holding all their envelopes settles them.

Exit status, the worst over all files (a violation outranks an unreadable file, which outranks
an unfinished one): 0 every file valid; 1 a violation found; 2 a file that is not a readable
transcript; 3 a file incomplete or damaged, with no violation in any file.

A tournament bundle (its folder, or its ``tournament.ftr``) is verified before the transcript
files: every transcript in it at once on every core (``--jobs``; with one process, table by
table as the rounds call for them), then one line per table in the tournament's order; the
statuses are those of its worst table.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from string import hexdigits

from fairtable.games import describe
from fairtable.node.api.jsonvalues import jsonable
from fairtable.node.cli.progress import progress
from fairtable.node.cli.tournament_text import render
from fairtable.node.tournament.files import TABLE_SUFFIX, TournamentFiles
from fairtable.protocol import HASH_SIZE, ProtocolError, TranscriptFile
from fairtable.protocol.session import DAMAGED, INCOMPLETE, VALID, VIOLATION, Report, verify_stream, verify_together
from fairtable.protocol.session import load_for_verification as load
from fairtable.protocol.tournament import (
    COUNTED,
    FOREIGN,
    MISSING,
    UNREADABLE,
    BundleReport,
    Examined,
    TableCheck,
    Tournament,
    examine,
    verify_bundle,
)

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

Files of one table that disagree (they fork, or a seat signed two envelopes for one slot) are
then verified together, every envelope of each as one body of evidence: the report shows the
chain the forks settle on, as every live node holding them all settles them, and names a seat
that signed two different envelopes for one slot after the same previous envelope.

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
    parser.add_argument("--jobs", type=_jobs, default=0, metavar="N",
                        help="processes verifying files side by side (default 0: one per CPU core); results print in input order")
    parser.set_defaults(run=run)


def _jobs(text: str) -> int:
    try:
        jobs = int(text)
    except ValueError:
        jobs = -1
    if jobs < 0:
        raise argparse.ArgumentTypeError(f"--jobs takes a number of processes (0: one per core), got {text!r}")
    return jobs


def _worse(a: int, b: int) -> int:
    return max(a, b, key=SEVERITY.index)


@dataclass(frozen=True)
class Checked:
    """One file's verification as the output it prints, so it can come back from a worker process."""

    status: int
    out: str
    err: str
    table: bytes | None = None
    hashes: bytes = b""
    """The chain's envelope hashes, :data:`HASH_SIZE` bytes each in sequence order: what the
    equivocation check compares across files (only when several files are verified)."""


def _chunks(path: Path) -> Iterator[bytes]:
    with open(path, "rb") as stream:
        yield from iter(lambda: stream.read(CHUNK), b"")


def check_file(path: Path, as_json: bool, compare: bool = False) -> Checked:
    """Read and verify one file, streaming it (memory bounded however long it is); everything it
    prints, its exit status and, to ``compare`` files, its envelope hashes."""
    started = time.perf_counter()
    try:
        streamed = verify_stream(lambda: _chunks(path), hashes=compare)
    except OSError as exc:
        return _error(path, f"cannot read: {exc.strerror}", as_json)
    except ProtocolError as exc:
        return _error(path, f"{unreadable(exc)}: {exc}", as_json)
    report = streamed.report
    names = [seat.name for seat in streamed.genesis.genesis.seats]
    seconds = time.perf_counter() - started
    if as_json:
        extra = {"file": str(path), "seconds": round(seconds, 4), "version": report.version, "guarantees": report.guarantees}
        out = json.dumps({**extra, **jsonable(report.to_value())}, sort_keys=True) + "\n"
    else:
        out = _report_text(path, report, names, seconds)
    return Checked(EXIT_OF[report.status], out, "", streamed.genesis.table_id, streamed.hashes)


def run(args: argparse.Namespace) -> int:
    """Each tournament bundle in turn (its tables shown as they are checked), then the transcript files."""
    status = EXIT_VALID
    for path in args.files:
        if is_bundle(path):
            status = _worse(status, verify_bundle_at(path, args.json, args.jobs))
    paths = [path for path in args.files if not is_bundle(path)]
    return _worse(status, _verify_files(paths, args)) if paths else status


def _verify_files(paths: list[Path], args: argparse.Namespace) -> int:
    jobs = min(args.jobs or os.cpu_count() or 1, len(paths))
    compare = len(paths) > 1
    if jobs == 1:
        results: Iterator[Checked] = (check_file(path, args.json, compare) for path in paths)
        return _finish(paths, results, args.json)
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        chunk = max(1, len(paths) // (jobs * 8))
        return _finish(paths, pool.map(check_file, paths, [args.json] * len(paths), [compare] * len(paths), chunksize=chunk), args.json)


def _finish(paths: list[Path], results: Iterable[Checked], as_json: bool) -> int:
    """Print each file's result in input order, then the files that disagree, verified together; the exit status."""
    status = EXIT_VALID
    first_seen: dict[tuple[bytes, int], tuple[int, bytes]] = {}
    involved: set[int] = set()
    with progress(len(paths), "verifying") as advance:
        for number, checked in enumerate(results):
            advance()
            status = _worse(status, _emit(checked))
            if checked.table is None:
                continue
            for seq in range(len(checked.hashes) // HASH_SIZE):
                digest = checked.hashes[seq * HASH_SIZE:(seq + 1) * HASH_SIZE]
                first, first_digest = first_seen.setdefault((checked.table, seq), (number, digest))
                if first_digest != digest:
                    involved |= {first, number}
    if involved:
        status = _report_together([paths[number] for number in sorted(involved)], as_json, status)
    return status


def _report_together(paths: list[Path], as_json: bool, status: int) -> int:
    """The files that disagree on some slot, read again (only they), table by table: each
    table's files verified together (:func:`verify_together`), forks settled as live nodes
    settle them and equivocations named."""
    tables: dict[bytes, list[tuple[Path, TranscriptFile]]] = {}
    for path in paths:
        try:
            file = load(_chunks(path))[0]
        except OSError as exc:
            status = _worse(status, _emit(_error(path, f"cannot read again: {exc.strerror}", as_json)))
            continue
        except ProtocolError as exc:
            status = _worse(status, _emit(_error(path, f"{unreadable(exc)} when read again: {exc}", as_json)))
            continue
        tables.setdefault(file.transcript.genesis.table_id, []).append((path, file))
    for group in (group for group in tables.values() if len(group) > 1):
        together = [path for path, _ in group]
        label = " + ".join(map(str, together)) + " (together)"
        try:
            joint = verify_together([file for _, file in group])
        except ProtocolError as exc:
            status = _worse(status, _emit(_error(label, f"cannot be verified together: {exc}", as_json)))
            continue
        report = joint.report
        names = [seat.name for seat in group[0][1].transcript.genesis.genesis.seats]
        if as_json:
            files = [{"file": str(path), "leaves_at": leaves} for path, leaves in zip(together, joint.leaves_at)]
            out = json.dumps({"files": files, **jsonable(report.to_value())}, sort_keys=True) + "\n"
        else:
            out = _report_text(label, report, names, None)
            out += "".join(f"  {path}: " + ("follows this chain\n" if leaves is None else
                                              f"leaves this chain at envelope {leaves} (a fork settled against it)\n")
                           for path, leaves in zip(together, joint.leaves_at))
        status = _worse(status, _emit(Checked(EXIT_OF[report.status], out, "")))
    return status


def is_bundle(path: Path) -> bool:
    return path.is_dir() or path.name.endswith(TOURNAMENT_SUFFIX)


def verify_bundle_at(path: Path, as_json: bool, jobs: int = 0) -> int:
    """Verify the tournament bundle at ``path`` with ``jobs`` processes (0: one per core); the exit status of its worst table."""
    files = TournamentFiles(path if path.is_dir() else path.parent)
    try:
        tournament = files.tournament()
    except OSError as exc:
        return _emit(_error(path, f"cannot read the tournament file: {exc.strerror or exc}", as_json))
    except ProtocolError as exc:
        return _emit(_error(path, f"not a tournament bundle: {exc}", as_json))
    names = [p.name for p in tournament.signed.record.participants]
    started = time.perf_counter()
    if not as_json:
        print(f"{path}: tournament {tournament.tournament_id.hex()}, {len(names)} participants")

    def shown(check: TableCheck) -> None:
        if not as_json:
            spec = check.table.spec
            seats = " v ".join(names[p] for p in spec.seats)
            print(f"  {BUNDLE_HEADLINE[check.verdict]:<16} round {spec.round} {spec.label:<18} {seats}: {check.detail}", flush=True)

    report = bundle_report(files, tournament, jobs, shown)
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


def bundle_report(files: TournamentFiles, tournament: Tournament, jobs: int = 0,
                  on_check: Callable[[TableCheck], None] | None = None) -> BundleReport:
    """The bundle's verification with ``jobs`` processes (0: one per core): with more than one,
    every transcript in it is verified at once, one per process, before the rounds are walked."""
    jobs = jobs or os.cpu_count() or 1
    examined = None
    if jobs > 1:
        ids = _table_ids(files)
        with ProcessPoolExecutor(max_workers=min(jobs, len(ids) or 1)) as pool:
            examined = dict(zip(ids, pool.map(partial(_examined, files), ids)))
    return verify_bundle(tournament, files.table, on_check, examined)


def _table_ids(files: TournamentFiles) -> list[bytes]:
    """The table ids the bundle's transcripts are named by (``<table id hex>.ftt``), the largest
    file first: the longest verifications start first, so no core is left with one at the end."""
    paths = [path for path in files.dir.glob(f"*{TABLE_SUFFIX}")
             if len(name := path.name.removesuffix(TABLE_SUFFIX)) == 2 * HASH_SIZE and all(c in hexdigits for c in name)]
    return [bytes.fromhex(path.name.removesuffix(TABLE_SUFFIX)) for path in sorted(paths, key=lambda path: -path.stat().st_size)]


def _examined(files: TournamentFiles, table_id: bytes) -> Examined | None:
    """One transcript of a bundle verified (in a worker process), or None if it cannot be read."""
    data = files.table(table_id)
    return None if data is None else examine(data)


def unreadable(exc: Exception) -> str:
    """An incomplete file (cut short while written or copied) is said to be one, apart from one that is no transcript."""
    return "incomplete file (cut short)" if "file ends" in str(exc) else "malformed transcript"


def _error(path: Path | str, message: str, as_json: bool) -> Checked:
    if as_json:
        line = json.dumps({"error": message, "file": str(path), "status": "unreadable", "valid": False}, sort_keys=True)
        return Checked(EXIT_UNREADABLE, line + "\n", "")
    return Checked(EXIT_UNREADABLE, "", f"{path}: {message}\n")


def _emit(checked: Checked) -> int:
    sys.stdout.write(checked.out)
    sys.stderr.write(checked.err)
    sys.stdout.flush()
    return checked.status


def _report_text(path: Path | str, report: Report, names: list[str], seconds: float | None) -> str:
    lines = [f"{path}: {HEADLINE[report.status]}", f"  game      {report.game} ({report.variant})"]
    for seat, fingerprint in enumerate(report.seats):
        lines.append(f"  seat {seat}    {fingerprint}  {names[seat]}")
    if report.result is not None:
        lines.append(f"  result    {describe(report.result, names)}")
    else:
        lines.append("  result    none (the game did not finish)")
    lines.append(f"  envelopes {report.envelopes}")
    lines.append(f"  protocol  version {report.version}: {report.guarantees}")
    if seconds is not None:
        lines.append(f"  time      {seconds:.3f} s")
    if report.damage is not None:
        lines.append(f"  DAMAGED after the first {report.envelopes} envelopes, which were verified: {report.damage}")
    for owed in report.owed:
        lines.append(f"  INCOMPLETE: the transcript ends while seat {owed.seat} was due to send {owed.kind!r} (envelope {owed.index})")
    for violation in report.violations:
        who = f"seat {violation.seat}" if violation.seat is not None else f"one of seats {list(violation.suspects)}"
        lines.append(f"  VIOLATION at envelope {violation.index}: {who} broke {violation.rule}: {violation.detail}")
    for absence in report.absences:
        claimants = ", ".join(_seat(seat, names) for seat in absence.claimants or (absence.claimant,))
        lines.append(f"  ABSENT at envelope {absence.index}: {_seat(absence.seat, names)} forfeits on the word of {claimants}"
                     " (no finding against it: a transcript holds no clock)")
    for fork in report.timing:
        claimants = ", ".join(_seat(seat, names) for seat in fork.claimants)
        held = "the claim was final, so its own envelope came late" if fork.held_by == "claim" else \
            "its own envelope holds the slot, so the claims are void"
        exposed = f"; seeds revealed on the losing side: {', '.join(_seat(seat, names) for seat in fork.exposed)}" if fork.exposed else ""
        lines.append(f"  TIMING FORK at envelope {fork.index}: {_seat(fork.seat, names)}'s own envelope and the absence claims of "
                     f"{claimants} competed for the slot; {held}{exposed}. Nobody is named: a transcript holds no clock")
    for unproven in report.unproven:
        lines.append(f"  UNPROVEN: seat {unproven.seat} never revealed its seed of game {unproven.game}: "
                     "deviations only that seed would show cannot be ruled out")
    for dispute in report.unjudged:
        lines.append(f"  UNJUDGED: seat {dispute.seat}'s dispute at envelope {dispute.index} ({dispute.rule}): "
                     "a seed it needs is missing, so nobody is named for it")
    return "".join(line + "\n" for line in lines)


def _seat(seat: int, names: list[str]) -> str:
    return f"seat {seat} ({names[seat]})" if seat < len(names) and names[seat] else f"seat {seat}"
