"""The terminal client: a person hosts or joins a table and plays it through the client API.

It is a client like any other (it holds an :class:`ApiClient`, never the node), so what it
can do a bot or a browser page can do too. Views are rendered by the game's declared
renderer (``Game.renderer``) when the registry knows the game, else shown generically.
Input is read one line per prompt, so a script piped to stdin answers the prompts in order,
and bad input re-prompts rather than failing.
"""

from __future__ import annotations

import json
import math
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TextIO

import trio

from fairtable.games import registry
from fairtable.games.contract import Renderer
from fairtable.node.clients.apiclient import REFUSALS, ApiClient, ApiError, helper_tasks

LineReader = Callable[[], Awaitable[str | None]]
"""The next line the user typed, or None at the end of input."""
POLL_SECONDS = 0.5
MOVE_PROMPT = "Your move (number or name, r to resign, q to quit): "
TYPED_PROMPT = "Your move: "


@dataclass(frozen=True)
class HostSettings:
    """A table to host; None leaves a setting to the game's default."""

    game: str
    variant: str | None = None
    options: dict | None = None
    seats: int | None = None

    def fields(self) -> dict[str, Any]:
        return {name: value for name, value in vars(self).items() if value is not None}


def _renderer(game_id: str) -> Renderer | None:
    return registry.get(game_id).renderer if game_id in registry.ids() else None


def render_view(game_id: str, view: Any) -> str:
    """The game's own text rendering of a view, or every field of it, indented."""
    renderer = _renderer(game_id)
    if renderer is not None:
        return renderer.render(view)
    return "\n".join(_generic_lines(view, ""))


RANDOM_PLACEMENT = {"random": True}
LEGAL_MOVES = "Your legal moves (the number, or a move's last word such as a cell):"
COLUMNS_FROM = 24


def pick(update: dict, moves: list, answer: str) -> Any:
    """The move the player typed: its number, or the last word of its description when that
    names exactly one move (``b7`` for ``shoot B7``); None if neither."""
    if answer.isdecimal():
        return moves[int(answer) - 1] if 1 <= int(answer) <= len(moves) else None
    named = [move for move in moves if describe_move(update["game"], update["view"], move).lower().split()[-1:] == [answer]]
    return named[0] if len(named) == 1 else None


def offered(update: dict) -> list:
    """The moves to number for the player: the legal moves, or for hidden data (a fleet) a
    random legal placement, which the node draws."""
    if update.get("decision") == "hidden":
        return [RANDOM_PLACEMENT]
    return list(update["legal_moves"])


def typed_hint(update: dict) -> str | None:
    """What to type for a decision too large to list (a salvo: legal moves empty), when the
    game's renderer reads typed moves (``move_hint`` and ``parse_move``); else None."""
    renderer = _renderer(update["game"])
    hint = getattr(renderer, "move_hint", None)
    if not update.get("your_turn") or update.get("legal_moves") or update["view"] is None or hint is None:
        return None
    return hint(update["view"])


def parse_typed(update: dict, answer: str) -> Any:
    """The move the renderer reads in what the player typed, or None."""
    parse = getattr(_renderer(update["game"]), "parse_move", None)
    return None if parse is None else parse(update["view"], answer)


def describe_move(game_id: str, view: Any, move: Any) -> str:
    if move == RANDOM_PLACEMENT:
        return "place at random (your node draws a legal placement and commits to it)"
    renderer = _renderer(game_id)
    if renderer is not None:
        return renderer.move_line(view, move)
    return json.dumps(move, sort_keys=True)


def _generic_lines(value: Any, indent: str) -> list[str]:
    if not isinstance(value, dict):
        return [indent + json.dumps(value, sort_keys=True)]
    lines = []
    for key, item in value.items():
        if isinstance(item, dict) and item:
            lines.append(f"{indent}{key}:")
            lines.extend(_generic_lines(item, indent + "  "))
        else:
            lines.append(f"{indent}{key}: {json.dumps(item, sort_keys=True)}")
    return lines


def outcome(result: dict, seat: int | None) -> str:
    """The result from this seat's side, e.g. ``Result: you lost (tower).``"""
    winners = result["winners"]
    if not winners:
        said = "a draw"
    elif seat is None:
        said = "won by seat " + ", ".join(str(winner) for winner in winners)
    else:
        said = "you won" if seat in winners else "you lost"
    return f"Result: {said} ({result['reason']})."


class Terminal:
    """One session: set up a table (flags or prompts), then show every update and ask for moves."""

    def __init__(self, client: ApiClient, read_line: LineReader, out: TextIO) -> None:
        self.client = client
        self.read_line = read_line
        self.out = out
        self.inbox_in, self.inbox = trio.open_memory_channel[tuple[str, Any]](math.inf)
        self.reading = False
        self.nursery: trio.Nursery | None = None

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def prompt(self, text: str) -> None:
        """Show ``text`` and read the next line into the inbox (unless a read is already waiting)."""
        self.out.write(text)
        self.out.flush()
        if not self.reading:
            self.reading = True
            assert self.nursery is not None
            self.nursery.start_soon(self._read_one)

    async def _read_one(self) -> None:
        line = await self.read_line()
        self.reading = False
        self.inbox_in.send_nowait(("line", line))

    async def _forward_events(self) -> None:
        async for event in self.client.events:
            self.inbox_in.send_nowait(("update", event))
        self.inbox_in.send_nowait(("closed", None))

    async def ask(self, text: str) -> str | None:
        """The user's answer to one prompt, stripped; None at the end of input."""
        self.prompt(text)
        while True:
            kind, item = await self.inbox.receive()
            if kind == "closed":
                raise ApiError("closed", "the node closed the connection")
            if kind == "line":
                return None if item is None else item.strip()

    async def run(self, host: HostSettings | None = None, join: tuple[str, str] | None = None, start: bool = False) -> int:
        """Exit status: 0 when the game ended or the user left, 1 when the node refused the setup."""
        async with helper_tasks() as nursery:
            self.nursery = nursery
            nursery.start_soon(self._forward_events)
            try:
                if host is not None:
                    lobby_id = await self._host(host, start)
                elif join is not None:
                    lobby_id = await self._join(*join)
                else:
                    lobby_id = await self._menu()
                return 0 if lobby_id is None else await self._play(lobby_id)
            except ApiError as error:
                self.say(f"Refused: {error}" if error.code in REFUSALS else f"Stopped: {error}")
                return 1

    # ------------------------------------------------------------------ setting up a table

    async def _host(self, settings: HostSettings, start: bool) -> str | None:
        lobby = (await self.client.request("host", **settings.fields()))["lobby"]
        lobby_id = lobby["lobby_id"]
        self.say(f"Hosting {lobby['game']} ({lobby['variant']}, {lobby['seats']} seats) as lobby {lobby_id}.")
        self.say(f"Others join with: fairtable play --join <this node's address> {lobby_id}")
        if start:
            await self._start_when_full(lobby_id)
            return lobby_id
        return await self._start_when_asked(lobby_id)

    async def _start_when_full(self, lobby_id: str) -> None:
        shown = None
        while True:
            lobby = next((t for t in (await self.client.request("list"))["tables"] if t["lobby_id"] == lobby_id), None)
            if lobby is None:
                raise ApiError("refused", f"lobby {lobby_id} is gone")
            if len(lobby["joined"]) >= lobby["seats"]:
                await self.client.request("start", lobby_id=lobby_id)
                return
            if shown != len(lobby["joined"]):
                shown = len(lobby["joined"])
                self.say(f"Waiting for players: {shown} of {lobby['seats']} seats taken.")
            await trio.sleep(POLL_SECONDS)

    async def _start_when_asked(self, lobby_id: str) -> str | None:
        while True:
            answer = await self.ask("Press Enter to start the table once everyone has joined (q to quit): ")
            if answer is None or answer.lower() == "q":
                return None
            try:
                await self.client.request("start", lobby_id=lobby_id)
                return lobby_id
            except ApiError as refused:
                self.say(f"Not started: {refused}")

    async def _join(self, peer: str, lobby_id: str) -> str:
        lobby = (await self.client.request("join", peer=peer, lobby_id=lobby_id))["lobby"]
        self.say(f"Joined {lobby['game']} ({lobby['variant']}) lobby {lobby_id} at {peer}; the host starts the table.")
        return lobby["lobby_id"]

    async def _menu(self) -> str | None:
        while True:
            answer = await self.ask("[h]ost a table, [j]oin one, [l]ist the tables at a peer, or [q]uit: ")
            if answer is None or answer.lower() == "q":
                return None
            try:
                if answer.lower() == "h":
                    settings = await self._ask_host_settings()
                    return None if settings is None else await self._host(settings, start=False)
                if answer.lower() == "j":
                    peer = await self.ask("Peer address (host:port): ")
                    lobby_id = None if peer is None else await self.ask("Lobby id: ")
                    return None if peer is None or lobby_id is None else await self._join(peer, lobby_id)
                if answer.lower() == "l":
                    peer = await self.ask("Peer address (host:port; empty for this node): ")
                    if peer is None:
                        return None
                    self._show_tables((await self.client.request("list", peer=peer or None))["tables"])
                else:
                    self.say("Please answer h, j, l or q.")
            except ApiError as refused:
                self.say(f"Refused: {refused}")

    def _show_tables(self, tables: list[dict]) -> None:
        if not tables:
            self.say("No tables.")
        for table in tables:
            self.say(f"  {table['lobby_id']}  {table['game']} ({table['variant']})  "
                     f"{len(table['joined'])}/{table['seats']} seats  host {table['host']}")

    async def _ask_host_settings(self) -> HostSettings | None:
        games = {game["id"]: game for game in (await self.client.request("games"))["games"]}
        game = await self._choose("Game", list(games))
        if game is None:
            return None
        variant = await self._choose("Variant", games[game]["variants"])
        if variant is None:
            return None
        low, high = games[game]["min_seats"], games[game]["max_seats"]
        seats = low
        while low != high:
            answer = await self.ask(f"Seats ({low}-{high}) [{low}]: ")
            if answer is None:
                return None
            if not answer or (answer.isdecimal() and low <= int(answer) <= high):
                seats = int(answer or low)
                break
            self.say(f"Please enter a number from {low} to {high}.")
        while True:
            answer = await self.ask("Options as a JSON object [{}]: ")
            if answer is None:
                return None
            try:
                options = json.loads(answer or "{}")
            except ValueError:
                options = None
            if isinstance(options, dict):
                return HostSettings(game, variant, options, seats)
            self.say('Please enter a JSON object, e.g. {"turn_seconds": 30}.')

    async def _choose(self, what: str, choices: list[str]) -> str | None:
        while True:
            answer = await self.ask(f"{what} ({', '.join(choices)}) [{choices[0]}]: ")
            if answer is None or answer in choices:
                return answer
            if not answer:
                return choices[0]
            self.say(f"Unknown {what.lower()} {answer!r}.")

    # ------------------------------------------------------------------ playing

    async def _play(self, lobby_id: str) -> int:
        await self.client.request("subscribe")
        shown = None
        update: dict = {}
        moves: list = []
        hint: str | None = None
        while True:
            kind, item = await self.inbox.receive()
            if kind == "closed":
                self.say("The node closed the connection.")
                return 1
            if kind == "update":
                if item["lobby_id"] != lobby_id:
                    continue
                seen = (item["phase"], item["view"], item.get("decision"), item["legal_moves"], item["result"], item["violations"])
                if seen == shown:  # e.g. only the timer moved on
                    continue
                shown, update, moves, hint = seen, item, offered(item), typed_hint(item)
                self._show(update)
                if update["result"] is not None:
                    self.say(outcome(update["result"], update["seat"]))
                    return 0
                if moves:
                    self._ask_move(update, moves)
                elif hint is not None:
                    self.say(f"{hint} (r to resign, q to quit).")
                    self.prompt(TYPED_PROMPT)
                continue
            if item is None:
                self.say("\nEnd of input: leaving; the node keeps your seat.")
                return 0
            answer = item.strip().lower()
            if answer == "q":
                self.say("Leaving; the node keeps your seat (the turn timer plays for it).")
                return 0
            if hint is not None and not moves and answer not in ("r", ""):
                typed = parse_typed(update, answer)
                if typed is None:
                    self.say(f"Could not read that. {hint}.")
                    self.prompt(TYPED_PROMPT)
                elif await self._send("move", TYPED_PROMPT, table=update["table"], move=typed):
                    hint = None
                continue
            if not moves and hint is None:
                self.say("It is not your turn any more.")
            elif answer == "r":
                if await self._send("resign", MOVE_PROMPT, table=update["table"]):
                    moves, hint = [], None
            elif (chosen := pick(update, moves, answer)) is not None:
                if await self._send("move", MOVE_PROMPT, table=update["table"], move=chosen):
                    moves = []
            else:
                self.say(f"Please enter a move number from 1 to {len(moves)}, r to resign or q to quit.")
                self.prompt(MOVE_PROMPT)

    async def _send(self, op: str, prompt: str, **fields: Any) -> bool:
        """Send a move or resignation; whether the node accepted it (if not, say why and ask again)."""
        try:
            await self.client.request(op, **fields)
        except ApiError as refused:
            self.say(f"Refused: {refused}")
            self.prompt(prompt)
            return False
        return True

    def _show(self, update: dict) -> None:
        name = update["table"][:12] if update["table"] else update["lobby_id"]
        self.say()
        self.say(f"=== {update['game']} ({update['variant']}) table {name}, you are seat {update['seat']} ===")
        if update["view"] is None:
            self.say(f"The table is in phase {update['phase']}.")
        else:
            self.say(render_view(update["game"], update["view"]))
        for violation in update["violations"]:
            who = f"seat {violation['seat']}" if violation["seat"] is not None else f"one of seats {violation['suspects']}"
            self.say(f"VIOLATION at message {violation['index']}: {who} broke {violation['rule']}: {violation['detail']}")

    def _ask_move(self, update: dict, moves: list) -> None:
        self.say(LEGAL_MOVES)
        entries = [f"  {number:>2}) {describe_move(update['game'], update['view'], move)}" for number, move in enumerate(moves, 1)]
        columns = 1 if len(entries) <= COLUMNS_FROM else 4
        width = max(map(len, entries))
        for row in range(0, len(entries), columns):
            self.say("  ".join(entry.ljust(width) for entry in entries[row:row + columns]).rstrip())
        if update["deadline"] is not None:
            self.say(f"{update['deadline']:.0f} s left; then the rules play for you.")
        self.prompt(MOVE_PROMPT)
