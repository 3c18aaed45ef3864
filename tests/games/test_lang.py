"""One language at a time: every text a renderer emits for every game comes from the catalogue of
the language in use, English by default, with no word of the original in English output."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from fairtable.games import registry
from fairtable.games.lang import ENGLISH, LANGUAGES, ORIGINAL, counted, current, speaking
from fairtable.games.texts import catalogue, original_words
from fairtable.node.cli.commands.export import text
from fairtable.node.replay import replay_chunks
from tests import export_golden

TRANSCRIPTS = export_golden.transcripts()
WORD = re.compile(r"[^\W\d_]+")


@cache
def everything_shown(transcript: Path, language: str) -> str:
    """The export record of ``transcript`` and the board of every step as every seat and a
    spectator see it, rendered in ``language``."""
    with speaking(language):
        record = replay_chunks([transcript.read_bytes()])
        renderer = registry.get(record.report.game).renderer
        assert renderer is not None
        boards = [renderer.render(view) for step in record.steps for view in (step.spectator, *step.views)]
        return "\n".join([text(record), *boards])


def words(shown: str) -> set[str]:
    return {word.lower() for word in WORD.findall(shown)}


@pytest.mark.parametrize("transcript", TRANSCRIPTS, ids=[path.stem for path in TRANSCRIPTS])
def test_english_output_holds_no_word_of_the_original_catalogue(transcript: Path):
    foreign = words(everything_shown(transcript, ENGLISH)) & original_words()
    assert not foreign, f"{transcript.stem} shows words of the original language in English: {sorted(foreign)}"


@cache
def catalogue_words(language: str) -> frozenset[str]:
    return frozenset(word for text in catalogue(language).values() for word in words(text))


def from_catalogue(shown: set[str], language: str) -> bool:
    """Whether every word of ``shown`` is a catalogue word or the start of one (a board cuts a
    line at its width, ``Torpedobootj``)."""
    return all(any(known.startswith(word) for known in catalogue_words(language)) for word in shown)


@pytest.mark.parametrize("transcript", TRANSCRIPTS, ids=[path.stem for path in TRANSCRIPTS])
def test_the_original_language_differs_from_english_in_catalogue_words_only(transcript: Path):
    english, original = words(everything_shown(transcript, ENGLISH)), words(everything_shown(transcript, ORIGINAL))
    assert from_catalogue(original - english, ORIGINAL) and from_catalogue(english - original, ENGLISH)
    if transcript.stem.startswith(("towers", "duel", "zeeslag-duel")):
        assert original & original_words(), f"{transcript.stem} shows no original name in the original language"


def test_both_catalogues_name_every_entry_once_and_english_is_the_default():
    assert current() == ENGLISH and set(LANGUAGES) == {ENGLISH, ORIGINAL}
    english, original = catalogue(ENGLISH), catalogue(ORIGINAL)
    assert english.keys() == original.keys() and all(english.values()) and all(original.values())
    assert english["zeeslag.fleets.classic.0"] == "Aircraft carrier" and original["zeeslag.fleets.classic.0"] == "Vliegdekschip"
    assert english["towers.cards.5.text"] == "+1 wall; +1 tower; +2 soldiers"
    assert original["towers.cards.5.text"] == "+1 mūrim, +1 tornim, +2 karavīri"
    assert {"tornim", "vliegdekschip"} <= original_words()


def test_a_language_not_offered_is_refused_by_name():
    with pytest.raises(ValueError, match="no language 'lv'"), speaking("lv"):
        pass


@pytest.mark.parametrize("message, forms", [
    ("trick", ("0 tricks", "1 trick", "2 tricks")),
    ("point", ("0 pts", "1 pt", "2 pts")),
    ("card", ("0 cards", "1 card", "2 cards")),
    ("violation", ("0 violations", "1 violation", "2 violations")),
])
def test_plurals_are_right_for_0_1_and_2(message: str, forms: tuple[str, str, str]):
    assert tuple(counted(message, count) for count in (0, 1, 2)) == forms
    with speaking(ORIGINAL):
        assert counted(message, 1) == forms[1]
