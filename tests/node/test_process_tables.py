"""The fault harness's judge: what counts as a reverted envelope, an accepted move lost, a stale file."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from fairtable.node.table.journal import TableFiles
from fairtable.protocol.envelope import Envelope
from fairtable.protocol.session.replica import Placed
from fairtable.protocol.testing import SelfPlay
from fairtable.protocol.transcript import Transcript
from fairtable.protocol.transcript_file import TranscriptFile, dump
from tests.node.process_tables import _lost, _stale, reverted

PLAY = SelfPlay.create("zeeslag", "duel", {"fleet": "ten"}, 3, b"\x05" * 32)


def _chain(*seats: int, start: list[Envelope] | None = None) -> list[Envelope]:
    """Envelopes signed by ``seats`` in turn, each linked to the one before (bodies do not matter to the judge)."""
    chain = list(start or [])
    for seat in seats:
        prev = chain[-1].hash if chain else PLAY.genesis.table_id
        chain.append(Envelope.seal(PLAY.keys[seat], PLAY.genesis.table_id, len(chain), prev, seat, "move", {"n": len(chain)}))
    return chain


def _node(root: Path, name: str, *placed: Envelope) -> Path:
    """A node's data directory whose journal placed ``placed`` in that order."""
    data = root / name
    journal = TableFiles(data / "tables", PLAY.genesis.table_id).start_journal(PLAY.genesis)
    journal.write([Placed(envelope) for envelope in placed])
    journal.close()
    return data


def _table(*datas: Path) -> SimpleNamespace:
    return SimpleNamespace(seats=[SimpleNamespace(data=data) for data in datas])


def test_reverted_counts_what_a_fork_replaced(tmp_path):
    main = _chain(0, 1, 2, 0, 1)
    fork = _chain(2, start=main[:3])
    assert reverted(_node(tmp_path, "a", *main)) == 0
    assert reverted(_node(tmp_path, "b", *main, fork[3])) == 2


def test_a_move_every_other_seat_built_on_must_stay(tmp_path):
    main = _chain(0, 1, 2, 0)  # seat 1's envelope 1 is built on by seat 2 (at 2) and seat 0 (at 3)
    fork = _chain(2, 0, start=main[:1])
    datas = [_node(tmp_path, f"n{seat}", *main, *fork[1:]) for seat in range(3)]
    lost = _lost(_table(*datas), {envelope.hash for envelope in fork})
    assert len(lost) == 1 and "envelope 1 (move of seat 1)" in lost[0]
    assert _lost(_table(*datas), {envelope.hash for envelope in main}) == []


def test_a_move_only_some_seats_built_on_may_go(tmp_path):
    main = _chain(0, 1, 2)  # seat 1's envelope 1: only seat 2 built on it
    fork = _chain(2, start=main[:1])
    datas = [_node(tmp_path, f"n{seat}", *main, fork[1]) for seat in range(3)]
    assert _lost(_table(*datas), {envelope.hash for envelope in fork}) == []


def test_a_transcript_file_of_a_fork_the_journal_left_is_stale():
    main = _chain(0, 1, 2)
    fork = _chain(0, start=main[:2])
    file = dump(TranscriptFile(Transcript(PLAY.genesis, main, signed=False)))
    assert _stale(0, file, main) == []
    (finding,) = _stale(0, file, fork)
    assert "stale" in finding and "part at 2" in finding
