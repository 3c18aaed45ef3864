"""Duel's own invariants for the contract check (``tests/games/test_contract.py``)."""

from __future__ import annotations

from collections import Counter

from fairtable.games import registry
from fairtable.games.contract import Shuffled, ShuffleOwned
from fairtable.games.duel.results import stats

TABLES = (
    ("1v1", 2, {"tie": "playoff", "rounds": 1}, "greedy"), ("1v1", 2, {"tie": "playoff", "playoff_attacker": "dice", "rounds": 1}, "flaky"),
    ("1v1", 2, {"draft": True, "rounds": 4}, "random"), ("1v1", 2, {"max_timeouts": 1}, "flaky", (0, 1, 2)),
    ("1v1", 2, {"turn_seconds": 0, "rounds": 5}, "greedy"),
    ("blind", 2, {"swap_after_round": True, "rounds": 4}, "greedy"),
    ("blind", 2, {"reshuffle_every": 2, "round_starter": "lowest", "rounds": 5}, "flaky"),
    ("blind", 2, {"draft": True, "tie": "playoff", "rounds": 1}, "random"),
    ("ffa", 5, {"draft": True, "cycles": 2}, "flaky"), ("ffa", 6, {"cycles": 6}, "greedy"), ("ffa", 4, {"max_timeouts": 2}, "flaky"),
)
"""Play-offs, drafts, swaps, reshuffles, round starters, cycles and the timer."""


def invariants(state, request):
    assert len(state.recent) <= 6
    total = sum(p.points for p in state.players)
    offence = sum(p.attacks_won for p in state.players)
    defence = sum(p.defences_won for p in state.players)
    assert total % 2 == 0 and offence + defence <= total // 2
    for seat, player in enumerate(state.players):
        assert len(player.hand) <= 6
        if player.cards is not None and player.built and not (player.reshuffle or player.swap):
            # Conservation: every card of the seat is in its deck, its hand or among its used cards.
            held = Counter(state.faces[h] for h in (*player.deck, *player.hand)) + Counter(player.used)
            assert held == Counter(player.cards), seat


def finished(played, table):
    game = registry.get("duel")
    variant, seats, options = table.variant, table.seats, table.options
    result = played.result
    assert len(result.scores) == 3 * seats and stats(result, seats)
    state = game.setup(variant, options, seats)
    for event in played.events:
        request = game.pending(state)
        if isinstance(event, Shuffled) and isinstance(request, ShuffleOwned):
            game.check_composition(state, request.owner, event.composition)
        state = game.apply(state, event)
    assert not any(deck.flaw for deck in state.decks)
    points = result.scores[:seats]
    if result.reason == "points" and variant != "ffa":
        assert points[result.winners[0]] > points[1 - result.winners[0]]
    if variant == "ffa" and result.reason == "points":
        assert {points[w] for w in result.winners} == {max(points[s] for s in range(seats) if s not in result.losers)}
    for seat, state in enumerate(played.seat_states):
        for other in range(seats):
            if other != seat and not options.get("draft"):
                assert state.players[other].cards is None  # nobody learns another seat's deck during play
        # A seat knows the faces of its hands and of what was played, never of a face-down deck.
        decks = {h for p in state.players for h in p.deck}
        assert not decks & set(state.faces)
