"""``bench verify``'s tournament bundle: the largest tournament the format takes, played by bots
(not timed), then verified as ``fairtable verify`` verifies a bundle, with 1 and N processes.

With N processes every transcript of the bundle is verified at once, one per process; only the
walk through the rounds (each round's pairings follow from the earlier results), which is cheap,
waits. So the speed-up is bounded by the tables' lengths, not by the rounds: ``bound`` is the
speed-up had each round waited for the one before (the tables over the sum, round by round, of
their count over the cores rounded up), for comparison.
"""

from __future__ import annotations

import math
import resource
import time
from pathlib import Path

from fairtable.node.cli.commands.verify import bundle_report
from fairtable.node.tournament.files import TournamentFiles
from fairtable.protocol import SecretKey, digest, dump
from fairtable.protocol.testing import SelfPlay
from fairtable.protocol.tournament import FILE_NAME, Outcome, Participant, Record, SignedRecord, Tournament, commitment, examine, progress

SHORT = {"group": {"cycles": 1}, "playoff": {"duels": 3}, "knockout": {"rounds": 1, "duels": 3}, "final": {"rounds": 1, "duels": 3}}
"""Short tables (one cycle, one round of three duels), so that the bench plays a whole tournament in seconds."""


def play(folder: Path, participants: int) -> list[int]:
    """Play a tournament of ``participants`` into ``folder`` as a bundle (its file, one transcript
    per table); the number of tables of each round."""
    keys = [SecretKey.from_seed(digest("bench/bundle-key", bytes([n]))) for n in range(participants)]
    draws = tuple(digest("bench/bundle-draw", bytes([n])) for n in range(participants))
    record = Record(tuple(Participant(key.public, f"p{n}", commitment(draws[n])) for n, key in enumerate(keys)), SHORT, bytes(16))
    tournament = Tournament(SignedRecord(record, tuple(record.sign(key) for key in keys)), draws)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / FILE_NAME).write_bytes(tournament.to_bytes())
    files, rounds = TournamentFiles(folder), []
    outcomes: dict[bytes, Outcome] = {}
    while not (now := progress(tournament.signed, tournament.seed, outcomes)).finished:
        rounds.append(len(now.current))
        for table in now.current:
            seats = [keys[p] for p in table.spec.seats]
            data = dump(SelfPlay.of(table.genesis, seats, table.table_id, ["greedy"] * len(seats)).play())
            files.save_table(table.table_id, data)
            found = examine(data)[1][3]
            assert found is not None, "a bench table gives no outcome"
            outcomes[table.table_id] = found
    return rounds


def seconds(folder: Path, jobs: int) -> tuple[float, float]:
    """Wall seconds to verify the bundle in ``folder`` with ``jobs`` processes (the pool's start
    included), and the cores its workers kept busy meanwhile."""
    files = TournamentFiles(folder)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    report = bundle_report(files, files.tournament(), jobs)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if not report.complete:
        raise AssertionError("the benchmark bundle does not verify")
    return elapsed, (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) / elapsed


def bound(rounds: list[int], cores: int) -> float:
    """The speed-up the rounds allow on ``cores``, every table taking as long as every other."""
    return sum(rounds) / sum(math.ceil(width / cores) for width in rounds)
