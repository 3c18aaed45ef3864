"""The history on the terminal client as a person uses it: Ctrl+O (or h on the final screen) lists
every move in the export's notation, it scrolls, and on a finished table Enter on a move opens the
replay there, stepped with the arrows; through a stub connection, and between real nodes."""

from __future__ import annotations

import asyncio

from textual.widgets import OptionList, Static

from fairtable.node.clients.tui.app import HostSettings, Start
from fairtable.node.clients.tui.screens.history import entry_line, merged
from tests.node.clients.tui.history_tables import finished, history_of
from tests.node.clients.tui.person import Person
from tests.node.clients.tui.screen import lines
from tests.node.clients.tui.tables import table_at
from tests.node.clients.tui.test_snapshots import table_screen
from tests.node.clients.tui.world import World, on, run, screen_text, seat_guest, table, until


def seen(app) -> str:
    """What the terminal shows now (a list's rows scrolled out of sight are not)."""
    return "\n".join(lines(app))


def step_line(app) -> str:
    return str(app.screen.query_one("#step", Static).render())


def asked(app, op: str) -> list[dict]:
    return [fields for sent, fields in app.bridge.sent if sent == op]


def test_a_finished_tables_history_scrolls_and_replays_from_the_move_chosen():
    update, answers = finished(forced=2)
    entries = answers["history"]["entries"]

    async def body() -> None:
        async with table_screen(update, answers) as (app, pilot):
            person = Person(app, pilot)
            await until(pilot, lambda: on(app, "FinalScreen"), "the final screen")
            await person.press("h")
            await until(pilot, lambda: on(app, "HistoryScreen") and entry_line(entries[-1]) in seen(app), "the history")
            shown = seen(app)
            assert "60 moves" in shown and "result: bot-0 won" in shown
            assert entry_line(entries[0]) not in shown  # the newest at the bottom; the oldest scrolled away
            await person.press("home")
            shown = seen(app)
            assert entry_line(entries[0]) in shown and f"{entry_line(entries[2])}  (forced: no other move)" in shown
            await person.press("pagedown", "home", "down", "down", "down")
            assert app.screen.query_one("#history", OptionList).highlighted == 3
            await person.press("enter")
            await until(pilot, lambda: on(app, "ReplayScreen") and step_line(app) == entry_line(entries[3]), "the replay at move 4")
            assert asked(app, "replay_step")[-1]["index"] == entries[3]["index"]
            assert f"entry 4 of {len(entries)}" in screen_text(app)
            assert app.screen.board.current["view"] == answers["replay_step"](update["table"], entries[3]["index"])["view"]
            await person.press("right", "right")
            await until(pilot, lambda: step_line(app) == entry_line(entries[5]), "two moves on")
            await person.press("left")
            await until(pilot, lambda: step_line(app) == entry_line(entries[4]), "one back")
            await person.press("end")
            await until(pilot, lambda: step_line(app) == entry_line(entries[-1]), "the last move")
            await person.press("escape")
            await until(pilot, lambda: on(app, "HistoryScreen"), "the history again")

    asyncio.run(body())


def test_a_table_being_played_shows_its_history_but_no_replay_yet():
    update = table_at("towers", "normal", 2, 3, turn_seconds=60)
    entries = history_of("towers-normal")[:5]
    answers = {"history": {"entries": entries, "replay": False, "result": None}}

    async def body() -> None:
        async with table_screen(update, answers) as (app, pilot):
            person = Person(app, pilot)
            await person.press("ctrl+o")
            await until(pilot, lambda: on(app, "HistoryScreen") and entry_line(entries[-1]) in screen_text(app), "the history")
            assert "The game goes on." in screen_text(app) and "Enter: replay" not in screen_text(app)
            shown = await person.press("enter")
            assert on(app, "HistoryScreen") and "The replay opens once the game is over" in shown
            assert asked(app, "history") == [{"table": update["table"]}]
            app.bridge.answers["history"] = {"entries": history_of("towers-normal")[4:7], "replay": False, "result": None}
            app.table_event(update)  # the table changed: asked again from the newest entry on
            await until(pilot, lambda: len(asked(app, "history")) == 2 and entry_line(history_of("towers-normal")[6]) in screen_text(app),
                        "the newer entries")
            assert asked(app, "history")[-1] == {"table": update["table"], "from": entries[-1]["index"]}
            assert app.screen.entries == history_of("towers-normal")[:7]

    asyncio.run(body())


def test_newer_entries_replace_those_from_where_they_start():
    old = [{"index": 3, "n": 1, "text": "a"}, {"index": 5, "n": 2, "text": "b"}]
    assert merged(old, [{"index": 5, "n": 2, "text": "b: hit"}, {"index": 8, "n": 3, "text": "c"}], 5) == [
        old[0], {"index": 5, "n": 2, "text": "b: hit"}, {"index": 8, "n": 3, "text": "c"}]


def test_a_person_plays_resigns_and_steps_through_the_game_from_a_chosen_move(tmp_path):
    async def body(world: World) -> None:
        app = world.app(Start(host=HostSettings("towers", options={"turn_seconds": 0}, start=True)))
        async with app.run_test(size=(80, 24)) as pilot:
            await seat_guest(world, app, pilot)
            for _ in range(2):
                await until(pilot, lambda: on(app, "TableScreen") and table(app).get("your_turn"), "our turn")
                before = table(app)["view"]
                await pilot.press("d", "1", "enter")  # discard the first card: always a legal move
                await until(pilot, lambda: table(app)["view"] != before, "our move taken")
            await pilot.press("ctrl+r", "tab", "enter")
            await until(pilot, lambda: on(app, "FinalScreen") and "Transcript verified" in screen_text(app), "the verdict")
            await pilot.press("h")
            await until(pilot, lambda: on(app, "HistoryScreen") and "Enter: replay" in screen_text(app), "the finished history")
            shown = screen_text(app)
            assert "alice: " in shown and "alice resigns" in shown and "result: bob won" in shown
            await pilot.press("home", "enter")
            await until(pilot, lambda: on(app, "ReplayScreen") and step_line(app).startswith("1. "), "the replay at move 1")
            await pilot.press("right")
            await until(pilot, lambda: step_line(app).startswith("2. "), "move 2")

    run(tmp_path, 2, body)
