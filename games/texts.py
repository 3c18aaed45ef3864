"""Every game text a person reads, per language, as one flat catalogue (``key -> text``).

The browser page draws boards from the games' data files but reads every word from this
catalogue, served as ``/catalogue/LANG.json``; the tests check renderers against it. It is
built from the same data and the same :mod:`~fairtable.games.lang` choice the renderers use,
so a name exists once, in its game's data file, and the page and the terminal say the same.

Keys: ``GAME.FILE.ID`` for a catalogue entry's name (``towers.cards.5``, ``zeeslag.fleets.classic.0``
for ship 0 of a fleet, ``zeeslag.starships.fighter``), ``towers.cards.ID.text`` for a card's
effect, ``drachenherz.cards.KIND.field`` for a kind's field (``dwarves``), ``duel.types.TYPE``,
``shengji.suits.SUIT`` (``trump`` too), ``towers.resources.RESOURCE``, ``plural.MESSAGE.CATEGORY`` for the texts with a count,
``refusal.KEY`` for the words of a :class:`~fairtable.games.contract.Refusal` (a template:
``{count}`` prints its value, ``{card:name}`` the catalogue's text for its value; :func:`say`; in
the original a refusal every game shares is Dutch here, and :func:`say` prints it in the language
of the rule text of the game its rule id names, Latvian for towers),
``page.KEY`` for the page's own fixed words (results, seats, violations; ``{field}``
placeholders filled in by the page), and ``reason.CODE`` / ``reason.GAME.CODE`` for the words of a
result's reason (:mod:`~fairtable.games.results`).
"""

from __future__ import annotations

import string
from functools import cache
from typing import Any

from fairtable.games import registry
from fairtable.games.contract import GENERIC, Prompt, Refusal
from fairtable.games.drachenherz.catalogue import KINDS, SPECIAL, field_name
from fairtable.games.duel.catalogue import CARDS as DUEL_CARDS
from fairtable.games.lang import ENGLISH, choose, current, messages, named, said, speaking, term
from fairtable.games.results import COMMON_REASONS
from fairtable.games.shengji.catalogue import CARDS as SHENGJI_CARDS
from fairtable.games.towers.catalogue import BATTLEFIELDS
from fairtable.games.towers.catalogue import CARDS as TOWERS_CARDS
from fairtable.games.towers.render import effect_text
from fairtable.games.zeeslag.fleet import FLEETS
from fairtable.games.zeeslag.starships import CATALOGUE


def catalogue(language: str) -> dict[str, str]:
    """The catalogue of ``language`` (one of :data:`~fairtable.games.lang.LANGUAGES`), keys sorted."""
    with speaking(language):
        texts = {
            **{f"towers.cards.{card.id}": named(card) for card in TOWERS_CARDS},
            **{f"towers.cards.{card.id}.text": effect_text(card) for card in TOWERS_CARDS},
            **{f"towers.battlefields.{field.id}": named(field) for field in BATTLEFIELDS.values()},
            **{f"zeeslag.fleets.{fleet.id}": named(fleet) for fleet in FLEETS.values()},
            **{f"zeeslag.fleets.{fleet.id}.{ship.index}": named(ship) for fleet in FLEETS.values() for ship in fleet.ships},
            f"zeeslag.starships.{CATALOGUE.id}": named(CATALOGUE),
            **{f"zeeslag.starships.{kind.id}": named(kind) for kind in CATALOGUE.kinds},
            "zeeslag.starships.fighter": choose(CATALOGUE.fighter_name_en, CATALOGUE.fighter_name),
            **{f"duel.cards.{card.id}": named(card) for card in DUEL_CARDS},
            **{f"duel.types.{kind}": term("duel", kind) for kind in messages()["terms"]["duel"]},
            **{f"shengji.suits.{english}": term("shengji", word) for word, english in messages()["terms"]["shengji"].items()},
            **{f"shengji.cards.{card.id}": named(card) for card in SHENGJI_CARDS},
            **{f"drachenherz.cards.{kind.id}": named(kind) for kind in KINDS.values()},
            **{f"drachenherz.cards.{kind.id}.field": field_name(kind.id) for kind in KINDS.values()},
            f"drachenherz.cards.{SPECIAL.id}": named(SPECIAL),
            **{f"plural.{message}.{category}": template for message, forms in messages()["plural"].items()
               for category, template in forms.items()},
            **{f"towers.resources.{english}": term("towers", word) for word, english in messages()["terms"]["towers"].items()},
            **{f"refusal.{key}": said(forms, key.split(".")[0]) for key, forms in messages()["refusals"].items()},
            **{f"decision.{key}": said(forms, key.split(".")[0]) for key, forms in messages()["decisions"].items()},
            **{f"mark.{key}": said(forms, key.split(".")[0]) for key, forms in messages()["marks"].items()},
            **{f"page.{key}": template for key, template in messages()["page"].items()},
            **{f"reason.{code}": words for code, words in COMMON_REASONS.items()},
            **{f"reason.{game_id}.{code}": words for game_id in registry.ids() for code, words in registry.get(game_id).reasons.items()},
        }
    return dict(sorted(texts.items()))


def original_words() -> frozenset[str]:
    """The words of the original catalogue that are not words of the English one: what English
    output must never contain (``Vliegdekschip``, ``tornim``)."""
    def words(texts: dict[str, str]) -> set[str]:
        return {word.strip(".,:;()").lower() for text in texts.values() for word in text.split()}
    return frozenset(word for word in words(catalogue("orig")) - words(catalogue(ENGLISH)) if word.isalpha() and len(word) > 2)


@cache
def _said(language: str) -> dict[str, str]:
    return catalogue(language)


class _Words(string.Formatter):
    """Formats a refusal template: ``{count}`` as the value, ``{card:name}`` as the catalogue's text for the value."""

    def __init__(self, texts: dict[str, str]) -> None:
        self.texts = texts

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec == "name":
            return self.texts.get(str(value), str(value))
        return super().format_field(value, format_spec)


def say(refusal: Refusal) -> str:
    """The words of ``refusal`` in the language in use, e.g. "Ogre costs 6 soldiers; you have 4";
    in the original, a refusal every game shares in its game's rule text language (the game
    its rule id names)."""
    refusals = messages()["refusals"]
    known = refusal.key in refusals
    template = said(refusals[refusal.key if known else GENERIC], refusal.rule.split(".")[0])
    params = refusal.params if known else {GENERIC: refusal.rule}
    return _Words(_said(current())).format(template, **params)


def prompt_text(prompt: Prompt) -> str:
    """The game's name of a decision in the language in use, e.g. "bury 8 cards in the kitty"."""
    return _Words(_said(current())).format(_said(current())[f"decision.{prompt.key}"], **prompt.params)


def mark_text(mark: str) -> str:
    """The one word beside a card the rules refuse now (``cost``, ``follow``) in the language in use."""
    return _said(current())[f"mark.{mark}"]
