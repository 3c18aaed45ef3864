"""``fairtable.games.testing``: its toy games keep the contract, its check catches each way a game
can break it, and a sixth game written against the contract alone passes the project's own
contract test with nothing changed but the line that registers it."""

from __future__ import annotations

import itertools
import random

import pytest

from fairtable.games import referee, registry
from fairtable.games.bots import RandomBot
from fairtable.games.contract import Move, RuleError
from fairtable.games.testing import Sampling, check_game, plain_random, registered
from fairtable.games.testing.blind import BLIND
from fairtable.games.testing.counting import COUNTING, Counting
from fairtable.games.testing.probe import PROBE
from fairtable.games.testing.script import EVERY_KIND, SCRIPT, Script
from fairtable.games.testing.tricks import TRICKS
from tests.games import test_contract
from tests.games.pig import PIG
from tests.games.test_contract import wire


def test_the_toy_games_keep_the_contract():
    played = check_game(SCRIPT, "plain", 2, wire=wire, seeds=range(4))
    assert all(len(p.events) == len(EVERY_KIND) for p in played)
    for seats, options in ((2, {}), (8, {}), (3, {"deals": 3, "turn_seconds": 5}), (2, {"target": 100, "deals": 2})):
        for p in check_game(COUNTING, "normal", seats, options, wire=wire, seeds=range(3)):
            assert p.result.reason == "count" and 0 < sum(isinstance(e, referee.Move) for e in p.events)
    tables = ((PROBE, "plain", 2, {}), (TRICKS, "deck", 2, {}), (TRICKS, "draw", 4, {}), (TRICKS, "plain", 4, {}),
              (TRICKS, "plain", 3, {"partners": False, "deals": 3, "target": 2}), (TRICKS, "plain", 16, {}), (BLIND, "plain", 2, {}),
              (BLIND, "plain", 6, {"turn_seconds": 5}))
    for game, variant, seats, options in tables:
        check_game(game, variant, seats, options, wire=wire, seeds=range(2))


def test_a_counting_match_starts_each_deal_with_the_next_seat_and_names_the_last_deal():
    rng = random.Random(4)
    played = referee.play(COUNTING, "normal", {"deals": 3}, [RandomBot(rng) for _ in range(3)], rng)
    starters = [0] + [played.events[i + 1].seat for i, e in enumerate(played.events) if type(e).__name__ == "DealStarted"]
    assert starters == [0, 1, 2]
    final = COUNTING.pending(played.state)
    assert final.deal == final.result and final.result.reason == "count"
    assert COUNTING.pending(referee.play(COUNTING, "normal", {}, [RandomBot(rng)] * 2, rng).state).deal is None



def requests(variant: str, seats: int, seed: int) -> list[tuple]:
    """Each request of a tricks playout, as (kind, seat or recipients, handles)."""
    rng = random.Random(seed)
    played = referee.play(TRICKS, variant, {}, [RandomBot(rng) for _ in range(seats)], rng)
    state, seen = TRICKS.setup(variant, {}, seats), []
    for event in played.events:
        request = TRICKS.pending(state)
        seen.append((type(request).__name__, getattr(request, "seat", getattr(request, "to", None)),
                     getattr(request, "handles", getattr(request, "first_handle", None))))
        state = TRICKS.apply(state, event)
    return seen


@pytest.mark.parametrize("seed", range(3))
def test_tricks_deck_and_draw_deal_two_each_then_one_after_each_first_play_and_score_the_faces(seed):
    """The session tests rely on this order: seat s holds handles 2s and 2s + 1, seat 0 plays first,
    the deck's last card (the trump) is revealed before the play, a seat's third card comes right
    after its first play; the seats play in turn."""
    deck = requests("deck", 3, seed)
    hands = tuple((seat, (2 * seat, 2 * seat + 1)) for seat in range(3))
    assert deck[:3] == [("Shuffle", None, 0), ("Deal", hands, None), ("Reveal", None, (9,))]
    assert deck[3:9] == [step for seat in range(3) for step in (("Decide", seat, None), ("Deal", ((seat, (6 + seat,)),), None))]
    assert deck[9:] == [("Decide", seat, None) for seat in range(3)]
    draw = requests("draw", 3, seed)
    assert draw[:3] == [("PrivateDraw", seat, 2 * seat) for seat in range(3)]
    assert draw[3:9] == [step for seat in range(3) for step in (("Decide", seat, None), ("PrivateDraw", seat, 6 + seat))]
    assert draw[9:] == [("Decide", seat, None) for seat in range(3)]
    rng = random.Random(seed)
    played = referee.play(TRICKS, "deck", {}, [RandomBot(rng) for _ in range(3)], rng)
    state = played.state
    assert state.deal_result.reason == "score" and state.deal_result.scores == state.scores
    plays = [e for e in played.events if isinstance(e, Move)]
    assert list(state.scores) == [sum(state.faces[e.move["play"]] for e in plays if e.seat == seat) for seat in range(3)]


class LeakyScript(Script):
    """Shows every face it knows to every seat."""

    def view(self, state, seat):
        return {"faces": sorted(state.faces.items())}


class LaxCounting(Counting):
    """Does not list 3 at an odd total, but accepts it there too (a rule ``apply`` forgets)."""

    def legal_moves(self, state, seat):
        return tuple(move for move in super().legal_moves(state, seat) if move != 3 or state.total % 2 == 0)


class ChattyCounting(Counting):
    """Lists moves for seats that are not asked."""

    def legal_moves(self, state, seat):
        return (1, 2, 3)


class BoastfulCounting(Counting):
    """Lists a move it refuses."""

    def legal_moves(self, state, seat):
        moves = super().legal_moves(state, seat)
        return (*moves, 4) if moves else ()


class ForgetfulCounting(Counting):
    """Loses the total on the way to the wire."""

    def to_value(self, state):
        return {**super().to_value(state), "total": 0}


class Trusting(Counting):
    """Takes a move from any seat: a base without its turn check."""

    def _routine(self, request, event):
        if not isinstance(event, Move):
            super()._routine(request, event)


@pytest.mark.parametrize(("game", "seats", "broken"), [
    (LeakyScript(EVERY_KIND, owned=(20, 22)), 2, referee.Divergence),
    (LaxCounting(), 2, "accepted seat 1's non-legal move 3|accepted seat 0's non-legal move 3"),
    (ChattyCounting(), 3, "lists moves"),
    (BoastfulCounting(), 2, "counting.move"),
    (ForgetfulCounting(), 2, "does not round-trip"),
    (Trusting(), 2, "accepted seat 1's move|accepted seat 0's move"),
], ids=["leaky view", "unlisted move accepted", "moves for others", "listed move refused", "state lost on the wire", "wrong seat"])
def test_the_check_catches_each_breach_of_the_contract(game, seats, broken):
    def run():
        check_game(game, game.variants[0], seats, wire=wire, seeds=range(5), sampling=Sampling(states=1000))

    if isinstance(broken, str):
        with pytest.raises((AssertionError, RuleError), match=broken):
            run()
    else:
        with pytest.raises(broken):
            run()


def test_the_check_catches_players_that_do_not_replay():
    made = itertools.count()

    def restless(game, rng, seat):
        """Seat 0 plays its first legal move in the first playout, its last in the replay of the same seed."""
        bot = plain_random(game, rng, seat)
        pick = 0 if seat == 0 and next(made) == 0 else -1
        return type("Restless", (), {"choose": lambda self, g, s, n: g.legal_moves(s, n)[pick]})() if seat == 0 else bot

    with pytest.raises(AssertionError, match="not deterministic"):
        check_game(COUNTING, "normal", 2, bots=restless, seeds=(0,))


def test_game_specific_invariants_and_end_checks_run_on_every_state_and_playout():
    states, ends = [], []
    check_game(COUNTING, "normal", 2, seeds=(0, 1), invariants=lambda state, request: states.append(state.total),
               finished=lambda played: ends.append(played.result))
    assert len(ends) == 2 and states.count(0) == 2 and max(states) >= COUNTING.options["target"].default - 3
    def at_most_four(state, request):
        assert state.total < 5, "too high"

    with pytest.raises(AssertionError, match="too high"):
        check_game(COUNTING, "normal", 2, invariants=at_most_four)


def test_a_registered_game_is_known_only_inside_the_block():
    with registered(COUNTING) as game:
        assert registry.get("counting") is game
        with pytest.raises(ValueError, match="registered twice"):
            registry.register(COUNTING)
    assert "counting" not in registry.ids()
    with pytest.raises(KeyError), registered(COUNTING):
        raise KeyError
    assert "counting" not in registry.ids()


def test_a_sixth_game_added_through_the_contract_alone_passes_the_contract_test():
    """Pig (``tests/games/pig``) touches nothing outside its package: one registration line,
    and the project's own contract test finds and checks every variant and seat range of it."""
    before = test_contract.tables()
    with registered(PIG):
        tables = [table for table in test_contract.tables() if table not in before]
        assert {(table.game, table.variant, table.seats) for table in tables} == {
            ("pig", "pig", 2), ("pig", "pig", 4), ("pig", "quick", 2), ("pig", "quick", 4)}
        for table in tables:
            test_contract.check(table)
    assert "pig" not in registry.ids()
