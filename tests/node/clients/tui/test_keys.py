"""No typed word can lose a game: every name of every catalogue the games ship (cards, ships,
kinds, battlefields), typed into a live board of each game as written and in lower case, then
sent with Enter, does nothing but the move it names (or nothing): no resignation, no dialog,
no other move. Resigning takes Ctrl+R and a focused button; the help closes on Escape alone."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input

import fairtable.games
from fairtable.games.drachenherz.catalogue import kind_of
from fairtable.games.duel.catalogue import CARDS as DUEL_CARDS
from fairtable.games.shengji.catalogue import CARDS as SJ_CARDS
from fairtable.games.towers.catalogue import CARDS as TOWERS_CARDS
from fairtable.node.clients.tui.boards import Refused, board_for
from tests.node.clients.tui.person import Person, play
from tests.node.clients.tui.test_snapshots import case
from tests.node.clients.tui.world import on, screen_text


def catalogue_names() -> list[str]:
    """Every ``name`` and ``name_en`` in the games' catalogue files (read only), each once, sorted."""
    names: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            names.update(text for key, text in value.items() if key in ("name", "name_en") and isinstance(text, str))
            value = list(value.values())
        if isinstance(value, list):
            for item in value:
                walk(item)

    for path in Path(fairtable.games.__file__).parent.glob("*/*.json"):
        walk(json.loads(path.read_text(encoding="utf-8")))
    return sorted(names)


NAMES = catalogue_names()
CARD_NAMES: dict[str, Callable[[int], tuple[str, ...]]] = {
    "towers": lambda face: (TOWERS_CARDS[face].name, TOWERS_CARDS[face].name_en),
    "duel": lambda face: (DUEL_CARDS[face].name, DUEL_CARDS[face].name_en),
    "shengji": lambda face: (SJ_CARDS[face].name, SJ_CARDS[face].name_en),
    "drachenherz": lambda face: (kind_of(face).name, kind_of(face).name_en),
}
"""The names a hand card answers to, per card game."""
BOARDS = ("towers", "shengji", "zeeslag-placing", "zeeslag-duel", "space-purchase", "space-battle", "drachenherz", "duel-deck",
          "duel-defend")
"""Each game's board at a decision of seat 0 (the snapshots' tables), placing and shooting apart."""


READS = frozenset({"node", "tables", "discovered"})
"""Requests that only read (the lobby below refreshes its lists on its own)."""


def acts(person: Person, since: int = 0) -> list[tuple[str, dict]]:
    """What the client asked its node to do since request ``since``, reads left out."""
    return [(op, fields) for op, fields in person.app.bridge.sent[since:] if op not in READS]  # type: ignore[attr-defined]


def named_in_hand(update: dict, name: str) -> bool:
    names = CARD_NAMES.get(update["game"])
    view = update.get("view") or {}
    hand = view.get("hand_cards") or view.get("hand") or []  # duel's hand is its hand_cards
    return names is not None and any(entry["card"] is not None and name.lower() in map(str.lower, names(entry["card"]))
                                     for entry in hand)


def test_the_catalogues_hold_the_names_that_once_resigned():
    assert {"Ruby", "Rock Garden"} <= set(NAMES) and len(NAMES) > 500


FIRST_KEYS = sorted({text[0] for name in NAMES for text in (name, name.lower())})
"""Every key a catalogue name starts with, as written or in lower case."""


def starting_with(key: str) -> str:
    """The shortest catalogue name starting with ``key`` (in lower case when ``key`` is): every key
    a board could take first is pressed, in as few keys as the catalogues allow."""
    return min((text for name in NAMES for text in (name, name.lower()) if text[0] == key), key=lambda text: (len(text), text))


@pytest.mark.parametrize("name", [board for board in BOARDS if board not in ("zeeslag-duel", "duel-defend")])
def test_typing_a_name_from_each_first_key_into_a_board_makes_no_move_but_the_one_named(name):
    """Key by key through the pilot, a name for each key any name starts with (a board takes
    only a first key, or keys it used without taking the typing line; the line takes the rest
    as Textual's own input), on each board whose keys differ (a duel's play and a zeeslag duel's
    shots take arrows and Enter only). Every name key by key on every board would take the suite
    many minutes; every name's reading once typed is checked below without the pilot."""
    update, _ = case(name)

    async def body(person: Person) -> None:
        line = person.app.screen.query_one("#typed", Input)
        for text in map(starting_with, FIRST_KEYS):
            count = len(person.app.bridge.sent)  # type: ignore[attr-defined]
            await person.type(text)
            assert on(person.app, "TableScreen"), f"typing {text!r} opened {type(person.app.screen).__name__}"
            assert acts(person, count) == [], f"typing {text!r} sent {acts(person, count)}"
            assert line.value.strip() in (text, text[1:]), f"typing {text!r} left {line.value!r} in the line"
            await person.key("enter", "\r")
            assert on(person.app, "TableScreen"), f"{text!r} and Enter opened {type(person.app.screen).__name__}"
            sent = acts(person, count)
            assert [op for op, _ in sent] in ([], ["move"]), f"{text!r} and Enter sent {sent}"
            if sent:
                assert sent[0][1]["move"] in update["legal_moves"] and named_in_hand(update, text), f"{text!r} sent {sent}"

    play(update, body)


@pytest.mark.parametrize("name", BOARDS)
def test_every_catalogue_name_typed_reads_as_the_card_it_names_or_as_nothing(name):
    update, _ = case(name)
    board = board_for(update)
    board.current = update
    for typed in NAMES:
        for text in (typed, typed.lower()):
            assert not board.letter(text)
            try:
                move = board.typed(update, text)
            except Refused:
                continue
            assert move is None or (move in update["legal_moves"] and named_in_hand(update, text)), f"{text!r} reads as {move}"


def test_resigning_takes_ctrl_r_and_the_focused_button_never_a_typed_letter():
    update, _ = case("towers")

    async def body(person: Person) -> None:
        await person.press("R", "u", "b", "y")
        assert on(person.app, "TableScreen") and person.app.screen.query_one("#typed").value == "Ruby"
        await person.press("ctrl+r")
        assert on(person.app, "Confirm")
        await person.press(*"yes y Y", "enter")  # letters do nothing; Enter presses the focused "Keep playing"
        assert on(person.app, "TableScreen") and acts(person) == []
        await person.press("ctrl+r", "tab", "enter")
        assert on(person.app, "TableScreen") and [op for op, _ in acts(person)] == ["resign"]

    play(update, body)


def test_escape_on_the_help_closes_the_help_only():
    update, _ = case("towers")

    async def body(person: Person) -> None:
        await person.press("question_mark")
        assert on(person.app, "Help")
        await person.press("escape")
        assert on(person.app, "TableScreen")
        await person.press("question_mark", "x")
        assert on(person.app, "TableScreen") and person.app.screen.query_one("#typed").value == ""

    play(update, body)


def test_a_game_that_ends_while_the_help_is_open_shows_its_end_once_the_help_closes():
    update, _ = case("towers")

    async def body(person: Person) -> None:
        await person.press("question_mark")
        person.app.table_event({**update, "your_turn": False, "result": {"winners": [1], "reason": "resigned", "scores": []}})
        await person.press("escape")
        assert on(person.app, "FinalScreen") and "You lost" in screen_text(person.app)

    play(update, body)


BURSTS = (("z", "z", "z", "enter"), ("f", "u", "l", "l", "space", "z", "enter"), ("z", "space", "z", "enter"),
          ("z", "backspace", "z", "z", "enter"), ("q", "z", "escape", "z", "z", "enter"))
"""Typed text and Enter in one burst, in several key orders: text naming no move (a board may take a first Space)."""


def text_of(burst: tuple[str, ...]) -> str:
    """The text a burst leaves typed before its Enter."""
    text = ""
    for key in burst[:-1]:
        text = "" if key == "escape" else text[:-1] if key == "backspace" else text + (" " if key == "space" else key)
    return text


def said_of(person: Person, text: str) -> bool:
    """The message line answers the typed ``text`` (a move it names not, or a deck list it cannot read)."""
    screen = screen_text(person.app)
    return f"{text!r} is none of your moves now" in screen or f"cannot read the deck list {text}:" in screen


@pytest.mark.parametrize("name", BOARDS)
def test_a_burst_or_a_paste_of_typed_text_and_enter_sends_that_text_never_the_highlighted_row(name):
    """Textual moves focus only after the keys already queued: a burst that started typing sent its Enter to the
    board, which played the highlighted row, and left the text in the line (issue: 'zzz' Enter played Imp)."""
    update, _ = case(name)

    async def body(person: Person) -> None:
        line = person.app.screen.query_one("#typed", Input)
        for burst in BURSTS:
            count = len(person.app.bridge.sent)  # type: ignore[attr-defined]
            await person.burst(*burst)
            assert [op for op, _ in acts(person, count)] == [], f"{burst} sent {acts(person, count)}"
            assert line.value == "" and person.board.text == "", f"{burst} left {line.value!r}"
            assert said_of(person, text_of(burst)), burst
        await person.paste("zz")
        assert line.value == "zz" and acts(person) == []  # pasted text waits for Enter
        await person.burst("escape")
        assert line.value == "" and on(person.app, "TableScreen")  # Escape drops the text, not the table
        await person.paste("zzz\nzz")
        assert line.value == "zz" and acts(person) == [] and said_of(person, "zzz")
        await person.burst("escape")
        person.app.bridge.answers["check"] = {"legal": True}  # type: ignore[attr-defined]  # a named move the node takes
        try:
            named = person.board.typed(update, "1") or person.board.meant(update, "1")
        except Refused:
            named = None  # the deck's board reads "1" as a deck-list file
        await person.burst("1", "enter")
        assert person.sent == ([] if named is None else [named]) and line.value == ""

    play(update, body)


def test_a_refusal_longer_than_the_screen_is_wrapped_whole_at_80_columns():
    update, _ = case("towers")

    async def body(person: Person) -> None:
        await person.press("z", "z", "z", "enter")
        message = person.app.screen.query_one("#message")
        said = "'zzz' is none of your moves now (a card's number 1..6 or name plays it, d and its number discards it)"
        assert len(said) > 80 and message.size.height == 2, message.size
        shown = [line.strip() for line in screen_text(person.app).splitlines()]
        start = next(index for index, line in enumerate(shown) if line.startswith("'zzz' is none"))
        assert " ".join(shown[start:start + 2]) == said  # every word of it, none cut off

    play(update, body)
