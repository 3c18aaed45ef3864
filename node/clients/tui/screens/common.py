"""What every screen shares: the status and message lines, and requests whose refusal is shown in place."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.screen import Screen
from textual.widgets import Static

from fairtable.node.clients.apiclient import ApiError

if TYPE_CHECKING:
    from fairtable.node.clients.tui.app import PlayApp


class BaseScreen(Screen):
    """A screen with a ``#message`` line; :meth:`ask` sends a request and shows a refusal there."""

    @property
    def play(self) -> PlayApp:
        from fairtable.node.clients.tui.app import PlayApp

        assert isinstance(self.app, PlayApp)
        return self.app

    def show(self, selector: str, text: str) -> None:
        """Set a text line; one not composed yet (or gone with a closing screen) is skipped, the
        next change draws it."""
        for line in self.query(selector).results(Static):
            line.update(text)

    def say(self, text: str) -> None:
        self.show("#message", text)

    async def ask(self, op: str, **fields: Any) -> dict | None:
        """The response, or None after saying why the node refused (nothing changed)."""
        try:
            return await self.play.bridge.call(op, **fields)
        except ApiError as exc:
            self.say(f"{op} refused: {exc}" if exc.code != "closed" else str(exc))
            return None

    def connection_changed(self) -> None:
        status = self.play.connection
        self.say("" if status is None else f"Lost the node: {status}")


def players(names: list[str] | tuple[str, ...]) -> str:
    return ", ".join(names) if names else "nobody yet"


def options_text(options: dict) -> str:
    return ", ".join(f"{name}={value}" for name, value in sorted(options.items())) or "defaults"
