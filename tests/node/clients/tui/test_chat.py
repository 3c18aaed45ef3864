"""The table's chat and the rematch on the terminal client, through Textual's pilot against
in-process nodes: the player types a line (Ctrl+T, words, Enter) that reaches bob's node, bob's
answer is said where the player looks, and after the game one key (r) offers a rematch that
bob's node accepts, which opens the new table."""

from __future__ import annotations

from fairtable.node.clients.tui.app import HostSettings, Start
from tests.node.clients.tui.world import World, on, run, screen_text, seat_guest, table, until


def table_at(app, lobby_id: str) -> dict:
    return app.updates[lobby_id]


def bob_heard(world: World, update: dict) -> list[str]:
    live = world.nodes[1].mesh.find(update["table"]) if update.get("table") else None
    return [] if live is None else [line.text for line in live.chat.lines]


def test_a_chat_line_typed_at_the_table_reaches_the_other_seat_and_a_rematch_opens_with_one_key(tmp_path):
    async def body(world: World) -> None:
        app = world.app(Start(host=HostSettings("towers", options={"turn_seconds": 0}, start=True)))
        async with app.run_test(size=(80, 24)) as pilot:
            await seat_guest(world, app, pilot)
            await until(pilot, lambda: on(app, "TableScreen") and table(app).get("table"), "the table")
            first = table(app)
            await pilot.press("ctrl+t")
            await until(pilot, lambda: on(app, "ChatDialog"), "the chat dialog")
            assert "Nobody has said anything yet." in screen_text(app)
            for key in ("g", "l", "space", "h", "f", "space", "[", "b", "]"):
                await pilot.press(key)
            await pilot.press("enter")
            await until(pilot, lambda: on(app, "TableScreen"), "the table again")
            await until(pilot, lambda: bob_heard(world, first) == ["gl hf [b]"], "bob's node holding the line")
            await world.trio(world.nodes[1].chat, first["table"], "thanks, [red]you too")
            await until(pilot, lambda: "bob: thanks, [red]you too" in screen_text(app), "bob's line said")
            await pilot.press("ctrl+t")
            await until(pilot, lambda: on(app, "ChatDialog"), "the chat dialog")
            assert "you: gl hf [b]\nbob: thanks, [red]you too" in screen_text(app)  # shown as typed, not as markup
            await pilot.press("escape")
            await until(pilot, lambda: on(app, "TableScreen"), "the table again")

            await pilot.press("ctrl+r")
            await until(pilot, lambda: on(app, "Confirm"), "the confirmation")
            await pilot.press("tab", "enter")
            await until(pilot, lambda: on(app, "FinalScreen") and "Press r to offer a rematch" in screen_text(app), "the end")
            assert "The chat (Ctrl+T to say something):\nyou: gl hf [b]\nbob: thanks, [red]you too" in screen_text(app)
            await pilot.press("r")
            await until(pilot, lambda: on(app, "WaitScreen") and "A rematch: it starts once every seat" in screen_text(app),
                        "the rematch waiting")
            offered = [line for line in table_at(app, first["lobby_id"])["chat"] if line["rematch"]]
            assert [line["seat"] for line in offered] == [0]
            await world.trio(world.nodes[1].rematch, first["table"])  # bob accepts: the table starts by itself
            await until(pilot, lambda: on(app, "TableScreen") and table(app).get("table") not in (None, first["table"]),
                        "the rematch's table")
            again = table(app)
            assert (again["game"], again["variant"], again["seats"], again["seat"]) == ("towers", "normal", ["alice", "bob"], 0)

    run(tmp_path, 2, body)
