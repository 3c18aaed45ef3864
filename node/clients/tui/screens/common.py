"""What every screen shares: the status and message lines, and requests whose refusal is shown in place."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.segment import Segment
from textual.screen import Screen
from textual.strip import Strip
from textual.widgets import OptionList, Static

from fairtable.games import player
from fairtable.games import players as seats_in_words
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


def short_table(table: str) -> str:
    """A table id as a person reads it (``spec/client-api.md``): its first 12 hex digits."""
    return table[:12]


def who_is_who(update: dict) -> str:
    """Each player's name and key fingerprint, ``you`` marked: what a person compares to be sure."""
    names, prints = list(update.get("seats") or ()), list(update.get("fingerprints") or ())
    return " │ ".join(f"{name}{' (you)' if index == update.get('seat') else ''} {prints[index] if index < len(prints) else ''}".rstrip()
                      for index, name in enumerate(names))


def culprit(update: dict, violation: dict) -> str:
    """Who a finding names, by name (``one of`` its suspects when it cannot tell)."""
    names = list(update.get("seats") or ())
    if violation.get("seat") is not None:
        return player(violation["seat"], update.get("seat"), names)
    return "one of " + seats_in_words(tuple(violation.get("suspects") or ()), update.get("seat"), names)


def log_lines(update: dict, last: int | None = None) -> list[str]:
    """The table's log (``spec/client-api.md``), oldest first; the ``last`` ones only when given."""
    texts = [str(entry.get("text", "")) for entry in update.get("log") or ()]
    return texts if last is None else texts[-last:]


def players(names: list[str] | tuple[str, ...]) -> str:
    return ", ".join(names) if names else "nobody yet"


def options_text(options: dict) -> str:
    return ", ".join(f"{name}={value}" for name, value in sorted(options.items())) or "defaults"


class MarkedList(OptionList):
    """An option list whose highlighted row starts with :data:`MARKER`, so a screen capture, a
    monochrome terminal or a screen reader shows which row Enter takes, not only reverse video.
    Its prompts leave the first column free for the marker."""

    MARKER = "▸"

    def render_line(self, y: int) -> Strip:
        strip = super().render_line(y)
        try:
            index, offset = self._lines[self.scroll_offset.y + y]
        except IndexError:
            return strip
        if index != self.highlighted or offset or not strip.cell_length:
            return strip
        first = next(iter(strip), None)
        return Strip([Segment(self.MARKER, first.style if first is not None else None), *strip.crop(1)], strip.cell_length)
