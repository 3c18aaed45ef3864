"""Refusals in the game's terms: ``Game.explain`` gives the words of the very ``RuleError`` that
``apply`` raises, each game words its common refusals, and the catalogue prints them in both
languages with names as the catalogue has them."""

from __future__ import annotations

import random
import re

import pytest

from fairtable.games import referee, registry, say, speaking
from fairtable.games.bots import random_bot
from fairtable.games.contract import GENERIC, Decide, Move, RandomValue, Refusal, RuleError
from fairtable.games.lang import messages, original_of
from fairtable.games.texts import catalogue
from tests.games.towers.positions import FILLER, HAND, position

WORDED = {
    ("towers", "normal"): {"towers.cost", "towers.hand"},
    ("zeeslag", "duel"): {"zeeslag.target:shot"},
    ("shengji", "standard"): {"shengji.hand"},
    ("drachenherz", "standard"): {"drachenherz.hand"},
    ("duel", "1v1"): {"duel.hand"},
}
"""For a playout of each game, refusals it must word itself when offered the moves played elsewhere in the game."""


def test_an_unaffordable_card_is_refused_in_words_naming_card_cost_and_what_the_seat_has():
    game = registry.get("towers")
    state = position((33,) + (FILLER,) * 5, me={"ore": 23, "mana": 99})  # card 33 costs 24 ore
    refusal = game.explain(state, 0, {"play": HAND[0]})
    with pytest.raises(RuleError) as refused:
        game.apply(state, Move(0, {"play": HAND[0]}, {HAND[0]: 33}))
    assert refusal == refused.value.refusal
    assert refusal == Refusal("towers.cost", "towers.cost", {"card": "towers.cards.33", "cost": 24, "have": 23, "resource": "towers.resources.ore"})
    assert say(refusal) == f"{catalogue('en')['towers.cards.33']} costs 24 ore; you have 23"
    with speaking("orig"):
        assert say(refusal) == f"{catalogue('orig')['towers.cards.33']}: cena 24, rūda: jums ir 23"
    assert game.explain(state, 0, {"discard": HAND[0]}) is None
    assert game.explain(state, 1, {"discard": HAND[0]}) == Refusal("towers.turn", "turn", {})


def test_a_rule_without_words_of_its_own_is_named_by_its_id():
    error = RuleError("towers.reveal", "the move must show exactly the face of handle 3")
    assert error.refusal == Refusal("towers.reveal", GENERIC, {GENERIC: "towers.reveal"})
    assert "towers.reveal" in say(error.refusal)


def test_every_template_prints_with_its_parameters_in_every_language():
    names = re.compile(r"{(\w+)(?::name)?}")
    for key, forms in messages()["refusals"].items():
        assert all(set(names.findall(forms["en"])) == set(names.findall(form)) for form in forms.values()), key
    for language in ("en", "orig"):
        assert all(f"refusal.{key}" in catalogue(language) for key in messages()["refusals"])


def test_every_refusal_has_the_words_of_the_rule_text_of_each_game_it_serves():
    """A game's own refusal gives its rule text's language as ``orig``; a refusal every game shares
    gives each rule text's language (Dutch, Latvian), and prints in the one of the game its rule names."""
    languages = {original_of(game_id) for game_id in registry.ids()}
    assert languages == {"nl", "lv"}
    for key, forms in messages()["refusals"].items():
        game_id = key.split(".")[0]
        assert set(forms) == ({"en", "orig"} if game_id in registry.ids() else {"en", *languages}), key
    for game_id in registry.ids():
        turn = Refusal(f"{game_id}.turn", "turn", {})
        with speaking("orig"):
            assert say(turn) == messages()["refusals"]["turn"][original_of(game_id)] != "it is not your turn"


ENGLISH_IN_BOTH = ("plural.", "page.", "reason.")
"""The catalogue keys English in either language (``games/lang.py``): the clients' own words, not the rule texts'."""
ALIKE = {"towers.resources.mana", "zeeslag.starships.dreadnought", "zeeslag.starships.lancer", "zeeslag.starships.spirit"}
"""Names the rule texts themselves give as the English ones (the space battle's ships, mana)."""


def test_the_original_catalogue_has_its_own_words_for_every_entry_but_the_documented_ones():
    english, original = catalogue("en"), catalogue("orig")
    alike = {key for key in english if english[key] == original[key] and not key.startswith(ENGLISH_IN_BOTH)}
    assert alike == ALIKE, sorted(alike ^ ALIKE)


@pytest.mark.parametrize(("game_id", "variant"), sorted(WORDED))
def test_each_game_words_the_refusals_of_its_playouts(game_id, variant):
    """Every move played in a seeded game, offered where it is not legal: ``explain`` agrees with
    ``apply``, the words print without a template's braces, and the game's own keys appear."""
    game = registry.get(game_id)
    low, _ = game.seat_range(variant)
    rng = random.Random(5)
    played = referee.play(game, variant, {}, [random_bot(game, rng) for _ in range(low)], rng)
    moves = list({repr(event.move): event.move for event in played.events if isinstance(event, Move)}.values())
    seen: set[str] = set()
    faces, stride = played_faces(played), max(1, len(played.events) // 60)
    state = game.setup(variant, {}, low)
    for index, event in enumerate(played.events):
        request = game.pending(state)
        if isinstance(request, Decide) and index % stride == 0:
            legal = game.legal_moves(state, request.seat)
            for move in random.Random(index).sample(moves, min(12, len(moves))):
                if move in legal:
                    continue
                refusal = game.explain(state, request.seat, move)
                try:
                    game.apply(state, Move(request.seat, move, {h: faces[h] for h in shown(game, state, move)}))
                except RuleError as error:
                    assert refusal == error.refusal
                    seen.add(refusal.key)
                    assert "{" not in say(refusal), say(refusal)
        state = game.apply(state, event)
    assert WORDED[(game_id, variant)] <= seen, seen


def played_faces(played: referee.Played) -> dict[int, int]:
    faces: dict[int, int] = {}
    for event in played.events:
        faces.update(getattr(event, "faces", None) or {})
    return faces


def shown(game, state, move) -> tuple[int, ...]:
    try:
        return game.reveals(state, move)
    except RuleError:
        return ()


def words(game_id: str, state, seat: int, move) -> str:
    """The words of ``seat``'s refused ``move``, checked to be apply's own refusal."""
    refusal = registry.get(game_id).explain(state, seat, move)
    assert refusal is not None
    return say(refusal)


def test_a_card_that_does_not_follow_names_the_suit_and_the_cards_that_do():
    from tests.games.shengji.positions import handles_of, play, trick_state

    state = play(trick_state(["SK", "S3 C4", "C5 C6", "C7 C8"]), 0, "lead", "SK")
    assert words("shengji", state, 1, {"play": handles_of(state, 1, "C4")[0]}) == "you must follow spades: you hold S3"
    with speaking("orig"):
        assert words("shengji", state, 1, {"play": handles_of(state, 1, "C4")[0]}) == "volg schoppen: je hebt S3"


def test_a_cell_already_shot_is_named():
    from tests.games.zeeslag.positions import Table, cell

    table = Table()
    table.shoot("B4")  # water: seat 1 shoots next
    table.shoot("J10")  # water: seat 0 again
    assert table.pending == Decide(0)
    assert words("zeeslag", table.states[0], 0, {"shoot": cell("B4")}) == "that cell (B4) was already shot"
    assert words("zeeslag", table.states[0], 0, {"shoot": 10**6}) == "that is no cell of the enemy's waters"
    with speaking("orig"):
        assert words("zeeslag", table.states[0], 0, {"shoot": cell("B4")}) == "op dat vak (B4) is al geschoten"


def test_a_full_field_and_a_mixed_play_are_refused_in_the_fields_words():
    from tests.games.drachenherz.positions import hand_of, position

    state = position(("hu1", "hu2", "dw1", "dw1", "dw2"), board={"huntress": ["hu1", "hu3"], "dwarf": ["dw1", "dw2"]})
    field = catalogue("en")["drachenherz.cards.huntress.field"]
    assert words("drachenherz", state, 0, {"play": list(hand_of(state, 0, "hu1", "hu2"))}) == f"the {field} field has room for 1; you lay 2"
    assert words("drachenherz", state, 0, {"play": list(hand_of(state, 0, "hu1", "dw1"))}) == "one play lays cards of one kind only"


def test_a_drafted_card_is_named_when_picked_again():
    game = registry.get("duel")
    state = game.apply(game.setup("1v1", {"draft": True}, 2), RandomValue(0))
    first = game.legal_moves(state, 0)[0]
    state = game.apply(state, Move(0, first))
    name = catalogue("en")[f"duel.cards.{first['pick']}"]
    assert words("duel", state, 1, first) == f"{name} was already picked"
    assert words("duel", state, 0, game.legal_moves(state, 1)[0]) == "it is not your turn"


def test_a_salvo_is_refused_in_words_for_its_count_and_for_a_cell_already_shot():
    from tests.games.zeeslag.positions import CLASSIC_0, CLASSIC_1, CLASSIC_2, Table, cell

    def salvo(shots: dict[int, str]) -> dict:
        return {"salvo": sorted([foe, cell(name)] for foe, names in shots.items() for name in names.split())}

    table = Table(fleets=(CLASSIC_0, CLASSIC_1, CLASSIC_2), options={"shots": 2})
    state = table.states[0]
    assert words("zeeslag", state, 0, salvo({1: "B1", 2: "J9 J10"})) == "fire 2 shots at each enemy, not 1"
    assert registry.get("zeeslag").explain(state, 0, salvo({1: "B1 B2", 2: "J9 J10"})) is None
    table.salvo({0: {1: "B1 B2", 2: "J9 J10"}, 1: {0: "B1 B2", 2: "B1 B2"}, 2: {0: "J9 J10", 1: "J9 J10"}})
    assert words("zeeslag", table.states[0], 0, salvo({1: "B1 B3", 2: "J7 J8"})) == "that cell (B1) was already shot"
