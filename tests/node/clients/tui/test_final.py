"""The end of a game on the terminal client: the resigner reaches the verdict too."""

from __future__ import annotations

from fairtable.node.clients.tui.app import HostSettings, Start
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
