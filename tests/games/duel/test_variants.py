"""Blind play, the free-for-all and the draft, from positions written from the rule text."""

from __future__ import annotations

import dataclasses

import pytest

from fairtable.games import registry
from fairtable.games.contract import (
    Deal,
    Dealt,
    Decide,
    Finished,
    Forfeit,
    GameError,
    Move,
    OptionsError,
    PrivateDraw,
    PublicRandom,
    Result,
    Reveal,
    RuleError,
    Shuffle,
    ShuffleOwned,
)
from fairtable.games.duel import draft
from fairtable.games.duel.catalogue import CARDS, IDS
from fairtable.games.duel.decks import drawn_cards
from fairtable.games.texts import say
from tests.games.duel.positions import GAME, Table, start_1v1
from tests.games.duel.test_match import DECK_0, DECK_1, STRIKERS

# ------------------------------------------------------------------ blind play


def test_blind_cards_lie_face_down_unknown_to_their_owner_and_a_public_value_picks_which_turn_over():
    table = start_1v1([DECK_0, DECK_1], first=0, variant="blind")
    assert table.pending == PublicRandom(36) and table.full.step == "pick"
    for seat, state in enumerate(table.seats):
        assert state.players[seat].hand == tuple(range(seat * 20, seat * 20 + 6))  # laid out without a deal
        assert not set(state.faces)  # nobody knows a face, the owner included
        assert all(entry["card"] is None for entry in GAME.view(state, seat)["hand_cards"])
    table.random(2 * 6 + 4)  # the attacker's third card, the defender's fifth
    assert table.pending == Reveal((2, 24))
    table.settle()
    assert table.full.recent[-1].attack == DECK_0[2] and table.full.recent[-1].defence == DECK_1[4]
    assert [len(p.hand) for p in table.full.players] == [5, 5] and table.pending == PublicRandom(25)
    assert table.full.attacker == 1 and all(set(state.faces) == {2, 24} for state in table.seats)
    for bound in (25, 16, 9, 4):
        assert table.pending == PublicRandom(bound)
        table.random(0)
        table.settle()
    assert [type(e).__name__ for e in table.events[-3:]] == ["RandomValue", "Revealed", "Revealed"]  # one card each: no value
    assert table.full.round == 2 and table.full.starter == 1 and table.pending == PublicRandom(36)


def test_blind_the_lowest_scorer_of_the_last_round_may_attack_first():
    walls = [c.id for c in CARDS if c.defence >= 290][:6]  # seat 0 loses its attacks, holds every defence
    table = start_1v1([[*walls, *DECK_0[6:]], DECK_1], first=0, variant="blind", options={"round_starter": "lowest"})
    for _ in range(6):
        if isinstance(table.pending, PublicRandom):
            table.random(0)
        table.settle()
    low = min((0, 1), key=lambda seat: table.full.players[seat].points)
    assert table.full.players[0].points != table.full.players[1].points and table.full.starter == low


def test_blind_swap_after_round_draws_two_cards_privately_and_rebuilds_the_deck():
    table = start_1v1([DECK_0, DECK_1], first=0, variant="blind", options={"swap_after_round": True})
    for _ in range(6):
        if isinstance(table.pending, PublicRandom):
            table.random(0)
        table.settle()
    assert table.pending == PrivateDraw(0, 88, 1, 40)
    table.draws = [0, 86]
    table.settle()
    assert table.pending == ShuffleOwned(0, 14, IDS, 42)
    drawn = drawn_cards(DECK_0, (0, 86))
    assert drawn == (min(set(IDS) - set(DECK_0)), max(set(IDS) - set(DECK_0)))
    own, other = table.seats[0], table.seats[1]
    assert GAME.view(own, 0)["swap_draws"] == list(drawn) and GAME.view(other, 1)["swap_draws"] is None
    left = sorted(DECK_0[6:])
    assert (GAME.view(own, 0)["deck_size"], GAME.view(own, 0)["deck_base"]) == (14, left)  # what a client offers to build
    assert GAME.view(other, 1)["deck_base"] == sorted(DECK_1[6:]) and GAME.view(own, None)["deck_base"] is None
    for good in (left, sorted(left[2:] + list(drawn)), sorted(left[1:] + [drawn[1]])):
        GAME.check_composition(own, 0, tuple(good))
    stranger = next(c for c in IDS if c not in DECK_0 and c not in drawn)
    for bad, words, said in (
            (sorted(left[1:] + [DECK_0[0]]), "takes",
             f"{CARDS[DECK_0[0]].name_en} may not go in: a rebuilt deck takes your own cards and those drawn for the swap"),
            (sorted(left[1:]), "14 distinct cards", "a rebuilt deck holds 14 different cards, not 13"),
            (sorted(left[1:] + [stranger]), "takes", f"{CARDS[stranger].name_en} may not go in")):
        with pytest.raises(RuleError) as error:
            GAME.check_composition(own, 0, tuple(bad))
        assert error.value.rule == "duel.rebuild" and words in str(error.value)
        assert say(error.value.refusal).startswith(said)  # the rule's own words, not "rule duel.rebuild"
    GAME.check_composition(other, 0, tuple(sorted(left[1:] + [DECK_0[0]])))  # another seat cannot know
    assert GAME.view(own, 0)["deck_choices"] == sorted(left + list(drawn))  # the rules' list, not a client's
    listed = "\n".join(CARDS[card].name_en for card in sorted(left[2:] + list(drawn)))
    assert GAME.read_composition(own, 0, listed) == tuple(sorted(left[2:] + list(drawn)))
    with pytest.raises(RuleError) as error:  # a pasted list is checked as the deck it names
        GAME.read_composition(own, 0, "\n".join(CARDS[card].name for card in sorted(left[1:] + [DECK_0[0]])))
    assert error.value.rule == "duel.rebuild"
    with pytest.raises(GameError, match="a deck holds exactly 14"):  # the size this deck must have
        GAME.read_composition(own, 0, "\n".join(CARDS[card].name for card in left[1:]))
    table.orders = [sorted(left[2:] + list(drawn))]
    table.settle()
    assert sorted(table.full.players[0].cards) == sorted(DECK_0[:6] + left[2:] + list(drawn))
    assert table.seats[0].players[0].cards == table.full.players[0].cards and table.seats[1].players[0].cards is None
    assert table.pending == PrivateDraw(1, 88, 1, 56)


def test_blind_reshuffle_every_round_puts_the_used_cards_back():
    table = start_1v1([DECK_0, DECK_1], first=0, variant="blind", options={"reshuffle_every": 1})
    for _ in range(6):
        if isinstance(table.pending, PublicRandom):
            table.random(0)
        table.settle()
    assert table.pending == ShuffleOwned(0, 20, IDS, 40)
    GAME.check_composition(table.seats[0], 0, tuple(sorted(DECK_0)))


# ------------------------------------------------------------------ free-for-all


def ffa(seats: int = 4, options: dict | None = None, first: int = 2) -> Table:
    table = Table("ffa", options, seats)
    table.orders = [STRIKERS[seat : seat + 20] for seat in range(seats)]
    table.settle()
    table.random(first)
    table.settle()
    return table


def test_ffa_seats_attack_in_order_a_target_of_their_choice_and_both_duellists_refill():
    table = ffa()
    assert table.pending == Decide(2, timed=True)
    moves = GAME.legal_moves(table.full, 2)
    assert len(moves) == 6 * 3 and {m["target"] for m in moves} == {0, 1, 3}
    table.move(2, {"attack": table.full.players[2].hand[0], "target": 0})
    assert table.pending == Decide(0, timed=True)
    table.move(0, {"defend": table.full.players[0].hand[0]})
    assert table.pending == Deal(((0, (6,)), (2, (46,))))
    table.settle()
    assert [len(p.hand) for p in table.full.players] == [6, 6, 6, 6] and table.full.players[2].points == 2
    attackers = [2]
    while not isinstance(table.pending, Finished):
        attacker = table.full.attacker
        attackers.append(attacker)
        target = (attacker + 1) % 4
        table.duel(table.hand(attacker)[0], table.hand(target)[0], target=target)
    assert attackers == [2, 3, 0, 1] * 3  # 3 cycles: 12 duels with 4 seats
    result = table.pending.result
    assert result.reason == "points" and len(result.scores) == 12 and sum(result.scores[:4]) == 24


def test_ffa_quick_variant_plays_two_cycles_and_a_tie_at_the_top_shares_the_win():
    table = ffa(3, {"cycles": 2}, first=0)
    while not isinstance(table.pending, Finished):
        attacker = table.full.attacker
        target = (attacker + 1) % 3
        table.duel(table.hand(attacker)[0], table.hand(target)[0], target=target)
    assert table.full.duel == 6  # 2 cycles of 3
    assert table.pending.result == Result((0, 1, 2), "points", (4, 4, 4, 2, 2, 2, 0, 0, 0))


def test_ffa_a_defender_without_a_card_loses_and_an_attacker_without_one_has_no_turn():
    table = ffa(3, first=0)
    empty = dataclasses.replace(table.full.players[1], hand=(), deck=())
    state = dataclasses.replace(table.full, players=(table.full.players[0], empty, table.full.players[2]))
    handle = state.players[0].hand[0]
    state = GAME.apply(state, Move(0, {"attack": handle, "target": 1}, {handle: table.faces[handle]}))
    assert state.recent[-1].defence is None and state.recent[-1].points == (2, 0) and state.players[0].attacks_won == 1
    assert GAME.pending(state) == Deal(((0, (6,)),))
    state = GAME.apply(state, Dealt({6: table.faces[6]}))
    assert GAME.pending(state) == Decide(2, timed=True) and state.duel == 2  # seat 1 has nothing to attack with


def test_ffa_a_seat_that_leaves_is_out_and_the_others_play_on():
    table = ffa(3, first=0)
    table.apply(Forfeit(0, "resigned"))
    assert table.full.out == (0,) and table.pending == Decide(1, timed=True)
    with pytest.raises(RuleError) as error:
        GAME.apply(table.full, Move(1, {"attack": table.full.players[1].hand[0], "target": 0}, {table.full.players[1].hand[0]: 0}))
    assert error.value.rule == "duel.target"
    while not isinstance(table.pending, Finished):
        attacker = table.full.attacker
        target = 2 if attacker == 1 else 1
        table.duel(table.hand(attacker)[0], table.hand(target)[0], target=target)
    result = table.pending.result
    assert result.losers == (0,) and 0 not in result.winners and result.winners


def test_a_forfeit_in_a_duel_of_two_gives_the_other_seat_the_match():
    table = start_1v1([DECK_0, DECK_1])
    table.apply(Forfeit(1, "resigned"))
    assert table.pending == Finished(Result((0,), "forfeit: resigned", (0, 0, 0, 0, 0, 0)))


# ------------------------------------------------------------------ draft


def test_snake_order():
    assert [draft.picker(1, 3, pick) for pick in range(9)] == [1, 2, 0, 0, 2, 1, 1, 2, 0]
    assert [draft.picker(0, 2, pick) for pick in range(6)] == [0, 1, 1, 0, 0, 1]


def test_the_draft_picks_publicly_in_snake_order_then_shuffles_each_seats_picks():
    table = Table("1v1", {"draft": True})
    assert table.pending == PublicRandom(2)
    table.random(1)
    assert table.pending == Decide(1, timed=True)
    table.move(1, {"pick": 5})
    with pytest.raises(RuleError) as error:
        GAME.apply(table.full, Move(0, {"pick": 5}))
    assert error.value.rule == "duel.pick"
    for _ in range(1, 40):
        seat = GAME.pending(table.full).seat
        table.move(seat, {"pick": draft.pool(table.full.picks)[0]})
    assert GAME.pending(table.full) == Shuffle(tuple(sorted(draft.picks_of(1, 2, table.full.picks, 0))), 0)
    views = [GAME.view(state, seat) for seat, state in enumerate(table.seats)]
    assert views[0]["draft"] == views[1]["draft"] and views[0]["deck_cards"] == views[0]["draft"]["picks"][0]
    table.settle()
    table.random(0)
    table.settle()
    assert table.pending == Decide(0, timed=True) and table.full.players[1].cards == tuple(sorted(draft.picks_of(1, 2, table.full.picks, 1)))


def test_a_timed_out_pick_is_the_pools_best_card_which_everyone_checks():
    table = Table("ffa", {"draft": True}, 3)
    table.random(0)
    best = draft.default_pick(())
    assert GAME.default_move(table.seats[2], 0) == {"pick": best, "timeout": True}
    with pytest.raises(RuleError) as error:
        GAME.apply(table.seats[2], Move(0, {"pick": best + 1, "timeout": True}))
    assert error.value.rule == "duel.timeout"


@pytest.mark.parametrize("variant, options, seats, words", [
    ("ffa", {"draft": True}, 6, "at most 5 seats"),
    ("blind", {"draft": True, "swap_after_round": True}, 2, "cannot go with 'draft'"),
    ("1v1", {"cycles": 2}, 2, "unknown option 'cycles'"),
    ("ffa", {"tie": "accept"}, 3, "unknown option 'tie'"),
    ("ffa", {}, 2, "3 to 6 seats"),
    ("1v1", {"rounds": 0}, 2, "'rounds' must be an integer in 1..9"),
])
def test_options_are_checked(variant, options, seats, words):
    with pytest.raises(OptionsError, match=words):
        GAME.setup(variant, options, seats)


def test_a_first_deck_is_twenty_cards_built_from_nothing():
    view = GAME.view(GAME.setup("1v1", {}, 2), 0)
    assert (view["deck_size"], view["deck_base"], view["deck_choices"]) == (20, None, list(IDS))
    state = GAME.setup("1v1", {}, 2)
    assert GAME.read_composition(state, 0, "\n".join(CARDS[card].name_en for card in IDS[30:50])) == IDS[30:50]


def test_a_game_without_owned_decks_reads_no_deck_list():
    towers = registry.get("towers")
    with pytest.raises(RuleError) as error:
        towers.read_composition(towers.setup("normal", {}, 2), 0, "Great White Shark")
    assert error.value.rule == "contract.composition"
