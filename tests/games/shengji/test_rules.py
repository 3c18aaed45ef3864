"""Every shengji rule with positions from the text and the rulings: declaration and overcalls,
the kitty and burying, leads, following, the kitty bonus, the level bands, dealers and the match."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairtable.games.contract import (
    Deal,
    DealStarted,
    Decide,
    Finished,
    Forfeit,
    Move,
    NextDeal,
    OptionsError,
    PublicRandom,
    Result,
    Reveal,
    Revealed,
    RuleError,
)
from fairtable.games.shengji.catalogue import SUITS
from fairtable.games.shengji.state import TEAMS
from tests.games.shengji.positions import GAME, Table, codes_of, faces, handles_of, play, trick_state
from tests.games.test_listing import check_listing

HEARTS, SPADES = SUITS.index("hearts"), SUITS.index("spades")


def rule(excinfo) -> str:
    return excinfo.value.rule


def refused(state, event, rule_id: str) -> RuleError:
    with pytest.raises(RuleError) as excinfo:
        GAME.apply(state, event)
    assert rule(excinfo) == rule_id, excinfo.value
    return excinfo.value


# ------------------------------------------------------------------ setup


def test_setup_checks_seats_and_options_and_names_the_teams():
    state = GAME.setup("standard", {}, 4)
    assert state.levels == (2, 2) and GAME.pending(state) == PublicRandom(4)
    assert GAME.teams("standard", state.options, 4) == ((0, 2), (1, 3))
    assert GAME.setup("standard", {"start": 10, "target": 12}, 4).levels == (10, 10)
    for options, words in (({"start": 13, "target": 12}, "'start'"), ({"target": 15}, "'target'"), ({"deals": -1}, "'deals'"),
                           ({"trumps": 1}, "unknown option")):
        with pytest.raises(OptionsError, match=words):
            GAME.setup("standard", options, 4)
    with pytest.raises(OptionsError, match="exactly 4 seats"):
        GAME.setup("standard", {}, 3)


def test_the_deal_is_25_cards_each_from_one_shuffle_and_the_kitty_waits_for_the_dealer():
    table = Table(starter=2)
    request = GAME.pending(table.full)
    assert request == Decide(2)  # the first declaration round starts with the seat drawn
    assert [len(hand) for hand in table.full.hands] == [25] * 4 and len(table.full.kitty) == 8
    assert set(table.full.kitty).isdisjoint(set().union(*table.full.hands))


# ------------------------------------------------------------------ declaration


def test_a_level_card_declares_its_suit_three_passes_end_it_and_the_first_declarer_deals():
    table = Table(hands=("", "H2", "", ""))
    table.play(0, "pass")
    table.play(1, "declare", "H2")
    table.passes(2, 3)
    assert table.pending == Decide(0)
    table.passes(0)
    assert table.full.dealer == 1 and table.full.standing_trump == HEARTS
    assert table.pending == Deal(((1, table.full.kitty),))


@pytest.mark.parametrize("hand0, first, hand1, second", [
    ("H2", "H2", "S2 S2", "S2 S2"),  # a level pair overcalls a single
    ("H2 H2", "H2 H2", "BJ BJ", "BJ BJ"),  # two small jokers overcall a level pair
    ("BJ BJ", "BJ BJ", "RJ RJ", "RJ RJ"),  # two big jokers overcall small jokers
    ("H2", "H2", "RJ RJ", "RJ RJ"),
    ("H2 H2", "H2", "", "H2"),  # the same pair held: the seat declares one card if it likes
])
def test_each_overcall(hand0, first, hand1, second):
    table = Table(hands=(hand0, hand1, "", ""))
    table.play(0, "declare", first)
    if not hand1:
        refused(table.full, table.move(0, "declare", second), "shengji.turn")
        return
    table.play(1, "declare", second)
    assert table.full.declaration.seat == 1 and table.full.passes == 0
    table.passes(2, 3, 0)
    assert table.full.dealer == 0  # the first declarer deals the first deal
    expected = None if "J" in second else SPADES
    assert table.full.standing_trump == expected


@pytest.mark.parametrize("hand0, first, hand1, second", [
    ("H2", "H2", "S2", "S2"), ("H2 H2", "H2 H2", "S2 S2", "S2 S2"), ("BJ BJ", "BJ BJ", "S2 S2", "S2 S2"),
    ("RJ RJ", "RJ RJ", "BJ BJ", "BJ BJ"),
])
def test_no_overcall_of_equal_or_less_strength(hand0, first, hand1, second):
    table = Table(hands=(hand0, hand1, "", ""))
    table.play(0, "declare", first)
    refused(table.full, table.move(1, "declare", second), "shengji.overcall")
    assert {"pass": True} in GAME.legal_moves(table.full, 1)
    assert all("declare" not in move for move in GAME.legal_moves(table.full, 1))


@pytest.mark.parametrize("cards", ["H3", "BJ", "RJ", "C2 D2", "BJ RJ", "H2 H2 S2"])
def test_only_level_cards_and_joker_pairs_declare(cards):
    table = Table(hands=("H3 BJ RJ C2 D2 H2 H2 S2", "", "", ""))
    refused(table.full, table.move(0, "declare", cards), "shengji.declare")


def test_a_declaration_shows_its_cards_to_everyone_and_they_must_be_held():
    table = Table(hands=("H2", "S2", "", ""), seats=True)
    move = table.move(0, "declare", "H2")
    assert GAME.reveals(table.full, move.move) == tuple(move.move["declare"])
    refused(table.seats[1], Move(0, move.move, {}), "shengji.reveal")  # a declaration that does not show its card
    theirs = table.handles(1, "S2")
    refused(table.full, Move(0, {"declare": theirs}, {theirs[0]: faces("S2")[0]}), "shengji.hand")
    table.apply(move)
    for seat in (1, 2, 3, None):
        assert GAME.view(table.seats.get(seat, table.seats[1]), seat)["declaration"] == {"cards": faces("H2"), "seat": 0, "strength": 1}


def test_joker_pairs_declare_no_trump_suit_and_level_cards_stay_trump():
    table = Table(hands=("", "", "", ""))  # seat 3 holds both joker pairs
    table.passes(0, 1, 2)
    table.play(3, "declare", "RJ RJ")
    table.passes(0, 1, 2)
    assert table.full.dealer == 3 and table.full.standing_trump is None
    assert GAME.view(table.full, 3)["trump"] is None and table.full.order.suit(faces("C2")[0]) == 4


def test_a_seat_that_passed_may_overcall_later_in_the_round():
    table = Table(hands=("H2 H2", "S2", "", ""))
    table.play(0, "pass")
    table.play(1, "declare", "S2")
    table.passes(2, 3)
    table.play(0, "declare", "H2 H2")
    table.passes(1, 2)
    assert table.full.step == "declare"
    table.passes(3)
    assert table.full.step == "kitty" and table.full.dealer == 1 and table.full.declaration.seat == 0
    assert table.full.standing_trump == HEARTS


def test_nobody_declaring_reveals_the_kitty_and_its_first_non_joker_card_is_trump():
    table = Table(kitty="BJ RJ S7", starter=2, seats=True)
    table.passes(2, 3, 0, 1)
    assert table.full.dealer == 2  # the starting seat stays dealer
    table.kitty()
    assert table.pending == Reveal(table.full.kitty)
    table.reveal(table.full.kitty)
    assert table.full.standing_trump == SPADES and table.full.step == "bury"
    assert all(GAME.view(state, seat)["kitty"] == faces("BJ RJ S7 C2 C2 D2 D2 H2") for seat, state in table.seats.items())


def test_declaring_out_of_turn_or_after_the_round_is_refused():
    table = Table(hands=("H2", "S2", "", ""))
    refused(table.full, table.move(1, "declare", "S2"), "shengji.turn")
    table.passes(0, 1, 2, 3)
    table.kitty()
    table.reveal(table.full.kitty)
    refused(table.full, table.move(0, "pass"), "shengji.move")


# ------------------------------------------------------------------ kitty and burying


def dealt_to_dealer(seats: bool = True) -> Table:
    table = Table(hands=("H2", "", "", ""), kitty="SK S10 S5 S3 S4 C3 C4 D3", seats=seats)
    table.play(0, "declare", "H2")
    table.passes(1, 2, 3)
    table.kitty()
    return table


def test_the_kitty_goes_to_the_dealer_only_and_the_buried_cards_stay_hidden_until_the_end():
    table = dealt_to_dealer()
    kitty = table.full.kitty
    assert all(h in table.seats[0].faces for h in kitty) and not any(h in table.seats[1].faces for h in kitty)
    assert GAME.view(table.seats[0], 0)["kitty"] == faces("SK S10 S5 S3 S4 C3 C4 D3")
    assert GAME.view(table.seats[1], 1)["kitty"] == 8 and GAME.view(table.seats[1], None)["kitty"] == 8
    assert len(table.full.hands[0]) == 33 and table.pending == Decide(0)
    table.bury("SK S10 S5 S3 S4 C3 C4 C3")
    assert len(table.full.hands[0]) == 25 and table.full.step == "play" and table.pending == Decide(0)
    assert GAME.view(table.seats[0], 0)["buried"] == faces("SK S10 S5 S3 S4 C3 C4 C3")
    assert GAME.view(table.seats[1], 1)["buried"] == 8 and not any(h in table.seats[1].faces for h in table.full.buried)


def test_burying_takes_cards_of_the_dealers_hand_one_by_one_and_nothing_else():
    table = dealt_to_dealer(seats=False)
    legal = GAME.legal_moves(table.full, 0)
    offered = [table.full.faces[move["bury"]] for move in legal]
    assert all(set(move) == {"bury"} for move in legal)
    assert sorted(offered) == sorted(set(table.full.faces[h] for h in table.full.hands[0]))  # two identical cards: one move
    other = table.full.hands[1][0]
    refused(table.full, Move(0, {"bury": other}), "shengji.hand")
    refused(table.full, table.move(0, "lead", "SK"), "shengji.move")
    refused(table.full, Move(1, {"bury": other}), "shengji.turn")
    assert GAME.reveals(table.full, {"bury": table.full.hands[0][0]}) == ()


# ------------------------------------------------------------------ leads and follows in play


def test_leads_are_singles_pairs_and_tractors_and_throws_are_refused():
    state = trick_state(["S3 S3 S4 S4 S6 S6 SK C2 C2 D2 D2", "C3", "C4", "C5"])
    leads = [codes_of(state, move["lead"]) for move in GAME.legal_moves(state, 0)]
    assert len(leads) == len(set(leads)) == 6 + 5 + 1
    leads = set(leads)
    assert {"S3 S3 S4 S4", "S3", "SK", "S6 S6", "C2 C2"} <= leads
    assert "C2 C2 D2 D2" not in leads and "S4 S4 S6 S6" not in leads
    assert len([lead for lead in leads if len(lead.split()) == 4]) == 1
    for throw in ("S3 S3 SK", "S3 SK", "S4 S4 S6 S6", "C2 C2 D2 D2"):
        handles = handles_of(state, 0, throw)
        refused(state, Move(0, {"lead": handles}, {h: state.faces[h] for h in handles}), "shengji.lead")


def test_a_follower_gives_its_cards_one_by_one_and_only_ones_that_keep_the_follow_legal():
    state = trick_state(["SQ SQ SK SK", "S3 S3 S7 S8 C5 C9", "C3 C3 C4 C4", "H3 H3 H4 H4"])
    state = play(state, 0, "lead", "SQ SQ SK SK")
    assert GAME.pending(state) == Decide(1)
    assert {codes_of(state, [m["play"]]) for m in GAME.legal_moves(state, 1)} == {"S3", "S7", "S8"}
    state = play(state, 1, "play", "S7")
    assert {codes_of(state, [m["play"]]) for m in GAME.legal_moves(state, 1)} == {"S3", "S8"}  # S3 S3 still to come
    refused(state, Move(1, {"play": handles_of(state, 1, "C5")[0]}, {handles_of(state, 1, "C5")[0]: faces("C5")[0]}), "shengji.follow")
    state = play(state, 1, "play", "S3")
    assert {codes_of(state, [m["play"]]) for m in GAME.legal_moves(state, 1)} == {"S3", "S8"}
    state = play(state, 1, "play", "S3 S8")
    assert GAME.pending(state) == Decide(2) and GAME.view(state, None)["trick"][1] == {"cards": faces("S7 S3 S3 S8"), "seat": 1}
    state = play(state, 2, "play", "C3 C3 C4 C4")
    state = play(state, 3, "play", "H3 H3 H4 H4")  # an all-trump tractor wins the plain tractor
    assert state.last.winner == 3 and state.trick == () and GAME.pending(state) == Decide(3)
    assert state.points == (0, 20)


def test_a_renege_is_refused_where_the_hand_is_known_and_passes_where_it_is_not():
    state = trick_state(["SK", "S3 C4", "C5 C6", "C7 C8"])
    state = play(state, 0, "lead", "SK")
    renege = Move(1, {"play": handles_of(state, 1, "C4")[0]}, {handles_of(state, 1, "C4")[0]: faces("C4")[0]})
    error = refused(state, renege, "shengji.follow")
    assert "seat 1 in trick 1" in str(error) and "held S3" in str(error) and "played C4" in str(error)
    blind = dataclasses.replace(state, faces={h: f for h, f in state.faces.items() if h not in state.hands[1]})
    after = GAME.apply(blind, renege)  # another seat's node cannot tell: the verifier will
    assert after.turn == 2


def test_a_seat_that_keeps_back_a_pair_is_named():
    state = trick_state(["SK SK", "S3 S3 S4 C4", "C5 C6", "C7 C8"])
    state = play(state, 0, "lead", "SK SK")
    state = play(state, 1, "play", "S3")
    h = handles_of(state, 1, "S4")[0]
    error = refused(state, Move(1, {"play": h}, {h: faces("S4")[0]}), "shengji.pairs")
    assert "seat 1 in trick 1" in str(error) and "1 pairs" in str(error)


# ------------------------------------------------------------------ the end of a deal


def last_trick(attackers_win: bool, buried: str, lead: str = "S3", **fields) -> object:
    """The deal's last trick, dealer seat 0 (defenders 0+2) leading ``lead``; seat 1 wins it if ``attackers_win``."""
    size = len(lead.split())
    high = {1: "SA", 2: "SA SA", 4: "SJ SJ SQ SQ"}[size]
    low = {1: "C3", 2: "C3 C3", 4: "C3 C3 CJ CJ"}[size]
    hands = [lead, high if attackers_win else low, {1: "C4", 2: "C4 C4", 4: "C4 C4 C7 C7"}[size], {1: "C6", 2: "C6 C6", 4: "C8 C8 C9 C9"}[size]]
    state = trick_state(hands, buried=buried, tricks=24, **fields)
    state = play(state, 0, "lead", lead)
    for seat in (1, 2, 3):
        state = play(state, seat, "play", hands[seat])
    assert GAME.pending(state) == Reveal(state.buried)
    return GAME.apply(state, Revealed({h: state.faces[h] for h in state.buried}))


@pytest.mark.parametrize("lead, multiplier", [("S3", 2), ("S3 S3", 4), ("S3 S3 S4 S4", 8)])
def test_attackers_winning_the_last_trick_add_the_kitty_points_doubled_per_card(lead, multiplier):
    buried = "SK S10 S5 C3 C4 D3 D4 D6"  # 25 points
    state = last_trick(True, buried, lead, points=(0, 20))
    assert state.bonus == 25 * multiplier
    assert state.deal_result.scores[1] == 20 + 25 * multiplier


def test_no_kitty_bonus_when_the_defenders_take_the_last_trick():
    state = last_trick(False, "SK S10 S5 C3 C4 D3 D4 D6", points=(0, 20))
    assert state.bonus == 0 and state.deal_result == Result((0, 2), "attackers 20: defenders up 2", (0, 20, 0, 20), teams=TEAMS)


@pytest.mark.parametrize("points, levels, winners, dealer", [
    (0, (5, 2), (0, 2), 2),  # defenders +3, the dealer's partner deals next
    (35, (4, 2), (0, 2), 2),
    (40, (3, 2), (0, 2), 2),
    (75, (3, 2), (0, 2), 2),
    (80, (2, 2), (1, 3), 1),  # attackers take over without promotion; the seat after the old dealer deals
    (115, (2, 2), (1, 3), 1),
    (120, (2, 3), (1, 3), 1),
    (160, (2, 4), (1, 3), 1),
    (200, (2, 5), (1, 3), 1),
])
def test_every_level_band_and_who_deals_next(points, levels, winners, dealer):
    state = last_trick(False, "C6 C7 C8 C9 D3 D4 D6 D7", points=(200 - points, points))
    assert state.levels == levels and state.deal_result.winners == winners
    assert GAME.pending(state) == NextDeal(state.deal_result)
    following = GAME.apply(state, DealStarted())
    assert following.dealer == dealer and following.deal == 1 and following.faces == {} and following.levels == levels
    assert following.level == levels[dealer % 2]
    table = Table(state=following)
    assert table.pending == Decide(dealer)  # the dealer starts the declaration round
    table.passes(*((dealer + k) % 4 for k in range(4)))
    assert table.full.dealer == dealer and table.pending == Deal(((dealer, table.full.kitty),))


def test_the_first_team_past_the_target_wins_the_match():
    state = last_trick(False, "C6 C7 C8 C9 D3 D4 D6 D7", points=(200, 0), levels=(13, 2))
    assert state.levels == (16, 2)
    assert GAME.pending(state) == Finished(Result((0, 2), "past A", (16, 2, 16, 2), teams=TEAMS), state.deal_result)
    state = last_trick(False, "C6 C7 C8 C9 D3 D4 D6 D7", points=(160, 40), options={**GAME.setup("standard", {}, 4).options, "target": 5},
                       levels=(5, 3))
    assert GAME.pending(state).result.reason == "past 5"


def test_a_deal_limit_ends_the_match_on_levels_and_equal_levels_go_to_the_next_dealers_team():
    options = {**GAME.setup("standard", {}, 4).options, "deals": 1}
    state = last_trick(False, "C6 C7 C8 C9 D3 D4 D6 D7", points=(100, 100), options=options)
    assert state.levels == (2, 2) and GAME.pending(state).result == Result((1, 3), "deal limit reached", (2, 2, 2, 2), teams=TEAMS)
    state = last_trick(False, "C6 C7 C8 C9 D3 D4 D6 D7", points=(150, 50), options=options)
    assert GAME.pending(state).result.winners == (0, 2)


# ------------------------------------------------------------------ timer and forfeits


def test_a_timeout_takes_the_lowest_allowed_card_and_too_many_lose():
    state = trick_state(["SK", "S3 SA C4", "C5 C6", "C7 C8"])
    state = play(state, 0, "lead", "SK")
    assert GAME.default_move(state, 1) == {"play": handles_of(state, 1, "S3")[0], "timeout": True}
    wrong = handles_of(state, 1, "SA")[0]
    refused(state, Move(1, {"play": wrong, "timeout": True}, {wrong: faces("SA")[0]}), "shengji.timeout")
    table = Table(options={"max_timeouts": 2})
    table.play(0, "pass", timeout=True)
    table.play(1, "pass", timeout=True)
    table.play(2, "pass")
    table.play(3, "declare", "RJ RJ")
    table.play(0, "pass", timeout=True)
    assert GAME.pending(table.full) == Finished(Result((1, 3), "timeouts", (2, 2, 2, 2), teams=TEAMS))
    untimed = Table(options={"turn_seconds": 0})
    assert untimed.pending == Decide(0, timed=False)
    refused(untimed.full, untimed.move(0, "pass", timeout=True), "shengji.timer")


def test_a_forfeit_ends_the_match_against_the_seats_team():
    table = Table()
    state = GAME.apply(table.full, Forfeit(2, "resigned"))
    assert GAME.pending(state) == Finished(Result((1, 3), "forfeit: resigned", (2, 2, 2, 2), teams=TEAMS))
    refused(table.full, Forfeit(4, "x"), "shengji.seat")
    refused(state, Move(0, {"pass": True}), "shengji.over")


@pytest.mark.parametrize("move", [None, {}, {"pass": False}, {"play": -1}, {"lead": []}, {"lead": [1, 1]}, {"pass": True, "timeout": 1},
                                  {"pass": True, "declare": [1]}, {"bury": True}, ["pass"]])
def test_malformed_moves_are_refused(move):
    refused(Table().full, Move(0, move), "shengji.move")


# ------------------------------------------------------------------ knowledge


def test_each_seat_knows_its_own_hand_and_what_was_shown_nothing_more():
    table = dealt_to_dealer()
    for seat, state in table.seats.items():
        own = set(state.hands[seat]) | (set(state.kitty) if seat == 0 else set())
        shown = set(table.full.declaration.handles)
        assert set(state.faces) == own | shown
        assert GAME.view(state, seat) == GAME.view(table.full, seat)
        assert GAME.view(state, None) == GAME.view(table.full, None)
    assert GAME.view(table.full, None)["hand"] is None


def test_a_declared_card_and_its_hidden_twin_are_two_moves():
    table = Table(hands=("H2 H2", "", "", ""))
    table.play(0, "declare", "H2")
    table.passes(1, 2, 3)
    table.kitty()
    twins = [move["bury"] for move in GAME.legal_moves(table.full, 0) if table.full.faces[move["bury"]] == faces("H2")[0]]
    assert len(twins) == 2 and table.full.declaration.handles[0] in twins


def test_the_trump_ace_chains_to_every_off_suit_level_pair():
    """Level 7, hearts trump: ♥A ♥A leads on to ♠7 ♠7 as well as to ♦7 ♦7, and each on to ♥7 ♥7."""
    state = trick_state(["HA HA S7 S7 D7 D7 H7 H7 C2", "C3", "C4", "C5"], level=7)
    leads = {codes_of(state, move["lead"]) for move in GAME.legal_moves(state, 0)}
    assert {"HA HA S7 S7", "HA HA D7 D7", "HA HA S7 S7 H7 H7", "HA HA D7 D7 H7 H7", "S7 S7 H7 H7", "D7 D7 H7 H7"} <= leads
    assert "S7 S7 D7 D7" not in leads and "HA HA S7 S7 D7 D7" not in leads


TRUMPS = "HA HK HQ H3 S7 D7 C7 H7 BJ RJ".split()


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(TRUMPS), min_size=6, max_size=14).filter(lambda codes: max(map(codes.count, codes)) <= 2))
def test_every_lead_of_a_trump_heavy_hand_is_listed_exactly(codes):
    state = trick_state([" ".join(codes), "C3", "C4", "C5"], level=7)
    check_listing("shengji", state, 0, random.Random(len(codes)))
