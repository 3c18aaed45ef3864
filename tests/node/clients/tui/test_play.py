"""The terminal client driven through Textual's pilot against in-process nodes: hosting, joining
by invite, moves by keys and by typing, a fleet placed by hand, a countdown, resigning, and
coming back after the client quits and after the node restarts."""

from __future__ import annotations

import pytest

from fairtable.node.clients.tui.app import HostSettings, Start
from fairtable.node.lobby.invite import write_invite
from tests.node.clients.tui.world import FakeClock, World, deciding, my_turn, on, run, screen_text, seat_guest, table, until


def test_towers_hosted_from_the_dialog_played_by_keys_and_typing_then_resigned(tmp_path):
    async def body(world: World) -> None:
        app = world.app()
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: on(app, "LobbyScreen") and "Host a new table" in screen_text(app), "the lobby")
            await pilot.press("h")
            await until(pilot, lambda: on(app, "HostScreen") and app.screen.chosen is not None, "the host dialog")
            app.screen.query_one("#game").value = "towers"
            await until(pilot, lambda: app.screen.chosen == ("towers", "normal") and app.screen.query("#option-battlefield"), "towers' options")
            field = app.screen.query_one("#option-turn_seconds")
            field.value = "abc"
            await pilot.press("ctrl+s")
            assert "turn_seconds must be an integer 0..3600" in screen_text(app)  # fixed in place
            field.value = "0"
            await pilot.press("ctrl+s")
            await seat_guest(world, app, pilot)
            await until(pilot, lambda: "2 of 2 seats" in screen_text(app) and "bob" in screen_text(app), "bob seated")
            await pilot.press("ctrl+s")
            await my_turn(app, pilot)
            text = screen_text(app)
            assert "Your hand" in text and "alice (you)" in text and "bob" in text
            assert not set(text.split("Your hand")[1].split("\n", 2)[1]) & set("āēīūķļņšž") or "(" in text  # English first
            before = len(table(app)["view"]["recent"])
            await pilot.press("down", "x", "enter")  # discard the second card: x and Enter
            await until(pilot, lambda: len(table(app)["view"]["recent"]) > before, "our discard")
            await my_turn(app, pilot)
            await pilot.press("z", "z", "enter")  # typed nonsense: refused in words, nothing sent
            assert "'zz' is none of your moves now" in screen_text(app)
            count = len(table(app)["view"]["recent"])
            await pilot.press("d", "1", "enter")  # typed: discard card 1
            await until(pilot, lambda: len(table(app)["view"]["recent"]) > count, "the typed discard")
            await pilot.press("ctrl+r")
            await until(pilot, lambda: on(app, "Confirm"), "the confirmation")
            await pilot.press("y", "escape")  # no letter answers; Escape keeps playing
            assert on(app, "TableScreen") and table(app)["result"] is None
            await pilot.press("ctrl+r")
            await until(pilot, lambda: on(app, "Confirm"), "the confirmation")
            await pilot.press("tab", "enter")  # the Resign button, focused
            await until(pilot, lambda: on(app, "FinalScreen") and "VALID" in screen_text(app), "the verified result")
            text = screen_text(app)
            assert "You lost. bob won: a player resigned." in text

    run(tmp_path, 2, body)


def test_a_guest_joins_by_invite_and_plays_the_hosts_table(tmp_path):
    async def body(world: World) -> None:
        hosted = await world.trio(world.nodes[1].host, "towers", "normal", {"turn_seconds": 0}, 2)
        invite = await world.trio(world.nodes[1].invite, hosted.lobby_id)
        app = world.app(Start(join={"invite": invite}))
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: on(app, "WaitScreen") and "Waiting for the host" in screen_text(app), "the waiting room")
            assert "alice" in screen_text(app) and "bob" in screen_text(app)
            await world.trio(world.nodes[1].start, hosted.lobby_id)
            await my_turn(app, pilot)
            count = len(table(app)["view"]["recent"])
            await pilot.press("d", "2", "enter")
            await until(pilot, lambda: len(table(app)["view"]["recent"]) > count, "our move")

    run(tmp_path, 2, body)


def test_an_invite_naming_another_key_is_refused_before_anything_is_sent(tmp_path):
    async def body(world: World) -> None:
        hosted = await world.trio(world.nodes[1].host, "towers", "normal", {}, 2)
        bob = await world.identity(1)
        invite = write_invite(hosted.lobby_id, world.nodes[0].key.public, bob.address)  # carol's key at bob's address
        app = world.app(Start(join={"invite": invite}))
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: "is not the host of the invite" in screen_text(app), "the refusal")
            assert on(app, "LobbyScreen") and world.nodes[1].lobby_host.hosted[hosted.lobby_id].entrants[1:] == ()

    run(tmp_path, 2, body)


def test_zeeslag_fleet_placed_by_hand_with_rotation_then_shots_by_cursor_and_by_typing(tmp_path):
    async def body(world: World) -> None:
        app = world.app(Start(host=HostSettings("zeeslag", options={"turn_seconds": 0}, start=True)))
        async with app.run_test(size=(80, 24)) as pilot:
            await seat_guest(world, app, pilot)
            await until(pilot, lambda: deciding(app, "hidden"), "placement")
            board = app.screen.board
            ships = board.fleet().ships
            await pilot.press("r")  # the first ship stands upright in the last column
            for _ in range(9):
                await pilot.press("right")
            await pilot.press("enter")
            assert board.placed[0].horizontal is False and board.placed[0].x == 9
            await pilot.press("enter")  # the next one would touch it: refused in words
            assert "may not touch or overlap" in screen_text(app) and len(board.placed) == 1
            await pilot.press("r", "backspace")  # take the first back, place it again
            assert board.placed == []
            await pilot.press("r", "enter", "r")  # upright again, placed; the rest lie flat
            for index in range(1, len(ships)):
                for _ in range(9):
                    await pilot.press("left")
                await pilot.press("down", "down", "enter")
                assert len(board.placed) == index + 1 or index == len(ships) - 1, screen_text(app)
            await until(pilot, lambda: table(app).get("view", {}).get("fleets", [{}])[0].get("layout"), "our fleet committed")
            layout = dict(table(app)["view"]["fleets"][0]["layout"])
            assert [layout.get(row * 10 + 9) for row in range(ships[0].length)] == [1] * ships[0].length
            await my_turn(app, pilot)
            await pilot.press("up", "right")
            aimed = board.cursor[1] * 10 + board.cursor[0]
            await pilot.press("enter")  # fire where the cursor is
            await until(pilot, lambda: any(s["cell"] == aimed and s["seat"] == 0 for s in table(app)["view"]["recent"]), "the aimed shot")
            await my_turn(app, pilot)
            await pilot.press("j", "1", "0", "enter")  # typed
            await until(pilot, lambda: any(s["cell"] == 99 and s["seat"] == 0 for s in table(app)["view"]["recent"]), "the shot at J10")
            await my_turn(app, pilot)
            shots = len(table(app)["view"]["recent"])
            await pilot.press("j", "1", "0", "enter")  # typed again: the game's words, nothing sent
            await until(pilot, lambda: "that cell (J10) was already shot" in screen_text(app), "the refusal in words")
            assert "none of your moves" not in screen_text(app) and len(table(app)["view"]["recent"]) == shots

    run(tmp_path, 2, body)


def test_shengji_with_three_bots_declares_or_passes_and_plays_cards_by_keys(tmp_path):
    async def body(world: World) -> None:
        app = world.app(Start(host=HostSettings("shengji", options={"turn_seconds": 0, "deals": 1}, start=True)))
        async with app.run_test(size=(80, 24)) as pilot:
            for guest in (1, 2, 3):
                await seat_guest(world, app, pilot, guest)
                if guest < 3:  # the fourth seat starts the table at once
                    await until(pilot, lambda: f"{guest + 1} of 4" in screen_text(app), "a guest seated")
            plays = 0
            while plays < 3:
                await my_turn(app, pilot)
                update = table(app)
                assert "Your hand" in screen_text(app) and "Trump" in screen_text(app)
                moves = update["legal_moves"]
                before = update["view"]
                if any("pass" in move for move in moves):
                    await pilot.press("p", "enter")
                else:
                    hand = [entry["handle"] for entry in before["hand"]]
                    target = moves[0]
                    kind = next(k for k in ("declare", "bury", "lead", "play") if k in target)
                    handles = target[kind] if isinstance(target[kind], list) else [target[kind]]
                    for handle in handles:
                        app.screen.board.cursor = hand.index(handle)
                        await pilot.press("space")
                    await pilot.press("enter")
                    plays += 1
                await until(pilot, lambda: table(app)["view"] != before, "our move taken")

    run(tmp_path, 4, body)


def test_the_turn_clock_counts_down_between_events(tmp_path):
    async def body(world: World) -> None:
        clock = FakeClock()
        app = world.app(Start(host=HostSettings("towers", options={"turn_seconds": 60}, start=True)), clock=clock)
        async with app.run_test(size=(80, 24)) as pilot:
            await seat_guest(world, app, pilot)
            await my_turn(app, pilot)
            assert "alice (you) ▸1:00 │ bob 1:00" in screen_text(app) or "alice (you) ▸0:59 │ bob 1:00" in screen_text(app)
            clock.now += 15
            app.tick()
            await pilot.pause()
            assert "alice (you) ▸0:45 │ bob 1:00" in screen_text(app) or "alice (you) ▸0:44 │ bob 1:00" in screen_text(app)

    run(tmp_path, 2, body)


def test_rejoin_after_the_client_quits_and_after_the_node_restarts(tmp_path):
    async def body(world: World) -> None:
        app = world.app(Start(host=HostSettings("towers", options={"turn_seconds": 0}, start=True)))
        async with app.run_test(size=(80, 24)) as pilot:
            await seat_guest(world, app, pilot)
            await my_turn(app, pilot)
            named = table(app)["table"][:12]  # a started table is listed by its id's first 12 hex digits
            await pilot.press("ctrl+q")
        again = world.app()  # `fairtable play` with no arguments: your tables first
        async with again.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: on(again, "LobbyScreen") and named in screen_text(again), "our table listed")
            assert "towers normal · playing · your turn · with bob" in screen_text(again)
            await pilot.press("enter")  # the first entry: our table
            await my_turn(again, pilot)
            await world.trio(world.restart, 0)
            await until(pilot, lambda: again.connection is not None, "the node gone")
            assert "Lost the node" in screen_text(again)
            await until(pilot, lambda: again.connection is None, "the node back")
            await my_turn(again, pilot)
            count = len(table(again)["view"]["recent"])
            await pilot.press("d", "1", "enter")
            await until(pilot, lambda: len(table(again)["view"]["recent"]) > count, "a move after the restart")

    run(tmp_path, 2, body)


@pytest.mark.usefixtures("counting_game")
def test_a_game_without_its_own_board_is_played_through_the_generic_one(tmp_path):
    async def body(world: World) -> None:
        app = world.app(Start(host=HostSettings("counting", start=True)))
        async with app.run_test(size=(80, 24)) as pilot:
            await seat_guest(world, app, pilot)
            await my_turn(app, pilot)
            assert type(app.screen.board).__name__ == "GenericBoard" and "Your moves" in screen_text(app)
            before = table(app)["view"]
            await pilot.press("1", "enter")
            await until(pilot, lambda: table(app)["view"] != before, "our move")

    run(tmp_path, 2, body)
