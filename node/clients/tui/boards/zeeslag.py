"""Zeeslag: your fleet and every opponent's waters side by side, a cursor to aim or to place ships.

Placing (the ``hidden`` decision): arrows move the ship, ``r`` rotates it, Enter places it,
Backspace takes the last one back, ``a`` has the node place the whole fleet at random; the
fleet is sent once its last ship is placed. Shooting: arrows aim at the opponent's waters
(Tab switches between opponents, for games of more than two), Enter fires; typing ``b7`` does
too. Grids are drawn for any number of seats; at 80 columns three fit side by side.
"""

from __future__ import annotations

from typing import Any

from rich.console import RenderableType
from rich.text import Text
from textual import events

from fairtable.games.zeeslag.fleet import FLEETS, Placement, fleet_problem, layers
from fairtable.games.zeeslag.sea import ROW_LETTERS, SEA
from fairtable.node.clients.tui.boards import Board

GAP = "  "
MOVES = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}
MARKS = {"ship": "■", "hit": "X", "sunk": "#", "miss": "o", "water": "~", "unknown": "·"}
SHOWN = 3
"""Grids side by side at most: yours and two opponents' (more opponents: Tab pages through them)."""


def marks(sea: dict, fleet: dict) -> list[str]:
    """One mark per cell of a seat's sea as the view shows it (its ships where the view knows them)."""
    out = [MARKS["unknown"]] * SEA.size
    for cell, _ship in fleet["layout"] or ():
        out[cell] = MARKS["ship"]
    for kind, cells in (("water", sea["water"]), ("miss", sea["shots"]), ("hit", sea["hits"])):
        for cell in cells:
            out[cell] = MARKS[kind]
    for sunk in sea["sunk"]:
        for cell in sunk["cells"]:
            out[cell] = MARKS["sunk"]
    return out


class ZeeslagBoard(Board):
    def __init__(self) -> None:
        super().__init__()
        self.cursor = (0, 0)
        self.horizontal = True
        self.placed: list[Placement] = []
        self.target: int | None = None
        self.problem = ""
        self.ready: Any = None
        """A fleet chosen before this seat's turn to commit came."""

    # ------------------------------------------------------------------ state from the update

    def placing(self) -> bool:
        """Our fleet is still to be chosen (the seats commit in turn, but anyone may place at once)."""
        view = self.current["view"]
        return view["phase"] == "placement" and view["seat"] is not None and view["fleets"][view["seat"]]["layout"] is None

    def commit(self, fleet: Any) -> None:
        """Send the fleet when this seat's commitment is due, else keep it until it is."""
        self.ready = fleet
        if self.current.get("decision") == "hidden":
            self.ready = None
            self.choose(fleet)

    def opponents(self) -> list[int]:
        view = self.current["view"]
        return [seat for seat in range(view["seats"]) if seat != view["seat"] and seat not in view["left"]]

    def aimed_at(self) -> int:
        opponents = self.opponents()
        if self.target not in opponents:
            self.target = opponents[0]
        return self.target

    def fleet(self) -> Any:
        return FLEETS[self.current["view"]["fleet"]]

    def ghost(self) -> Placement | None:
        ships = self.fleet().ships
        if len(self.placed) >= len(ships):
            return None
        x, y = self.cursor
        return Placement(x, y, ships[len(self.placed)].length, self.horizontal)

    def blocked(self) -> set[int]:
        cells: set[int] = set()
        for placement in self.placed:
            own = placement.cells(SEA) or ()
            cells.update(own)
            cells.update(SEA.ring(own))
        return cells

    def shot_at(self, cell: int) -> Any | None:
        target = self.aimed_at()
        for move in self.current.get("legal_moves") or ():
            if isinstance(move, dict) and move.get("shoot") == cell and move.get("target", target) == target:
                return move
        return None

    # ------------------------------------------------------------------ keys

    def on_key(self, event: events.Key) -> None:
        if not self.current or self.current.get("view") is None:
            return
        key = event.key
        if key in MOVES:
            dx, dy = MOVES[key]
            x, y = self.cursor
            self.cursor = (min(max(x + dx, 0), SEA.width - 1), min(max(y + dy, 0), SEA.height - 1))
        elif key == "tab" and not self.placing() and len(self.opponents()) > 1:
            opponents = self.opponents()
            self.target = opponents[(opponents.index(self.aimed_at()) + 1) % len(opponents)]
        elif self.placing() and key == "r":
            self.horizontal = not self.horizontal
        elif self.placing() and key == "backspace" and self.placed:
            self.placed.pop()
        elif self.placing() and key == "a":
            self.commit({"random": True})
        elif key == "enter":
            self._enter()
        else:
            return
        event.stop()
        self.redraw()

    def _enter(self) -> None:
        if not self.placing():
            move = self.shot_at(SEA.cell(*self.cursor))
            self.problem = "" if move is not None else "you cannot shoot there now"
            if move is not None:
                self.choose(move)
            return
        ghost = self.ghost()
        cells = None if ghost is None else ghost.cells(SEA)
        if ghost is None or cells is None:
            self.problem = "the ship does not fit there"
            return
        if set(cells) & self.blocked():
            self.problem = "ships may not touch or overlap"
            return
        self.problem = ""
        self.placed.append(ghost)
        if len(self.placed) == len(self.fleet().ships):
            data = layers(SEA, self.placed)
            problem = fleet_problem(SEA, self.fleet(), data)
            if problem is not None:
                self.problem = problem
                self.placed.pop()
                return
            self.commit({layer: list(values) for layer, values in data.items()})

    # ------------------------------------------------------------------ drawing

    def draw(self, update: dict) -> RenderableType:
        view = update["view"]
        me, seas, fleets, names = view["seat"], view["seas"], view["fleets"], update["seats"]
        if not self.placing():
            self.placed, self.ready = [], None
        elif self.ready is not None and update.get("decision") == "hidden":
            self.call_later(self.commit, self.ready)
        fleet = FLEETS[view["fleet"]]
        text = Text(f"Zeeslag {view['variant']} · fleet {fleet.name_en} ({fleet.name}) · water ring "
                    f"{'on' if view['water_ring'] else 'off'}\n", style="bold")
        shown = [me] + [self.aimed_at()] + [seat for seat in self.opponents() if seat != self.aimed_at()]
        shown = shown[:SHOWN]
        titles = [("your fleet" if seat == me else f"{names[seat]}'s waters" + (" ◀" if seat == self.aimed_at() and view["seats"] > 2 else ""))
                  for seat in shown]
        text.append(GAP.join(f"{title[:22]:<22}" for title in titles) + "\n", style="underline")
        grids = [self._grid(seas[fleets[seat]["sea"]], fleets[seat], own=seat == me, aimed=seat == self.aimed_at()) for seat in shown]
        for row in range(len(grids[0])):
            for index, grid in enumerate(grids):
                if index:
                    text.append(GAP)
                text.append_text(grid[row])
            text.append("\n")
        text.append("■ ship  X hit  # sunk  o miss  ~ water  · unknown\n", style="dim")
        for seat in shown:
            sunk = set(fleets[seat]["sunk"])
            afloat = ", ".join(f"{ship.name_en} {ship.length}" for ship in fleet.ships if ship.index not in sunk)
            text.append(f"{'you' if seat == me else names[seat]}: {len(fleet.ships) - len(sunk)} afloat: {afloat}"[:79] + "\n")
        if self.placing():
            ghost = self.ghost()
            ship = fleet.ships[len(self.placed)] if ghost is not None else None
            what = f"place {ship.name_en} ({ship.length})" if ship else "fleet placed"
            if self.ready is not None:
                what = "fleet chosen: sent when your turn to commit comes"
            text.append(f"{what}: arrows + Enter, r rotate, Backspace undo, a random\n", style="bold")
        elif update.get("legal_moves"):
            text.append(f"aim with the arrows, Enter fires at {SEA.name(SEA.cell(*self.cursor))} (or type a cell such as b7)\n",
                        style="bold")
        for shot in view["recent"][-2:]:
            outcome = "?" if shot["hit"] is None else "hit" if shot["hit"] else "miss"
            for _owner, ship in shot["sunk"]:
                outcome += f", {fleet.ships[ship].name_en} sunk"
            who = "you" if shot["seat"] == me else names[shot["seat"]]
            text.append(f"{who} shot {SEA.name(shot['cell'])}: {outcome}\n", style="italic")
        if self.problem:
            text.append(self.problem + "\n", style="bold red")
        return text

    def _grid(self, sea: dict, fleet: dict, own: bool, aimed: bool) -> list[Text]:
        cells = marks(sea, fleet)
        highlight: set[int] = set()
        if own and self.placing():
            for placement in self.placed:
                for cell in placement.cells(SEA) or ():
                    cells[cell] = MARKS["ship"]
            ghost = self.ghost()
            highlight = set((ghost.cells(SEA) or ()) if ghost is not None else ())
        elif aimed and not own and self.current.get("legal_moves"):
            highlight = {SEA.cell(*self.cursor)}
        rows = [Text("  " + "".join(f"{(x + 1) % 10:>2}" for x in range(SEA.width)) + " ")]  # columns 1..9, 0 for 10
        for y in range(SEA.height):
            row = Text(f"{ROW_LETTERS[y]} ")
            for x in range(SEA.width):
                cell = SEA.cell(x, y)
                row.append(f"{cells[cell]:>2}", style="reverse" if cell in highlight else None)
            row.append(" ")
            rows.append(row)
        return rows
