"""Zeeslag over the session: every answer is an opening of committed data, so a lie is caught
live by its proof or by the rules, or at the full opening, and named with the liar's envelope."""

import random
import re

import pytest

from fairtable.games.contract import OpenHidden
from fairtable.games.zeeslag.bots import GreedyBot
from fairtable.protocol.envelope import Envelope
from fairtable.protocol.session.errors import Rejected
from fairtable.protocol.session.verify import verify
from fairtable.protocol.testing import SelfPlay
from tests.protocol.session.tables import file_bytes, play_until, verify_bytes


def zeeslag(seed: bytes = b"zee", options: dict | None = None) -> SelfPlay:
    table = SelfPlay.create("zeeslag", "duel", options or {}, 2, seed)
    table.bots = tuple(GreedyBot(random.Random(seat)) for seat in range(2))
    return table


def opening_due(layer: str, value: int | None = None):
    """Before an opening of one cell of ``layer`` whose true value is ``value`` (any if None)."""
    def condition(table: SelfPlay) -> bool:
        request = table.sessions[0].pending
        if table.sessions[0].slot.kind != "open" or request.layer != layer or len(request.cells) != 1:
            return False
        own = table.sessions[request.seat].run.hidden.own(request.seat)
        return value is None or own[layer][request.cells[0]] == value
    return condition


def lie_about_the_cell(table: SelfPlay, value: int):
    seat, kind, body = table.next_message()
    cells = [list(cell) for cell in body["cells"]]
    cells[0][2] = value
    return table.seal(seat, kind, dict(body, cells=cells))


@pytest.mark.parametrize("truth, claim", [(1, 0), (0, 1)], ids=["false miss", "false hit"])
def test_a_false_answer_to_a_shot_is_caught_live_by_its_proof(truth, claim):
    table = zeeslag()
    play_until(table, opening_due("ships", truth))
    target = table.sessions[0].slot.seat
    lie = lie_about_the_cell(table, claim)
    with pytest.raises(Rejected) as error:
        table.sessions[1 - target].receive(lie)
    assert (error.value.violation.seat, error.value.violation.rule) == (target, "board.bad-proof")
    first = verify_bytes(file_bytes(table, [lie])).violations[0]
    assert (first.index, first.seat, first.rule) == (lie.seq, target, "board.bad-proof")


def test_a_board_changed_after_the_commitment_cannot_be_opened():
    table = zeeslag()
    play_until(table, opening_due("ships"))
    target = table.sessions[0].slot.seat
    run = table.sessions[target].run
    request = table.sessions[0].pending
    key = next(k for k in run.private if k.startswith("hidden-"))
    original = run.private[key]
    run.private[key] = {layer: tuple(1 - v if layer == "ships" else v for v in values) for layer, values in original.items()}
    forged = table.seal(target, "open", run.hidden.open_body(request))
    run.private[key] = original
    with pytest.raises(Rejected, match=re.escape("board.bad-proof")):
        table.sessions[1 - target].receive(forged)


def test_a_missing_sink_is_named_at_the_full_opening():
    table = zeeslag()

    def sink_question(t):
        session = t.sessions[0]
        return session.slot.kind == "move" and session.pending.timed is False and \
            t.sessions[session.slot.seat].legal_moves()[0]["sunk"] != []

    play_until(table, sink_question)
    target = table.sessions[0].slot.seat
    shooter = table.sessions[1 - target]
    lie = table.seal(target, "move", {"faces": [], "keys": [], "move": {"sunk": []}})
    with pytest.raises(Rejected, match=re.escape("zeeslag.missing_sink")):
        table.sessions[target].receive(lie)  # its own node knows its fleet and refuses
    shooter.receive(lie)  # the shooter cannot tell yet
    cheater = table.sessions[target]

    def seal(seat, kind, body):
        return Envelope.seal(table.keys[seat], table.genesis.table_id, len(shooter.envelopes), shooter.head, seat, kind, body)

    while not shooter.finished:
        slot = shooter.slot
        if slot.seat == target:
            envelope = seal(target, *shooter_view_of_target_message(shooter, cheater, slot))
        else:
            envelope = seal(slot.seat, *(shooter.outgoing() or _shoot(shooter)))
        try:
            shooter.receive(envelope)
        except Rejected as rejected:
            violation = rejected.violation
            break
    else:
        raise AssertionError("the missing sink was never named")
    assert (violation.seat, violation.rule) == (target, "zeeslag.missing_sink")
    assert envelope.kind == "open" and shooter.pending.layer == "ids"


def shooter_view_of_target_message(shooter, cheater, slot):
    """What the cheating target's node sends, computed from its own secrets though its state diverged."""
    request = shooter.pending
    if slot.kind == "open":
        return "open", cheater.run.hidden.open_body(request)
    if slot.kind == "move" and shooter.pending.timed is False:
        return "move", {"faces": [], "keys": [], "move": {"sunk": []}}
    if slot.kind == "move":
        return "move", {"faces": [], "keys": [], "move": shooter.game.legal_moves(shooter.state, slot.seat)[0]}
    if slot.kind == "random":
        from fairtable.protocol.fair.public_random import reveal_body
        return "random", reveal_body(cheater.run.chains[slot.seat], shooter.run.random_index)
    raise AssertionError(f"unexpected {slot.kind}")


def _shoot(shooter):
    return shooter.move_body(shooter.legal_moves()[0])


def test_an_illegal_fleet_is_named_at_the_full_opening():
    table = zeeslag(options={"water_ring": False})  # with the ring on, the ring opening would name it earlier
    play_until(table, lambda t: t.sessions[0].slot.kind == "hidden" and t.sessions[0].slot.seat == 1)
    run = table.sessions[1].run
    ships = [0] * 100
    ids = [0] * 100
    # Classic lengths 5, 4, 3, 3, 2, but the 4-ship starts diagonally next to the 5-ship's end.
    for start, ship, length in ((0, 1, 5), (15, 2, 4), (50, 3, 3), (70, 4, 3), (90, 5, 2)):
        for cell in range(start, start + length):
            ships[cell], ids[cell] = 1, ship
    body = run.hidden.commit_body(1, table.sessions[1].pending, {"ships": ships, "ids": ids})
    table.deliver(table.seal(1, "hidden", body))
    with pytest.raises(Rejected) as error:
        table.play()
    assert (error.value.violation.seat, error.value.violation.rule) == (1, "zeeslag.fleet")
    assert table.sessions[0].pending == OpenHidden(1, "ids", tuple(range(100)))


def test_a_transcript_that_stops_at_the_full_opening_is_incomplete_not_a_finding():
    table = zeeslag()
    play_until(table, lambda t: t.sessions[0].slot.kind == "open" and len(t.sessions[0].pending.cells) == 100)
    seat = table.sessions[0].slot.seat
    report = verify_bytes(file_bytes(table))
    assert (report.status, report.violations) == ("incomplete", ())
    assert [(owed.seat, owed.kind) for owed in report.owed] == [(seat, "open")]


def test_a_full_zeeslag_game_verifies():
    table = zeeslag(b"full")
    report = verify(table.play())
    assert report.valid and report.result.winners
