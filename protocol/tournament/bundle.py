"""The tournament bundle and its verification: the tournament file (signed record and revealed
draw values) plus one transcript per table, found by table id.

Verification walks the rounds as :func:`progress.progress` reveals them: each table the
tournament calls for is looked up, verified like any transcript, and counted only when its
genesis is exactly the one the record and the earlier results call for and its report gives
an outcome (``results.py``). A table that is missing, damaged, unfinished or not the table the
record calls for is named, and the tournament is computed as far as verified results carry it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import partial
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
"""A table's ``status``, ``detail`` and ``verdict`` (as :class:`TableCheck` has them) and its
outcome: plain values, so that a worker process can return them."""


def _judged(genesis: bytes, data: bytes | None) -> Judged:
    """Verify one transcript as the table whose genesis encodes to ``genesis``."""
    if data is None:
        return MISSING, "no transcript of this table", MISSING, None
    try:
        file, broken = load([data])
        if file.transcript.genesis.genesis.encoded != genesis:
            return INVALID, "its genesis is not the one the record and earlier results call for", FOREIGN, None
        report = verify(file, broken)
    except ProtocolError as exc:
        return INVALID, f"not a readable transcript: {exc}", UNREADABLE, None
    found = outcome(report)
    if found is None:
        why = report.damage or "; ".join(f"seat {o.seat} owes {o.kind!r}" for o in report.owed) or report.status
        return INVALID, f"{report.status}: {why}", report.status, None
    return COUNTED, found.note, report.status, found


def check_table(table: Table, data: bytes | None) -> tuple[TableCheck, Outcome | None]:
    """Verify one transcript as the tournament's ``table``."""
    status, detail, verdict, found = _judged(table.genesis.encoded, data)
    return TableCheck(table, status, detail, verdict), found


def judge_at(transcript_of: Callable[[bytes], bytes | None], table: tuple[bytes, bytes]) -> Judged:
    """The table ``(table id, encoded genesis)`` judged with its transcript as ``transcript_of`` finds it (by table id)."""
    table_id, genesis = table
    return _judged(genesis, transcript_of(table_id))


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


Mapper = Callable[[Callable[[tuple[bytes, bytes]], Judged], list[tuple[bytes, bytes]]], Iterable[Judged]]
"""How a round's tables are judged: ``map`` by default, or a process pool's ``map`` (the node's),
which judges them on every core and gives the results in order."""


def verify_bundle(tournament: Tournament, transcript_of: Callable[[bytes], bytes | None],
                  on_check: Callable[[TableCheck], None] | None = None, map_tables: Mapper = map) -> BundleReport:
    """Verify every table the tournament calls for; ``transcript_of(table id)`` gives its bytes or None.

    The tables of a round depend on nothing but the earlier rounds' outcomes, so each round's
    are checked through ``map_tables`` together (in order: the report is the same whichever map)."""
    outcomes: dict[bytes, Outcome] = {}
    checks: list[TableCheck] = []
    while True:
        now = progress(tournament.signed, tournament.seed, outcomes)
        pending = [t for t in now.current if t.table_id not in {c.table.table_id for c in checks}]
        if not pending:
            return BundleReport(tournament, now, tuple(checks))
        judged = map_tables(partial(judge_at, transcript_of), [(table.table_id, table.genesis.encoded) for table in pending])
        for table, (status, detail, verdict, found) in zip(pending, judged):
            check = TableCheck(table, status, detail, verdict)
            checks.append(check)
            if on_check is not None:
                on_check(check)
            if found is not None:
                outcomes[table.table_id] = found
