"""One language at a time: which language a person reads game texts in, and the plural forms.

Every game's data names its cards, ships and fields twice: ``name`` in the rule text's language
(Latvian for towers, Dutch for the others) and ``name_en``. A renderer never prints both; it
asks :func:`named` for the one of the language in use. The language is a setting of whoever
prints (``--lang`` of the command line, the page's menu), held in a context variable so that the
renderers' signatures in the game contract stay as they are and one trio task's setting never
leaks into another's. English is the default everywhere.

Texts with a count come from ``messages/en.json`` (data, one entry per message with CLDR plural
forms ``one`` and ``other``), so "1 trick" and "2 tricks" are written once, as data; so do the
rule text's fixed words that are not names of a catalogue entry (:func:`term`).

The original covers what the rule texts name (cards, fields, ships, types, suits, resources) and
what a game says to a player about its rules (refusals, every one in each rule text's language);
the clients' own words (texts with a count, the page's words, a result's reason) are English in
both settings, by rule, not by omission (``tests/games/test_refusals.py`` holds both to it).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from importlib import resources
from typing import Any, Protocol

ENGLISH = "en"
ORIGINAL = "orig"
LANGUAGES = {ENGLISH: "English", ORIGINAL: "the rule text's own (Latvian for towers, Dutch for the others)"}
"""The settings a person chooses from; English is the default."""

RULE_TEXTS = {"towers": "lv"}
"""The language of a game's rule text by game id where it is not Dutch (the other games'): what
:data:`ORIGINAL` reads for that game. A message every game shares gives each of these languages
(``nl``, ``lv``); a game's own message gives its language as ``orig``."""

_LANGUAGE: ContextVar[str] = ContextVar("fairtable_language", default=ENGLISH)


class Named(Protocol):
    """A catalogue entry with both names (a card, a ship, a battlefield, a fleet)."""

    @property
    def name(self) -> str:
        """The name in the rule text's language."""

    @property
    def name_en(self) -> str:
        """The English name."""


def current() -> str:
    """The language texts are printed in now (:data:`ENGLISH` unless :func:`speaking` set another)."""
    return _LANGUAGE.get()


@contextmanager
def speaking(language: str) -> Iterator[None]:
    """Print game texts in ``language`` (one of :data:`LANGUAGES`) inside the ``with`` block."""
    if language not in LANGUAGES:
        raise ValueError(f"no language {language!r}: one of {', '.join(LANGUAGES)}")
    token = _LANGUAGE.set(language)
    try:
        yield
    finally:
        _LANGUAGE.reset(token)


def choose(english: str, original: str) -> str:
    """``english`` or ``original``, whichever the language in use reads."""
    return original if current() == ORIGINAL else english


def original_of(game: str) -> str:
    """The language of ``game``'s rule text: ``lv`` for towers, ``nl`` for the others."""
    return RULE_TEXTS.get(game, "nl")


def said(forms: dict[str, str], game: str) -> str:
    """A message of ``messages/en.json`` (its forms by language) in the language in use, for
    ``game``: English, else in the original its ``orig`` (a game's own message), else the form of
    ``game``'s rule text language (a message every game shares)."""
    if current() != ORIGINAL:
        return forms[ENGLISH]
    return forms.get(ORIGINAL) or forms[original_of(game)]


def named(entry: Named) -> str:
    """An entry's name in the language in use: never both, never the other one."""
    return choose(entry.name_en, entry.name)


def term(group: str, word: str) -> str:
    """A fixed word of the rule text (a duel card's type) in the language in use: its English in
    ``messages/en.json`` under ``terms``/``group`` (a game id), itself in the original."""
    return choose(str(messages()["terms"][group][word]), word)


@cache
def messages() -> dict[str, Any]:
    """``messages/en.json``: under ``plural`` the messages with counts, each mapping a plural
    category to a template; under ``terms`` the rule text's fixed words by group; under ``page``
    the browser page's own fixed words."""
    text = resources.files("fairtable.games").joinpath("messages", "en.json").read_text(encoding="utf-8")
    return dict(json.loads(text))


def plural_category(count: int) -> str:
    """The CLDR plural category of ``count`` in English: ``one`` for 1, ``other`` for the rest (0 too)."""
    return "one" if count == 1 else "other"


def counted(message: str, count: int) -> str:
    """Message ``message`` of ``messages/en.json`` for ``count`` things, e.g. ``counted("trick", 1)``
    is ``1 trick`` and ``counted("trick", 0)`` is ``0 tricks``."""
    return str(messages()["plural"][message][plural_category(count)]).format(count=count)
