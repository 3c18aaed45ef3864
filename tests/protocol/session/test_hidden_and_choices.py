"""Hidden data, simultaneous choices and multi-game matches through the session (toy game "probe")."""

import random
import re

import pytest

from fairtable.games.testing.probe import CELLS, PROBE
from fairtable.protocol import codec
from fairtable.protocol.session.errors import Rejected
from fairtable.protocol.session.verify import verify
from fairtable.protocol.testing import SelfPlay
from tests.protocol.session.tables import file_bytes, play_until, slot_is, verify_bytes, with_body

pytestmark = pytest.mark.usefixtures("probe_game")


class ProbeBot:
    def __init__(self, seed: int, grid: tuple[int, ...] | None = None) -> None:
        self.rng = random.Random(seed)
        self.grid = grid

    def choose(self, game, state, seat):
        return self.rng.randrange(CELLS)

    def commit(self, game, state, seat, request):
        return {"grid": self.grid or tuple(self.rng.randrange(10) for _ in range(CELLS))}


def probe(grids=(None, None)) -> SelfPlay:
    table = SelfPlay.create(PROBE.id, "plain", {}, 2, b"probe")
    table.bots = (ProbeBot(1, grids[0]), ProbeBot(2, grids[1]))
    return table


def test_a_match_with_hidden_grids_and_simultaneous_probes_verifies():
    table = probe()
    file = table.play()
    kinds = [envelope.kind for envelope in file.transcript.envelopes]
    assert kinds.count("commit") == 4 and kinds.count("seed") == 4  # two games, fresh seeds each
    assert kinds.count("hidden") == 4 and kinds.count("choice") == 4 and kinds.count("reveal") == 4
    report = verify(file)
    assert report.valid, report.violations
    assert report.result == table.sessions[0].result
    assert sum(report.result.scores) > 0 or report.result.winners == ()


def test_a_seat_learns_its_own_grid_only_and_openings_are_proven():
    table = probe(((1, 2, 3, 4), (5, 6, 7, 8)))
    play_until(table, slot_is("choice"))
    assert table.sessions[0].run.hidden.own(0) == {"grid": (1, 2, 3, 4)}
    assert table.sessions[0].run.hidden.own(1) is None
    table.play()
    scores = table.sessions[1].result.scores
    assert 10 <= scores[0] <= 16 and 2 <= scores[1] <= 8  # two deals, each a probe of the other's grid


def test_an_illegal_grid_is_refused_before_it_is_committed():
    table = probe(((1, 2, 3, 42), None))
    play_until(table, slot_is("hidden", seat=0))
    with pytest.raises(Exception, match=re.escape("probe.grid")):
        table.step()


def test_a_false_opening_is_caught_live():
    table = probe()
    play_until(table, slot_is("open", seat=0))
    def lie(body):
        cells = [list(cell) for cell in body["cells"]]
        cells[0][2] = (cells[0][2] + 1) % 10
        return dict(body, cells=cells)
    envelope = with_body(table, lie)
    with pytest.raises(Rejected) as error:
        table.sessions[1].receive(envelope)
    assert (error.value.violation.seat, error.value.violation.rule) == (0, "board.bad-proof")
    report = verify_bytes(file_bytes(table, [envelope]))
    assert (report.violations[0].seat, report.violations[0].rule) == (0, "board.bad-proof")


def test_a_changed_choice_is_caught_at_the_reveal():
    table = probe()
    play_until(table, slot_is("reveal", seat=1))
    envelope = with_body(table, lambda body: dict(body, choice=(body["choice"] + 1) % CELLS))
    with pytest.raises(Rejected) as error:
        table.sessions[0].receive(envelope)
    assert (error.value.violation.seat, error.value.violation.rule) == (1, "choice.mismatch")


def test_a_choice_cannot_be_copied_from_another_seat():
    table = probe()
    play_until(table, slot_is("reveal", seat=1))
    copied = table.sessions[0].envelopes[-1].body  # seat 0's reveal, salt and all
    with pytest.raises(Rejected, match=re.escape("choice.mismatch")):
        table.sessions[0].receive(table.seal(1, "reveal", codec.decode(codec.encode(copied))))


def test_a_restarted_seat_reopens_its_hidden_data_from_what_it_persisted():
    from fairtable.protocol.session.table import TableSession
    from fairtable.protocol.testing import derive

    table = probe()
    play_until(table, slot_is("open", seat=0))
    saved = codec.decode(codec.encode(table.sessions[0].private_value()))
    restarted = TableSession(table.genesis, seat=0, secret=derive(b"probe", "secret", 0), private=saved)
    for envelope in table.sessions[0].envelopes:
        restarted.receive(envelope)
    assert restarted.outgoing() == table.sessions[0].outgoing()
