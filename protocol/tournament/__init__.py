"""Duel tournaments (``spec/tournament.md``), sans-IO: the signed record, the draw, the format
(groups, playoffs, knock-out, final), each table's genesis, standings, bracket and prizes.

Everything here is a pure function of the signed record, the revealed draw values and the
verified results of earlier tables, so every participant's node, and anyone holding the
bundle, computes the same tournament; no participant chooses a pairing.
"""

from fairtable.protocol.tournament.bundle import (
    COUNTED,
    FILE_NAME,
    FOREIGN,
    MISSING,
    UNREADABLE,
    BundleReport,
    Examined,
    TableCheck,
    Tournament,
    check_table,
    examine,
    verify_bundle,
)
from fairtable.protocol.tournament.progress import Progress, Table, progress
from fairtable.protocol.tournament.record import DRAW_SIZE, Participant, Record, RecordError, SignedRecord, commitment
from fairtable.protocol.tournament.results import Outcome
from fairtable.protocol.tournament.structure import SIZES, Format, stage_options

__all__ = [
    "COUNTED",
    "DRAW_SIZE",
    "FILE_NAME",
    "FOREIGN",
    "MISSING",
    "SIZES",
    "UNREADABLE",
    "BundleReport",
    "Examined",
    "Format",
    "Outcome",
    "Participant",
    "Progress",
    "Record",
    "RecordError",
    "SignedRecord",
    "Table",
    "TableCheck",
    "Tournament",
    "check_table",
    "commitment",
    "examine",
    "progress",
    "stage_options",
    "verify_bundle",
]
