"""The screens around the boards as a person sees them at 80x24, through a stub connection: the
host dialog's button, the order of your tables and where the cursor starts, leaving a table."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from fairtable.node.clients.tui.app import PlayApp
from fairtable.node.clients.tui.screens.host import HostScreen
from fairtable.node.clients.tui.screens.wait import WaitScreen
from tests.node.clients.tui.screen import lines
from tests.node.clients.tui.test_snapshots import StubBridge
from tests.node.clients.tui.world import FakeClock, on, until


def with_app(body: Callable[[PlayApp, Any], Awaitable[None]], tables: list[dict] | None = None) -> None:
    async def run() -> None:
        bridge = StubBridge()
        bridge.tables = tables or []
        app = PlayApp(bridge, clock=FakeClock())  # type: ignore[arg-type]
        async with app.run_test(size=(80, 24)) as pilot:
            app.connection_status(None)
            await body(app, pilot)
    asyncio.run(run())


def test_the_host_dialogs_button_is_labelled_and_its_focus_shows():
    async def body(app: PlayApp, pilot: Any) -> None:
        await app.push_screen(HostScreen())
        await until(pilot, lambda: bool(app.screen.query("#host")), "the form")
        await pilot.pause()
        shown = lines(app)
        assert any(line.strip() == "Host the table" for line in shown), "\n".join(shown)
        before = app.export_screenshot()
        app.screen.query_one("#host").focus()
        await pilot.pause()
        assert app.export_screenshot() != before  # the focused button looks different (same words, other colours)
        assert lines(app) == shown

    with_app(body)


def table(lobby_id: str, phase: str, result: dict | None = None) -> dict:
    return {"lobby_id": lobby_id, "table": None if phase == "lobby" else lobby_id * 8, "game": "towers", "variant": "normal", "phase": phase, "seat": 0,
            "seats": ["alice", "bob"], "your_turn": False, "result": result}


def test_your_open_tables_are_listed_before_finished_ones_and_the_cursor_starts_on_the_first_open_one():
    finished = {"winners": [1], "reason": "tower", "scores": []}
    tables = [table("done0001", "finished", finished), table("over0002", "playing", finished), table("open0003", "playing"),
              table("wait0004", "lobby")]

    async def body(app: PlayApp, pilot: Any) -> None:
        await until(pilot, lambda: on(app, "LobbyScreen") and "done0001" in "\n".join(lines(app)), "the tables")
        shown = [line for line in lines(app) if "towers normal" in line]
        # a started table by its id's first 12 hex digits, one not started by its lobby's id
        assert [line.rstrip(" ▎").split()[-1] for line in shown] == ["open0003open", "wait0004", "done0001done", "over0002over"]
        listing = app.screen.query_one("#tables")
        assert "open0003" in str(listing.get_option_at_index(listing.highlighted).prompt)

    with_app(body, tables)


def test_with_no_open_table_the_cursor_starts_on_hosting_one():
    async def body(app: PlayApp, pilot: Any) -> None:
        await until(pilot, lambda: on(app, "LobbyScreen") and "done0001" in "\n".join(lines(app)), "the tables")
        listing = app.screen.query_one("#tables")
        assert "Host a new table" in str(listing.get_option_at_index(listing.highlighted).prompt)

    with_app(body, [table("done0001", "finished", {"winners": [1], "reason": "tower", "scores": []})])


def test_the_row_enter_takes_is_marked_in_the_screens_text_not_only_by_its_colours():
    async def body(app: PlayApp, pilot: Any) -> None:
        await until(pilot, lambda: on(app, "LobbyScreen") and "open0003" in "\n".join(lines(app)), "the tables")
        marked = [line for line in lines(app) if " ▸ " in line]
        assert len(marked) == 1 and "open0003" in marked[0], "\n".join(lines(app))
        await pilot.press("down", "down")  # past the other open table and the heading to the row below
        await pilot.pause()
        (marked_now,) = [line for line in lines(app) if " ▸ " in line]
        listing = app.screen.query_one("#tables")
        assert marked_now != marked[0] and str(listing.get_option_at_index(listing.highlighted).prompt).strip() in marked_now

    with_app(body, [table("open0003", "playing"), table("open0004", "playing")])


def test_starting_or_leaving_a_table_takes_a_chord_never_a_letter():
    lobby = {"lobby_id": "wait0001", "game": "towers", "variant": "normal", "options": {}, "seats": 2, "joined": ["alice"]}

    async def body(app: PlayApp, pilot: Any) -> None:
        await app.push_screen(WaitScreen(lobby, "ft:wait0001.Z5NGN48B8BB88ZSXKJS2VP24@192.0.2.5:7400"))
        await pilot.press(*"leave yes", "enter")
        assert on(app, "WaitScreen") and not acts(app)
        await pilot.press("ctrl+l")
        assert on(app, "Confirm")
        await pilot.press(*"yes", "enter")  # letters do nothing; Enter presses the focused "Stay"
        assert on(app, "WaitScreen") and not acts(app)
        await pilot.press("ctrl+l", "tab", "enter")
        await until(pilot, lambda: acts(app) == ["leave"], "the leave request")
        await app.push_screen(WaitScreen(lobby, "ft:wait0001.Z5NGN48B8BB88ZSXKJS2VP24@192.0.2.5:7400"))
        await pilot.press("ctrl+s")
        await until(pilot, lambda: acts(app) == ["leave", "start"], "the start request")

    with_app(body)


def acts(app: PlayApp) -> list[str]:
    """The requests that change something the client made (reads left out)."""
    return [op for op, _ in app.bridge.sent if op not in ("node", "tables", "discovered", "games")]  # type: ignore[attr-defined]
