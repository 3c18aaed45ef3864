"""The first screen: your tables (running, finished, waiting) to reopen, open tables found on
the local network to join, and the ways to host a table or join by invite."""

from __future__ import annotations

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from fairtable.node.clients.tui.screens.common import BaseScreen, MarkedList, options_text, players, short_table
from fairtable.node.clients.tui.screens.host import HostScreen, InviteScreen
from fairtable.node.clients.tui.screens.table import TableScreen
from fairtable.node.clients.tui.screens.wait import WaitScreen

REFRESH_SECONDS = 2.0
PHASES = {"lobby": "waiting for players", "playing": "playing", "finished": "finished"}


def table_line(update: dict) -> str:
    """One of your tables in a line: game, state, whose turn, opponents, the table's id (the lobby's before it starts)."""
    state = PHASES.get(update["phase"], update["phase"])
    if update["phase"] == "playing":
        state = "playing · your turn" if update.get("your_turn") else "playing · their turn"
    if update.get("result") is not None:
        state = "over"
    seats = update.get("seats") or []
    seat = update.get("seat")
    others = [name for index, name in enumerate(seats) if index != seat]
    named = short_table(update["table"]) if update.get("table") else f"open table {update['lobby_id']}"
    if update.get("watching") and update.get("result") is None:
        return f"{update['game']} {update['variant']} · watching {players(others)} · {named}"
    return f"{update['game']} {update['variant']} · {state} · with {players(others)} · {named}"


def over(update: dict) -> bool:
    """A table whose game is over (or that went away): listed after the ones still open."""
    return update.get("result") is not None or update["phase"] in ("finished", "closed")


def found_line(table: dict) -> str:
    return (f"{table['game']} {table['variant']} · {options_text(table['options'])} · {len(table['joined'])}/{table['seats']} "
            f"seats · host {table['host']} at {table['address']}")


class LobbyScreen(BaseScreen):
    BINDINGS = [Binding("h", "host", "host a table"), Binding("j", "join", "join by invite"),
                Binding("w", "watch", "watch by invite"), Binding("r", "refresh", "refresh"), Binding("ctrl+q", "app.quit", "quit")]

    def __init__(self) -> None:
        super().__init__()
        self.mine: list[dict] = []
        self.found: list[dict] = []

    def compose(self) -> ComposeResult:
        yield Static("fairtable", id="status")
        yield MarkedList(id="tables")
        yield Static("", id="message")
        yield Footer()

    def on_mount(self) -> None:
        self.set_interval(REFRESH_SECONDS, self.action_refresh)
        self.begin()

    @work(exclusive=True, group="start")
    async def begin(self) -> None:
        """Who we are, then what the command line asked for (host, join), else the list."""
        await self.play.connected.wait()
        me = await self.ask("node")
        if me is not None:
            self.play.me = me
            self.show("#status", f"fairtable · {me['name']} ({me['fingerprint']}) at {me['address']}")
        start, self.play.start = self.play.start, type(self.play.start)()
        if start.host is not None:
            hosted = await self.ask("host", **start.host.fields())
            if hosted is not None:
                self.app.push_screen(WaitScreen(hosted["lobby"], hosted["invite"], auto_start=start.host.start))
        elif start.join is not None:
            await self.join(start.join)
        elif start.watch is not None:
            watched = await self.ask("watch", **start.watch)
            if watched is not None:
                self.open(watched["update"])
        await self.refresh_lists()

    async def join(self, fields: dict) -> None:
        joined = await self.ask("join", **fields)
        if joined is not None:
            self.app.push_screen(WaitScreen(joined["lobby"], None))

    def action_refresh(self) -> None:
        self.run_worker(self.refresh_lists(), exclusive=True, group="refresh")

    async def refresh_lists(self) -> None:
        mine, found = await self.ask("tables"), await self.ask("discovered")
        if mine is None or found is None:
            return
        self.mine = sorted(mine["tables"], key=over)  # open tables first, in the node's order
        self.found = found["tables"]
        listings = list(self.query("#tables").results(OptionList))
        if not listings:  # the app is closing
            return
        listing = listings[0]
        highlighted = listing.highlighted
        options: list[Option | None] = [Option("Your tables (Enter opens one)", disabled=True)]
        options += [Option("  " + table_line(update), id=f"mine:{index}") for index, update in enumerate(self.mine)] or \
                   [Option("  none yet", disabled=True)]
        options += [None, Option("Open tables nearby (Enter joins)", disabled=True)]
        options += [Option("  " + found_line(table), id=f"found:{index}") for index, table in enumerate(self.found)] or \
                   [Option("  none found on your network", disabled=True)]
        options += [None, Option("  Host a new table  (h)", id="host"), Option("  Join with an invite  (j)", id="join"),
                    Option("  Watch a table with an invite  (w)", id="watch")]
        listing.clear_options()
        listing.add_options(options)
        if highlighted is not None and highlighted < listing.option_count:
            listing.highlighted = highlighted
        elif listing.highlighted is None:  # first fill: the first open table of yours, else one nearby, else Host
            ids = [option.id if option is not None else None for option in options]
            start = next((f"mine:{index}" for index, update in enumerate(self.mine) if not over(update)),
                         "found:0" if self.found else "host")
            listing.highlighted = sum(1 for option in options[:ids.index(start)] if option is not None)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        choice = event.option.id or ""
        if choice == "host":
            self.action_host()
        elif choice == "join":
            self.action_join()
        elif choice == "watch":
            self.action_watch()
        elif choice.startswith("mine:"):
            self.open(self.mine[int(choice[5:])])
        elif choice.startswith("found:"):
            table = self.found[int(choice[6:])]
            self.run_worker(self.join({"peer": table["address"], "lobby_id": table["lobby_id"], "fingerprint": table["fingerprint"]}))

    def open(self, update: dict) -> None:
        self.play.keep(update)
        if update["phase"] == "lobby":
            self.app.push_screen(WaitScreen({"lobby_id": update["lobby_id"], "game": update["game"], "variant": update["variant"],
                                             "options": {}, "seats": None, "joined": update["seats"]}, None))
        else:
            self.app.push_screen(TableScreen(update["lobby_id"]))

    def action_host(self) -> None:
        self.app.push_screen(HostScreen())

    def action_join(self) -> None:
        self.app.push_screen(InviteScreen())

    def action_watch(self) -> None:
        self.app.push_screen(InviteScreen(watch=True))

    def on_screen_resume(self) -> None:
        self.action_refresh()
