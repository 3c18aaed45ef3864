"""The one result formatter: the winner named the right way round, with its name, and the reason in words."""

from fairtable.games.contract import Result
from fairtable.games.results import describe


def test_a_win_names_the_winning_seat_its_player_and_the_reason_in_words():
    assert describe(Result((0,), "destroyed"), ["alice", "bob"]) == "seat 0 (alice) won: enemy tower destroyed"
    assert describe(Result((1,), "forfeit: resigned"), ["alice", "bob"]) == "seat 1 (bob) won: the other side resigned"
    assert describe(Result((0, 2), "past A"), ["a", "b", "c", "d"]) == "seat 0 (a), seat 2 (c) won: past A"


def test_draws_disputes_and_unfinished_tables():
    assert describe(Result((), "simultaneous")) == "a draw (both reached a goal at once)"
    assert describe(Result((), "disputed")) == "no winner: the game was disputed"
    assert describe(None) == "no result"
    assert describe(Result((1,), "sunk")) == "seat 1 won: every enemy ship sunk"


def test_a_result_in_words_names_the_winners_and_their_team():
    names = ["ann", "bob", "cy", "dan"]
    assert describe(Result((0,), "tower"), names) == "seat 0 (ann) won: own tower built to the goal"
    assert describe(Result((1, 3), "sunk", teams=((0, 2), (1, 3))), names) == "team 1: seat 1 (bob), seat 3 (dan) won: every enemy ship sunk"
    assert describe(Result((), "sunk"), names) == "a draw (every enemy ship sunk)" and describe(None) == "no result"
