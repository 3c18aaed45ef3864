"""Deck lists: one card a line by id or name; every problem named with its line."""

from __future__ import annotations

import pytest

from fairtable.games.duel.catalogue import CARDS
from fairtable.games.duel.decklist import DeckListError, parse, write

TWENTY = [card.name for card in CARDS[:20]]


def test_names_ids_english_names_any_case_comments_and_blank_lines():
    text = "# my deck\n\n" + "\n".join(["  witte haai ", "GIANT SQUID", "0", *TWENTY[3:]]) + "\n"
    assert parse(text) == tuple(range(20))


def test_write_reads_back():
    assert parse(write(tuple(range(30, 50)))) == tuple(range(30, 50))


@pytest.mark.parametrize("lines, words", [
    (TWENTY[:19], "names 19 different cards; a deck holds exactly 20"),
    ([*TWENTY, CARDS[20].name], "names 21 different cards"),
    ([*TWENTY[:19], "Pikachu"], "line 20: no card is called 'Pikachu'"),
    ([*TWENTY[:19], "108"], "line 20: no card is called '108'"),
    ([*TWENTY[:19], TWENTY[4].upper()], "line 20: Potvis is already on line 5"),
])
def test_unknown_duplicate_and_missing_cards_are_named(lines, words):
    with pytest.raises(DeckListError, match=words):
        parse("\n".join(lines))


def test_every_problem_is_listed_at_once():
    with pytest.raises(DeckListError) as error:
        parse("\n".join(["nobody", TWENTY[0], TWENTY[0]]))
    message = str(error.value)
    assert "line 1: no card" in message and "line 3: Zeemeermin is already on line 2" in message and "names 1 different" in message
