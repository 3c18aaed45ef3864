"""Hosting a table (game, variant, seats and every option the game declares, as choices) and
joining one by invite. A refusal is shown on the same screen, so the player fixes it in place."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widget import Widget
from textual.widgets import Button, Checkbox, Footer, Input, Label, Select, Static

from fairtable.node.clients.tui.screens.common import BaseScreen
from fairtable.node.clients.tui.screens.table import TableScreen
from fairtable.node.clients.tui.screens.wait import WaitScreen


def option_widget(option: dict) -> Any:
    """The widget for one declared option, showing its default."""
    name = f"option-{option['name']}"
    if option["type"] == "choice":
        return Select([(value, value) for value in option["values"]], value=option["default"], allow_blank=False, id=name, compact=True)
    if option["type"] == "flag":
        return Checkbox(value=bool(option["default"]), id=name, compact=True)
    return Input(str(option["default"]), type="integer", id=name, compact=True,
                 placeholder=f"{option['lowest']}..{option['highest']}")


class HostScreen(BaseScreen):
    BINDINGS = [Binding("escape", "app.pop_screen", "back"), Binding("ctrl+s", "host", "host the table")]
    DEFAULT_CSS = """
    HostScreen Horizontal { height: 1; }
    HostScreen Label { width: 16; }
    HostScreen Select, HostScreen Input, HostScreen Checkbox { width: 30; }
    HostScreen #form { height: 1fr; }
    HostScreen #host { margin: 1 0 0 16; min-width: 20; }
    HostScreen #host:focus { text-style: bold reverse; background: $accent; }
    """

    def __init__(self) -> None:
        super().__init__()
        self.games: dict[str, dict] = {}
        self.chosen: tuple[str, str] | None = None
        """The game and variant the form is built for."""

    def compose(self) -> ComposeResult:
        yield Static("Host a table: choose, then Host (or Ctrl+S)", id="status")
        yield VerticalScroll(id="form")
        yield Static("", id="message")
        yield Footer()

    async def on_mount(self) -> None:
        listed = await self.ask("games")
        if listed is not None:
            self.games = {game["id"]: game for game in listed["games"]}
            await self.build(next(iter(self.games)), None)

    async def build(self, game_id: str, variant: str | None) -> None:
        game = self.games[game_id]
        variant = variant or game["variants"][0]
        self.chosen = (game_id, variant)
        form = self.query_one("#form", VerticalScroll)
        await form.remove_children()
        rows: list[tuple[str, Widget]] = [("game", Select([(g, g) for g in self.games], value=game_id, allow_blank=False, id="game", compact=True)),
                ("variant", Select([(v, v) for v in game["variants"]], value=variant, allow_blank=False, id="variant", compact=True))]
        low, high = game["seats"][variant]
        if low != high:
            rows.append(("seats", Input(str(low), type="integer", id="seats", compact=True, placeholder=f"{low}..{high}")))
        rows += [(option["name"], option_widget(option)) for option in game["options"][variant]]
        host = Button("Host the table", id="host", variant="primary", compact=True)
        await form.mount_all([*(Horizontal(Label(name), widget) for name, widget in rows), host])

    async def on_select_changed(self, event: Select.Changed) -> None:
        """A new game or variant rebuilds the form with its options (a select announcing its first value changes nothing)."""
        if self.chosen is None:
            return
        game, variant = self.chosen
        if event.select.id == "game" and event.value in self.games and event.value != game:
            await self.build(str(event.value), None)
        elif event.select.id == "variant" and event.value != variant:
            await self.build(game, str(event.value))

    def settings(self) -> dict | None:
        """The host op's fields from the form; None after saying which field is wrong."""
        game = self.games[str(self.query_one("#game", Select).value)]
        variant = str(self.query_one("#variant", Select).value)
        fields: dict[str, Any] = {"game": game["id"], "variant": variant, "options": {}}
        for input_ in self.query("#seats").results(Input):
            low, high = game["seats"][variant]
            if not input_.value.isdecimal() or not low <= int(input_.value) <= high:
                self.say(f"seats must be {low}..{high}")
                return None
            fields["seats"] = int(input_.value)
        for option in game["options"][variant]:
            widget = self.query_one(f"#option-{option['name']}")
            if isinstance(widget, Input):
                try:
                    value: Any = int(widget.value)
                except ValueError:
                    self.say(f"{option['name']} must be an integer {option['lowest']}..{option['highest']}")
                    return None
            else:
                value = widget.value  # type: ignore[attr-defined]
            if value != option["default"]:
                fields["options"][option["name"]] = value
        return fields

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.action_host()

    def action_host(self) -> None:
        fields = self.settings()
        if fields is not None:
            self.run_worker(self._host(fields), exclusive=True)

    async def _host(self, fields: dict) -> None:
        hosted = await self.ask("host", **fields)
        if hosted is not None:
            self.app.switch_screen(WaitScreen(hosted["lobby"], hosted["invite"]))


class InviteScreen(BaseScreen):
    """Paste an invite: to join its table, or (``watch``) to watch it as a spectator."""

    BINDINGS = [Binding("escape", "app.pop_screen", "back")]

    def __init__(self, watch: bool = False) -> None:
        super().__init__()
        self.watching = watch

    def compose(self) -> ComposeResult:
        if self.watching:
            yield Static("Watch a table: paste an invite to it (ft1…, from any of its players), then Enter", id="status")
        else:
            yield Static("Join a table: paste the invite your friend sent (ft1…), then Enter", id="status")
        yield Input(placeholder="ft1… (one word)", id="invite")
        yield Static("", id="message")
        yield Footer()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.run_worker((self._watch if self.watching else self._join)(event.value.strip()), exclusive=True)

    async def _watch(self, invite: str) -> None:
        watched = await self.ask("watch", invite=invite)
        if watched is not None:
            self.play.keep(watched["update"])
            self.app.switch_screen(TableScreen(watched["update"]["lobby_id"]))

    async def _join(self, invite: str) -> None:
        joined = await self.ask("join", invite=invite)
        if joined is not None:
            self.app.switch_screen(WaitScreen(joined["lobby"], None))
