"""Every field, action, choice, the dragon, the refill, both endings and the results of
drachenherz, from positions written from the rule text (001) and the rulings."""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest

from fairtable.games.contract import (
    Deal,
    DealStarted,
    Dealt,
    Decide,
    Finished,
    Forfeit,
    GameError,
    Move,
    NextDeal,
    OptionsError,
    PublicRandom,
    RandomValue,
    Result,
    RuleError,
    Shuffle,
    Shuffled,
)
from fairtable.games.drachenherz.catalogue import CARDS, HAND, KINDS, SET
from tests.games.drachenherz.positions import GAME, face, finish_turn, hand_of, play, position, values


def rule(excinfo) -> str:
    return excinfo.value.rule


def refused(state, handles, take=None, seat=None, timeout=False) -> str:
    with pytest.raises(RuleError) as excinfo:
        play(state, handles, take, seat, timeout)
    return rule(excinfo)


# ------------------------------------------------------------------ the set and the setup

RULED = {  # kind: values, from RULINGS.md
    "dwarf": [1, 1, 1, 1, 1, 1, 2, 2, 2, 3],
    "chest": [1, 1, 1, 1, 2, 2, 3],
    "ship": [1, 1, 1, 2, 2, 3],
    "huntress": [1, 1, 2, 2, 3, 3],
    "fire_dragon": [2, 2, 3, 3, 4],
    "troll": [2, 2, 3, 4],
    "princess": [2, 3, 3, 4],
    "hero": [2, 3, 3, 4],
    "fossil": [3, 3, 4, 4],
}


def test_the_set_holds_the_ruled_kinds_counts_and_values():
    assert len(SET) == 50 and [card.id for card in CARDS] == list(range(50))
    assert {kind: sorted(c.value for c in CARDS if c.kind == kind) for kind in KINDS} == RULED
    assert {kind.id: kind.slots for kind in KINDS.values()} == {
        "chest": None, "fire_dragon": None, "huntress": 3, "fossil": None, "princess": None,
        "hero": 2, "troll": None, "dwarf": 4, "ship": 3,
    }
    assert [kind.name for kind in KINDS.values()] == [
        "Schatkist", "Vuurdraak", "Drakenjaagster", "Drakenfossiel", "Prinses", "Held", "Trol", "Dwerg", "Schip"]


def test_a_game_starts_with_who_starts_two_joint_shuffles_and_hands_of_five():
    state = GAME.setup("standard", {}, 2)
    assert GAME.pending(state) == PublicRandom(2)
    state = GAME.apply(state, RandomValue(1))
    assert GAME.pending(state) == Shuffle(SET, 0)  # seat 0's set, shuffled by both seats (seats=())
    state = GAME.apply(state, Shuffled())
    assert GAME.pending(state) == Shuffle(SET, 50)
    state = GAME.apply(state, Shuffled())
    assert GAME.pending(state) == Deal(((0, (0, 1, 2, 3, 4)), (1, (50, 51, 52, 53, 54))))
    state = GAME.apply(state, Dealt({}))
    assert GAME.pending(state) == Decide(1, timed=True)
    assert [len(pile) for pile in state.piles] == [45, 45] and state.piles[0][0] == 5


def test_options_are_checked():
    for options, words in [({"match": 2, "sumof": 3}, "exclude each other"), ({"match": -1}, "'match'"),
                           ({"sumof": "3"}, "'sumof'"), ({"rounds": 3}, "unknown option 'rounds'")]:
        with pytest.raises(OptionsError, match=words):
            GAME.setup("standard", options, 2)
    with pytest.raises(OptionsError, match="exactly 2 seats"):
        GAME.setup("standard", {}, 3)
    assert GAME.pending(GAME.setup("standard", {"turn_seconds": 0}, 2)) == PublicRandom(2)


def test_shuffled_faces_must_be_the_set():
    state = GAME.apply(GAME.setup("standard", {}, 2), RandomValue(0))
    with pytest.raises(RuleError) as excinfo:
        GAME.apply(state, Shuffled({h: 0 for h in range(50)}))
    assert rule(excinfo) == "drachenherz.shuffle"
    full = GAME.apply(state, Shuffled({h: h for h in range(50)}))
    assert full.faces[7] == 7


# ------------------------------------------------------------------ fields and actions

def test_treasure_chests_and_petrified_dragons_just_stack():
    state = position(("ch1", "ch2", "pd3"), board={"chest": ["ch3"], "fossil": ["pd4"]})
    after = play(state, hand_of(state, 0, "ch1", "ch2"))
    assert values(after, "chest") == [1, 2, 3] and after.collected == ((), ())
    assert GAME.pending(after) == Deal(((0, after.piles[0][:4]),))  # the one card left, refilled to 5
    fossil = play(state, hand_of(state, 0, "pd3"))
    assert values(fossil, "fossil") == [3, 4] and fossil.collected == ((), ()) and fossil.dragon is None


def test_a_fire_dragon_takes_all_chests_and_stays():
    state = position(("fd2", "fd3"), board={"chest": ["ch1", "ch3"], "fire_dragon": ["fd4"]})
    after = play(state, hand_of(state, 0, "fd2", "fd3"))
    assert values(after, "chest") == [] and values(after, "fire_dragon") == [2, 3, 4]
    assert sorted(CARDS[after.faces[h]].value for h in after.collected[0]) == [1, 3]
    assert after.recent[-1].taken == (face("ch1"), face("ch3"))


def test_the_third_huntress_takes_all_fire_dragons_then_the_huntresses_go_to_the_special_field():
    state = position(("hu1", "hu2", "hu3"), board={"huntress": ["hu1"], "fire_dragon": ["fd2", "fd4"], "special": ["he3"]})
    one = play(state, hand_of(state, 0, "hu2"))
    assert values(one, "huntress") == [1, 2] and values(one, "fire_dragon") == [2, 4] and one.collected == ((), ())
    both = play(state, hand_of(state, 0, "hu2", "hu3"))
    assert values(both, "huntress") == [] and values(both, "fire_dragon") == []
    assert values(both, "special") == [1, 2, 3, 3]  # the hero 3 that was there, and the three huntresses
    assert sorted(CARDS[both.faces[h]].value for h in both.collected[0]) == [2, 4]


def test_a_slotted_field_takes_no_more_cards_than_its_free_slots():
    state = position(("hu1", "hu2", "dw1", "dw1", "dw2"), board={"huntress": ["hu1", "hu3"], "dwarf": ["dw1", "dw2"]})
    assert refused(state, hand_of(state, 0, "hu1", "hu2")) == "drachenherz.slots"
    assert refused(state, hand_of(state, 0, "dw1", "dw1", "dw2")) == "drachenherz.slots"
    legal = GAME.legal_moves(state, 0)
    assert all(len(move["play"]) <= 2 for move in legal)
    assert {"play": sorted(hand_of(state, 0, "dw1", "dw2"))} in legal


def test_a_princess_takes_all_chests_or_all_petrified_dragons_never_both():
    board = {"chest": ["ch1", "ch2"], "fossil": ["pd3", "pd4"]}
    state = position(("pr2", "pr3"), board=board)
    princesses = hand_of(state, 0, "pr2", "pr3")
    chests = play(state, princesses, "chest")
    assert values(chests, "chest") == [] and values(chests, "fossil") == [3, 4] and chests.dragon is None
    assert values(chests, "princess") == [2, 3]
    fossils = play(state, princesses, "fossil")
    assert values(fossils, "chest") == [1, 2] and values(fossils, "fossil") == [] and fossils.dragon == 0
    assert fossils.recent[-1].dragon and fossils.recent[-1].take == "fossil"
    for take in (None, "troll", "special"):
        assert refused(state, princesses, take) == "drachenherz.take"
    legal = [move for move in GAME.legal_moves(state, 0) if len(move["play"]) == 2]
    assert [move.get("take") for move in legal] == ["chest", "fossil"]


@pytest.mark.parametrize("kind, play_codes, board, full, empty", [
    ("princess", ("pr2",), {"chest": ["ch1"]}, "chest", "fossil"),
    ("princess", ("pr2",), {"fossil": ["pd3"]}, "fossil", "chest"),
    ("hero", ("he2",), {"hero": ["he4"], "troll": ["tr3"]}, "troll", "princess"),
    ("hero", ("he2",), {"hero": ["he4"], "princess": ["pr3"]}, "princess", "troll"),
])
def test_a_choice_is_only_between_piles_that_hold_cards_and_the_timer_takes_one(kind, play_codes, board, full, empty):
    """Actions are compulsory: naming the empty pile while the other holds cards would take nothing."""
    state = position((*play_codes, "dw1"), board=board)
    cards = hand_of(state, 0, *play_codes)
    assert refused(state, cards, empty) == "drachenherz.take" and refused(state, cards) == "drachenherz.take"
    with pytest.raises(RuleError, match=r"must take the .* hold no cards, and the action is compulsory"):
        play(state, cards, empty)
    assert [move.get("take") for move in GAME.legal_moves(state, 0) if move["play"] == list(cards)] == [full]
    after = play(state, cards, full)
    assert values(after, full) == [] and len(after.collected[0]) == 1
    assert GAME.default_move(state, 0)["take"] == full


def test_with_both_piles_empty_a_princess_names_none():
    state = position(("pr2",))
    princess = hand_of(state, 0, "pr2")
    assert [move.get("take") for move in GAME.legal_moves(state, 0)] == [None]
    assert values(play(state, princess), "princess") == [2]
    for take in ("chest", "fossil"):
        assert refused(state, princess, take) == "drachenherz.take"
    assert "take" not in GAME.default_move(state, 0)


def test_a_troll_takes_all_princesses():
    state = position(("tr2",), board={"princess": ["pr3", "pr4"], "troll": ["tr4"]})
    after = play(state, hand_of(state, 0, "tr2"))
    assert values(after, "princess") == [] and values(after, "troll") == [2, 4]
    assert sorted(CARDS[after.faces[h]].value for h in after.collected[0]) == [3, 4]


def test_the_second_hero_takes_all_princesses_or_all_trolls_then_the_heroes_go_to_the_special_field():
    state = position(("he2", "he3"), board={"hero": ["he4"], "princess": ["pr2"], "troll": ["tr3", "tr4"]})
    hero = hand_of(state, 0, "he2")
    trolls = play(state, hero, "troll")
    assert values(trolls, "troll") == [] and values(trolls, "princess") == [2]
    assert values(trolls, "hero") == [] and values(trolls, "special") == [2, 4]
    princesses = play(state, hero, "princess")
    assert values(princesses, "princess") == [] and values(princesses, "troll") == [3, 4]
    assert refused(state, hero) == "drachenherz.take"
    # The first hero does nothing yet, so it has no choice to make.
    alone = position(("he2", "he3"), board={"troll": ["tr3"]})
    assert values(play(alone, hand_of(alone, 0, "he2")), "hero") == [2]
    assert refused(alone, hand_of(alone, 0, "he2"), "troll") == "drachenherz.take"
    both = play(alone, hand_of(alone, 0, "he2", "he3"), "troll")
    assert values(both, "special") == [2, 3] and len(both.collected[0]) == 1


def test_the_fourth_dwarf_takes_the_four_dwarves():
    state = position(("dw1", "dw3"), board={"dwarf": ["dw1", "dw2"]})
    after = play(state, hand_of(state, 0, "dw1", "dw3"))
    assert values(after, "dwarf") == [] and sorted(CARDS[after.faces[h]].value for h in after.collected[0]) == [1, 1, 2, 3]
    three = play(state, hand_of(state, 0, "dw1"))
    assert values(three, "dwarf") == [1, 1, 2] and three.collected == ((), ())


def test_the_third_ship_takes_the_special_field_and_leaves_the_game_with_a_mark():
    state = position(("sh1", "sh3"), board={"ship": ["sh2"], "special": ["hu1", "hu2", "he4"]})
    after = play(state, hand_of(state, 0, "sh1", "sh3"))
    assert values(after, "ship") == [] and values(after, "special") == [] and after.marks == 1
    assert sorted(CARDS[after.faces[h]].value for h in after.collected[0]) == [1, 2, 4]
    assert len(after.out) == 3 and not set(after.out) & set(after.collected[0])
    empty = position(("sh1",), board={"ship": ["sh2", "sh2"]})
    assert play(empty, hand_of(empty, 0, "sh1")).marks == 1  # an empty special field still gives the mark


def test_a_play_is_one_kind_from_the_hand_in_a_well_formed_move():
    state = position(("ch1", "dw1", "dw2"))
    assert refused(state, hand_of(state, 0, "ch1", "dw1")) == "drachenherz.kind"
    assert refused(state, state.hands[1][:1]) == "drachenherz.hand"
    assert refused(state, ()) == "drachenherz.pass"
    handles = hand_of(state, 0, "dw1", "dw2")
    for move in ({"play": list(handles)[::-1]}, {"play": [handles[0], handles[0]]}, {"play": handles[0]}, {"cards": []},
                 {"play": list(handles), "extra": 1}, {"play": list(handles), "timeout": False}, [handles[0]]):
        with pytest.raises(RuleError) as excinfo:
            GAME.apply(state, Move(0, move, {h: state.faces[h] for h in handles}))
        assert rule(excinfo) == "drachenherz.move"
    with pytest.raises(RuleError) as excinfo:
        GAME.apply(state, Move(0, {"play": [handles[0]]}, {}))
    assert rule(excinfo) == "drachenherz.reveal"
    with pytest.raises(RuleError) as excinfo:
        GAME.apply(state, Move(0, {"play": [handles[0]]}, {handles[0]: face("dw3")}))
    assert rule(excinfo) == "drachenherz.face"
    with pytest.raises(RuleError) as excinfo:
        GAME.apply(state, Move(1, {"play": [state.hands[1][0]]}, {state.hands[1][0]: face("dw1")}))
    assert rule(excinfo) == "drachenherz.turn"


def test_an_empty_hand_plays_nothing():
    state = position((), piles=(0, 20), left=2)
    assert GAME.legal_moves(state, 0) == ({"play": []},)
    after = GAME.apply(state, Move(0, {"play": []}))
    assert after.turn == 1 and after.left == 1


def test_legal_moves_are_the_distinct_plays_of_the_known_hand():
    state = position(("dw1", "dw1", "dw2", "pr3", "he2"), board={"hero": ["he3"], "chest": ["ch1"], "fossil": ["pd3"],
                                                                 "princess": ["pr2"], "troll": ["tr2"]})
    moves = GAME.legal_moves(state, 0)
    plays = Counter(tuple(sorted(CARDS[state.faces[h]].value for h in move["play"])) + (move.get("take"),) for move in moves)
    assert max(plays.values()) == 1  # two dwarves of 1 are one play, whichever handles
    assert len(moves) == 5 + 2 + 2  # dwarves 1, 2, 11, 12, 112; princess x 2 fields; hero x 2 fields
    for move in moves:
        GAME.apply(state, Move(0, move, {h: state.faces[h] for h in move["play"]}))
    assert GAME.legal_moves(state, 1) == ()
    blind = dataclasses.replace(state, faces={})
    assert GAME.legal_moves(blind, 0) == ()


# ------------------------------------------------------------------ refill and the dragon

def test_only_the_mover_refills_to_five_and_six_with_the_dragon():
    state = position(("ch1", "ch1", "ch2", "dw1", "dw1"), other=("dw1", "dw2"))
    after = play(state, hand_of(state, 0, "ch1", "ch1", "ch2"))
    assert GAME.pending(after) == Deal(((0, state.piles[0][:3]),))
    after = finish_turn(after)
    assert [len(hand) for hand in after.hands] == [HAND, 2] and after.turn == 1 and len(after.piles[0]) == 17
    holder = position(("ch1", "ch1", "ch2", "dw1", "dw1", "dw2"), dragon=0)
    assert GAME.pending(play(holder, hand_of(holder, 0, "ch1"))) == Deal(((0, holder.piles[0][:1]),))
    short = position(("ch1", "ch2"), piles=(1, 20))
    after = finish_turn(play(short, hand_of(short, 0, "ch1", "ch2")))
    assert len(after.hands[0]) == 1 and after.piles[0] == ()


def test_taking_the_first_petrified_dragon_brings_the_dragon_without_a_card_back():
    state = position(("pr3", "ch1", "ch1", "ch1", "ch1"), board={"fossil": ["pd3"]})
    after = play(state, hand_of(state, 0, "pr3"), "fossil")
    assert after.dragon == 0 and after.giving is None
    assert GAME.pending(after) == Deal(((0, state.piles[0][:2]),))  # refilled to 6
    after = finish_turn(after)
    assert len(after.hands[0]) == 6 and GAME.view(after, None)["players"][0]["dragon"]


def test_the_dragon_changing_owner_sends_a_random_hand_card_of_the_old_owner_on_top_of_its_pile():
    other = ("dw1", "dw2", "dw3", "tr2", "tr3", "hu1")
    state = position(("pr4", "ch1"), other=other, board={"fossil": ["pd4"]}, dragon=1)
    after = play(state, hand_of(state, 0, "pr4"), "fossil")
    assert after.dragon == 0 and after.giving == 1
    assert GAME.pending(after) == PublicRandom(6)  # a public index over the old owner's six hand positions
    with pytest.raises(RuleError) as excinfo:
        GAME.apply(after, RandomValue(6))
    assert rule(excinfo) == "drachenherz.random"
    back = GAME.apply(after, RandomValue(3))
    handle = state.hands[1][3]  # the troll of 2
    assert back.piles[1][0] == handle and handle not in back.hands[1] and len(back.hands[1]) == 5
    assert back.returned == (handle,)
    assert GAME.pending(back) == Deal(((0, state.piles[0][:5]),))  # then the mover refills to 6
    back = finish_turn(back)
    assert len(back.hands[0]) == 6 and back.turn == 1
    # The old owner plays with five now, and draws the put-back card again first.
    moved = finish_turn(play(back, hand_of(back, 1, "dw1")))
    assert GAME.pending(play(back, hand_of(back, 1, "dw1"))) == Deal(((1, (handle,)),))
    assert handle in moved.hands[1] and moved.returned == () and len(moved.hands[1]) == 5


def test_the_put_back_card_is_its_owner_s_knowledge_only():
    other = ("dw1", "dw2", "dw3", "tr2", "tr3", "hu1")
    state = position(("pr4",), other=other, board={"fossil": ["pd4"]}, dragon=1)
    owner = dataclasses.replace(state, faces={h: f for h, f in state.faces.items() if h not in state.hands[0]})
    mover = dataclasses.replace(state, faces={h: f for h, f in state.faces.items() if h not in state.hands[1]})
    princess = hand_of(state, 0, "pr4")
    shown = {princess[0]: state.faces[princess[0]]}
    handle = state.hands[1][4]
    views = []
    for known in (state, owner, mover):
        after = GAME.apply(GAME.apply(known, Move(0, {"play": list(princess), "take": "fossil"}, shown)), RandomValue(4))
        views.append(after)
    full, own, theirs = views
    assert handle in own.faces and handle not in theirs.faces
    assert GAME.view(own, 1)["pile_top"] == [face("tr3")] == GAME.view(full, 1)["pile_top"]
    assert GAME.view(theirs, 0)["players"][1]["returned"] == 1 and GAME.view(theirs, 0)["pile_top"] == []
    assert GAME.view(theirs, None) == GAME.view(own, None) == GAME.view(full, None)


def test_the_dragon_stays_when_its_holder_takes_petrified_dragons():
    state = position(("pr4", "ch1"), board={"fossil": ["pd3"]}, dragon=0)
    after = play(state, hand_of(state, 0, "pr4"), "fossil")
    assert after.dragon == 0 and after.giving is None and not after.recent[-1].dragon


def test_an_old_owner_with_an_empty_hand_puts_nothing_back():
    state = position(("pr4",), other=(), board={"fossil": ["pd3"]}, dragon=1)
    after = play(state, hand_of(state, 0, "pr4"), "fossil")
    assert after.dragon == 0 and after.giving is None and isinstance(GAME.pending(after), Deal)


# ------------------------------------------------------------------ the end

def test_after_the_third_ship_mark_the_other_seat_plays_one_last_turn():
    state = position(("sh1", "ch1"), board={"ship": ["sh2", "sh3"]}, marks=2, collected=(("fd4",), ("dw1",)))
    after = finish_turn(play(state, hand_of(state, 0, "sh1")))
    assert after.marks == 3 and after.left == 1 and GAME.pending(after) == Decide(1)
    last = finish_turn(play(after, after.hands[1][:1]))
    assert GAME.pending(last) == Finished(Result((0,), "points", (4, 1)))


def test_a_used_up_pile_ends_the_game_after_that_seat_s_next_turn_and_the_other_s_last_turn():
    state = position(("ch1", "ch1", "ch1", "ch1", "ch1"), other=("ch2",) * 5, piles=(2, 20))
    state = finish_turn(play(state, state.hands[0][:2]))  # the pile runs out as seat 0 refills
    assert state.piles[0] == () and state.left == 3
    for seat, left in [(1, 2), (0, 1)]:
        assert GAME.pending(state) == Decide(seat)
        state = finish_turn(play(state, state.hands[seat][:1]))
        assert state.left == left
    assert GAME.pending(state) == Decide(1)
    state = finish_turn(play(state, state.hands[1][:1]))
    assert isinstance(GAME.pending(state), Finished) and state.left == 0


def test_the_third_ship_mark_cuts_a_pile_ending_short():
    state = position(("sh1",), other=("ch1",), board={"ship": ["sh2", "sh3"]}, marks=2, left=3, piles=(0, 20))
    state = finish_turn(play(state, state.hands[0]))
    assert state.left == 1  # not 2: the other seat's last turn ends the game
    state = finish_turn(play(state, state.hands[1]))
    assert isinstance(GAME.pending(state), Finished)


@pytest.mark.parametrize("collected, dragon, winners, reason, scores", [
    ((("fd4",), ("dw1",)), None, (0,), "points", (4, 1)),
    ((("dw1",), ("fd2", "pr3")), 0, (1,), "points", (4, 5)),  # the dragon's 3 points count
    ((("fd4", "fd2"), ("pr3",)), 1, (1,), "dragon", (6, 6)),  # equal points: the dragon wins
    ((("fd2",), ("fd2",)), None, (), "draw", (2, 2)),
])
def test_most_points_win_a_tie_goes_to_the_dragon_without_one_a_draw(collected, dragon, winners, reason, scores):
    state = position(("ch1",), other=("ch1",), collected=collected, dragon=dragon, left=1)
    state = finish_turn(play(state, state.hands[0]))
    assert GAME.pending(state) == Finished(Result(winners, reason, scores))


def test_a_forfeit_loses_the_game():
    state = position(collected=(("fd4",), ()))
    assert GAME.pending(GAME.apply(state, Forfeit(0, "resigned"))) == Finished(Result((1,), "forfeit: resigned", (4, 0)))
    with pytest.raises(RuleError) as excinfo:
        GAME.apply(state, Forfeit(2, "resigned"))
    assert rule(excinfo) == "drachenherz.seat"
    over = GAME.apply(state, Forfeit(1, "absent"))
    with pytest.raises(RuleError) as excinfo:
        GAME.apply(over, Forfeit(0, "resigned"))
    assert rule(excinfo) == "drachenherz.over"


# ------------------------------------------------------------------ the timer

def test_the_timer_plays_the_first_hand_card_alone_taking_the_first_field():
    state = position(("pr3", "ch1"), board={"fossil": ["pd3"], "chest": ["ch2"]})
    assert GAME.default_move(state, 0) == {"play": [state.hands[0][0]], "take": "chest", "timeout": True}
    after = GAME.apply(state, Move(0, GAME.default_move(state, 0), {state.hands[0][0]: face("pr3")}))
    assert after.timeouts == (1, 0) and after.recent[-1].timeout and after.dragon is None
    first = state.hands[0][:1]
    assert refused(state, first, "fossil", timeout=True) == "drachenherz.timeout"
    assert refused(state, state.hands[0][1:], timeout=True) == "drachenherz.timeout"
    # The other seat knows neither card, yet it sees the timer's card is not the first one.
    blind = dataclasses.replace(state, faces={})
    second = state.hands[0][1]
    with pytest.raises(RuleError) as excinfo:
        GAME.apply(blind, Move(0, {"play": [second], "timeout": True}, {second: face("ch1")}))
    assert rule(excinfo) == "drachenherz.timeout"
    untimed = position(("pr3",), options={"turn_seconds": 0})
    assert GAME.pending(untimed) == Decide(0, timed=False)
    assert refused(untimed, untimed.hands[0], "chest", timeout=True) == "drachenherz.timer"
    with pytest.raises(GameError):
        GAME.default_move(dataclasses.replace(state, faces={}), 0)
    assert GAME.default_move(position(()), 0) == {"play": [], "timeout": True}


def test_consecutive_timeouts_lose_and_a_move_in_time_resets_the_count():
    state = position(("ch1", "ch1"), options={"max_timeouts": 2}, timeouts=(1, 0))
    lost = play(state, state.hands[0][:1], timeout=True)
    assert GAME.pending(lost) == Finished(Result((1,), "timeouts", (0, 0)))
    in_time = play(state, state.hands[0][:1])
    assert in_time.timeouts == (0, 0) and in_time.result is None


# ------------------------------------------------------------------ matches

def end_game(state, collected):
    """Play the last turn of the game in progress with ``collected`` as each seat's haul."""
    state = dataclasses.replace(position(collected=collected, left=1, turn=state.turn), deal=state.deal, first=state.first,
                                wins=state.wins, totals=state.totals, options=state.options, timeouts=state.timeouts)
    return finish_turn(play(state, state.hands[state.turn]))


def test_match_first_to_x_wins_with_fresh_games_and_alternating_starters():
    state = GAME.apply(GAME.setup("standard", {"match": 2}, 2), RandomValue(1))
    assert state.turn == 1
    state = end_game(state, (("fd4",), ()))
    game1 = Result((0,), "points", (4, 0))
    assert GAME.pending(state) == NextDeal(game1)
    state = GAME.apply(state, DealStarted())
    assert state.turn == 0 and state.deal == 1 and state.wins == (1, 0) and state.board["chest"] == ()
    assert GAME.pending(state) == Shuffle(SET, 0)  # a fresh game: new piles, no new "who starts"
    state = end_game(state, (("fd2",), ("fd2",)))  # a draw counts for nobody
    assert state.wins == (1, 0) and GAME.pending(state) == NextDeal(Result((), "draw", (2, 2)))
    state = GAME.apply(state, DealStarted())
    assert state.turn == 1
    state = end_game(state, (("fd3",), ()))
    assert GAME.pending(state) == Finished(Result((0,), "match", (2, 0)), Result((0,), "points", (3, 0)))


def test_sumof_plays_x_games_and_the_highest_total_wins():
    state = GAME.apply(GAME.setup("standard", {"sumof": 2}, 2), RandomValue(0))
    state = end_game(state, (("fd4",), ("dw1",)))
    assert GAME.pending(state) == NextDeal(Result((0,), "points", (4, 1)))
    state = GAME.apply(state, DealStarted())
    state = end_game(state, (("dw1",), ("fd4", "fd2")))
    assert GAME.pending(state) == Finished(Result((1,), "sumof", (5, 7)), Result((1,), "points", (1, 6)))


def test_sumof_equal_totals_are_a_draw_and_count_the_dragon():
    state = position(collected=(("fd3", "ch3"), ("fd3",)), left=1, dragon=1, options={"sumof": 1})
    state = finish_turn(play(state, state.hands[0]))
    assert GAME.pending(state) == Finished(Result((), "sumof", (6, 6)), Result((1,), "dragon", (6, 6)))


def test_a_forfeit_in_a_match_ends_the_match():
    state = dataclasses.replace(position(options={"match": 3}, collected=(("fd4",), ())), wins=(2, 1))
    over = GAME.apply(state, Forfeit(0, "absent"))
    assert GAME.pending(over) == Finished(Result((1,), "forfeit: absent", (2, 1)), Result((1,), "forfeit: absent", (4, 0)))
    between = end_game(dataclasses.replace(state, wins=(0, 0)), (("fd4",), ()))
    assert isinstance(GAME.pending(between), NextDeal)
    left = GAME.apply(between, Forfeit(1, "resigned"))
    assert GAME.pending(left) == Finished(Result((0,), "forfeit: resigned", (1, 0)), Result((0,), "points", (4, 0)))

