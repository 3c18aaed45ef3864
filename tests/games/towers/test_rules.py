"""Turn structure, victory, deck handling, timer and errors of towers, from explicit positions."""

from __future__ import annotations

import dataclasses

import pytest

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
    PrivateDrawn,
    PublicRandom,
    RandomValue,
    Result,
    RuleError,
    Shuffle,
    Shuffled,
)
from fairtable.games.towers.catalogue import BATTLEFIELDS
from fairtable.games.towers.effects import Side
from tests.games.towers.positions import ENEMY_HAND, FILLER, GAME, HAND, discard, play, position

FAERIE, QUARTZ, PRISM, SCOUT, LUCKY, DISCORD, RAINBOW, WORK = 71, 36, 39, 74, 3, 48, 35, 7


def deal(state, faces=None):
    """Answer the pending deal, showing ``faces`` (handle -> face) to this state."""
    request = GAME.pending(state)
    assert isinstance(request, Deal)
    return GAME.apply(state, Dealt(faces or {}))


def rule_of(excinfo) -> str:
    return excinfo.value.rule


# ------------------------------------------------------------------ setup and options


BATTLEFIELD_TEXT = {
    # id: (tower, wall, mines, monasteries, barracks, victory tower, victory resource, ore, mana, soldiers)
    "archmage_citadel": ("Arhimāga citadele", 20, 5, 2, 2, 2, 50, 150, 5, 5, 5),
    "crystal_garden": ("Kristāla dārzs", 20, 10, 3, 3, 3, 75, 200, 5, 5, 5),
    "seaside_fortress": ("Piejūras cietoksnis", 20, 10, 5, 5, 5, 150, 400, 25, 25, 25),
    "azure_valley": ("Debeszilā ieleja", 20, 50, 1, 1, 5, 100, 300, 5, 5, 25),
    "misty_harbour": ("Miglainā osta", 50, 50, 5, 3, 5, 100, 300, 20, 10, 20),
    "wind_square": ("Vēju laukums", 20, 10, 3, 1, 2, 125, 350, 15, 5, 10),
    "free_steppe": ("Brīvā stepe", 20, 10, 1, 1, 1, 200, 500, 15, 15, 15),
    "mirror_labyrinth": ("Spoguļu labirints", 30, 15, 4, 4, 4, 100, 300, 10, 10, 10),
}


@pytest.mark.parametrize("field", sorted(BATTLEFIELD_TEXT))
def test_battlefield_start_and_thresholds(field):
    name, tower, wall, mines, monasteries, barracks, win_tower, win_resource, ore, mana, soldiers = BATTLEFIELD_TEXT[field]
    state = GAME.setup("normal", {"battlefield": field}, 2)
    start = Side(tower, wall, ore, mana, soldiers, mines, monasteries, barracks)
    assert BATTLEFIELDS[field].name == name
    assert state.sides == (start, start)
    # The starting seat gets its income at once.
    started = GAME.apply(state, RandomValue(1))
    assert started.sides[1] == Side(tower, wall, ore + mines, mana + monasteries, soldiers + barracks, mines, monasteries, barracks)
    assert started.sides[0] == start

    # Tower target: one short does not win, reaching it does (Kvarcs: +1 tower, play again).
    below = play(position((QUARTZ,) * 6, me={"tower": win_tower - 2}, options={"battlefield": field}), HAND[0])
    assert below.result is None
    won = play(position((QUARTZ,) * 6, me={"tower": win_tower - 1}, options={"battlefield": field}), HAND[0])
    assert won.result == Result((0,), "tower")
    # Resource target (Laimes monēta: +2 ore, +2 mana).
    short = play(position((LUCKY,) * 6, me={"mana": win_resource - 3}, options={"battlefield": field}), HAND[0])
    assert short.result is None
    rich = play(position((LUCKY,) * 6, me={"mana": win_resource - 2}, options={"battlefield": field}), HAND[0])
    assert rich.result == Result((0,), "resource")


def test_default_options_and_variants():
    state = GAME.setup("normal", {}, 2)
    assert GAME.options_of(state) == {"battlefield": "archmage_citadel", "turn_seconds": 60, "max_timeouts": 3, "idle_seconds": 300}
    assert GAME.variants == ("normal", "infinite")
    assert GAME.setup("infinite", {"turn_seconds": 0, "max_timeouts": 1}, 2).options["turn_seconds"] == 0


@pytest.mark.parametrize(
    "variant, options, seats, named",
    [
        ("normal", {"colour": "red"}, 2, "'colour'"),
        ("normal", {"battlefield": "atlantis"}, 2, "'battlefield'"),
        ("normal", {"battlefield": 3}, 2, "'battlefield'"),
        ("normal", {"turn_seconds": -1}, 2, "'turn_seconds'"),
        ("normal", {"turn_seconds": 3601}, 2, "'turn_seconds'"),
        ("normal", {"turn_seconds": "60"}, 2, "'turn_seconds'"),
        ("normal", {"turn_seconds": True}, 2, "'turn_seconds'"),
        ("normal", {"max_timeouts": 0}, 2, "'max_timeouts'"),
        ("normal", {"max_timeouts": 101}, 2, "'max_timeouts'"),
        ("endless", {}, 2, "variant"),
        ("normal", {}, 3, "2 seats"),
        ("normal", [("battlefield", "archmage_citadel")], 2, "map"),
    ],
)
def test_option_errors_name_the_option(variant, options, seats, named):
    with pytest.raises(OptionsError, match=named):
        GAME.setup(variant, options, seats)


# ------------------------------------------------------------------ the request sequence


def test_normal_game_opens_with_random_start_shuffle_and_deal():
    state = GAME.setup("normal", {}, 2)
    assert GAME.pending(state) == PublicRandom(2)
    state = GAME.apply(state, RandomValue(0))
    request = GAME.pending(state)
    assert request == Shuffle(tuple(range(102)), 0)
    state = GAME.apply(state, Shuffled())
    assert GAME.pending(state) == Deal(((0, tuple(range(6))), (1, tuple(range(6, 12)))))
    state = GAME.apply(state, Dealt({0: 5, 3: 9}))
    assert GAME.pending(state) == Decide(0, timed=True)
    assert state.faces == {0: 5, 3: 9} and len(state.deck) == 90 and state.discard == ()
    assert state.sides[0].ore == 7 and state.sides[1].ore == 5


def test_infinite_game_draws_privately_from_the_whole_catalogue():
    state = GAME.apply(GAME.setup("infinite", {"turn_seconds": 0}, 2), RandomValue(1))
    assert GAME.pending(state) == PrivateDraw(0, 102, 6, 0)
    state = GAME.apply(state, PrivateDrawn({0: 5, 1: 5, 2: 5, 3: 101, 4: 0, 5: 5}))
    assert GAME.pending(state) == PrivateDraw(1, 102, 6, 6)
    state = GAME.apply(state, PrivateDrawn())
    assert GAME.pending(state) == Decide(1, timed=False)
    assert state.hands == (tuple(range(6)), tuple(range(6, 12)))
    # Duplicates are fine; the opponent's draws stay unknown to this state.
    assert [state.faces[h] for h in state.hands[0]] == [5, 5, 5, 101, 0, 5] and 6 not in state.faces
    with pytest.raises(RuleError) as excinfo:
        GAME.apply(GAME.apply(GAME.setup("infinite", {}, 2), RandomValue(0)), PrivateDrawn({0: 102}))
    assert rule_of(excinfo) == "towers.face"


def test_infinite_refill_is_a_private_draw_and_keeps_no_pile():
    state = position((WORK, FILLER, FILLER, FILLER, FILLER, FILLER), variant="infinite")
    state = play(state, HAND[0])
    assert GAME.pending(state) == PrivateDraw(0, 102, 1, 400)
    state = GAME.apply(state, PrivateDrawn({400: WORK}))
    assert state.discard == () and state.hands[0] == HAND[1:] + (400,) and GAME.pending(state) == Decide(1)


# ------------------------------------------------------------------ turns


def test_a_turn_pays_resolves_refills_and_passes_with_income():
    state = play(position(), HAND[0])  # Parasts mūris: 2 ore, +3 wall
    assert GAME.pending(state) == Deal(((0, (300,)),))
    state = deal(state, {300: 9})
    assert state.hands[0] == HAND[1:] + (300,) and state.deck[0] == 301
    assert GAME.pending(state) == Decide(1)
    assert state.sides[1].ore == 22  # enemy income: +2 mines


def test_discard_any_card_even_unaffordable_and_the_turn_passes():
    state = position((101,) + (FILLER,) * 5, me={"soldiers": 0})
    assert {"play": HAND[0]} not in GAME.legal_moves(state, 0)
    assert {"discard": HAND[0]} in GAME.legal_moves(state, 0)
    after = discard(state, HAND[0])
    assert after.sides[0] == state.sides[0] and after.discard == (101,) and after.turn == 1
    assert after.recent[-1].played is False


def test_play_again_chain_keeps_the_turn_without_income():
    state = position((FAERIE, QUARTZ, LUCKY, FILLER, FILLER, FILLER))
    state = deal(play(state, HAND[0]), {300: FILLER})
    assert GAME.pending(state) == Decide(0)
    state = deal(play(state, HAND[1]), {301: FILLER})
    state = deal(play(state, HAND[2]), {302: FILLER})
    assert GAME.pending(state) == Decide(0)
    me, enemy = state.sides
    # Feja 1 soldier, Kvarcs 1 mana, Laimes monēta free (+2 ore, +2 mana); no income in between.
    assert (me.soldiers, me.mana, me.ore, me.tower) == (29, 31, 32, 21)
    assert (enemy.wall, enemy.ore) == (6, 20)
    state = play(state, HAND[3])
    assert state.turn == 1 and state.sides[1].ore == 22


@pytest.mark.parametrize("card", [PRISM, SCOUT])
def test_draw_discard_play_again(card):
    state = position((card, 42, FILLER, FILLER, FILLER, FILLER))
    state = play(state, HAND[0])
    assert GAME.pending(state) == Deal(((0, (300,)),)) and state.must_discard
    state = deal(state, {300: 101})
    assert len(state.hands[0]) == 6
    assert GAME.legal_moves(state, 0) == tuple({"discard": h} for h in state.hands[0])
    with pytest.raises(RuleError) as excinfo:
        play(state, HAND[1])
    assert rule_of(excinfo) == "towers.discard"
    # Discard the card just drawn; refill; play again without income.
    state = discard(state, 300)
    assert not state.must_discard and GAME.pending(state) == Deal(((0, (301,)),))
    state = deal(state, {301: FILLER})
    assert GAME.pending(state) == Decide(0)
    assert state.discard == (card, 101)
    resources = state.sides[0]
    state = play(state, HAND[1])  # Rubīns: +5 tower
    assert state.sides[0].tower == resources.tower + 5 and state.turn == 1


def test_cost_is_checked_against_the_colour_resource():
    state = position((33,) + (FILLER,) * 5, me={"ore": 23, "mana": 99})  # Pūķa sirds costs 24 ore
    with pytest.raises(RuleError) as excinfo:
        play(state, HAND[0])
    assert rule_of(excinfo) == "towers.cost"
    assert play(position((33,) + (FILLER,) * 5, me={"ore": 24}), HAND[0]).sides[0].ore == 0


def test_producers_at_zero_give_no_income():
    state = position((1,) + (FILLER,) * 5, me={"mines": 1}, enemy={"mines": 0, "monasteries": 0, "barracks": 0})
    state = play(state, HAND[0])  # Zemestrīce
    assert state.sides[0].mines == 0 and state.sides[1] == Side(25, 8, 20, 20, 20, 0, 0, 0)


def test_wall_absorbs_part_of_normal_damage_and_none_of_tower_damage():
    state = play(position((77,) + (FILLER,) * 5, enemy={"wall": 3}), HAND[0])  # Orks: 5 damage
    assert (state.sides[1].wall, state.sides[1].tower) == (0, 23)
    state = play(position((84,) + (FILLER,) * 5, enemy={"wall": 30}), HAND[0])  # Mazās čūskas: 4 to the tower
    assert (state.sides[1].wall, state.sides[1].tower) == (30, 21)


# ------------------------------------------------------------------ victory


def test_destroying_the_enemy_tower_wins():
    state = play(position((100,) + (FILLER,) * 5, enemy={"tower": 12}), HAND[0])
    assert state.result == Result((0,), "destroyed")
    assert GAME.pending(state) == Finished(state.result)
    assert GAME.legal_moves(state, 1) == ()


def test_both_towers_destroyed_at_once_is_a_draw():
    state = play(position((DISCORD,) + (FILLER,) * 5, me={"tower": 7}, enemy={"tower": 3}), HAND[0])
    assert state.result == Result((), "simultaneous")


def test_both_towers_at_target_at_once_is_a_draw():
    state = play(position((RAINBOW,) + (FILLER,) * 5, me={"tower": 49}, enemy={"tower": 49}), HAND[0])
    assert state.result == Result((), "simultaneous")


def test_two_conditions_of_one_seat_are_still_a_win():
    state = play(position((67,) + (FILLER,) * 5, me={"tower": 30}, enemy={"tower": 0}), HAND[0])
    assert state.result == Result((0,), "tower")


def test_enemy_win_by_own_card_is_the_enemys():
    # Varavīksne lifts the enemy's tower to its target: the enemy wins on my card.
    state = play(position((RAINBOW,) + (FILLER,) * 5, enemy={"tower": 49}), HAND[0])
    assert state.result == Result((1,), "tower")


def test_income_reaching_the_resource_target_wins_with_the_first_card_even_a_discard():
    state = position(me={"ore": 150})
    assert discard(state, HAND[0]).result == Result((0,), "resource")


# ------------------------------------------------------------------ deck


def test_empty_deck_reshuffles_the_discard_pile():
    state = position(deck=(300,), discard=(1, 2, 3))
    state = play(state, HAND[0])
    state = deal(state, {300: 9})
    assert state.deck == () and state.discard == (1, 2, 3, FILLER)
    state = discard(state, ENEMY_HAND[0], face=4, seat=1)
    assert GAME.pending(state) == Shuffle((1, 2, 3, 4, 7), 400)
    with pytest.raises(RuleError) as excinfo:
        GAME.apply(state, Shuffled({400: 1, 401: 2, 402: 3, 403: 4, 404: 5}))
    assert rule_of(excinfo) == "towers.shuffle"
    shuffled = GAME.apply(state, Shuffled())
    assert shuffled.deck == (400, 401, 402, 403, 404) and shuffled.discard == () and shuffled.next_handle == 405
    assert GAME.pending(shuffled) == Deal(((1, (400,)),))


def test_a_deal_larger_than_the_deck_takes_what_is_left_then_reshuffles():
    state = GAME.setup("normal", {}, 2)
    state = dataclasses.replace(state, turn=0, deck=(10, 11, 12), discard=tuple(range(20, 40)), owed=(2, 2))
    assert GAME.pending(state) == Deal(((0, (10, 11)), (1, (12,))))
    state = GAME.apply(state, Dealt())
    assert state.owed == (0, 1) and GAME.pending(state) == Shuffle(tuple(range(20, 40)), 0)


# ------------------------------------------------------------------ timer


def test_timeout_discards_the_most_expensive_unaffordable_card_ties_by_id():
    # Unaffordable with 5 ore / 5 mana / 5 soldiers: Pūķis 25, Pūķa sirds 24, Dimants 16, Lielākais mūris 16.
    state = position((64, 101, 30, 33, FILLER, 0), me={"ore": 5, "mana": 5, "soldiers": 5})
    assert GAME.default_move(state, 0) == {"discard": HAND[1], "timeout": True}
    state = position((64, 30, FILLER, 0), me={"ore": 5, "mana": 5, "soldiers": 5})
    assert GAME.default_move(state, 0) == {"discard": HAND[1], "timeout": True}  # cost 16: id 30 before 64


def test_timeout_with_all_affordable_discards_the_cheapest_ties_by_id_then_handle():
    rich = {"ore": 99, "mana": 99, "soldiers": 99}
    state = position((64, 35, 30, 0, 33, FILLER), me=rich)
    assert GAME.default_move(state, 0) == {"discard": HAND[3], "timeout": True}  # cost 0: id 0 before 35
    state = position((64, 35, 35, 30), me=rich, variant="infinite")
    assert GAME.default_move(state, 0) == {"discard": HAND[1], "timeout": True}  # duplicates: lower handle


def test_timeout_must_be_the_worst_card_where_the_hand_is_known():
    state = position((64, 101, FILLER, FILLER, FILLER, FILLER), me={"ore": 5, "mana": 5, "soldiers": 5})
    with pytest.raises(RuleError) as excinfo:
        discard(state, HAND[0], timeout=True)
    assert rule_of(excinfo) == "towers.timeout"
    # A state that does not know the hand (the opponent's node) cannot check, and accepts.
    blind = dataclasses.replace(state, faces={})
    assert discard(blind, HAND[0], face=64, timeout=True).timeouts == (1, 0)
    with pytest.raises(GameError):
        GAME.default_move(blind, 0)


def test_max_timeouts_in_a_row_lose_and_a_real_move_resets_the_count():
    state = position(options={"max_timeouts": 2}, timeouts=(1, 0))
    assert discard(state, HAND[0], timeout=True).result == Result((1,), "timeouts")
    assert discard(state, HAND[0]).timeouts == (0, 0)
    single = position(options={"max_timeouts": 3})
    assert discard(single, HAND[0], timeout=True).timeouts == (1, 0)


def test_no_timeouts_without_a_timer():
    state = position(options={"turn_seconds": 0})
    assert GAME.pending(state) == Decide(0, timed=False)
    with pytest.raises(RuleError) as excinfo:
        discard(state, HAND[0], timeout=True)
    assert rule_of(excinfo) == "towers.timer"


# ------------------------------------------------------------------ errors and knowledge


@pytest.mark.parametrize(
    "event, rule",
    [
        (Move(1, {"discard": ENEMY_HAND[0]}, {ENEMY_HAND[0]: 1}), "towers.turn"),
        (Move(0, {"play": 999}, {999: 1}), "towers.hand"),
        (Move(0, {"throw": HAND[0]}, {HAND[0]: FILLER}), "towers.move"),
        (Move(0, {"play": HAND[0], "timeout": True}, {HAND[0]: FILLER}), "towers.move"),
        (Move(0, {"discard": HAND[0], "timeout": False}, {HAND[0]: FILLER}), "towers.move"),
        (Move(0, {"play": True}, {}), "towers.move"),
        (Move(0, "play", {}), "towers.move"),
        (Move(0, {"play": HAND[0]}, {}), "towers.reveal"),
        (Move(0, {"play": HAND[0]}, {HAND[0]: FILLER, HAND[1]: FILLER}), "towers.reveal"),
        (Move(0, {"play": HAND[0]}, {HAND[0]: 8}), "towers.face"),
        (RandomValue(1), "towers.sequence"),
        (Dealt(), "towers.sequence"),
    ],
)
def test_rule_errors(event, rule):
    with pytest.raises(RuleError) as excinfo:
        GAME.apply(position(), event)
    assert rule_of(excinfo) == rule


def test_random_start_must_be_a_seat():
    for value in (2, -1, True):
        with pytest.raises(RuleError) as excinfo:
            GAME.apply(GAME.setup("normal", {}, 2), RandomValue(value))
        assert rule_of(excinfo) == "towers.random"


def test_dealt_faces_must_belong_to_the_deal_and_agree():
    state = play(position(), HAND[0])
    with pytest.raises(RuleError) as excinfo:
        GAME.apply(state, Dealt({301: 5}))
    assert rule_of(excinfo) == "towers.face"
    known = dataclasses.replace(state, faces={**state.faces, 300: 5})
    with pytest.raises(RuleError):
        GAME.apply(known, Dealt({300: 6}))
    assert GAME.apply(known, Dealt({300: 5})).faces[300] == 5


def test_opponent_state_checks_cost_from_the_revealed_face():
    blind = dataclasses.replace(position(me={"ore": 1}), faces={})
    assert {"play": HAND[0]} in GAME.legal_moves(blind, 0)  # face unknown: maybe affordable
    with pytest.raises(RuleError) as excinfo:
        GAME.apply(blind, Move(0, {"play": HAND[0]}, {HAND[0]: FILLER}))
    assert rule_of(excinfo) == "towers.cost"


def test_forfeit_ends_the_game_for_the_other_seat_and_nothing_follows():
    state = GAME.apply(position(), Forfeit(0, "resigned"))
    assert state.result == Result((1,), "forfeit: resigned")
    with pytest.raises(RuleError) as excinfo:
        GAME.apply(state, Forfeit(1, "late"))
    assert rule_of(excinfo) == "towers.over"
    with pytest.raises(RuleError):
        GAME.apply(GAME.setup("normal", {}, 2), Forfeit(2, "who"))


def test_reveals_names_the_moved_card():
    assert GAME.reveals(position(), {"play": HAND[2]}) == (HAND[2],)
    assert GAME.reveals(position(), {"discard": HAND[1], "timeout": True}) == (HAND[1],)
    with pytest.raises(RuleError):
        GAME.reveals(position(), {"pass": 1})


def test_views_show_only_the_own_hand():
    state = dataclasses.replace(position(), faces={**position().faces, ENEMY_HAND[0]: 5})
    mine, theirs, spectator = GAME.view(state, 0), GAME.view(state, 1), GAME.view(state, None)
    assert [entry["card"] for entry in mine["hand"]] == [FILLER] * 6
    assert [entry["handle"] for entry in theirs["hand"]] == list(ENEMY_HAND)
    assert spectator["hand"] is None
    assert {key: value for key, value in mine.items() if key not in ("hand", "seat")} == {
        key: value for key, value in spectator.items() if key not in ("hand", "seat")
    }
    assert mine["players"][1]["cards"] == 6 and mine["deck"] == 40 and mine["phase"] == "play"
