"""Every seat's clock on the status line at once, as lichess shows them: the seat due counting down,
then its grace once its turn time ran out; the others showing their turn time. Through a stub
connection and the client's own clock, moved by hand."""

from __future__ import annotations

import asyncio

from fairtable.node.clients.tui.clocks import seat_clocks, status_line
from tests.node.clients.tui.tables import table_at
from tests.node.clients.tui.test_snapshots import table_screen

RUNNING = {"grace": 30.0, "running": True, "seat": 1, "turn": 12.0}
WAITING = {"grace": 30.0, "running": False, "seat": 0, "turn": 60.0}


def test_the_running_clock_counts_its_turn_time_then_its_grace_and_the_others_show_their_time():
    update = {"clocks": [WAITING, RUNNING]}
    assert seat_clocks(update, 0.0) == ["1:00", "▸0:12"]
    assert seat_clocks(update, 11.5) == ["1:00", "▸0:01"]
    assert seat_clocks(update, 12.0) == ["1:00", "▸grace 0:30"]
    assert seat_clocks(update, 40.0) == ["1:00", "▸grace 0:02"]
    assert seat_clocks(update, 99.0) == ["1:00", "▸grace 0:00"]
    assert seat_clocks({"clocks": [WAITING, {**RUNNING, "turn": 0.0, "grace": 5.0}]}, 1.0) == ["1:00", "▸grace 0:04"]
    assert seat_clocks({"clocks": None}, 0.0) is None


def test_the_status_line_shows_both_clocks_and_the_grace_when_it_starts():
    update = {**table_at("towers", "normal", 2, 3, turn_seconds=60), "your_turn": False, "clocks": [WAITING, RUNNING]}

    async def body() -> None:
        async with table_screen(update) as (app, pilot):
            status = app.screen.query_one("#status")
            assert "alice (you) 1:00 │ bob ▸0:12" in str(status.render())
            app.clock.now += 20  # bob's node stays silent past its turn time
            app.tick()
            await pilot.pause()
            assert "alice (you) 1:00 │ bob ▸grace 0:22" in str(status.render())
            assert len(str(status.render())) <= 80

    asyncio.run(body())


def test_six_seats_keep_the_running_clock_within_80_columns():
    update = table_at("duel", "ffa", 6, 1, nth=1, turn_seconds=60)

    async def body() -> None:
        async with table_screen(update) as (app, _pilot):
            line = str(app.screen.query_one("#status").render())
            assert len(line) <= 80 and "▸0:42" in line

    asyncio.run(body())


def test_the_status_line_cuts_names_then_the_variant_then_the_idle_clocks_then_the_decision_to_fit():
    update = {"game": "duel", "variant": "ffa", "seats": ["alexandra", "bartholomew", "cornelius"], "seat": 0}
    clocks = ["1:00", "▸0:42", "1:00"]

    def line(width: int) -> str:
        return status_line(update, clocks, "your turn", "defend: play a card", width)

    assert line(90) == "duel ffa · defend: play a card · alexandra (you) 1:00 │ bartholomew ▸0:42 │ cornelius 1:00"
    assert line(86) == "duel ffa · defend: play a card · alexandr (you) 1:00 │ bartholo ▸0:42 │ corneliu 1:00"
    assert line(70) == "duel · defend: play a card · alex (you) 1:00 │ bart ▸0:42 │ corn 1:00"
    assert line(62) == "duel · defend: play a card · alex (you) │ bart ▸0:42 │ corn"
    assert line(56) == "duel · your turn · alex (you) │ bart ▸0:42 │ corn"
    assert line(40) == line(56)  # nothing fits: the shortest form
    assert status_line(update, None, "over", None, 80) == "duel ffa · over · alexandra (you) - │ bartholomew - │ cornelius -"


def test_a_clock_tick_while_the_app_closes_has_no_screen_to_tell_and_is_dropped():
    update = table_at("towers", "normal", 2, 3, turn_seconds=60)

    async def body() -> None:
        async with table_screen(update) as (app, _pilot):
            pass
        assert not app.screen_stack  # closed: what the timer's last tick met in a loaded run
        app.tick()
        app.table_event(update)

    asyncio.run(body())
