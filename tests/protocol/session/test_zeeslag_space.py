"""The zeeslag space battle over real sessions: whole games verify (reserves committed in the
middle of play included), and every false answer a seat can give, signed with its own key, is
caught and pinned on it: live by its proof or the rules, else at its full opening."""

from __future__ import annotations

import random

import pytest

from fairtable.games.contract import OpenHidden
from fairtable.games.zeeslag import abilities, effects, purchase
from fairtable.games.zeeslag.bots import GreedyBot
from fairtable.games.zeeslag.sea import FIELD
from fairtable.protocol.envelope import Envelope
from fairtable.protocol.session.errors import Rejected
from fairtable.protocol.session.verify import verify
from fairtable.protocol.testing import SelfPlay
from tests.protocol.session.tables import file_bytes, play_until, verify_bytes

RESERVE_SEED = b"space-r0"
"""Random bots of this table land a reserve (seat 1)."""


def space(seats: int = 2, seed: bytes = b"space", greedy: bool = True, options: dict | None = None) -> SelfPlay:
    table = SelfPlay.create("zeeslag", "space", options or {}, seats, seed)
    if greedy:
        table.bots = tuple(GreedyBot(random.Random(seat)) for seat in range(seats))
    return table


def stage_is(stage: str, kind: str):
    def condition(table: SelfPlay) -> bool:
        session = table.sessions[0]
        return session.slot is not None and session.slot.kind == kind and session.state.stage == stage
    return condition


def landing_due(table: SelfPlay) -> bool:
    session = table.sessions[0]
    return session.slot is not None and session.slot.kind == "hidden" and session.state.committed


def seal_for(table: SelfPlay, session, seat: int, kind: str, body) -> Envelope:
    """An envelope of ``seat`` signed with its own key, chained onto what ``session`` accepted."""
    return Envelope.seal(table.keys[seat], table.genesis.table_id, len(session.envelopes), session.head, seat, kind, body)


def commit_cheat(table: SelfPlay, ships: tuple[tuple[int, str], ...]) -> None:
    """Seat 1 commits ``ships`` (slot, cell names) without its node's check: signed with its own key."""
    play_until(table, lambda t: t.sessions[0].slot.kind == "hidden" and t.sessions[0].slot.seat == 1)
    ids = [0] * FIELD.size
    for ship, names in ships:
        for name in names.split():
            ids[FIELD.parse(name)] = ship + 1
    data = {"ships": [int(value != 0) for value in ids], "ids": ids}
    table.deliver(table.seal(1, "hidden", table.sessions[1].run.hidden.commit_body(1, table.sessions[1].pending, data)))


@pytest.mark.parametrize("seats, greedy, seed", [(2, True, b"space"), (3, True, b"space"), (2, False, RESERVE_SEED)],
                         ids=["duel", "salvos", "reserves"])
def test_a_space_battle_verifies(seats, greedy, seed):
    table = space(seats, seed, greedy)
    report = verify(table.play())
    assert report.valid and report.result.winners
    kinds = [envelope.kind for envelope in table.sessions[0].envelopes]
    if not greedy:  # a reserve is one more hidden commitment, by its seat alone
        assert kinds.count("hidden") > seats
        assert any(board.squadrons for board in table.sessions[0].state.boards)


def test_a_declared_fleet_size_no_money_buys_is_refused_by_everyone():
    table = space()
    play_until(table, stage_is("muster", "move"))
    seat = table.sessions[0].slot.seat
    lie = table.seal(seat, "move", {"faces": [], "keys": [], "move": {"ships": 14}})
    for session in table.sessions:
        with pytest.raises(Rejected) as error:
            session.receive(lie)
        assert (error.value.violation.seat, error.value.violation.rule) == (seat, "zeeslag.count")
    first = verify_bytes(file_bytes(table, [lie])).violations[0]
    assert (first.seat, first.rule) == (seat, "zeeslag.count")


@pytest.mark.parametrize("stage", ["trace", "scan"])
def test_a_false_cell_in_a_laser_or_scan_opening_is_caught_by_its_proof(stage):
    table = space()
    play_until(table, stage_is(stage, "open"))
    target = table.sessions[0].slot.seat
    seat, kind, body = table.next_message()
    cells = [list(cell) for cell in body["cells"]]
    cells[0][2] = 1 - cells[0][2]
    lie = table.seal(seat, kind, dict(body, cells=cells))
    with pytest.raises(Rejected) as error:
        table.sessions[1 - target].receive(lie)
    assert (error.value.violation.seat, error.value.violation.rule) == (target, "board.bad-proof")


def test_a_false_beam_answer_is_named_at_the_opening_of_the_beam():
    table = space()
    play_until(table, stage_is("beam", "move"))
    target = table.sessions[0].slot.seat
    honest = table.sessions[1 - target]
    (truth,) = table.sessions[target].legal_moves()
    unknown, _ = effects._walk(honest.state, honest.state.tasks[0])
    claim = unknown[0] if truth["beam"] == -1 else -1
    lie = table.seal(target, "move", {"faces": [], "keys": [], "move": {"beam": claim}})
    with pytest.raises(Rejected) as error:  # its own node knows its field
        table.sessions[target].receive(lie)
    assert error.value.violation.rule == "zeeslag.laser"
    honest.receive(lie)  # the shooter cannot tell yet
    opening = seal_for(table, honest, target, "open", table.sessions[target].run.hidden.open_body(honest.pending))
    with pytest.raises(Rejected) as error:
        honest.receive(opening)
    assert (error.value.violation.seat, error.value.violation.rule) == (target, "zeeslag.laser")
    found = verify_bytes(file_bytes(table, [lie, opening])).violations[0]
    assert (found.seat, found.rule) == (target, "zeeslag.laser")


def test_an_illegal_purchase_is_named_at_the_full_opening():
    table = space(options={"money": 200})
    # The Dreadnought (ship 13), both Frigates (11, 12) and a Spirit (6): 220 of ships for 200.
    commit_cheat(table, ((13, "A1 A2 A3 A4 A5 B2 B4"), (11, "E1 E2 E3 E4 F2"), (12, "H1 H2 H3 H4 I2"), (6, "E10 E11 E12 F11")))
    with pytest.raises(Rejected) as error:
        table.play()
    assert (error.value.violation.seat, error.value.violation.rule) == (1, "zeeslag.purchase")
    assert "costs 220, more than its 200" in str(error.value)


def test_a_squadron_next_to_a_ship_is_named():
    table = space(seed=RESERVE_SEED, greedy=False)
    play_until(table, landing_due)
    seat = table.sessions[0].slot.seat
    session = table.sessions[seat]
    table.deliver(table.seal(seat, "hidden", session.run.hidden.commit_body(seat, session.pending, beside_a_ship(session, seat))))
    with pytest.raises(Rejected) as error:
        table.play()
    # At the full opening, or earlier when the ship's water ring opened the fighter's cell.
    assert (error.value.violation.seat, error.value.violation.rule) in ((seat, "zeeslag.reserve"), (seat, "zeeslag.ring"))


def beside_a_ship(session, seat: int) -> dict:
    """A squadron of ``seat`` whose first fighter lands diagonally or orthogonally next to one of its ships."""
    state = session.state
    ids = state.boards[seat].own["ids"]
    opened = set(state.seas[seat].opened)
    beside = next(n for cell in range(FIELD.size) if ids[cell] for n in FIELD.neighbours(cell) if not ids[n] and n not in opened)
    far = [cell for cell in range(FIELD.size) if cell not in opened and not ids[cell]
           and all(not ids[n] for n in FIELD.neighbours(cell)) and cell not in FIELD.neighbours(beside) and cell != beside]
    third = next(cell for cell in far if cell not in FIELD.neighbours(far[0]) and cell != far[0])
    values = [0] * FIELD.size
    for number, cell in enumerate((beside, far[0], third), 1):
        values[cell] = number
    (layer,) = session.pending.layers
    return {layer: values}


@pytest.mark.parametrize("legal", [True, False], ids=["honest", "beside a ship"])
def test_a_squadron_left_closed_by_a_resignation_is_revealed_with_the_seed_and_judged(legal):
    table = space(seed=RESERVE_SEED, greedy=False)
    play_until(table, landing_due)
    seat = table.sessions[0].slot.seat
    session = table.sessions[seat]
    if legal:
        table.step()
    else:
        table.deliver(table.seal(seat, "hidden", session.run.hidden.commit_body(seat, session.pending, beside_a_ship(session, seat))))
    play_until(table, lambda t: t.sessions[0].slot.kind in ("move", "choice") and t.sessions[0].slot.seat == seat)
    table.deliver(table.seal(seat, *session.resign_body()))
    play_until(table, lambda t: isinstance(t.sessions[0].pending, OpenHidden) and t.sessions[0].pending.seat == seat
               and len(t.sessions[0].pending.cells) == FIELD.size)
    table.deliver(table.seal(seat, *session.resign_body()))  # again, during its full opening: its boards stay closed
    file = table.play()
    seed = next(e for e in file.transcript.envelopes if e.kind == "seed" and e.seat == seat)
    assert any(board["board"].startswith("wing1-") for board in seed.body["boards"])
    report = verify(file)
    if legal:
        assert report.valid, report.violations
    else:
        assert [(v.index, v.seat, v.rule) for v in report.violations] == [(seed.seq, seat, "zeeslag.reserve")]


def play_to_rejection(table: SelfPlay) -> tuple[Envelope, Rejected]:
    """Play on until an honest session refuses an envelope; that envelope and the refusal."""
    while not table.finished:
        envelope = table.seal(*table.next_message())
        try:
            table.deliver(envelope)
        except Rejected as rejected:
            return envelope, rejected
    raise AssertionError("nobody refused anything")


def test_a_false_fleet_size_money_could_buy_is_named_at_the_full_opening(monkeypatch):
    """A size within what the money buys cannot be refused by anyone but the seat's own node; a
    cheating node skips that check (modelled by hiding its fleet from its own declaration check),
    signs the lie, and its full opening shows the true count."""
    table = space()
    play_until(table, stage_is("muster", "move"))
    seat = table.sessions[0].slot.seat
    bought = purchase.truth(table.sessions[seat].state, seat)["ships"]
    declared = bought - 1  # the bots buy as many ships as they can: one fewer is always affordable
    lie = table.seal(seat, "move", {"faces": [], "keys": [], "move": {"ships": declared}})
    monkeypatch.setattr(purchase, "truth", lambda state, seat: None)
    table.deliver(lie)
    monkeypatch.undo()
    opening, rejected = play_to_rejection(table)
    assert (rejected.violation.seat, rejected.violation.rule) == (seat, "zeeslag.count")
    assert f"it declared {declared} ships and bought {bought}" in str(rejected)
    found = verify_bytes(file_bytes(table, [opening])).violations
    assert [(v.seat, v.rule) for v in found] == [(seat, "zeeslag.count")]


def test_a_laser_without_a_lancer_is_named_at_the_full_opening(monkeypatch):
    """Seat 1 buys no Lancer. Whether one is afloat only its own node can tell; a cheating node
    that does not ask (modelled by making seat 1's checks blind to its own fleet) lasers anyway,
    everyone else accepts it, and its full opening proves the lie."""
    table = space()
    commit_cheat(table, ((6, "E10 E11 E12 F11"), (11, "E1 E2 E3 E4 F2"), (8, "H1 H2 H3 I1")))  # Spirit, Frigate, Cruiser
    honest = abilities.afloat
    monkeypatch.setattr(abilities, "afloat", lambda state, seat, name, knowing=True: honest(state, seat, name, knowing and seat != 1))
    play_until(table, lambda t: t.sessions[0].slot.seat == 1 and t.sessions[0].state.stage == "aim"
               and abilities.usable(t.sessions[0].state, 1, "laser"))
    state = table.sessions[0].state
    start = next(cell for cell in range(FIELD.size) if FIELD.xy(cell)[1] == 0 and cell not in state.seas[0].opened)
    laser = table.seal(1, "move", {"faces": [], "keys": [], "move": {"laser": start}})
    table.deliver(laser)  # every session takes it: none can tell seat 1 has no Lancer
    monkeypatch.undo()
    opening, rejected = play_to_rejection(table)
    assert (rejected.violation.seat, rejected.violation.rule) == (1, "zeeslag.ability")
    assert "used its laser with no Lancer afloat" in str(rejected)
    found = verify_bytes(file_bytes(table, [opening])).violations
    assert [(v.seat, v.rule) for v in found] == [(1, "zeeslag.ability")]


@pytest.mark.parametrize("ships, named, words", [
    # The Dreadnought (13) and the space station (14): its reserve after the Dreadnought sank claims both.
    (((13, "A1 A2 A3 A4 A5 B2 B4"), (14, "E1 E2 E3 F1 F3 G1 G2 G3")), "zeeslag.purchase", "a fleet holds at most one capital ship"),
    # A Cruiser (8) laid in a straight line: its sink opens a shape no Cruiser has.
    (((8, "A1 A2 A3 A4"), (6, "E10 E11 E12 F11")), "zeeslag.fleet", "Cruiser 1 (ship 8) is not its kind's shape"),
], ids=["two capital ships", "a straight cruiser"])
def test_a_fleet_that_breaks_the_purchase_or_a_shape_is_named_for_it(ships, named, words):
    table = space()
    commit_cheat(table, ships)
    envelope, rejected = play_to_rejection(table)
    assert (rejected.violation.seat, rejected.violation.rule) == (1, named) and words in str(rejected)
    found = verify_bytes(file_bytes(table, [envelope])).violations
    assert [(v.seat, v.rule) for v in found] == [(1, named)]
