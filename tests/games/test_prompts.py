"""Each game names its decisions (``Game.prompt``) and marks the hand cards the rules refuse now
with one word (``Game.unplayable``), in both languages, from the rules' own refusals."""

from __future__ import annotations

import dataclasses
import random

import pytest

from fairtable.games import mark_text, prompt_text, referee, registry, speaking
from fairtable.games.bots import random_bot
from fairtable.games.contract import CommitHidden, Decide, Prompt, ShuffleOwned, Simultaneous
from fairtable.games.texts import catalogue
from tests.games.shengji.positions import handles_of, play, trick_state
from tests.games.towers.positions import FILLER, HAND, position

NAMED = {
    ("towers", "normal", ()): {"towers.play"},
    ("shengji", "standard", ()): {"shengji.declare", "shengji.bury", "shengji.lead", "shengji.follow"},
    ("drachenherz", "standard", ()): {"drachenherz.lay"},
    ("duel", "1v1", ()): {"duel.deck", "duel.attack", "duel.defend"},
    ("duel", "1v1", (("draft", True),)): {"duel.pick", "duel.attack", "duel.defend"},
    ("zeeslag", "duel", ()): {"zeeslag.place", "zeeslag.shoot", "zeeslag.answer"},
    ("zeeslag", "shared", ()): {"zeeslag.place", "zeeslag.salvo", "zeeslag.answer"},
    ("zeeslag", "space", ()): {"zeeslag.buy", "zeeslag.declare", "zeeslag.shoot", "zeeslag.answer", "zeeslag.beam"},
}
"""The decisions a seeded playout of each game meets, each named by its game."""


def deciding(request) -> tuple[int, ...]:
    if isinstance(request, Decide):
        return (request.seat,)
    if isinstance(request, (Simultaneous, CommitHidden)):
        return request.seats
    return (request.owner,) if isinstance(request, ShuffleOwned) else ()


@pytest.mark.parametrize(("game_id", "variant", "options"), sorted(NAMED))
def test_every_decision_of_a_playout_is_named_in_both_languages(game_id, variant, options):
    game = registry.get(game_id)
    low, _ = game.seat_range(variant)
    rng = random.Random(5)
    played = referee.play(game, variant, dict(options), [random_bot(game, rng) for _ in range(low)], rng)
    state, named = game.setup(variant, dict(options), low), set()
    for event in played.events:
        for seat in deciding(game.pending(state)):
            prompt = game.prompt(state, seat)
            assert prompt is not None
            named.add(prompt.key)
            english = prompt_text(prompt)
            with speaking("orig"):
                assert prompt_text(prompt) != english
            assert "{" not in english, english
        state = game.apply(state, event)
    assert named == NAMED[(game_id, variant, options)]


def test_towers_names_the_discard_after_a_draw_and_discard_card_and_marks_nothing_then():
    game = registry.get("towers")
    state = position((33,) + (FILLER,) * 5, me={"ore": 23})  # card 33 costs 24 ore
    assert game.prompt(state, 0) == Prompt("towers.play")
    (marked,) = game.unplayable(state, 0)
    assert (marked.move, marked.mark) == ({"play": HAND[0]}, "towers.cost")
    assert marked.refusal == game.explain(state, 0, {"play": HAND[0]})
    assert mark_text(marked.mark) == "cost"
    with speaking("orig"):
        assert mark_text(marked.mark) == "cena"
    discarding = dataclasses.replace(state, must_discard=True)
    assert prompt_text(game.prompt(discarding, 0)) == "discard a card, then play again"
    assert game.unplayable(discarding, 0) == ()


def test_shengji_marks_the_cards_that_do_not_follow_and_names_bury_with_the_count():
    game = registry.get("shengji")
    state = play(trick_state(["SK", "S3 C4", "C5 C6", "C7 C8"]), 0, "lead", "SK")
    assert prompt_text(game.prompt(state, 1)) == "follow the lead"
    assert [(u.move, u.mark) for u in game.unplayable(state, 1)] == [({"play": handles_of(state, 1, "C4")[0]}, "shengji.follow")]
    assert prompt_text(Prompt("shengji.bury", {"count": 3})) == "bury 3 cards in the kitty"


def test_every_mark_and_decision_has_words_in_the_catalogue_of_each_language():
    for language in ("en", "orig"):
        texts = catalogue(language)
        for game_id in registry.ids():
            assert f"mark.{game_id}.not_now" in texts
            game = registry.get(game_id)
            assert all(f"mark.{mark}" in texts for mark in game.marks.values())
