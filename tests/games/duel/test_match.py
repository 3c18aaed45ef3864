"""Rounds, the match result and every tie option of a duel of two; decks that run out."""

from __future__ import annotations

import dataclasses

import pytest

from fairtable.games.contract import Dealt, Decide, Finished, PublicRandom, Result, RuleError, ShuffleOwned
from fairtable.games.duel import render
from fairtable.games.duel.catalogue import CARDS
from fairtable.games.duel.results import match_result, stats
from fairtable.games.lang import speaking
from fairtable.games.texts import say
from tests.games.duel.positions import GAME, Table, card, start_1v1

STRIKERS = [c.id for c in CARDS if c.attack >= 240 and c.defence <= 120]
"""Every attack among these cards beats every defence among them: each seat wins its 3 attacks."""
WALLS = [card("Zeemeermin"), card("Zeester")]
"""Mare, defence 300: only an attack of 300, or an Aria attack, does not lose against them."""
DECK_0 = STRIKERS[:18] + WALLS  # the walls are not drawn in three rounds
DECK_1 = [c for c in STRIKERS if CARDS[c].type != "Aria" and CARDS[c].attack < 300] + [card("Windgeest"), card("Kolibrie")]
"""No attack of 300, and the Aria ones (240, 230) stay below 300 with their bonus."""


def play_round(table: Table) -> None:
    for _ in range(6):
        attacker, defender = table.full.attacker, table.full.defender
        table.duel(table.hand(attacker)[0], table.hand(defender)[0])


def tied_match(options: dict) -> Table:
    table = start_1v1([DECK_0, DECK_1], first=0, options=options)
    for _ in range(3):
        play_round(table)
    return table


def test_a_round_is_six_duels_three_attacks_each_and_rounds_alternate_the_first_attacker():
    table = start_1v1([DECK_0, DECK_1], first=1)
    attackers = []
    for _ in range(6):
        attackers.append(table.full.attacker)
        table.duel(table.hand(table.full.attacker)[0], table.hand(table.full.defender)[0])
    assert attackers == [1, 0, 1, 0, 1, 0]
    assert [p.points for p in table.full.players] == [6, 6] and table.full.round == 2
    assert table.full.attacker == 0 and table.full.starter == 0  # round 2 starts with the other seat
    assert [len(p.hand) for p in table.full.players] == [6, 6] and [len(p.deck) for p in table.full.players] == [8, 8]
    assert [p.used for p in table.full.players] == [tuple(DECK_0[:6]), tuple(DECK_1[:6])]


def test_the_most_points_win_the_match():
    mixed = DECK_0[:3] + [c.id for c in CARDS if c.defence == 300][:3] + DECK_0[3:17]
    table = start_1v1([mixed, DECK_1], first=0, options={"rounds": 1})
    play_round(table)  # seat 0 holds three 300 defences; seat 1 strikes into them
    assert isinstance(table.pending, Finished)
    result = table.pending.result
    assert result.winners == (0,) and result.reason == "points"
    assert stats(result, 2)[0].defences_won >= 1 and result.scores[:2] == (table.full.players[0].points, table.full.players[1].points)


def test_equal_points_go_to_the_most_rounds_won():
    state = GAME.setup("1v1", {}, 2)
    players = (dataclasses.replace(state.players[0], points=18, rounds_won=2), dataclasses.replace(state.players[1], points=18, rounds_won=1))
    assert match_result(dataclasses.replace(state, players=players)) == Result((0,), "rounds", (18, 18, 0, 0, 0, 0))
    players = (players[0], dataclasses.replace(players[1], rounds_won=2))
    assert match_result(dataclasses.replace(state, players=players)) is None


def test_tie_accepted_is_a_draw():
    table = tied_match({"tie": "accept"})
    assert table.pending == Finished(Result((), "draw", (18, 18, 9, 9, 0, 0)))


def test_tie_rematch_plays_a_new_round_reshuffling_the_exhausted_decks():
    table = tied_match({"tie": "rematch"})
    # 2 cards left of 20: the used cards go back in, as a new secret deck of each seat.
    assert table.pending == ShuffleOwned(0, 20, tuple(range(108)), 40)
    own = table.seats[0]
    with pytest.raises(RuleError) as error:
        GAME.check_composition(own, 0, tuple(sorted(DECK_0[:19] + [DECK_1[-1]])))
    assert error.value.rule == "duel.rebuild" and "seat 0" in str(error.value)
    assert say(error.value.refusal) == f"{CARDS[DECK_1[-1]].name_en} may not go in: a rebuilt deck takes no new card"
    with speaking("orig"):
        assert say(error.value.refusal) == f"{CARDS[DECK_1[-1]].name} mag er niet in: een nieuw samengesteld deck neemt geen nieuwe kaart"
    GAME.check_composition(own, 0, tuple(sorted(DECK_0)))
    table.orders = [DECK_0[::-1], DECK_1[::-1]]
    table.settle()
    assert table.full.round == 4 and table.full.tiebreaks == 1 and table.full.starter == 1
    assert all(p.used == () and len(p.deck) == 14 for p in table.full.players)
    assert table.full.players[0].hand == tuple(range(40, 46))
    play_round(table)  # tied again: another rematch
    assert table.full.tiebreaks == 2 and table.full.starter == 0


def test_a_rematch_that_is_won_decides_the_match():
    table = tied_match({"tie": "rematch"})
    table.orders = [WALLS + STRIKERS[:18], DECK_1]
    table.settle()
    assert table.full.attacker == 1
    for defence, attack in zip((WALLS[0], WALLS[1], STRIKERS[0]), STRIKERS[1:4]):  # two attacks held off, three won
        table.duel(table.hand(1)[0], defence)
        table.duel(attack, table.hand(1)[0])
    result = table.pending.result
    assert result.winners == (0,) and result.reason == "rematch" and result.scores[:2] == (28, 20)


def test_drawn_rounds_are_counted_and_said_beside_the_rounds_won_and_in_the_final_standing():
    """Three rounds level on points are won by nobody: "rounds won 0–0" alone would not say why,
    so the board and the finished match say the drawn rounds (through the catalogue's plural)."""
    table = tied_match({"tie": "rematch"})
    assert table.full.drawn == 3 and [p.rounds_won for p in table.full.players] == [0, 0]
    assert "Rounds won" in (board := render.render(GAME.view(table.full, 0))) and "3 rounds drawn" in board
    table.orders = [WALLS + STRIKERS[:18], DECK_1]
    table.settle()
    for defence, attack in zip((WALLS[0], WALLS[1], STRIKERS[0]), STRIKERS[1:4]):
        table.duel(table.hand(1)[0], defence)
        table.duel(attack, table.hand(1)[0])
    view = GAME.view(table.full, None)
    assert view["rounds_drawn"] == 3 and [p["rounds_won"] for p in view["players"]] == [1, 0]
    lines = render.render(view).splitlines()
    assert [line.split() for line in lines if line.startswith("Rounds won")] == [["Rounds", "won", "1", "0", "3", "rounds", "drawn"]]
    assert lines[-2:] == ["Final points 28–20, rounds won 1–0, 3 rounds drawn", "Match over: seat 0 won: the rematch after a tie."]


def test_a_round_won_is_not_drawn():
    mixed = DECK_0[:3] + [c.id for c in CARDS if c.defence == 300][:3] + DECK_0[3:17]
    table = start_1v1([mixed, DECK_1], first=0, options={"rounds": 1})
    play_round(table)
    assert table.full.drawn == 0 and render.standing(GAME.view(table.full, 0)).endswith("rounds won 1–0")


def test_tie_playoff_the_seat_that_defended_the_last_rounds_first_duel_attacks_with_one_drawn_card():
    table = tied_match({"tie": "playoff"})
    assert table.full.recent[0].attacker == 0  # round 3 began with seat 0 attacking
    assert table.events[-1] == Dealt({18: DECK_0[18], 38: DECK_1[18]})  # each draws 1 card
    assert table.pending == Decide(1, timed=True) and table.full.playoff
    assert GAME.legal_moves(table.full, 1) == ({"attack": 38},)
    table.duel(table.hand(1)[0], table.hand(0)[0])  # Windgeest, Aria 240+50, against Zeemeermin's 300
    assert table.pending == Finished(Result((0,), "playoff", (20, 18, 9, 9, 1, 0)))
    assert table.full.recent[-1].playoff


def test_tie_playoff_by_dice_and_a_tied_playoff_is_played_again():
    table = tied_match({"tie": "playoff", "playoff_attacker": "dice"})
    assert table.pending == PublicRandom(2)
    table.random(0)
    table.settle()
    assert table.pending == Decide(0, timed=True)  # the dice chose seat 0
    table.duel(WALLS[0], card("Windgeest"))  # 60 against 140
    assert table.pending.result.winners == (1,)

    equal = [c.id for c in CARDS if c.attack == 200 and c.type == "Mare"][:1]  # Zeeleeuw 200
    guard = [c.id for c in CARDS if c.defence == 200 and c.type == "Mare"][:1]  # Golfruiter 200
    table = start_1v1([DECK_0[:18] + equal + DECK_0[18:19], DECK_1[:18] + guard + DECK_1[18:19]], first=0,
                      options={"tie": "playoff", "playoff_attacker": "dice"})
    for _ in range(3):
        play_round(table)
    table.random(0)
    table.settle()
    table.duel(equal[0], guard[0])  # 200 against 200: 1 each, still tied
    assert table.pending == PublicRandom(2) and table.full.tiebreaks == 2


def test_a_tied_playoff_is_attacked_next_by_the_seat_that_defended_it():
    """The ruling applied to the playoff itself, a round of one duel: the seats take turns."""
    equal = [c.id for c in CARDS if c.attack == 200 and c.type == "Mare"][:1]  # Zeeleeuw 200
    guard = [c.id for c in CARDS if c.defence == 200 and c.type == "Mare"][:1]  # Golfruiter 200
    table = start_1v1([DECK_0[:18] + guard + DECK_0[18:19], DECK_1[:18] + equal + DECK_1[18:19]], first=0, options={"tie": "playoff"})
    for _ in range(3):
        play_round(table)
    assert table.pending == Decide(1, timed=True)  # seat 1 defended round 3's first duel
    table.duel(equal[0], guard[0])  # 200 against 200: 1 each, still tied
    table.settle()
    assert table.full.tiebreaks == 2 and table.full.playoff and table.pending == Decide(0, timed=True)


def test_ties_that_never_break_end_as_a_draw():
    table = tied_match({"tie": "rematch"})
    for _ in range(10):
        table.orders = [DECK_0[::-1], DECK_1[::-1]] * 2
        table.settle()
        if isinstance(table.pending, Finished):
            break
        play_round(table)
    assert table.pending == Finished(Result((), "tie", table.pending.result.scores)) and table.full.tiebreaks == 10


def test_the_rounds_option():
    table = start_1v1([DECK_0, DECK_1], options={"rounds": 2, "tie": "accept"})
    play_round(table)
    play_round(table)
    assert isinstance(table.pending, Finished) and table.full.round == 2


def test_a_short_round_of_three_duels_returns_the_unplayed_cards_to_a_rebuilt_deck():
    """The knock-out format (rulings): 3 rounds of 3 duels; the attacker alternates duel by duel,
    each round starts with the other seat, and the 3 cards left in a hand go back into the deck."""
    table = start_1v1([DECK_0, DECK_1], first=0, options={"rounds": 3, "duels": 3})
    attackers = []
    for _ in range(3):
        attackers.append(table.full.attacker)
        table.duel(table.hand(table.full.attacker)[0], table.hand(table.full.defender)[0])
    assert attackers == [0, 1, 0]
    request = table.pending
    assert isinstance(request, ShuffleOwned) and request.owner == 0 and request.size == 17  # 20 minus the 3 used
    kept = [c for c in DECK_0 if c not in table.full.players[0].used]
    with pytest.raises(RuleError, match=r"duel\.rebuild"):
        GAME.check_composition(table.seats[0], 0, tuple(sorted(kept[:16] + [DECK_1[0]])))
    table.orders = [kept, [c for c in DECK_1 if c not in table.full.players[1].used]]
    table.settle()
    assert table.full.round == 2 and table.full.attacker == 1
    assert [len(p.hand) for p in table.full.players] == [6, 6] and [len(p.deck) for p in table.full.players] == [11, 11]
    for _ in range(6):
        if not isinstance(table.pending, Decide):
            table.orders = [[c for c in deck if c not in p.used] for deck, p in zip((DECK_0, DECK_1), table.full.players)]
            table.settle()
        table.duel(table.hand(table.full.attacker)[0], table.hand(table.full.defender)[0])
    assert isinstance(table.pending, Finished) and table.full.round == 3
    assert sum(len(p.used) for p in table.full.players) == 18  # 9 duels
