"""Builds ``spec/vectors/tournament.json``: an 8-participant tournament from fixed keys and draw
values, its signed record and tournament file, the seed and the group lots, then every round's
tables (their geneses) under fixed outcomes, the standings, the bracket and the prizes; and the
playoff round a tie across a qualifying line calls for; and a 12-participant tournament whose six
qualifiers leave byes, with a group table lost by cheating. ``python -m tests.protocol.tournament.vector``
rewrites the file; ``test_vector.py`` checks it equals what the code builds now.
"""

from __future__ import annotations

import json

from fairtable.games.duel.results import SeatStats
from fairtable.protocol.tournament import draw
from fairtable.protocol.tournament.progress import Progress, Table
from fairtable.protocol.tournament.record import commitment
from fairtable.protocol.tournament.results import Outcome
from tests.paths import VECTORS
from tests.protocol.tournament.helpers import DRAWS, by_strength, play_out, seed_of, signed_record, tournament_file

PATH = VECTORS / "tournament.json"
COUNT = 8
BYES_COUNT = 12
VERSION = 2
"""The vector's tournament is of protocol version 2, as recorded (its tables' geneses carry it)."""


def tie_in_group_a(table: Table) -> Outcome:
    """Group A scores 30, 20, 20, 10 in seat order (a tie across the line of 2); the rest by strength."""
    if table.spec.label == "group A":
        return Outcome(tuple(SeatStats(points, 0, 0) for points in (30, 20, 20, 10)), (0,), (), "points")
    return by_strength(table)


def cheat_in_group_c(table: Table) -> Outcome:
    """Seat 0 of group C is named for cheating: it keeps its figures but is out; the rest by strength."""
    if table.spec.label != "group C":
        return by_strength(table)
    seats = table.spec.seats
    best = max(range(1, len(seats)), key=lambda s: seats[s])
    return Outcome(tuple(SeatStats(10 * p, p, 2 * p) for p in seats), (best,), (0,), "cheating: seat 0")


def scenario(done: Progress, outcomes: dict[bytes, Outcome]) -> dict:
    """Every table with its genesis and the outcome fed in, then what the tournament makes of them."""
    value = done.to_value()
    for round_, tables in zip(value["rounds"], done.rounds):
        for entry, table in zip(round_, tables):
            entry["genesis"] = table.genesis.encoded.hex()
            entry["outcome"] = outcomes[table.table_id].to_value()
    return value


def byes() -> dict:
    """Twelve participants, ``advance`` 2: six qualifiers in a bracket of eight, seeds 1 and 2 with byes."""
    signed = signed_record(BYES_COUNT, version=VERSION)
    record = signed.record
    return {"record": record.encoded.hex(), "record_id": record.record_id.hex(), "seed": seed_of(signed).hex(),
            **scenario(*play_out(signed, cheat_in_group_c))}


def build() -> dict:
    signed = signed_record(COUNT, version=VERSION)
    seed = seed_of(signed)
    record = signed.record
    strength, tie = (scenario(*play_out(signed, decide)) for decide in (by_strength, tie_in_group_a))
    return {
        "participants": [{"key_seed": bytes([i + 1]).hex() * 32, "key": p.key.raw.hex(), "name": p.name,
                          "draw_value": DRAWS[i].hex(), "draw_commitment": commitment(DRAWS[i]).hex()}
                         for i, p in enumerate(record.participants)],
        "options": record.options,
        "nonce": record.nonce.hex(),
        "record": record.encoded.hex(),
        "record_id": record.record_id.hex(),
        "signatures": [sig.hex() for sig in signed.signatures],
        "tournament_file": tournament_file(signed).to_bytes().hex(),
        "seed": seed.hex(),
        "group_lots": [draw.lot(seed, "groups", p).hex() for p in range(COUNT)],
        "group_order": list(draw.shuffled(seed, "groups", range(COUNT))),
        "by_strength": strength,
        "tie_in_group_a": tie,
        "byes_12": byes(),
    }


def render() -> str:
    return json.dumps(build(), indent=1, sort_keys=True) + "\n"


if __name__ == "__main__":
    PATH.write_text(render())
