"""Each game's screen at 80x24, as SVG snapshots checked into ``snapshots/`` with their text.

The tables are made deterministically (seeded games, fixed names, a fixed clock: ``tables``) and shown
through a stub connection, so a snapshot changes only when the screen does. After a
deliberate change of a screen, regenerate them and review the pictures:

    FAIRTABLE_SNAPSHOTS=update .venv/bin/python -m pytest tests/node/clients/tui/test_snapshots.py
"""

from __future__ import annotations

import asyncio
import os
import re
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from fairtable.games import registry
from fairtable.games.texts import original_words
from fairtable.node.clients.tui.app import PlayApp
from fairtable.node.clients.tui.screens.table import TableScreen
from tests.node.clients.tui.screen import lines_of
from tests.node.clients.tui.space_tables import ARMED, BUYING, LANDING, SALVO
from tests.node.clients.tui.tables import table_at
from tests.node.clients.tui.world import FakeClock

SNAPSHOTS = Path(__file__).parent / "snapshots"
UPDATE = os.environ.get("FAIRTABLE_SNAPSHOTS") == "update"


class StubBridge:
    """Answers the few requests the screens make on their own; nothing reaches a node."""

    def __init__(self) -> None:
        self.on_event: Callable[[dict], None] = lambda event: None
        self.on_status: Callable[[str | None], None] = lambda status: None
        self.sent: list[tuple[str, dict]] = []
        self.tables: list[dict] = []
        """What the ``tables`` request answers: the player's tables."""
        self.answers: dict[str, Any] = {}
        """Answers (or failures, or functions of the request's fields) a test sets for other requests (``transcript``)."""

    def call(self, op: str, **fields: Any) -> asyncio.Future[dict]:
        self.sent.append((op, fields))
        answers = {"node": {"name": "alice", "fingerprint": "Z5NG-N48B-8BB8-8ZSX-KJS2-VP24", "address": "192.0.2.5:7400"},
                   "tables": {"tables": self.tables}, "discovered": {"tables": []},
                   "games": {"games": [registry.get(game_id).describe() for game_id in registry.ids()]}}
        future: asyncio.Future[dict] = asyncio.get_running_loop().create_future()
        answer = self.answers.get(op, answers.get(op, {}))
        if callable(answer):  # an answer that depends on the request's fields
            answer = answer(**fields)
        if isinstance(answer, Exception):
            future.set_exception(answer)
        else:
            future.set_result(answer)
        return future


@asynccontextmanager
async def table_screen(update: dict, answers: dict[str, Any] | None = None) -> AsyncIterator[tuple[PlayApp, Any]]:
    """The app at 80x24 on the table screen of a fixed ``update``, through a stub connection
    (answering ``answers`` too); and its pilot."""
    bridge = StubBridge()
    bridge.answers.update(answers or {})
    app = PlayApp(bridge, clock=FakeClock())  # type: ignore[arg-type]
    async with app.run_test(size=(80, 24)) as pilot:
        app.connection_status(None)
        app.table_event(update)
        await app.push_screen(TableScreen(update["lobby_id"]))
        await pilot.pause()
        yield app, pilot


def shot(update: dict, keys: tuple[str, ...] = (), answers: dict[str, Any] | None = None) -> str:
    async def take() -> str:
        async with table_screen(update, answers) as (app, pilot):
            await pilot.press(*keys)
            await pilot.pause()
            return app.export_screenshot(title="fairtable")
    return asyncio.run(take())


CASES: dict[str, tuple[dict, tuple[str, ...]]] = {
    "towers": (dict(game_id="towers", variant="normal", seats=2, seed=3, nth=1, turn_seconds=60), ("down",)),
    "shengji": (dict(game_id="shengji", variant="standard", seats=4, seed=5, nth=3, turn_seconds=60, deals=1), ("right", "space")),
    "towers-cost": (dict(game_id="towers", variant="normal", seats=2, seed=3,
                         where=lambda game, state: not state.must_discard and game.unplayable(state, 0)), ()),
    "towers-discard": (dict(game_id="towers", variant="normal", seats=2, seed=1, where=lambda game, state: state.must_discard), ()),
    "shengji-declare": (dict(game_id="shengji", variant="standard", seats=4, seed=2, deals=1,
                             where=lambda game, state: state.step == "declare"), ()),
    "shengji-bury": (dict(game_id="shengji", variant="standard", seats=4, seed=2, deals=1,
                          where=lambda game, state: state.step == "bury"), ()),
    "shengji-follow": (dict(game_id="shengji", variant="standard", seats=4, seed=5, deals=1,
                            where=lambda game, state: game.unplayable(state, 0)), ()),
    "zeeslag-placing": (dict(game_id="zeeslag", variant="duel", seats=2, seed=4), ("enter", "down", "down", "r", "right")),
    "zeeslag-duel": (dict(game_id="zeeslag", variant="duel", seats=2, seed=4, nth=6), ("up", "left")),
    "zeeslag-salvo": (dict(game_id="zeeslag", variant="duel", seats=3, seed=1, nth=3), ("right", "right", "enter", "tab", "down")),
    "zeeslag-teams-focus": (dict(game_id="zeeslag", variant="duel", seats=4, seed=2, nth=2, teams=2, salvo="focus"),
                            ("right", "enter", "down", "enter")),
    "zeeslag-shared": (dict(game_id="zeeslag", variant="shared", seats=3, seed=2, nth=3), ("right", "enter")),
    "zeeslag-shared-8": (dict(game_id="zeeslag", variant="shared", seats=8, seed=2, nth=2, teams=2), ("tab", "tab", "tab", "enter")),
    "zeeslag-shared-placing": (dict(game_id="zeeslag", variant="shared", seats=4, seed=2), ("right", "enter", "down", "down")),
    "space-purchase": (BUYING, ("right", "down", "down", "down", "right", "down", "down", "right")),
    "space-placing": (BUYING, ("right", "down", "down", "down", "right", "enter", "enter", "enter", "r", "right", "right", "right", "right", "right", "right")),
    "space-battle": (ARMED, ("s", "right", "down", "down")),
    "space-landing": (LANDING, ("right", "enter")),
    "space-salvo": (SALVO, ("right", "enter", "tab", "l", "right")),
    "drachenherz": (dict(game_id="drachenherz", variant="standard", seats=2, seed=3, nth=12, match=2), ("right", "space")),
    "duel-deck": (dict(game_id="duel", variant="1v1", seats=2, seed=1), ("space", "down", "space", "down")),
    "duel-rebuild": (dict(game_id="duel", variant="blind", seats=2, seed=1, nth=1), ("down", "space")),
    "duel-defend": (dict(game_id="duel", variant="1v1", seats=2, seed=1, nth=2, turn_seconds=60), ("down",)),
    "duel-blind": (dict(game_id="duel", variant="blind", seats=2, seed=1, events=40), ()),
    "duel-ffa": (dict(game_id="duel", variant="ffa", seats=6, seed=1, nth=1), ("right", "down")),
    "duel-draft": (dict(game_id="duel", variant="1v1", seats=2, seed=1, nth=5, draft=True), ("down",)),
}


MARKED = {
    "towers": {"index": 9, "kind": "forced", "latest": True, "seat": 0, "text": "Played for you, your only legal move: discard Faerie."},
    "shengji": {"index": 30, "kind": "default", "latest": True, "seat": 1, "text": "bob's timer ran out: the rules' default was played for them."},
    "zeeslag-duel": {"index": 14, "kind": "forced", "latest": True, "seat": 0, "text": "Played for you, your only legal move: not sunk."},
}
"""A move made for a seat (the log's ``latest`` entry) whose mark the board draws on the move itself:
towers' last discard (forced, this seat's), shengji's last trick (bob's timer), zeeslag's answer
to bob's hit (forced, this seat's)."""


def case(name: str) -> tuple[dict, tuple[str, ...]]:
    settings, keys = CASES[name]
    update = table_at(**settings)
    return ({**update, "log": [MARKED[name]]} if name in MARKED else update), keys


@pytest.mark.parametrize("name", sorted(CASES))
def test_each_games_screen_at_80x24_matches_its_snapshot(name):
    """The picture (``.svg``) and its characters (``.txt``, to read and to diff by eye)."""
    update, keys = case(name)
    matches_snapshot(name, shot(update, keys))


def matches_snapshot(name: str, svg: str) -> None:
    for path, content in ((SNAPSHOTS / f"{name}.svg", svg), (SNAPSHOTS / f"{name}.txt", "\n".join(lines_of(svg)) + "\n")):
        if UPDATE or not path.exists():
            SNAPSHOTS.mkdir(exist_ok=True)
            path.write_text(content)
            if not UPDATE:
                pytest.fail(f"wrote the missing snapshot {path.name}; review it and run again")
        assert content == path.read_text(), f"{path.name}: the screen changed; if on purpose, regenerate (see this module's docstring)"


def history_cases() -> dict[str, tuple[dict, dict[str, Any], tuple[str, ...]]]:
    """The history while a table is played (Ctrl+O), of a finished one (h on the final screen), and
    its replay from a chosen move, from a golden transcript (``history_tables``)."""
    from tests.node.clients.tui.history_tables import finished, history_of

    playing = {**table_at(**CASES["towers"][0]), "seats": ["bot-0", "bot-1"]}
    update, answers = finished(forced=2)
    return {
        "history-playing": (playing, {"history": {"entries": history_of("towers-normal", forced=2)[:9], "replay": False, "result": None}},
                            ("ctrl+o",)),
        "history-finished": (update, answers, ("h", "home", "down", "down")),
        "replay-towers": (update, answers, ("h", "home", "down", "down", "down", "enter", "right")),
    }


@pytest.mark.parametrize("name", ["history-playing", "history-finished", "replay-towers"])
def test_the_history_and_the_replay_at_80x24_match_their_snapshots(name):
    update, answers, keys = history_cases()[name]
    matches_snapshot(name, shot(update, keys, answers))


def test_snapshots_are_deterministic():
    update, keys = case("towers")
    assert shot(update, keys) == shot(update, keys)


@pytest.mark.parametrize("name", sorted(CASES))
def test_no_snapshot_holds_a_word_of_the_original_catalogue_or_a_count_in_the_wrong_form(name):
    """A player reading English meets no Dutch or Latvian word ("Vuurtorenwachter", "Mare") and
    no count that disagrees with its noun ("1 tricks", "1 cards")."""
    text = (SNAPSHOTS / f"{name}.txt").read_text()
    words = {word.strip(".,:;()·").lower() for word in text.split()}
    assert not words & original_words(), f"{name}: original words {sorted(words & original_words())}"
    assert not re.search(r"(?<![\d/])1 (tricks|cards|pts|ships|rounds|turns|shots|timeouts|violations)\b", text), name
