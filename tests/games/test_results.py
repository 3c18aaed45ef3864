"""A result in words, as every command and log line says it."""

from fairtable.games.contract import Result
from fairtable.games.results import describe


def test_a_result_in_words_names_the_winners_and_their_team():
    names = ["ann", "bob", "cy", "dan"]
    assert describe(Result((0,), "tower"), names) == "seat 0 (ann) won: tower"
    assert describe(Result((1, 3), "sunk", teams=((0, 2), (1, 3))), names) == "team 1: seat 1 (bob), seat 3 (dan) won: sunk"
    assert describe(Result((), "sunk"), names) == "a draw (sunk)" and describe(None) == "no result"
