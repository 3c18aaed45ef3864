"""People, not seats, on the terminal client: players by name (fingerprints on Ctrl+F), the table's
log said where the player looks (Ctrl+O, l shows all of it), and a final screen that names the
winner, the score, what happened unannounced and the final board. Through a stub connection at
80x24, each a few fixed updates, so no node runs."""

from __future__ import annotations

import asyncio

from textual.widgets import Static

from fairtable.node.clients.tui.screens.final import FinalScreen
from tests.node.clients.tui.screen import lines
from tests.node.clients.tui.tables import table_at
from tests.node.clients.tui.test_snapshots import case as snapshot_case
from tests.node.clients.tui.test_snapshots import table_screen
from tests.node.clients.tui.world import on, until

FINGERPRINTS = ["Z5NG-N48B-8BB8-8ZSX-KJS2-VP24", "H1PG-1PRJ-DAK9-Y2VY-0YVV-GYWY"]
TIMER = {"index": 40, "kind": "default", "seat": 1, "text": "bob's timer ran out: the rules' default was played for them."}
FORCED = {"index": 41, "kind": "forced", "seat": 0, "text": "Played for you, your only legal move: discard Ruby."}


def screen(app) -> str:
    return "\n".join(lines(app))


def test_players_are_named_the_log_is_said_and_fingerprints_come_on_demand():
    update = {**table_at("towers", "normal", 2, 3), "fingerprints": FINGERPRINTS, "log": [TIMER]}

    async def body() -> None:
        async with table_screen(update) as (app, pilot):
            shown = screen(app)
            assert "alice (you)" in shown and "bob" in shown and "seat 1" not in shown
            assert TIMER["text"] in shown  # the newest announcement, where the player looks
            assert FINGERPRINTS[0] not in shown
            await pilot.press("ctrl+f")
            await pilot.pause()
            assert f"alice (you) {FINGERPRINTS[0]} │ bob {FINGERPRINTS[1]}" in screen(app)
            app.table_event({**update, "log": [TIMER, FORCED]})  # a new entry is said at once
            await until(pilot, lambda: FORCED["text"] in screen(app), "the new announcement")
            await pilot.press("ctrl+o", "l")  # the history, and the log from it
            await until(pilot, lambda: on(app, "Help"), "the table's log")
            shown = screen(app)
            assert "The table's log" in shown and TIMER["text"] in shown and FORCED["text"] in shown
            await pilot.press("escape")  # any key closes it, and only it
            await until(pilot, lambda: on(app, "HistoryScreen"), "the history again")
            await pilot.press("escape")
            await until(pilot, lambda: on(app, "TableScreen"), "the table again")

    asyncio.run(body())


def test_the_final_screen_names_the_winner_the_score_the_log_and_the_final_board_and_says_what_it_waits_for():
    playing = table_at("drachenherz", "standard", 2, 5)
    result = {"winners": [1], "reason": "forfeit: resigned", "scores": [1, 2], "losers": [0], "teams": []}
    resigned = {"index": 60, "kind": "resigned", "seat": 0, "text": "You resigned."}
    over = {**playing, "result": result, "your_turn": False, "legal_moves": [], "decision": None, "log": [resigned],
            "text": "Drachenherz: game 2 of 2, totals 1-2\nOver (forfeit: resigned, 1-2): bob won", "standing": "score: you 1, bob 2"}

    async def body() -> None:
        async with table_screen(over) as (app, pilot):
            await until(pilot, lambda: on(app, "FinalScreen"), "the final screen")
            final = str(app.screen.query_one("#final", Static).render())
            assert "You lost. bob won: a player resigned. Final score: you 1, bob 2." in final
            assert "Waiting for every seat to reveal its seed" in final  # what it waits for, not a silent screen
            assert "The table's log:\nYou resigned." in final
            assert "The final board:\nDrachenherz: game 2 of 2, totals 1-2\nOver (forfeit: resigned, 1-2): bob won" in final
            assert isinstance(app.screen, FinalScreen) and not app.screen.checked

    asyncio.run(body())


def test_a_move_made_for_a_seat_is_marked_on_the_board_while_it_is_that_seats_latest():
    """Nothing happens to a player unannounced: besides the log line, the move itself carries the
    mark (towers' discard, shengji's card in the last trick, zeeslag's answer beside the hit it
    answers), from the log's ``latest`` entries."""
    cases = [("towers", "you discarded Faerie (forced: no other move)"), ("shengji", "last trick's H7: played for bob: time ran out"),
             ("zeeslag-duel", "bob shot D6: hit (answered for you: no other answer)")]

    async def body() -> None:
        for name, mark in cases:
            update, _ = snapshot_case(name)
            async with table_screen(update) as (app, _pilot):
                assert mark in screen(app)
            older = {**update, "log": [{**entry, "latest": False} for entry in update["log"]]}  # the seat moved since
            async with table_screen(older) as (app, _pilot):
                assert mark not in screen(app) and older["log"][0]["text"] in screen(app)

    asyncio.run(body())
