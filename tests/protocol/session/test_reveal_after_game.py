"""Every seat reveals its seed and its committed free choices after the game, whatever the result.

A seed reveal carries the values of each board the seat committed and did not open in full,
and each simultaneous choice it committed and did not reveal: a seat that resigns (or whose
opponent leaves) before the full opening still has its data checked against its commitments
and the game's rules. Salts must be the ones the seed derives. Each cheat is signed with the
cheating seat's own key and named on that seat alone.
"""

import pytest

from fairtable.games.contract import OpenHidden
from fairtable.protocol.fair import hidden_board, simultaneous
from fairtable.protocol.hashing import digest
from fairtable.protocol.session import boards as session_boards
from fairtable.protocol.session.verify import verify
from fairtable.protocol.testing import SelfPlay
from tests.protocol.session.tables import play_until, slot_is
from tests.protocol.session.test_hidden_and_choices import probe
from tests.protocol.session.test_zeeslag_session import zeeslag

ILLEGAL_FLEET = ((0, 1, 5), (15, 2, 4), (50, 3, 3), (70, 4, 3), (90, 5, 2))  # the 4-ship touches the 5-ship's end


def commit_illegal_fleet(table: SelfPlay, seat: int) -> None:
    play_until(table, slot_is("hidden", seat=seat))
    ships, ids = [0] * 100, [0] * 100
    for start, ship, length in ILLEGAL_FLEET:
        for cell in range(start, start + length):
            ships[cell], ids[cell] = 1, ship
    body = table.sessions[seat].run.hidden.commit_body(seat, table.sessions[seat].pending, {"ships": ships, "ids": ids})
    table.deliver(table.seal(seat, "hidden", body))


def full_opening_of(seat: int):
    def condition(table: SelfPlay) -> bool:
        request = table.sessions[0].pending
        return isinstance(request, OpenHidden) and request.seat == seat and len(request.cells) == 100
    return condition


def resign(table: SelfPlay, seat: int) -> None:
    table.deliver(table.seal(seat, *table.sessions[seat].resign_body()))


def seed_envelope(file, seat: int):
    return next(e for e in file.transcript.envelopes if e.kind == "seed" and e.seat == seat)


def test_a_seat_that_resigns_during_the_full_opening_still_has_its_fleet_judged():
    table = zeeslag(options={"water_ring": False})
    commit_illegal_fleet(table, 1)
    play_until(table, full_opening_of(1))
    resign(table, 1)
    file = table.play()
    seed = seed_envelope(file, 1)
    assert [b["board"] for b in seed.body["boards"]] == ["ships-0", "ids-0"]
    report = verify(file)
    assert [(v.index, v.seat, v.rule) for v in report.violations] == [(seed.seq, 1, "zeeslag.fleet")]
    assert report.violations[0].evidence == seed
    # The live seats found it too, from the same envelope.
    assert [(v.seat, v.rule) for v in table.sessions[0].violations] == [(1, "zeeslag.fleet")]


@pytest.mark.parametrize("leaver", [0, 1])
def test_honest_fleets_left_unopened_by_a_resignation_are_revealed_and_valid(leaver):
    table = zeeslag(b"leave")
    play_until(table, lambda t: t.sessions[0].slot.kind == "move" and t.sessions[0].slot.seat == leaver)
    resign(table, leaver)
    play_until(table, full_opening_of(leaver))
    resign(table, leaver)  # again, now during the full opening
    file = table.play()
    assert seed_envelope(file, leaver).body["boards"]
    report = verify(file)
    assert report.valid, report.violations
    assert report.result.winners == (1 - leaver,)


def test_a_reveal_that_does_not_open_the_commitment_is_named():
    table = zeeslag()
    play_until(table, full_opening_of(0))
    resign(table, 0)
    play_until(table, slot_is("seed", seat=0))
    seat, kind, body = table.next_message()
    boards = [dict(item, values=[1 - v if i == 0 else v for i, v in enumerate(item["values"])]) if item["board"] == "ships-0" else item
              for item in body["boards"]]
    lie = table.seal(seat, kind, dict(body, boards=boards))
    table.deliver(lie)
    report = verify(table.play())
    assert [(v.index, v.seat, v.rule) for v in report.violations] == [(lie.seq, 0, "board.root-mismatch")]


def test_an_opponent_that_leaves_does_not_stop_the_honest_fleet_being_checked():
    table = zeeslag(b"absent")
    play_until(table, lambda t: t.sessions[0].slot.kind == "move")
    due = table.sessions[0].slot.seat
    table.deliver(table.seal(1 - due, *table.sessions[1 - due].absence_claim_body()))
    file = table.play()
    honest = 1 - due
    in_full = {e.body["board"] for e in file.transcript.envelopes if e.kind == "open" and e.seat == honest and len(e.body["cells"]) == 100}
    in_seed = {b["board"] for b in seed_envelope(file, honest).body["boards"]}
    assert in_full | in_seed == {"ships-0", "ids-0"} and not in_full & in_seed  # opened in play, else with the seed
    assert verify(file).violations == ()  # the absence is a forfeit on the claimant's word


@pytest.mark.usefixtures("probe_game")
def test_choices_and_grids_left_closed_by_a_resignation_are_revealed_with_the_seed():
    table = probe(((1, 2, 3, 4), (5, 6, 7, 8)))
    play_until(table, slot_is("choice", seat=1))  # seat 0 has committed its choice
    resign(table, 1)
    file = table.play()
    seed = seed_envelope(file, 0)
    assert [c["round"] for c in seed.body["choices"]] == ["choice-0"]
    assert [b["board"] for b in seed.body["boards"]] == ["grid-0"]
    assert seed_envelope(file, 1).body["choices"] == ()  # seat 1 committed no choice
    report = verify(file)
    assert report.valid, report.violations


@pytest.mark.usefixtures("probe_game")
def test_a_changed_choice_in_the_seed_reveal_is_named():
    table = probe()
    play_until(table, slot_is("choice", seat=1))
    resign(table, 1)
    play_until(table, slot_is("seed", seat=0))
    seat, kind, body = table.next_message()
    choices = [dict(item, choice=(item["choice"] + 1) % 4) for item in body["choices"]]
    lie = table.seal(seat, kind, dict(body, choices=choices))
    table.deliver(lie)
    report = verify(table.play())
    assert [(v.index, v.seat, v.rule) for v in report.violations] == [(lie.seq, 0, "choice.mismatch")]


@pytest.mark.usefixtures("probe_game")
def test_an_illegal_grid_left_closed_by_a_resignation_is_named():
    table = probe()
    play_until(table, slot_is("hidden", seat=1))
    request = table.sessions[1].pending
    table.deliver(table.seal(1, "hidden", table.sessions[1].run.hidden.commit_body(1, request, {"grid": (1, 2, 3, 42)})))
    play_until(table, slot_is("choice", seat=1))
    resign(table, 1)
    file = table.play()
    report = verify(file)
    assert [(v.index, v.seat, v.rule) for v in report.violations] == [(seed_envelope(file, 1).seq, 1, "probe.grid")]


def fake_salts(monkeypatch, cheater: int) -> None:
    """While the table plays, the cheater's node salts its cells and choices with values of its
    own choosing (consistent with what it commits, so no live check can tell)."""
    real_cell, real_choice = hidden_board.cell_salt, simultaneous.choice_salt

    def cell_salt(seed, board, cell):
        return digest("test/own-salt", bytes(cell)) if seed.seat == cheater else real_cell(seed, board, cell)

    def choice_salt(seed, round_id):
        return digest("test/own-salt", round_id.encode()) if seed.seat == cheater else real_choice(seed, round_id)

    for module in (hidden_board, session_boards):
        monkeypatch.setattr(module, "cell_salt", cell_salt)
    monkeypatch.setattr(simultaneous, "choice_salt", choice_salt)


@pytest.mark.parametrize("cheater", [0, 1])
def test_board_salts_not_derived_from_the_seed_are_named(monkeypatch, cheater):
    table = zeeslag(b"salts")
    with monkeypatch.context() as patch:
        fake_salts(patch, cheater)
        file = table.play()
    report = verify(file)
    assert report.violations and {(v.seat, v.rule) for v in report.violations} == {(cheater, "board.salt-mismatch")}
    assert all(v.evidence.seat == cheater and v.evidence.kind == "open" for v in report.violations)


@pytest.mark.usefixtures("probe_game")
def test_choice_salts_not_derived_from_the_seed_are_named(monkeypatch):
    table = probe()
    with monkeypatch.context() as patch:
        fake_salts(patch, 0)
        file = table.play()
    report = verify(file)
    assert {(v.seat, v.rule) for v in report.violations} == {(0, "board.salt-mismatch"), (0, "choice.salt-mismatch")}
