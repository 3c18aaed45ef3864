"""Zeeslag's space battle: buying the fleet, placing shaped ships, landing a reserve, shots and
abilities, on star fields one character a cell, yours and one enemy's side by side (Tab
pages through the others) with your fleet, your abilities and that enemy's fleet beside them.

Buying (first): ↑↓ choose a kind, → or + buys one, ← or - sells one, Enter goes on to placing
the ships bought; ``a`` and Enter have the node buy and place a random fleet. Placing: arrows move the
ship, ``r`` turns it through its turns, Enter places it, Backspace takes the last one back
(with none placed: back to buying); the fleet is sent once its last ship is placed. Landing a
reserve: arrows and Enter put the 3 fighters on the shaded free cells (Enter on one takes it
back, so does Backspace), ``a`` and Enter land them at random. Shots as on the zeeslag board: two seats,
Enter fires (a hit shoots again, at most 3 actions a turn); three or more, a salvo. An ability
that is ready replaces a shot (a salvo: the shots at the enemy aimed at, or with ``focus`` the
whole salvo): ``l`` laser (the cursor's column, ↑ from row A, ↓ from row J), ``s`` scan (the 3×3
around the cursor), ``n`` nuke (the cursor's cell), ``r`` reserve; its key again goes back to
shots, Enter fires it (a salvo: puts it in, Backspace takes it out).

What the board sends is what the game reads: the fleet as the ``ships`` and ``ids`` layers
(``ids`` naming the catalogue's slots, each kind's first copies), a squadron as its ``wing<k>``
layer, abilities as the game's legal moves list them; it refuses locally, with the game's own
checks, what the game would refuse.
"""

from __future__ import annotations

import textwrap
from typing import Any

from rich.text import Text

from fairtable.games import RuleError, counted, named, say
from fairtable.games.zeeslag import (
    CATALOGUE,
    SPACE,
    Fleet,
    Grid,
    Kind,
    Ship,
    Squadron,
    kinds,
    move_line,
    own_round,
    reach,
    ready_abilities,
    squadron_problem,
    ticks,
)
from fairtable.node.clients.tui.boards import RANDOM, pick
from fairtable.node.clients.tui.boards.zeeslag import GAP, MARKS, MOVES, WIDTH, ZeeslagBoard, grid_of

KEYS = {"l": "laser", "s": "scan", "n": "nuke", "r": "reserve"}
"""The key of each ability."""
SIDE = WIDTH - 2 * 22 - 2 * len(GAP)
"""Characters beside two star fields."""


class SpaceBoard(ZeeslagBoard):
    variants = frozenset({"space"})
    shown = 2
    cell_width = 1
    legend = "■ ship  F fighter  X hit  # sunk  + scanned  o miss  ~ water  · unknown  * aimed"
    keys = (
        ("↑↓ ← → + -", "buying: choose a kind, buy or sell one; Enter: on to placing"),
        ("arrows / r", "move / turn the ship to place, land a fighter, or aim"),
        ("Enter/Backspace", "place, land or fire / take the last one back"),
        ("l s n r", "an ability that is ready: laser, scan, nuke, reserve (again: shots)"),
        ("Tab", "the next enemy's waters"),
        ("a Enter", "let your node buy and place a fleet, or land the reserve, at random"),
        ("typing", "a cell such as b7, a salvo such as bob:b7 carol:c3"),
    )

    def __init__(self) -> None:
        super().__init__()
        self.buying: dict[str, int] = {}
        """Copies bought of each kind (by kind id)."""
        self.bought = False
        """The purchase is done: its ships are being placed."""
        self.unspent: int | None = None
        """The cost of the purchase whose unspent money was pointed out (Enter again goes on with it)."""
        self.kind = 0
        """The kind the purchase's cursor is on."""
        self.fighters: list[int] = []
        """The reserve's fighters put down so far."""
        self.aim: str | None = None
        """The ability being aimed (None: shots)."""
        self.ability: dict | None = None
        """The ability in the salvo, as the salvo's ``ability`` entry."""

    def typed(self, update: dict, text: str) -> Any | None:
        """A bare cell is a shot there, although a laser, scan or nuke could also be aimed at it
        (``a5`` ends ``laser A5`` too); an ability is typed with its name."""
        return pick(update, f"shoot {text}") or super().typed(update, text)

    # ------------------------------------------------------------------ state from the update

    def fleet(self) -> Fleet:
        return SPACE

    def purchase(self) -> tuple[int, ...]:
        """The slots bought: each kind's first copies."""
        return CATALOGUE.bought(self.buying)

    def ships(self) -> tuple[Ship, ...]:
        """The ships bought, largest first."""
        return tuple(sorted((SPACE.ships[slot] for slot in self.purchase()), key=lambda ship: (-ship.length, ship.index)))

    def ship_name(self, ship: int) -> str:
        return CATALOGUE.ship_name(ship)

    def shopping(self) -> bool:
        return self.placing() and not self.bought

    def landing(self) -> dict | None:
        """What a reserve of ours may land on now (the view's ``placing``), or None."""
        placing = self.seen.get("placing")
        return placing if placing and placing["fighters"] and self.current.get("decision") == "hidden" else None

    def money_left(self) -> int:
        return self.seen["money"] - CATALOGUE.cost(self.purchase())

    def fleet_problem(self, data: dict[str, tuple[int, ...]]) -> str | None:
        wrong = CATALOGUE.purchase_problem(self.purchase(), self.seen["money"])
        return super().fleet_problem(data) or (None if wrong is None else f"the game refuses this fleet: {say(wrong.refusal)}")

    def shots_due(self) -> dict[int, int]:
        """What is due, or beside the ability chosen the view's ``due_with_ability`` for its enemy."""
        if self.ability is None:
            return self.due()
        beside: list = next((owed for foe, owed in self.seen.get("due_with_ability") or () if foe == self.ability.get("at")), [])
        return {foe: count for foe, count in beside if count}

    def salvo_move(self) -> dict:
        move = super().salvo_move()
        return move if self.ability is None else move | {"ability": self.ability}

    def round_mark(self) -> Any:
        """Shots fired and own rounds: a round of abilities only fires no shot."""
        me = self.seen["seat"]
        return super().round_mark(), None if me is None else self.seen["fleets"][me]["rounds"]

    def new_salvo(self) -> None:
        super().new_salvo()
        self.ability = self.aim = None

    # ------------------------------------------------------------------ keys

    def press(self, key: str) -> bool:
        if self.shopping():
            return self._shop(key)
        if self.landing():
            return self._land_key(key)
        if self.placing() and key == "backspace" and not self.placed:
            self.bought = False
            return True
        aiming = bool(self.current.get("your_turn") and (self.current.get("legal_moves") or self.due()))
        if aiming and key in KEYS:
            self._pick(KEYS[key])
        elif aiming and self.aim == "laser" and key in ("up", "down"):
            self.cursor = (self.cursor[0], 0 if key == "up" else self.grid().height - 1)
        elif aiming and self.aim is not None and key == "enter":
            self._fire()
        elif self.due() and key == "backspace" and not self.salvo and self.ability is not None:
            self.ability = None
        else:
            return super().press(key)
        return True

    def _shop(self, key: str) -> bool:
        kinds = CATALOGUE.kinds
        kind = kinds[self.kind]
        if key in ("up", "down"):
            self.kind = min(max(self.kind + MOVES[key][1], 0), len(kinds) - 1)
        elif key in ("right", "plus"):
            self._buy(kind)
        elif key in ("left", "minus") and self.buying.get(kind.id):
            self.buying[kind.id] -= 1
        elif key == "enter":
            self._place_purchase()
        else:
            return False
        return True

    def letter(self, key: str) -> bool:
        if key == "a" and (self.shopping() or self.landing()):
            self.commit(RANDOM)
            self.redraw()
            return True
        return super().letter(key)

    def _place_purchase(self) -> None:
        """On to placing the ships bought, once the game's rules allow the purchase and (money
        left) after a first Enter has said how much stays unspent."""
        wrong = CATALOGUE.purchase_problem(self.purchase(), self.seen["money"])
        spent, left = CATALOGUE.cost(self.purchase()), self.money_left()
        if wrong is not None:
            self.problem = f"the game refuses this fleet: {say(wrong.refusal)}"
        elif left > 0 and self.unspent != spent:
            self.unspent = spent
            self.problem = f"{left} of {self.seen['money']} left unspent: Enter again places this fleet, or buy more"
        else:
            self.problem, self.bought, self.unspent = "", True, None

    def _buy(self, kind: Kind) -> None:
        """One more ship of ``kind``, unless the game's purchase rules forbid it (in their words)."""
        buying = self.buying | {kind.id: self.buying.get(kind.id, 0) + 1}
        try:
            wrong = CATALOGUE.purchase_problem(CATALOGUE.bought(buying), self.seen["money"])
        except RuleError as error:
            wrong = error
        if wrong is not None:
            self.problem = f"no {named(kind)} more: {say(wrong.refusal)}"
            return
        self.buying = buying

    def _land_key(self, key: str) -> bool:
        if key in MOVES:
            return super().press(key)
        if key == "backspace" and self.fighters:
            self.fighters.pop()
        elif key == "enter":
            self._land()
        else:
            return False
        return True

    def _land(self) -> None:
        """A fighter at the cursor (or one taken back there); the squadron is sent once complete,
        if the game's own check of a squadron passes."""
        placing = self.landing()
        assert placing is not None
        grid = self.grid()
        cell = self.cursor_cell()
        if cell in self.fighters:
            self.fighters.remove(cell)
            return
        free = set(placing["free"] or ())
        if cell not in free:
            self.problem = "a fighter lands on a shaded cell only: not opened, clear of your ships and their neighbours"
            return
        if any(other in self.fighters for other in grid.neighbours(cell)):
            self.problem = "fighters may not touch, not even diagonally"
            return
        self.fighters.append(cell)
        if len(self.fighters) < placing["fighters"]:
            return
        values = [0] * grid.size
        for number, fighter in enumerate(self.fighters, 1):
            values[fighter] = number
        barred = tuple(other for other in range(grid.size) if other not in free)
        wrong = squadron_problem(grid, (0,) * grid.size, (), Squadron(barred, ()), values)
        if wrong is not None:
            self.problem = f"the game refuses this squadron: {wrong}"
            self.fighters.pop()
            return
        (layer,) = placing["layers"]
        self.commit({layer: values})

    def _pick(self, name: str) -> None:
        """Aim ``name`` (or, aimed already, go back to shots) if it is ready."""
        if self.aim == name:
            self.aim = None
            return
        if name not in ready_abilities(self.seen):
            self.problem = f"your {name} is not ready: {self._status(name)}"
            return
        self.aim = name
        if name == "laser":
            self.cursor = (self.cursor[0], 0 if self.cursor[1] < self.grid().height // 2 else self.grid().height - 1)

    def _fire(self) -> None:
        """The ability aimed: fired (two seats, one of the legal moves) or put in the salvo."""
        name = self.aim
        assert name is not None
        cell = self.cursor_cell()
        ability: dict = {"reserve": True} if name == "reserve" else {name: cell}
        if not self.due():
            if ability not in (self.current.get("legal_moves") or ()):
                self.problem = f"you cannot use your {name} there now"
                return
            self.aim = None
            self.choose(ability)
            return
        foe = self.aimed_at()
        if foe not in self.due():
            self.problem = "no enemy of yours is due a shot there (Tab: the next enemy)"
            return
        if name == "nuke" and not any((sea, at) == (self.sea_shown(), cell) and foe in foes for sea, at, foes in self.seen.get("targets") or ()):
            self.problem = "a nuke needs a cell still a target"
            return
        if not (self.seen["salvo"] == "focus" and name == "reserve"):
            ability["at"] = foe
        self.ability, self.aim = ability, None
        owed = self.shots_due()  # the picks the ability replaces go
        self.salvo = [(other, spot) for other, spot in self.salvo if other in owed]

    # ------------------------------------------------------------------ drawing

    def draw(self, update: dict) -> Any:
        if not self.placing():
            self.bought = False
        if not self.landing():
            self.fighters = []
        if not update.get("your_turn"):
            self.aim = None
        return super().draw(update)

    def _draw_seas(self, text: Text) -> None:
        if self.shopping():
            self._draw_shop(text)
        else:
            super()._draw_seas(text)

    def _draw_shop(self, text: Text) -> None:
        """The catalogue with the copies bought, the kind chosen's shape, the money left."""
        text.append(f"  {'kind':<32}{'cells':>5}{'price':>6}{'max':>4}  {'ability':<12}{'bought':>6}\n", style="underline")
        for index, kind in enumerate(CATALOGUE.kinds):
            name = named(kind)
            ability = "—" if kind.ability is None else f"{kind.ability} ({kind.cycle})"
            line = f"{'▶' if index == self.kind else ' '} {name + (' *' if kind.capital else ''):<32}{kind.cells:>5}{kind.price:>6}" \
                   f"{kind.most:>4}  {ability:<12}{self.buying.get(kind.id, 0):>6}"
            text.append(line + "\n", style="reverse" if index == self.kind else None)
        kind = CATALOGUE.kinds[self.kind]
        shape = kind.shape.turns[0]
        rows = ["".join(MARKS["ship"] if (x, y) in shape else " " for x in range(max(p[0] for p in shape) + 1))
                for y in range(max(p[1] for p in shape) + 1)]
        turns = len(kind.shape.turns)
        notes = [f"{named(kind)}: {counted('turn', turns)} (r turns it when placing)", f"* capital ship: {self.seen['capitals']} at most"]
        for row in range(3):
            shown = rows[row] if row < len(rows) else ""
            text.append(f"  {shown:<8}{notes[row] if row < len(notes) else ''}".rstrip() + "\n")
        ships = len(self.purchase())
        text.append(f"Fleet: {counted('ship', ships)}, {CATALOGUE.cost(self.purchase())} of {self.seen['money']} spent, "
                    f"{self.money_left()} left\n", style="bold")

    def columns(self, width: int) -> str:
        return ticks(width)

    def highlight(self, seat: int, grid: Grid, cells: list[str]) -> set[int]:
        me = self.seen["seat"]
        if seat == me and self.landing():
            for fighter in self.fighters:
                cells[fighter] = MARKS["fighter"]
            return {grid.cell(*self.cursor)}
        if self.ability is not None and self.ability.get("at") == seat:
            name = next(key for key in KEYS.values() if key in self.ability)
            if name != "reserve":
                cells[self.ability[name]] = MARKS["aimed"]
        if seat != me and seat == self.aimed_at() and self.aim not in (None, "reserve") and self.current.get("your_turn"):
            assert self.aim is not None
            return set(reach(grid, self.aim, grid.cell(*self.cursor)))
        return super().highlight(seat, grid, cells)

    def shade(self, seat: int) -> set[int]:
        placing = self.landing()
        return set(placing["free"] or ()) - set(self.fighters) if placing and seat == self.seen["seat"] else set()

    def label(self, seat: int) -> str:
        """``your fleet 11/13``, ``s1 bob 12/12``: ships afloat of those it has (``?`` before it declared)."""
        entry = self.seen["fleets"][seat]
        if entry["out"] or self.placing():
            return super().label(seat)
        return f"{super().label(seat)} {self.count(seat)}"

    def count(self, seat: int) -> str:
        """``11/13``: a fleet's ships afloat of those it has (``?`` before it declared), or ``out``."""
        entry = self.seen["fleets"][seat]
        return "out" if entry["out"] else "?" if entry["ships"] is None else f"{entry['afloat']}/{entry['ships']}"

    def side(self) -> list[str]:
        """Beside the fields: the ships left to place, or your fleet and abilities, then the enemy's fleet."""
        view, me = self.seen, self.seen["seat"]
        if self.placing():
            left = self.ships()[len(self.placed):]
            return [f"To place: {counted('ship', len(left))}", *(f" {named(ship)} ({ship.length})" for ship in left[:10])]
        lines: list[str] = []
        if me is not None and view["fleets"][me]["layout"] is not None:
            entry = view["fleets"][me]
            ships = {value - 1 for _, value in entry["layout"]} | {ship for _, ship in entry["fighters"] or ()}
            afloat = sorted(ships - set(entry["sunk"]))
            lines += self._wrapped(f"Afloat: {kinds(afloat) or 'nothing'}")
            lines.append(f"Abilities (your round {own_round(view)}):")
            keys = {name: key for key, name in KEYS.items()}
            lines += [f" {keys[entry['ability']]} {entry['ability']:<8}{self._status(entry['ability'])}" for entry in entry["abilities"]]
        others = self.others()
        if others:
            foe = self.aimed_at()
            entry = view["fleets"][foe]
            count = "? ships" if entry["ships"] is None else counted("ship", entry["ships"])
            reserves = f", {counted('squadron', entry['squadrons'])}" if entry["squadrons"] else ""
            sunk = f"; sunk: {kinds(entry['sunk'])}" if entry["sunk"] else ""
            lines += self._wrapped(f"{self.who(foe)}: {count}{reserves}{sunk}")
        return lines

    def _wrapped(self, line: str) -> list[str]:
        return textwrap.wrap(line, SIDE, subsequent_indent=" ")

    def _status(self, name: str) -> str:
        """``ready`` (``aimed`` while aiming it), ``in 3 rounds``, or ``no Lancer`` afloat."""
        me = self.seen["seat"]
        entry = next(entry for entry in self.seen["fleets"][me]["abilities"] if entry["ability"] == name)
        if not entry["afloat"]:
            return f"no {named(CATALOGUE.with_ability(name))}"
        if name in ready_abilities(self.seen):
            return "aimed" if self.aim == name else "ready"
        wait = entry["next"] - own_round(self.seen)
        return f"in {wait} round{'s' if wait > 1 else ''}"

    def _title(self) -> str:
        view = self.seen
        parts = [f"Zeeslag space · money {view['money']}", f"water ring {'on' if view['water_ring'] else 'off'}"]
        if view["seats"] > 2:
            parts.append(f"salvo {view['salvo']} {view['shots']}")
        return " · ".join(parts)

    def _afloat(self) -> str:
        view = self.seen
        line = "afloat: " + ", ".join(f"{self.who(seat)} {self.count(seat)}" for seat in range(view["seats"]))
        return line if len(line) <= WIDTH else line[: WIDTH - 3] + "..."

    def _doing(self, update: dict) -> str:
        if self.shopping():
            return "↑↓ kind, → or + buy, ← or - sell, Enter place them, a Enter random"
        if self.placing():
            ghost = self.ghost()
            if self.ready is not None or ghost is None:
                return super()._doing(update)
            ship = self.ships()[len(self.placed)]
            turns = len(ship.shape.turns)
            return (f"place {named(ship)} ({ship.length}, turn {self.turn % turns + 1}/{turns}): "
                    "arrows, r turn, Enter, Bksp back, a Enter random")
        placing = self.landing()
        if placing:
            return f"land fighter {len(self.fighters) + 1} of {placing['fighters']} on a shaded cell: arrows, Enter, Bksp undo, a Enter random"
        if self.aim is not None and update.get("your_turn"):
            return self._aiming()
        doing = super()._doing(update)
        ready = [f"{key} {name}" for key, name in KEYS.items() if name in ready_abilities(self.seen)]
        if any(isinstance(move, dict) and "shoot" in move for move in update.get("legal_moves") or ()):
            action = self.seen["actions"] + 1
            doing = f"arrows aim, Enter fires at {self.grid().name(self.cursor_cell())} (action {action} of {self.seen['most_actions']})"
        keys = " · " + ", ".join(ready)
        if (update.get("legal_moves") or self.due()) and ready and self.ability is None and len(doing + keys) <= WIDTH:
            doing += keys
        return doing

    def _aiming(self) -> str:
        name, cell = self.aim, self.cursor_cell()
        grid = grid_of(self.seen["seas"][self.sea_shown()])
        key = next(key for key, value in KEYS.items() if value == name)
        then = "Enter adds it to the salvo" if self.due() else "Enter fires"
        if name == "laser":
            x, y = grid.xy(cell)
            what = f"laser {'down' if y == 0 else 'up'} column {x + 1} from {'A' if y == 0 else 'J'} (↑ A, ↓ J)"
        elif name == "reserve":
            what = "reserve: 3 fighters land on your field"
        else:
            what = {"scan": f"scan the 3×3 around {grid.name(cell)}", "nuke": f"nuke {grid.name(cell)}"}[str(name)] + ", arrows aim"
        return f"{what} · {then} · {key}: shots"

    def salvo_words(self) -> str:
        words = super().salvo_words()
        return words if self.ability is None else " + ".join(part for part in (words, move_line(self.seen, self.ability)) if part)
