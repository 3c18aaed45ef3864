"""The tournament bundle and its verification: the tournament file (signed record and revealed
draw values) plus one transcript per table, found by table id.

Verification walks the rounds as :func:`progress.progress` reveals them: each table the
tournament calls for is looked up, verified like any transcript, and counted only when its
genesis is exactly the one the record and the earlier results call for and its report gives
an outcome (``results.py``). A table that is missing, damaged, unfinished or not the table the
record calls for is named, and the tournament is computed as far as verified results carry it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from fairtable.protocol import codec
from fairtable.protocol.errors import ProtocolError
from fairtable.protocol.session.verify import load, verify
from fairtable.protocol.tournament.progress import Progress, Table, progress
from fairtable.protocol.tournament.record import DRAW_SIZE, RecordError, SignedRecord, draw_seed
from fairtable.protocol.tournament.results import Outcome, outcome

FORMAT = "fairtable-tournament"
VERSION = 1
FILE_NAME = "tournament.ftr"
"""The tournament file's name in a tournament's folder, beside one transcript per table."""
LIMITS = codec.Limits(max_size=1 << 20, max_bin=1 << 20)
"""Decoder limits for a tournament file (1 MiB): far above a record of 16 participants and its draw values."""

COUNTED = "counted"
"""A valid transcript of the table (or one that names a cheating seat, who loses it)."""
MISSING = "missing"
"""No transcript of the table was found: the tournament stops there until one is."""
INVALID = "invalid"
"""A transcript was found but gives no outcome to count: another table's, unreadable, damaged or unfinished."""

FOREIGN = "foreign"
"""A verdict: the transcript is of another table than the one the record calls for here."""
UNREADABLE = "unreadable"
"""A verdict: the bytes are no readable transcript."""


@dataclass(frozen=True)
class Tournament:
    """The tournament file: the signed record and every participant's revealed draw value."""

    signed: SignedRecord
    draw: tuple[bytes, ...]
    seed: bytes = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "seed", draw_seed(self.signed.record, self.draw))  # each value opens its commitment

    @property
    def tournament_id(self) -> bytes:
        """The signed record's id: what every table of the tournament names in its genesis."""
        return self.signed.record_id

    def to_bytes(self) -> bytes:
        """The tournament file (``tournament.ftr``) in canonical form; :meth:`from_bytes` reads it
        back, so the file is the same bytes on every participant's node."""
        value = {"draw": list(self.draw), "format": FORMAT, "record": self.signed.to_value(), "version": VERSION}
        return codec.encode(value, LIMITS)

    @classmethod
    def from_bytes(cls, data: bytes) -> Tournament:
        """RecordError naming what is wrong with a tournament file."""
        try:
            value: Any = codec.decode(data, LIMITS)
        except codec.CodecError as exc:
            raise RecordError(f"not a tournament file: {exc}") from None
        if not isinstance(value, dict) or set(value) != {"draw", "format", "record", "version"} or value["format"] != FORMAT:
            raise RecordError(f"not a tournament file (a map with format {FORMAT!r}, record and draw)")
        if value["version"] != VERSION:
            raise RecordError(f"tournament file version {value['version']!r} is not supported")
        draw = value["draw"]
        if not isinstance(draw, tuple) or not all(isinstance(v, bytes) and len(v) == DRAW_SIZE for v in draw):
            raise RecordError(f"the draw is an array of {DRAW_SIZE}-byte values")
        return cls(SignedRecord.from_value(value["record"]), draw)


@dataclass(frozen=True)
class TableCheck:
    """What verification found for one table the tournament calls for."""

    table: Table
    status: str
    """What the tournament does with it: :data:`COUNTED`, :data:`MISSING` or :data:`INVALID`."""
    detail: str
    verdict: str
    """What verification found: a report status (``valid``, ``violation``, ``incomplete``,
    ``damaged``), :data:`FOREIGN`, :data:`UNREADABLE` or :data:`MISSING`."""

    def to_value(self) -> dict:
        """The check as plain values, table id in hex: a row of the verifier's tournament report."""
        spec = self.table.spec
        return {"detail": self.detail, "label": spec.label, "round": spec.round, "status": self.status,
                "table": self.table.table_id.hex(), "verdict": self.verdict}


Judged = tuple[str, str, str, Outcome | None]
"""A table's ``status``, ``detail`` and ``verdict`` (as :class:`TableCheck` has them) and its outcome."""
Examined = tuple[bytes | None, Judged]
"""A transcript's genesis (encoded; None where unreadable) and what its verification found, as
plain values: what a worker process verifying it can return."""


def examine(data: bytes) -> Examined:
    """Verify a transcript for a bundle, whichever table it is: the costly part of a table's check."""
    try:
        file, broken = load([data])
    except ProtocolError as exc:
        return None, (INVALID, f"not a readable transcript: {exc}", UNREADABLE, None)
    genesis = file.transcript.genesis.genesis.encoded
    try:
        report = verify(file, broken)
    except ProtocolError as exc:
        return genesis, (INVALID, f"not a readable transcript: {exc}", UNREADABLE, None)
    found = outcome(report)
    if found is None:
        why = report.damage or "; ".join(f"seat {o.seat} owes {o.kind!r}" for o in report.owed) or report.status
        return genesis, (INVALID, f"{report.status}: {why}", report.status, None)
    return genesis, (COUNTED, found.note, report.status, found)


def _judged(table: Table, examined: Examined | None) -> tuple[TableCheck, Outcome | None]:
    """The check of ``table`` from its transcript's examination (None: there is none), and the outcome it counts."""
    if examined is None:
        return TableCheck(table, MISSING, "no transcript of this table", MISSING), None
    genesis, (status, detail, verdict, found) = examined
    if genesis is not None and genesis != table.genesis.encoded:
        return TableCheck(table, INVALID, "its genesis is not the one the record and earlier results call for", FOREIGN), None
    return TableCheck(table, status, detail, verdict), found


def check_table(table: Table, data: bytes | None) -> tuple[TableCheck, Outcome | None]:
    """Verify one transcript as the tournament's ``table``."""
    return _judged(table, None if data is None else examine(data))


@dataclass(frozen=True)
class BundleReport:
    """What verifying a bundle found: the tournament as far as counted tables carry it, and one
    check per table it called for, in the order they were checked."""

    tournament: Tournament
    progress: Progress
    checks: tuple[TableCheck, ...]

    @property
    def complete(self) -> bool:
        """Every table the tournament called for was counted, through to the final."""
        return self.progress.finished and all(check.status == COUNTED for check in self.checks)


def verify_bundle(tournament: Tournament, transcript_of: Callable[[bytes], bytes | None],
                  on_check: Callable[[TableCheck], None] | None = None,
                  examined: Mapping[bytes, Examined | None] | None = None) -> BundleReport:
    """Verify every table the tournament calls for; ``transcript_of(table id)`` gives its bytes or None.

    ``examined`` holds transcripts already verified, by table id (None: there is none): every
    transcript of a bundle is verified alike whichever round calls for it, so the node verifies
    them all at once on every core, and only the walk through the rounds, which is cheap, waits
    for the results of the round before."""
    known = dict(examined or {})
    outcomes: dict[bytes, Outcome] = {}
    checks: list[TableCheck] = []
    while True:
        now = progress(tournament.signed, tournament.seed, outcomes)
        pending = [t for t in now.current if t.table_id not in {c.table.table_id for c in checks}]
        if not pending:
            return BundleReport(tournament, now, tuple(checks))
        for table in pending:
            if table.table_id not in known:
                data = transcript_of(table.table_id)
                known[table.table_id] = None if data is None else examine(data)
            check, found = _judged(table, known[table.table_id])
            checks.append(check)
            if on_check is not None:
                on_check(check)
            if found is not None:
                outcomes[table.table_id] = found
