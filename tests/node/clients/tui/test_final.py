"""The end of a game on the terminal client: the resigner and the absent player reach the winner, the
score, how it was reached and the verdict too; a check that fails is said, never ends the app."""

from __future__ import annotations

import asyncio
import base64
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Static

from fairtable.node.clients.tui.app import HostSettings, Start
from fairtable.node.clients.tui.screens.final import FinalScreen
from tests.node.clients.tui.tables import table_at
from tests.node.clients.tui.test_snapshots import table_screen
from tests.node.clients.tui.world import World, on, run, screen_text, seat_guest, table, until


def test_resigning_at_once_reaches_the_verified_verdict(tmp_path):
    async def body(world: World) -> None:
        app = world.app(Start(host=HostSettings("towers", options={"turn_seconds": 0}, start=True)))
        async with app.run_test(size=(80, 24)) as pilot:
            await seat_guest(world, app, pilot)
            await until(pilot, lambda: on(app, "TableScreen") and table(app).get("view") is not None, "the table")
            await pilot.press("ctrl+r", "tab", "enter")
            await until(pilot, lambda: on(app, "FinalScreen") and "Transcript verified" in screen_text(app), "the verdict")
            assert "You lost" in screen_text(app)

    run(tmp_path, 2, body)


VECTORS = Path(__file__).parents[4] / "spec" / "vectors" / "games"


@asynccontextmanager
async def final_screen(update: dict, transcript: dict | Exception) -> AsyncIterator[tuple[Any, str]]:
    """A stub connection's app on the final screen of ``update`` once its check of the transcript
    (the stub's ``transcript`` answer) has said something; the app and the screen's text."""
    async with table_screen(update, {"transcript": transcript}) as (app, pilot):
        await until(pilot, lambda: on(app, "FinalScreen") and app.screen.verdict is not None, "the verdict")
        await pilot.pause()
        yield app, str(app.screen.query_one("#final", Static).render())


@pytest.mark.parametrize("failure, said", [
    ({}, "Could not check the transcript: the node's answer has no 'transcript'"),
    ({"transcript": "not base64!"}, "Could not check the transcript: "),
    ({"transcript": base64.b64encode(b"\x00garbage").decode()}, "The transcript cannot be read: "),
    (RuntimeError("the bridge broke"), "Could not check the transcript: the bridge broke"),
])
def test_a_check_that_fails_is_said_on_the_final_screen_and_the_player_stays_there(failure, said):
    update = table_at("towers", "normal", 2, 3, nth=2, forfeit="resigned")

    async def body() -> None:
        async with final_screen(update, failure) as (app, final):
            assert said in final and "You lost. bob won: a player resigned." in final
            assert app.is_running and isinstance(app.screen, FinalScreen)

    asyncio.run(body())


@pytest.mark.parametrize("game_id, variant, nth", [("duel", "1v1", 9), ("drachenherz", "standard", 5)])
@pytest.mark.parametrize("reason, words", [("resigned", "a player resigned"), ("absent", "a player stopped answering and was declared absent")])
def test_the_resigner_and_the_absent_player_see_the_winner_the_score_how_it_was_reached_and_the_verdict(game_id, variant, nth, reason, words):
    update = table_at(game_id, variant, 2, 1, nth=nth, forfeit=reason, **({"match": 2} if game_id == "drachenherz" else {}))
    transcript = {"transcript": base64.b64encode((VECTORS / f"{game_id}-{variant}.ftt").read_bytes()).decode()}

    async def body() -> None:
        async with final_screen(update, transcript) as (_, final):
            assert final.startswith(f"You lost. bob won: {words}.")
            assert "Transcript verified: every move, shuffle and hidden answer checked" in final and "VALID." in final
            if game_id == "duel":  # its scores are not one per seat: its words say how the match was reached, at the top and on the board
                assert re.match(rf"You lost\. bob won: {words}\. Final points \d+–\d+, rounds won \d–\d(, \d rounds? drawn)?\.\n", final)
                assert f"Match over: bob won: {words}." in final
            else:
                assert re.search(r"Final games won: you \d+, bob \d+\.", final)  # a match to a number of wins counts games

    asyncio.run(body())
