"""Every game on its own board, through Textual's pilot against in-process nodes with bots:
zeeslag salvos for three (cursor and typed), the shared sea's fleet by hand, a space battle
bought, placed and shot by hand to its verified end, drachenherz by
keys and typing, duel decks (a deck-list file, refused and accepted; picked in the client; at
random), attacks at a chosen seat, the draft, and blind play to its verified end."""

from __future__ import annotations

import re

from fairtable.games.duel.decklist import write
from fairtable.games.zeeslag.sea import Grid
from fairtable.node.clients.tui.app import HostSettings, Start
from fairtable.node.clients.tui.boards.zeeslag import opened
from tests.node.clients.tui.space_tables import keys_to
from tests.node.clients.tui.world import World, board_ready, deciding, my_turn, on, run, screen_text, seat_guest, table, until


async def host_and_seat(world: World, app, pilot, guests: int) -> None:
    for guest in range(1, guests + 1):
        await seat_guest(world, app, pilot, guest)
        if guest < guests:
            await until(pilot, lambda: f"{guest + 1} of {guests + 1}" in screen_text(app), "a guest seated")


def free_cells(update: dict, foe: int) -> list[int]:
    """Cells of ``foe``'s waters nobody has shot at yet (the shared sea: its home block)."""
    view = update["view"]
    sea = view["seas"][view["fleets"][foe]["sea"]]
    grid = Grid(sea["width"], sea["height"])
    cells = [cell for cell in range(grid.size) if view["variant"] != "shared" or grid.xy(cell)[0] // 10 == foe]
    return [cell for cell in cells if cell not in opened(sea)]


def salvo_due(app) -> bool:
    update = table(app)
    return bool(update.get("your_turn")) and bool((update.get("view") or {}).get("due")) and board_ready(app)


def fired(app, count: int) -> bool:
    return sum(shot["seat"] == 0 for shot in table(app)["view"]["recent"]) >= count or table(app)["result"] is not None


def test_zeeslag_for_three_a_salvo_aimed_with_the_cursor_then_one_typed(tmp_path):
    async def body(world: World) -> None:
        app = world.app(Start(host=HostSettings("zeeslag", seats=3, options={"turn_seconds": 0}, start=True)))
        async with app.run_test(size=(80, 24)) as pilot:
            await host_and_seat(world, app, pilot, 2)
            await until(pilot, lambda: deciding(app, "hidden"), "placement")
            await pilot.press("a", "enter")  # the node places the fleet at random
            await until(pilot, lambda: salvo_due(app), "the first salvo")
            board = app.screen.board
            assert [foe for foe, _ in table(app)["view"]["due"]] == [1, 2] and board.aimed_at() == 1
            await pilot.press(*"1:a1", "enter")  # a seat number names nobody: the hint says how to type a salvo
            await until(pilot, lambda: "none of your moves now" in screen_text(app), "the hint")
            assert "Type 1 shots at each of bob, carol, e.g. 'bob: B7 C3'" in screen_text(app) and not fired(app, 1)
            assert not re.search(r"\bs[0-9] |seat [0-9]", screen_text(app)), "the seas are labelled by name only"
            await pilot.press(*"bob:a1 b:a3", "enter")  # typed by name (or its beginning), read by the game, refused by its rules
            await until(pilot, lambda: "move refused" in screen_text(app), "the refusal")
            assert "zeeslag" in screen_text(app).split("move refused")[1] and not fired(app, 1)
            await pilot.press("right", "enter", "tab", "down", "space")  # A2 at seat 1, B2 at seat 2
            assert board.salvo == [(1, 1), (2, 11)] and "Enter fires" in screen_text(app)
            await pilot.press("space")  # unmarked, then marked again
            assert board.salvo == [(1, 1)]
            await pilot.press("enter", "enter")
            await until(pilot, lambda: fired(app, 2), "the salvo fired")
            shots = {(shot["target"], shot["cell"]) for shot in table(app)["view"]["recent"] if shot["seat"] == 0}
            assert {(1, 1), (2, 11)} <= shots or table(app)["result"] is not None
            await until(pilot, lambda: salvo_due(app) or table(app)["result"] is not None, "the next salvo")
            if table(app)["result"] is None:
                update = table(app)
                grid = Grid(10, 10)
                aims = {foe: grid.name(free_cells(update, foe)[0]) for foe, _ in update["view"]["due"]}
                await pilot.press(*" ".join(f"{update['seats'][foe]}:{cell.lower()}" for foe, cell in aims.items()), "enter")
                await until(pilot, lambda: fired(app, 2 + len(aims)), "the typed salvo")

    run(tmp_path, 3, body)


def test_zeeslag_shared_sea_a_fleet_placed_by_hand_in_the_window_then_a_typed_salvo(tmp_path):
    async def body(world: World) -> None:
        app = world.app(Start(host=HostSettings("zeeslag", "shared", seats=3, options={"turn_seconds": 0}, start=True)))
        async with app.run_test(size=(80, 24)) as pilot:
            await host_and_seat(world, app, pilot, 2)
            await until(pilot, lambda: deciding(app, "hidden"), "placement")
            assert "Your window: sea columns 1-11" in screen_text(app)
            board = app.screen.board
            await pilot.press("r", "enter")  # upright in column x: off the sea, refused in words
            assert "that ship leaves the sea" in screen_text(app) and board.placed == []
            await pilot.press("r", "right", "enter")  # flat from sea column 1, row A
            for _ in board.fleet().ships[1:]:
                await pilot.press("down", "down", "enter")  # rows C, E, G, I
            await until(pilot, lambda: table(app)["view"]["fleets"][0]["layout"], "our fleet committed")
            layout = dict(table(app)["view"]["fleets"][0]["layout"])
            assert [layout.get(cell) for cell in range(5)] == [1] * 5 and layout.get(6 * 30) == 4  # G1 of the 30-column sea: ship 3 (id 4)
            await until(pilot, lambda: salvo_due(app), "the first salvo")
            update = table(app)
            grid = Grid(30, 10)
            aims = " ".join(f"{update['seats'][foe]}:{grid.name(free_cells(update, foe)[0]).lower()}" for foe, _ in update["view"]["due"])
            await pilot.press(*aims, "enter")
            await until(pilot, lambda: fired(app, len(update["view"]["due"])), "the typed salvo")

    run(tmp_path, 3, body)


def test_zeeslag_space_a_scout_bought_and_placed_by_hand_then_shots_by_cursor_to_the_verified_end(tmp_path):
    async def body(world: World) -> None:
        app = world.app(Start(host=HostSettings("zeeslag", "space", options={"turn_seconds": 0, "money": 20}, start=True)))
        async with app.run_test(size=(80, 24)) as pilot:
            await seat_guest(world, app, pilot)
            await until(pilot, lambda: deciding(app, "hidden") and "Fleet: 0 ships" in screen_text(app), "buying")
            await pilot.press("right", "enter")
            await until(pilot, lambda: "place Scout 1" in screen_text(app), "placing")
            await pilot.press("r", "enter")  # upright at A1
            await until(pilot, lambda: table(app)["view"]["fleets"][0]["layout"], "our fleet committed")
            assert table(app)["view"]["fleets"][0]["layout"] == [[0, 1], [20, 1]]
            while True:
                await until(pilot, lambda: (table(app).get("legal_moves") and board_ready(app))
                            or table(app).get("result") is not None, "our shot or the end")
                if table(app)["result"] is not None:
                    break
                update = table(app)
                cell = next(move["shoot"] for move in update["legal_moves"] if "shoot" in move)
                await pilot.press(*keys_to(app.screen.board.cursor, cell), "enter")
                await until(pilot, lambda: table(app) is not update, "our shot taken")
            await until(pilot, lambda: on(app, "FinalScreen") and "VALID" in screen_text(app), "the verified result")

    run(tmp_path, 2, body)


def test_drachenherz_cards_laid_by_keys_and_by_typing(tmp_path):
    async def body(world: World) -> None:
        app = world.app(Start(host=HostSettings("drachenherz", options={"turn_seconds": 0}, start=True)))
        async with app.run_test(size=(80, 24)) as pilot:
            await seat_guest(world, app, pilot)
            for typed in (False, True, False):
                await my_turn(app, pilot)
                assert "Treasure chest" in screen_text(app) and "Your hand" in screen_text(app)
                before = table(app)["view"]
                if typed:  # the number of a card that can be laid alone
                    handle = next(move["play"][0] for move in table(app)["legal_moves"] if len(move["play"]) == 1)
                    await pilot.press(*str([entry["handle"] for entry in before["hand"]].index(handle) + 1), "enter")
                else:  # a card its field has no room for lays nothing, and the board says so: the next one then
                    await pilot.press("right", "enter")
                    while "these cards make no play now" in screen_text(app):
                        await pilot.press("right", "enter")
                if app.screen.board.asking:  # the play lets us choose the field to take
                    assert "Take which field?" in screen_text(app)
                    await pilot.press("2")
                await until(pilot, lambda: table(app)["view"]["recent"][-1:] != before["recent"][-1:] or table(app)["result"], "our play")

    run(tmp_path, 2, body)


def test_duel_a_deck_list_file_refused_then_sent_and_cards_played_by_keys(tmp_path):
    bad, good = tmp_path / "bad.txt", tmp_path / "good.txt"
    bad.write_text("Witte Haai\nWitte Haai\nno such card\n")
    good.write_text(write(tuple(range(20, 40))))

    async def body(world: World) -> None:
        app = world.app(Start(host=HostSettings("duel", options={"turn_seconds": 0, "rounds": 1}, start=True)))
        async with app.run_test(size=(80, 24)) as pilot:
            await seat_guest(world, app, pilot)
            await until(pilot, lambda: deciding(app, "deck"), "our deck")
            assert "Build your secret deck: 20" in screen_text(app)
            await pilot.press(*str(bad), "enter")
            text = screen_text(app)
            assert "bad.txt: not a deck" in text and "already on line 1" in text and "no card is called 'no such card'" in text
            await pilot.press(*str(tmp_path / "missing.txt"), "enter")
            assert "cannot read the deck list" in screen_text(app)
            await pilot.press(*str(good), "enter")
            await until(pilot, lambda: table(app)["view"]["deck_cards"] == list(range(20, 40)), "the deck from the file")
            for _ in range(3):  # attacks and defences by keys
                await my_turn(app, pilot)
                before = table(app)["view"]["hand_cards"]
                await pilot.press("down", "enter")
                await until(pilot, lambda: table(app)["view"]["hand_cards"] != before, "our card played")

    run(tmp_path, 2, body)


def test_duel_free_for_all_a_deck_picked_in_the_client_and_an_attack_at_a_chosen_seat(tmp_path):
    async def body(world: World) -> None:
        app = world.app(Start(host=HostSettings("duel", "ffa", seats=3, options={"turn_seconds": 0, "cycles": 1}, start=True)))
        async with app.run_test(size=(80, 24)) as pilot:
            await host_and_seat(world, app, pilot, 2)
            await until(pilot, lambda: deciding(app, "deck"), "our deck")
            await pilot.press("enter")  # not 20 cards yet: nothing is sent
            for _ in range(20):
                await pilot.press("space", "down")
            assert "20 of 20 chosen" in screen_text(app)
            await pilot.press("enter")
            await until(pilot, lambda: table(app)["view"]["deck_cards"] == list(range(20)), "the deck picked here")
            while True:  # defend (by keys) until our turn to attack comes
                await my_turn(app, pilot)
                if table(app)["view"]["step"] == "attack":
                    break
                before = table(app)["view"]
                await pilot.press("enter")
                await until(pilot, lambda: table(app)["view"] != before, "our defence")
            board = app.screen.board
            await pilot.press("right")
            target = board.aimed()
            assert target == 2 and "target: carol" in screen_text(app)
            assert not any(duel["attacker"] == 0 for duel in table(app)["view"]["recent"])  # one cycle: we attack once
            await pilot.press("enter")
            await until(pilot, lambda: any(duel["attacker"] == 0 for duel in table(app)["view"]["recent"]), "our duel")
            assert [duel["defender"] for duel in table(app)["view"]["recent"] if duel["attacker"] == 0] == [2]

    run(tmp_path, 3, body)


def test_duel_draft_a_pick_by_keys(tmp_path):
    async def body(world: World) -> None:
        app = world.app(Start(host=HostSettings("duel", options={"turn_seconds": 0, "draft": True}, start=True)))
        async with app.run_test(size=(80, 24)) as pilot:
            await seat_guest(world, app, pilot)
            await my_turn(app, pilot)
            view = table(app)["view"]
            assert view["step"] == "draft" and "cards in the pool" in screen_text(app)
            second = view["draft"]["pool"][1]
            await pilot.press("down", "enter")
            await until(pilot, lambda: second in table(app)["view"]["draft"]["picks"][0], "our pick")

    run(tmp_path, 2, body)


def test_duel_blind_a_random_deck_then_the_match_plays_itself_to_a_verified_end(tmp_path):
    async def body(world: World) -> None:
        app = world.app(Start(host=HostSettings("duel", "blind", options={"turn_seconds": 0, "rounds": 1, "tie": "accept"}, start=True)))
        async with app.run_test(size=(80, 24)) as pilot:
            await seat_guest(world, app, pilot)
            await until(pilot, lambda: deciding(app, "deck"), "our deck")
            await pilot.press("a", "enter")
            await until(pilot, lambda: table(app)["view"]["deck_cards"] is not None, "the random deck")
            await until(pilot, lambda: on(app, "FinalScreen") and "VALID" in screen_text(app), "the verified result")

    run(tmp_path, 2, body)
