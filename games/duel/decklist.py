"""Deck lists: a plain text file with one card a line, the way players write decks down.

A line names a card by its id (``17``), its Dutch name or its English name, in any case;
blank lines and lines starting with ``#`` are ignored. :func:`parse` gives the deck's
sorted card ids, or a :class:`DeckListError` naming every problem with its line number,
so a player can fix the file in one go. :func:`write` is its inverse.
"""

from __future__ import annotations

from fairtable.games.contract import GameError
from fairtable.games.duel.catalogue import CARDS, Card

DECK_SIZE = 20
_BY_NAME: dict[str, Card] = {key: card for card in CARDS for key in (card.name.casefold(), card.name_en.casefold())}


class DeckListError(GameError):
    """A deck list that is not a deck: the message lists each problem."""


def card_named(text: str) -> Card | None:
    """The card a deck-list line names (id, Dutch or English name), or None."""
    key = " ".join(text.split()).casefold()
    if key.isdecimal():
        return CARDS[int(key)] if int(key) < len(CARDS) else None
    return _BY_NAME.get(key)


def parse(text: str, size: int = DECK_SIZE) -> tuple[int, ...]:
    """The sorted card ids of a deck list of exactly ``size`` distinct cards; raises
    :class:`DeckListError` listing every bad line at once, so the player fixes the file in one go."""
    problems: list[str] = []
    seen: dict[int, int] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        entry = line.strip()
        if not entry or entry.startswith("#"):
            continue
        card = card_named(entry)
        if card is None:
            problems.append(f"line {number}: no card is called {entry!r}")
        elif card.id in seen:
            problems.append(f"line {number}: {card.name} is already on line {seen[card.id]}; a deck holds each card once")
        else:
            seen[card.id] = number
    if len(seen) != size:
        problems.append(f"the list names {len(seen)} different cards; a deck holds exactly {size}")
    if problems:
        raise DeckListError("not a deck: " + "; ".join(problems))
    return tuple(sorted(seen))


def write(cards: tuple[int, ...]) -> str:
    """A deck list of ``cards`` that :func:`parse` reads back: one Dutch name a line, under a comment."""
    lines = [f"# {len(cards)} cards"]
    lines.extend(CARDS[card].name for card in sorted(cards))
    return "\n".join(lines) + "\n"
