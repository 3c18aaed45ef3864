"""Tournaments built from fixed keys, played out with outcomes chosen by the test."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from fairtable.games.duel.results import SeatStats
from fairtable.protocol.genesis import PROTOCOL_VERSION
from fairtable.protocol.identity import SecretKey
from fairtable.protocol.session.verify import verify_chunks
from fairtable.protocol.testing import SelfPlay
from fairtable.protocol.tournament.bundle import FILE_NAME, Tournament
from fairtable.protocol.tournament.progress import Progress, Table, progress
from fairtable.protocol.tournament.record import Participant, Record, SignedRecord, commitment, draw_seed
from fairtable.protocol.tournament.results import Outcome, outcome
from fairtable.protocol.transcript_file import dump
from tests.protocol.session.tables import all_seeds, file_bytes, play_until

KEYS = tuple(SecretKey.from_seed(bytes([i + 1]) * 32) for i in range(16))
DRAWS = tuple(bytes([0x40 + i]) * 32 for i in range(16))


def signed_record(count: int, options: dict | None = None, version: int = PROTOCOL_VERSION) -> SignedRecord:
    record = Record(tuple(Participant(KEYS[i].public, f"p{i}", commitment(DRAWS[i])) for i in range(count)),
                    options or {}, bytes(range(16)), version=version)
    return SignedRecord(record, tuple(record.sign(KEYS[i]) for i in range(count)))


def seed_of(signed: SignedRecord) -> bytes:
    return draw_seed(signed.record, DRAWS[: len(signed.record.participants)])


def by_strength(table: Table) -> Outcome:
    """Stronger participants (higher index) score more; a 1v1 goes to the stronger."""
    seats = table.spec.seats
    stats = tuple(SeatStats(10 * p, p, 2 * p) for p in seats)
    best = max(range(len(seats)), key=lambda s: seats[s])
    return Outcome(stats, (best,), (), "points")


Decide = Callable[[Table], Outcome]


def play_out(signed: SignedRecord, decide: Decide = by_strength, limit: int = 20) -> tuple[Progress, dict[bytes, Outcome]]:
    """Give every table of every round the outcome ``decide`` chooses, until the tournament ends."""
    seed = seed_of(signed)
    outcomes: dict[bytes, Outcome] = {}
    for _ in range(limit):
        now = progress(signed, seed, outcomes)
        if now.finished:
            return now, outcomes
        for table in now.current:
            outcomes[table.table_id] = decide(table)
    raise AssertionError("the tournament did not finish")


SHORT = {"group": {"cycles": 1}, "playoff": {"duels": 3}, "knockout": {"rounds": 1, "duels": 3}, "final": {"rounds": 1, "duels": 3}}
"""Short tables, so a whole tournament plays in seconds."""


def tournament_file(signed: SignedRecord) -> Tournament:
    return Tournament(signed, DRAWS[: len(signed.record.participants)])


def play_tables(signed: SignedRecord, tamper_of: Callable[[Table], object] | None = None) -> dict[bytes, bytes]:
    """Every table of the tournament played for real in-process (``SelfPlay``): transcripts by table id."""
    seed = seed_of(signed)
    transcripts: dict[bytes, bytes] = {}
    outcomes: dict[bytes, Outcome] = {}
    while not (now := progress(signed, seed, outcomes)).finished:
        for table in now.current:
            keys = [KEYS[p] for p in table.spec.seats]
            tamper = tamper_of(table) if tamper_of else None
            data = dump(SelfPlay.of(table.genesis, keys, table.table_id, ["greedy"] * len(keys)).play(tamper))  # type: ignore[arg-type]
            transcripts[table.table_id] = data
            found = outcome(verify_chunks([data]))
            assert found is not None
            outcomes[table.table_id] = found
    return transcripts


def cheating_at(table: Table) -> bytes:
    """The table played until seat 0's first move, which it makes with another card than the
    rules' default and marks a timeout, signed with its own key: its opponent cannot tell live,
    the verifier names seat 0. The transcript, with every seat's seed revealed."""
    played = SelfPlay.of(table.genesis, [KEYS[p] for p in table.spec.seats], table.table_id)
    play_until(played, lambda t: t.sessions[0].slot.kind == "move" and t.sessions[0].slot.seat == 0)
    session = played.sessions[0]
    default = session.game.default_move(session.state, 0)
    role = "attack" if "attack" in default else "defend"
    other = next(h for h in session.state.players[0].hand if h != default[role])
    cheat = played.seal(0, "move", session.run.move_body(0, {**default, role: other}, (other,)))
    return file_bytes(played, [cheat], seeds=all_seeds(played, table.table_id))


def write_bundle(folder: Path, signed: SignedRecord, tables: dict[bytes, bytes]) -> Path:
    """A bundle folder as a node keeps it: the tournament file and one transcript per table."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / FILE_NAME).write_bytes(tournament_file(signed).to_bytes())
    for table_id, data in tables.items():
        (folder / f"{table_id.hex()}.ftt").write_bytes(data)
    return folder
