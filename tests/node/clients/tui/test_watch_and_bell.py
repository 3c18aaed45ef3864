"""The terminal client watching a table as a spectator, and its bell when the player's turn comes."""

from __future__ import annotations

import asyncio

import pytest

from fairtable.node.clients.tui.app import HostSettings, PlayApp, Start
from tests.node.clients.tui.tables import table_at
from tests.node.clients.tui.test_snapshots import CASES, StubBridge, table_screen
from tests.node.clients.tui.world import FakeClock, World, board_ready, on, run, screen_text, seat_guest, table, until


def test_a_watched_table_shows_the_public_board_says_watching_and_takes_no_move(tmp_path):
    """bob (played by the test) hosts towers against carol's bot; alice watches through carol's node."""

    async def body(world: World) -> None:
        bob, carol = world.nodes[1], world.nodes[2]
        hosted = await world.trio(bob.host, "towers", "normal", {"turn_seconds": 0}, 2)
        await world.trio(carol.join, bob.address, hosted.lobby_id)
        started = await world.trio(bob.start, hosted.lobby_id)
        invite = await world.trio(carol.watch_invite, started.table)
        app = world.app()
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: on(app, "LobbyScreen") and "Watch a table with an invite  (w)" in screen_text(app), "the lobby")
            await pilot.press("w")
            await until(pilot, lambda: on(app, "InviteScreen") and "Watch a table: paste an invite" in screen_text(app), "the watch dialog")
            await pilot.press(*invite, "enter")  # typed as a person types it
            await until(pilot, lambda: on(app, "TableScreen") and "· watching ·" in screen_text(app), "the watched table")
            text = screen_text(app)
            assert "towers normal · watching · bob" in text and "carol" in text and "(you)" not in text
            assert "Your hand" not in text  # a spectator holds no cards, and sees nobody's
            await pilot.press("d", "1", "enter")
            assert "You are watching this table: a spectator makes no moves." in screen_text(app)
            await pilot.press("ctrl+r")
            assert on(app, "TableScreen")  # nothing to resign
            await world.trio(bob.resign, started.table)
            await until(pilot, lambda: on(app, "FinalScreen") and "VALID" in screen_text(app), "the verified end")
            assert "Game over. carol won: a player resigned." in screen_text(app)
            assert "You won" not in screen_text(app) and "You lost" not in screen_text(app)
            await pilot.press("escape")
            await until(pilot, lambda: on(app, "LobbyScreen") and "towers normal · over · with bob, carol" in screen_text(app),
                        "the watched table in the list")

    run(tmp_path, 3, body, people=2)


def test_the_bell_rings_once_each_time_the_turn_comes_and_ctrl_g_silences_it(tmp_path):
    """alice plays towers in the client against bob, whose node the test plays: each time bob's
    discard gives the turn back, the client rings once; after Ctrl+G it rings no more."""

    async def body(world: World) -> None:
        bob = world.nodes[1]
        app = world.app(Start(host=HostSettings("towers", options={"turn_seconds": 0}, start=True)))
        rung = []
        app.bell = lambda: rung.append(len(table(app)["log"]))  # type: ignore[method-assign]

        def bobs_turn() -> bool:
            return any(live.session.awaiting_decision() for live in bob.tables.values())

        async def bob_discards() -> None:
            """bob discards until the turn is alice's (a card may give him another)."""
            while True:
                await until(pilot, lambda: bobs_turn() or (table(app).get("your_turn") and board_ready(app)), "a turn")
                if not bobs_turn():
                    return
                (live,) = bob.tables.values()
                move = next(move for move in live.session.legal_moves() if "discard" in move)
                await world.trio(bob.move, live.table_id.hex(), move)

        async def alice_discards() -> None:
            await pilot.press("x", "enter")
            await until(pilot, lambda: not table(app).get("your_turn"), "alice's discard")

        async with app.run_test(size=(80, 24)) as pilot:
            await seat_guest(world, app, pilot)
            await bob_discards()
            for _ in range(2):
                before = len(rung)
                await alice_discards()
                assert len(rung) == before
                await bob_discards()
                assert len(rung) == before + 1  # the turn came back: one bell
            await pilot.press("ctrl+g")
            assert "No bell when your turn comes" in screen_text(app)
            silenced = len(rung)
            await alice_discards()
            await bob_discards()
            assert len(rung) == silenced and table(app)["your_turn"]

    run(tmp_path, 2, body, people=2)


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_board_draws_a_watched_table_and_sends_nothing_for_a_key(name):
    """Each game's board at the moment of its snapshot, as a spectator's node describes it: drawn
    from the spectator's view, the status saying watching, and the keys a player would press
    (Enter among them) sending no move."""
    settings, keys = CASES[name]
    update = table_at(**settings, spectator=True)

    async def watch() -> None:
        async with table_screen(update) as (app, pilot):
            await pilot.press(*keys, "enter")
            await pilot.pause()
            assert " · watching · " in screen_text(app) and "(you)" not in screen_text(app)
            assert app.screen.query_one("#typed").placeholder.startswith("watching as a spectator")
            assert all(op != "move" for op, _ in app.bridge.sent)

    asyncio.run(watch())


def test_fairtable_play_watch_opens_the_watched_table_at_once():
    """``fairtable play --watch INVITE`` starts the client with the ``watch`` op's fields: the table opens watching."""
    update = table_at(**CASES["shengji"][0], spectator=True)

    async def start() -> None:
        bridge = StubBridge()
        bridge.answers["watch"] = {"update": update}
        app = PlayApp(bridge, Start(watch={"invite": "ft1abc"}), clock=FakeClock())  # type: ignore[arg-type]
        async with app.run_test(size=(80, 24)) as pilot:
            app.connection_status(None)
            await until(pilot, lambda: on(app, "TableScreen") and " · watching · " in screen_text(app), "the watched table")
            assert ("watch", {"invite": "ft1abc"}) in bridge.sent

    asyncio.run(start())
