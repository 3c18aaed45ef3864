"""The tournament's format (the text's tournament mode and the rulings): who may enter, the
stages, and the duel table each stage plays; and the one genesis every table must have.

Stages and their tables (each stage's options override these defaults, per record):

- ``group``: groups of 4 play a free-for-all (``ffa``, 3 cycles: 12 duels);
- ``playoff``: a tie across a group's qualifying line, one 1v1 round between tied players;
- ``knockout`` and ``final``: 1v1 over 3 rounds of 3 duels (9 duels).

A table's genesis is fixed by the record and the pairing alone (its nonce is derived, not
chosen), so every participant's node builds the same genesis and signs only that one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from fairtable.games import registry
from fairtable.games.contract import GameError
from fairtable.games.options import Option
from fairtable.protocol.genesis import Genesis, Seat, TournamentTable
from fairtable.protocol.hashing import digest
from fairtable.protocol.tournament.record import GAME, Record, RecordError

SIZES = (4, 8, 12, 16)
"""The participant counts the text calls ideal; other counts are refused (groups of 4)."""
GROUP_SIZE = 4
ADVANCE = (1, 2)
"""How many of each group may qualify (option ``advance``)."""
NONCE_SIZE = 16
"""The bytes of a table's derived nonce: the shortest nonce a genesis takes."""


@dataclass(frozen=True)
class Stage:
    """One kind of round: the duel ``variant`` it plays, its default table options (a record may
    override them) and the seats per table."""

    name: str
    variant: str
    defaults: dict
    seats: int


STAGES = {
    "group": Stage("group", "ffa", {"cycles": 3}, GROUP_SIZE),
    "playoff": Stage("playoff", "1v1", {"rounds": 1, "tie": "playoff"}, 2),
    "knockout": Stage("knockout", "1v1", {"rounds": 3, "duels": 3, "tie": "playoff"}, 2),
    "final": Stage("final", "1v1", {"rounds": 3, "duels": 3, "tie": "playoff"}, 2),
}
OPTIONS = ("advance", *STAGES)
"""Every option a tournament record may set: ``advance`` and one table-options map per stage."""


@dataclass(frozen=True)
class Format:
    """The checked options of a record: ``advance`` and each stage's table options."""

    participants: int
    advance: int
    tables: dict[str, dict]

    @classmethod
    def of(cls, record: Record) -> Format:
        """The record's checked format; raises :class:`RecordError` as :meth:`check` does."""
        return cls.check(record.options, len(record.participants))

    @classmethod
    def check(cls, options: Any, participants: int) -> Format:
        """RecordError naming the option (or the count) that cannot make a tournament."""
        if participants not in SIZES:
            raise RecordError(f"a tournament has {', '.join(map(str, SIZES[:-1]))} or {SIZES[-1]} participants "
                              f"(groups of {GROUP_SIZE}), not {participants}")
        if not isinstance(options, dict):
            raise RecordError("tournament options must be a map")
        for name in options:
            if name not in OPTIONS:
                raise RecordError(f"unknown tournament option {name!r}; the options are: {', '.join(OPTIONS)}")
        advance = options.get("advance", 2)
        if advance not in ADVANCE or type(advance) is not int:
            raise RecordError(f"option 'advance' must be 1 or 2, got {advance!r}")
        if participants // GROUP_SIZE * advance < 2:
            raise RecordError(f"with {participants} participants option 'advance' must be 2: the final needs two players")
        tables = {}
        for name, stage in STAGES.items():
            chosen = options.get(name, {})
            if not isinstance(chosen, dict):
                raise RecordError(f"option {name!r} must be a map of duel {stage.variant} table options")
            table = {**stage.defaults, **chosen}
            try:
                registry.get(GAME).setup(stage.variant, table, stage.seats)
            except GameError as exc:
                raise RecordError(f"option {name!r}: {exc}") from None
            tables[name] = table
        return cls(participants, advance, tables)


@dataclass(frozen=True)
class TableSpec:
    """One table the tournament calls for: its round, index, stage, label and seats (participant indices)."""

    round: int
    index: int
    stage: str
    label: str
    seats: tuple[int, ...]

    def genesis(self, record: Record, fmt: Format) -> Genesis:
        """The one genesis this table must have: variant and options from the format, seats from the
        record, the record's protocol version, nonce derived from record id, round and index, so no
        participant chooses any of it."""
        place = TournamentTable(record.record_id, self.round, self.index)
        nonce = digest("tournament-table", record.record_id + self.round.to_bytes(2, "big") + self.index.to_bytes(2, "big"))
        seats = tuple(Seat(record.participants[p].key, record.participants[p].name) for p in self.seats)
        return Genesis(GAME, STAGES[self.stage].variant, dict(fmt.tables[self.stage]), seats, nonce[:NONCE_SIZE],
                       record.version, tournament=place)


def stage_options() -> dict[str, Mapping[str, Option]]:
    """Each stage's table options as the duel variant it plays declares them (for parsing user input)."""
    game = registry.get(GAME)
    return {name: game.options_for(stage.variant) for name, stage in STAGES.items()}
