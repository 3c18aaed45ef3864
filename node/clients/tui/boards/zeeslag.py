"""Zeeslag: your fleet and the enemies' waters, a cursor to aim or to place ships, for every
layout (two seas side by side, one sea per seat for three or more, the shared sea).

Placing (the ``hidden`` decision): arrows move the ship, ``r`` rotates it, Enter places it,
Backspace takes the last one back, ``a`` and Enter have the node place the whole fleet at random; the
fleet is sent once its last ship is placed (in the shared sea the ship moves in your window,
your home block and one border column of each neighbour). Shooting in a duel: arrows aim,
Enter fires; typing ``b7`` does too. A salvo (three or more seats, all aiming at once): arrows
aim, Tab goes to the next enemy, Space marks or unmarks a shot, Enter marks one and, once the
salvo is complete, fires it, Backspace takes the last mark back; typed, ``bob:b7 carol:c3``
(the enemies by name or a unique beginning of it: the game's own reading of a salvo). The cells a
shot may go at, and the enemy it counts for, are the view's ``targets``. At 80 columns three seas fit side by side (Tab pages through
more); the shared sea is drawn one character a cell and, past seven seats, scrolls with the
cursor. The space battle has its own board on this one's pieces (``space``).
"""

from __future__ import annotations

from functools import partial
from typing import Any

from rich.console import RenderableType
from rich.text import Text
from textual import events

from fairtable.games import counted, named, player
from fairtable.games.zeeslag import BLOCK, FLEETS, ROW_LETTERS, Fleet, Grid, OwnSeas, Placed, SharedSea, Ship, Waters, fleet_problem, layers_of
from fairtable.node.clients.tui.boards import ANSWERED, RANDOM, Board, forced_for

GAP = "  "
WIDTH = 78
"""Columns the board may fill (the screen's 80 less a margin)."""
MOVES = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}
MARKS = {"ship": "■", "hit": "X", "sunk": "#", "miss": "o", "water": "~", "unknown": "·", "owner": "?", "aimed": "*",
         "fighter": "F", "seen": "+"}
LEGEND = "■ ship  X hit  ? owner unknown  # sunk  o miss  ~ water  · unknown  * aimed"
SHOWN = 3
"""Seas side by side at most: yours and two others' (more: Tab pages through them)."""


def marks(view: dict, index: int) -> list[str]:
    """One mark per cell of sea ``index`` as the view shows it (the ships and fighters the view
    knows, the space battle's scanned ship cells)."""
    sea = view["seas"][index]
    out = [MARKS["unknown"]] * (sea["width"] * sea["height"])
    for fleet in view["fleets"]:
        if fleet["sea"] == index:
            for cell, _ship in fleet["layout"] or ():
                out[cell] = MARKS["ship"]
            for cell, _ship in fleet.get("fighters") or ():  # the space battle's reserve fighters
                out[cell] = MARKS["fighter"]
    layers = (("seen", sea.get("seen", ())), ("water", sea["water"]), ("miss", sea["shots"]), ("hit", sea["hits"]), ("owner", sea["unknown"]))
    for kind, cells in layers:
        for cell in cells:
            out[cell] = MARKS[kind]
    for sunk in sea["sunk"]:
        for cell in sunk["cells"]:
            out[cell] = MARKS["sunk"]
    return out


def opened(sea: dict) -> set[int]:
    """Cells of a sea already shot at or shown as water: no target any more."""
    return set(sea["shots"]) | set(sea["hits"]) | set(sea["water"]) | {cell for sunk in sea["sunk"] for cell in sunk["cells"]}


def grid_of(sea: dict) -> Grid:
    return Grid(sea["width"], sea["height"])


class ZeeslagBoard(Board):
    game = "zeeslag"
    keys: tuple[tuple[str, str], ...] = (
        ("arrows", "move the ship to place, or aim"),
        ("r / Backspace", "turn the ship to place / take the last one (or mark) back"),
        ("Enter", "place the ship; fire (a salvo: mark a shot, fire once complete)"),
        ("a Enter", "let your node place the whole fleet at random"),
        ("Tab / Space", "a salvo: the next enemy's waters / mark or unmark a shot"),
        ("typing", "a cell such as b7, a salvo such as bob:b7 carol:c3"),
    )
    variants = frozenset({"duel", "shared"})
    shown = SHOWN
    """Seas side by side at most."""
    cell_width = 2
    """Characters a cell of an own sea takes."""
    legend = LEGEND

    def __init__(self) -> None:
        super().__init__()
        self.cursor = (0, 0)
        self.turn = 0
        """The stance of the ship to place (``Ship.stances``): ``r`` steps through them."""
        self.placed: list[Placed] = []
        self.target: int | None = None
        self.ready: Any = None
        """A fleet chosen before this seat's turn to commit came."""
        self.salvo: list[tuple[int, int]] = []
        """The salvo's shots marked so far: ``(enemy, sea cell)``."""
        self.salvo_round: int | None = None

    # ------------------------------------------------------------------ state from the update

    @property
    def seen(self) -> dict:
        return self.current["view"]

    def waters(self) -> Waters:
        view = self.seen
        return SharedSea(view["seats"]) if view["variant"] == "shared" else OwnSeas(view["seats"], grid_of(view["seas"][0]))

    def placing(self) -> bool:
        """Our fleet is still to be chosen (the seats commit in turn, but anyone may place at once)."""
        view = self.seen
        return view["phase"] == "placement" and view["seat"] is not None and view["fleets"][view["seat"]]["layout"] is None

    def due(self) -> dict[int, int]:
        """The salvo due from this seat now: shots per enemy (empty when none is due)."""
        if not self.current.get("your_turn") or self.current.get("legal_moves"):
            return {}
        return {foe: count for foe, count in self.seen.get("due") or () if count}

    def commit(self, fleet: Any) -> None:
        """Send the fleet when this seat's commitment is due, else keep it until it is."""
        self.ready = fleet
        if self.current.get("decision") == "hidden":
            self.ready = None
            self.choose(fleet)

    def others(self) -> list[int]:
        """The seats whose waters can be shown beside ours: the enemies due first, then the rest still at the table."""
        view = self.seen
        due = list(self.due())
        rest = [seat for seat in range(view["seats"]) if seat != view["seat"] and seat not in view["left"] and seat not in due]
        return due + rest

    def aimed_at(self) -> int:
        others = self.others()
        if self.target not in others and others:
            self.target = others[0]
        return self.target if self.target is not None else 0

    def mate(self, seat: int) -> bool:
        me = self.seen["seat"]
        return me is not None and seat != me and any(me in team and seat in team for team in self.seen["teams"])

    def fleet(self) -> Fleet:
        return FLEETS[self.seen["fleet"]]

    def ships(self) -> tuple[Ship, ...]:
        """The ships to place, in the order the player places them."""
        return self.fleet().ships

    def ship_name(self, ship: int) -> str:
        return named(self.fleet().ships[ship])

    def grid(self) -> Grid:
        """The grid the cursor moves on: the placing board, or the sea aimed at."""
        if self.placing():
            return self.waters().board
        sea = self.seen["seas"][self.sea_shown()]
        return grid_of(sea)

    def sea_shown(self) -> int:
        return 0 if isinstance(self.waters(), SharedSea) else self.aimed_at()

    def ghost(self) -> Placed | None:
        ships = self.ships()
        if len(self.placed) >= len(ships):
            return None
        stances = ships[len(self.placed)].stances(*self.cursor)
        return stances[self.turn % len(stances)]

    def blocked(self) -> set[int]:
        grid = self.waters().board
        cells: set[int] = set()
        for placement in self.placed:
            own = placement.cells(grid) or ()
            cells.update(own)
            cells.update(grid.ring(own))
        return cells

    def cursor_cell(self) -> int:
        return self.grid().cell(*self.cursor)

    def shot_at(self, cell: int) -> Any | None:
        target = self.aimed_at()
        for move in self.current.get("legal_moves") or ():
            if isinstance(move, dict) and move.get("shoot") == cell and move.get("target", target) == target:
                return move
        return None

    def meant(self, update: dict, text: str) -> Any | None:
        """A typed cell that is no target now (already shot): the shot at it, for the node to explain."""
        aimed = next((move for move in update.get("legal_moves") or () if isinstance(move, dict) and "shoot" in move
                      and move.get("target", self.aimed_at()) == self.aimed_at()), None)
        if aimed is None or self.placing():
            return None
        try:
            return {**aimed, "shoot": self.grid().parse(text)}
        except ValueError:
            return None

    # ------------------------------------------------------------------ keys

    def board_key(self, event: events.Key) -> bool:
        if not self.current or self.current.get("view") is None:
            return False
        before, self.problem = self.problem, ""
        if not self.press(event.key):
            self.problem = before
            return False
        self.redraw()
        return True

    def press(self, key: str) -> bool:
        """Act on ``key`` (saying in :attr:`problem` what it cannot do); False for a key this
        board does not take now, which then starts typing a move."""
        if key in MOVES:
            grid = self.grid()
            dx, dy = MOVES[key]
            x, y = self.cursor
            self.cursor = (min(max(x + dx, 0), grid.width - 1), min(max(y + dy, 0), grid.height - 1))
        elif key == "tab" and not self.placing():
            self._next_target()
        elif self.placing() and key == "r":
            self.turn = (self.turn + 1) % 4  # every ship has 1, 2 or 4 stances
        elif self.placing() and key == "backspace" and self.placed:
            self.placed.pop()
        elif self.due() and key == "space":
            self._mark(toggle=True)
        elif self.due() and key == "backspace" and self.salvo:
            self.salvo.pop()
        elif key == "enter":
            self._enter()
        else:
            return False
        return True

    def letter(self, key: str) -> bool:
        if key == "a" and self.placing():
            self.commit(RANDOM)
            self.redraw()
            return True
        return False

    def _next_target(self) -> None:
        """The next sea to aim at (own seas), or the next enemy's home block (the shared sea)."""
        others = self.others()
        if not others:
            return
        self.target = others[(others.index(self.aimed_at()) + 1) % len(others)]
        if isinstance(self.waters(), SharedSea):
            x, y = self.cursor
            self.cursor = (BLOCK * self.target + x % BLOCK, y)

    def _enter(self) -> None:
        if self.placing():
            self._place()
        elif self.due():
            if self.complete():
                self.choose(self.salvo_move())
            else:
                self._mark(toggle=False)
        else:
            move = self.shot_at(self.cursor_cell())
            self.problem = "" if move is not None else "you cannot shoot there now"
            if move is not None:
                self.choose(move)

    def _place(self) -> None:
        layout, seat = self.waters(), self.seen["seat"]
        ghost = self.ghost()
        cells = None if ghost is None else ghost.cells(layout.board)
        if ghost is None or cells is None:
            self.problem = "the ship does not fit there"
            return
        problem = layout.place_problem(seat, cells)
        if problem is not None:
            self.problem = f"that ship {problem}"
            return
        if set(cells) & self.blocked():
            self.problem = "ships may not touch or overlap"
            return
        self.problem = ""
        self.placed.append(ghost)
        if len(self.placed) == len(self.ships()):
            data = layers_of(layout.board, {ship.index: placed for ship, placed in zip(self.ships(), self.placed)})
            problem = self.fleet_problem(data)
            if problem is not None:
                self.problem = problem
                self.placed.pop()
                return
            self.commit({layer: list(values) for layer, values in data.items()})

    def fleet_problem(self, data: dict[str, tuple[int, ...]]) -> str | None:
        """What the game would refuse in the fleet placed (its own check)."""
        layout = self.waters()
        return fleet_problem(layout.board, self.fleet(), data, partial(layout.place_problem, self.seen["seat"]))

    # ------------------------------------------------------------------ the salvo

    def shots_due(self) -> dict[int, int]:
        """The shots the salvo must hold per enemy (what is due, less what an ability replaces)."""
        return self.due()

    def salvo_move(self) -> dict:
        return {"salvo": sorted([foe, cell] for foe, cell in self.salvo)}

    def enemy_at(self, cell: int) -> int | None:
        """The enemy a shot at ``cell`` of the sea shown goes at, as the view's ``targets`` give it:
        the first one still owed a shot, else the first one due; None where no shot may go."""
        due, counts = self.shots_due(), self.counts()
        foes = [foe for sea, at, enemies in self.seen.get("targets") or () if (sea, at) == (self.sea_shown(), cell) for foe in enemies
                if foe in due]
        owed = [foe for foe in foes if counts.get(foe, 0) < due[foe]]
        return (owed or foes or [None])[0]

    def complete(self) -> bool:
        due, counts = self.shots_due(), self.counts()
        if not due:  # an ability replaces the whole salvo
            return not counts
        if self.seen["salvo"] == "focus":
            return len(counts) == 1 and all(counts[foe] == due[foe] for foe in counts)
        return counts == due

    def counts(self) -> dict[int, int]:
        counts: dict[int, int] = {}
        for foe, _cell in self.salvo:
            counts[foe] = counts.get(foe, 0) + 1
        return counts

    def _mark(self, toggle: bool) -> None:
        cell = self.cursor_cell()
        foe = self.enemy_at(cell)
        shared = isinstance(self.waters(), SharedSea)
        marked = [pair for pair in self.salvo if pair[1] == cell and (shared or pair[0] == self.aimed_at())]
        self.problem = ""
        if marked:
            if toggle:
                self.salvo.remove(marked[0])
            return
        own = {sea_cell for sea_cell, _ in self.seen["fleets"][self.seen["seat"]]["layout"] or ()}
        if foe is None:  # no target there: say what the player sees there
            self.problem = "that cell is opened already" if cell in opened(self.seen["seas"][self.sea_shown()]) else \
                "your own ship lies there" if shared and cell in own else "no enemy of yours is due a shot there (Tab: the next enemy)"
        elif self.seen["salvo"] == "focus" and any(other != foe for other, _ in self.salvo):
            self.problem = "focus: every shot at one enemy (Backspace takes marks back)"
        elif self.counts().get(foe, 0) >= self.shots_due().get(foe, 0):
            self.problem = f"all {counted('shot', self.shots_due().get(foe, 0))} at {self.who(foe)} are marked"
        else:
            self.salvo.append((foe, cell))

    def round_mark(self) -> Any:
        """What changes from one salvo round to the next: the shots fired."""
        return sum(len(sea["shots"]) + len(sea["hits"]) for sea in self.seen["seas"])

    def new_salvo(self) -> None:
        self.salvo = []

    def who(self, seat: int) -> str:
        return player(seat, self.seen["seat"], self.current["seats"])

    def short(self, seat: int) -> str:
        """A player's name cut to fit a crowded line (three letters)."""
        return self.who(seat)[:3]

    # ------------------------------------------------------------------ drawing

    def draw(self, update: dict) -> RenderableType:
        view = update["view"]
        if not self.placing():
            self.placed, self.ready = [], None
        elif self.ready is not None and update.get("decision") == "hidden":
            self.call_later(self.commit, self.ready)
        shots = self.round_mark()
        if not self.due():
            self.salvo, self.salvo_round = [], None
        elif shots != self.salvo_round:  # a new round: a new salvo, aimed first at the first enemy due
            self.new_salvo()
            self.salvo_round, self.target = shots, next(iter(self.due()))
            if isinstance(self.waters(), SharedSea):
                self.cursor = (BLOCK * self.target + self.cursor[0] % BLOCK, self.cursor[1])
        grid = self.grid()
        self.cursor = (min(self.cursor[0], grid.width - 1), min(self.cursor[1], grid.height - 1))
        text = Text(self._title() + "\n", style="bold")
        if self.placing() and isinstance(self.waters(), SharedSea):
            self._draw_window(text)
        elif isinstance(self.waters(), SharedSea):
            self._draw_shared(text)
        else:
            self._draw_seas(text)
        text.append(self.legend + "\n", style="dim")
        text.append(self._afloat()[:WIDTH] + "\n")
        text.append(self._doing(update)[:WIDTH] + "\n", style="bold")
        answered = self._answered(update)
        for index, shot in list(enumerate(view["recent"]))[-2:]:
            mark = f" ({ANSWERED})" if index == answered else ""
            text.append((self._shot_line(shot) + mark)[:WIDTH] + "\n", style="italic")
        self.draw_problem(text)
        return text

    def _answered(self, update: dict) -> int | None:
        """Where in ``recent`` the shot lies whose answer was made for this seat (its forced move,
        still its latest, as the table's log says): the newest hit on its ships."""
        forced = forced_for(update)
        hits = [index for index, shot in enumerate(self.seen["recent"]) if shot["hit"] and shot.get("kind", "shot") not in ("scan", "reserve")
                and (shot["target"] in forced or any(owner in forced for owner, _ in shot["sunk"]))]
        return hits[-1] if hits else None

    def _title(self) -> str:
        view, fleet = self.seen, self.fleet()
        rest = [f"water ring {'on' if view['water_ring'] else 'off'}"] if view["variant"] != "shared" else []
        if view["seats"] > 2:
            rest.append(f"salvo {view['salvo']} {view['shots']}")
        teams = [["teams " + " / ".join("+".join(map(names, team)) for team in view["teams"])]
                 for names in (self.who, self.short)] + [["mates *"]] if view["teams"] else [[]]
        for extra in teams:
            title = " · ".join([f"Zeeslag {view['variant']}", f"fleet {named(fleet)}", *rest, *extra])
            if len(title) <= WIDTH:
                return title
        return title[:WIDTH]

    def label(self, seat: int) -> str:
        """``bob (mate)``, ``carol (out)``, ``your fleet``."""
        view = self.seen
        if seat == view["seat"]:
            return "your fleet"
        tags = [tag for tag, on in (("mate", self.mate(seat)), ("out", view["fleets"][seat]["out"])) if on]
        return self.who(seat) + (f" ({', '.join(tags)})" if tags else "")

    def _draw_seas(self, text: Text) -> None:
        view = self.seen
        me = view["seat"]
        others = self.others()
        if len(others) >= self.shown:  # a window of the others from the one aimed at (Tab moves it)
            first = others.index(self.aimed_at())
            others = [others[(first + step) % len(others)] for step in range(self.shown - 1)]
        shown = ([me] if me is not None else []) + others
        aiming = view["seats"] > 2 and not self.placing()
        titles = [self.label(seat) + (" ◀" if seat == self.aimed_at() and aiming else "") for seat in shown]
        grids = [self._grid(seat) for seat in shown]
        width = len(grids[0][0]) - 1
        side = self.side()
        text.append(GAP.join(f"{title[:width]:<{width}}" for title in titles), style="underline")
        for row in range(len(grids[0]) + 1):
            if row:
                for index, grid in enumerate(grids):
                    if index:
                        text.append(GAP)
                    text.append_text(grid[row - 1])
            text.append((GAP + side[row] if row < len(side) else "").rstrip() + "\n")

    def side(self) -> list[str]:
        """Lines beside the seas (from their titles' row down), where they leave room: none here."""
        return []

    def _grid(self, seat: int) -> list[Text]:
        """One seat's own sea, ``cell_width`` characters a cell, under its column numbers."""
        view = self.seen
        sea_index = view["fleets"][seat]["sea"]
        grid = grid_of(view["seas"][sea_index])
        cells = marks(view, sea_index)
        highlight = self.highlight(seat, grid, cells)
        shade = self.shade(seat)
        for foe, cell in self.salvo:
            if foe == seat:
                cells[cell] = MARKS["aimed"]
        rows = [Text("  " + self.columns(grid.width) + " ")]
        for y in range(grid.height):
            row = Text(f"{ROW_LETTERS[y]} ")
            for x in range(grid.width):
                cell = grid.cell(x, y)
                style = "reverse" if cell in highlight else "bold yellow" if cells[cell] == MARKS["aimed"] else \
                    "on grey23" if cell in shade else None
                row.append(f"{cells[cell]:>{self.cell_width}}", style=style)
            row.append(" ")
            rows.append(row)
        return rows

    def columns(self, width: int) -> str:
        """The column numbers over a sea: 1..9, 0 for 10."""
        return "".join(f"{(x + 1) % 10:>2}" for x in range(width))

    def highlight(self, seat: int, grid: Grid, cells: list[str]) -> set[int]:
        """The cells of ``seat``'s sea drawn reversed (the ship being placed, the cell aimed at),
        marking the ships placed so far in ``cells``."""
        if seat == self.seen["seat"] and self.placing():
            for placement in self.placed:
                for cell in placement.cells(grid) or ():
                    cells[cell] = MARKS["ship"]
            ghost = self.ghost()
            return set((ghost.cells(grid) or ()) if ghost is not None else ())
        if seat != self.seen["seat"] and seat == self.aimed_at() and (self.current.get("legal_moves") or self.due()):
            return {grid.cell(*self.cursor)}
        return set()

    def shade(self, seat: int) -> set[int]:
        """Cells of ``seat``'s sea drawn shaded: none here."""
        return set()

    def _draw_shared(self, text: Text) -> None:
        """The shared sea: a label over each block, two characters a cell while it fits, else
        one; past seven seats a window of blocks that follows the cursor."""
        view = self.seen
        seats, sea = view["seats"], view["seas"][0]
        grid = grid_of(sea)
        width = 2 if 2 * grid.width + 2 <= WIDTH else 1
        visible = min(seats, (WIDTH - 2) // (BLOCK * width))
        cursor_block = self.cursor[0] // BLOCK
        first = min(max(cursor_block - visible // 2, 0), seats - visible)
        blocks = range(first, first + visible)
        cells = marks(view, 0)
        for _foe, cell in self.salvo:
            cells[cell] = MARKS["aimed"]
        aiming = bool(self.due())
        cursor = grid.cell(*self.cursor)
        more = ("◀ " if first > 0 else "  ", " ▶" if first + visible < seats else "")
        text.append(more[0] + "".join(f"{self._block_label(b)[:BLOCK * width - 1]:<{BLOCK * width}}" for b in blocks).rstrip() + more[1] + "\n",
                    style="underline")
        text.append("  " + "".join(f"{(x + 1) % 10:>{width}}" for b in blocks for x in range(BLOCK * b, BLOCK * (b + 1))) + "\n")
        for y in range(grid.height):
            row = Text(f"{ROW_LETTERS[y]} ")
            for b in blocks:
                for x in range(BLOCK * b, BLOCK * (b + 1)):
                    cell = grid.cell(x, y)
                    style = "reverse" if aiming and cell == cursor else "bold yellow" if cells[cell] == MARKS["aimed"] else \
                        "on grey23" if b == view["seat"] else None
                    row.append(f"{cells[cell]:>{width}}", style=style)
            text.append_text(row)
            text.append("\n")
        if visible < seats:
            text.append(f"columns {BLOCK * first + 1}-{BLOCK * (first + visible)} of {grid.width}: the view follows the cursor (Tab: next enemy)\n",
                        style="dim")

    def _block_label(self, block: int) -> str:
        view = self.seen
        if block == view["seat"]:
            return "you"
        return self.who(block) + ("*" if self.mate(block) else "") + (" out" if view["fleets"][block]["out"] else "")

    def _draw_window(self, text: Text) -> None:
        """Placing in the shared sea: this seat's window (its home block and a border column of
        each neighbour) labelled with the shared sea's column numbers, three characters a cell."""
        layout = self.waters()
        assert isinstance(layout, SharedSea)
        seat = self.seen["seat"]
        board = layout.board
        columns = [BLOCK * seat + x for x in range(board.width)]  # sea column + 1 of board column x
        ghost = self.ghost()
        highlight = set((ghost.cells(board) or ()) if ghost is not None else ())
        placed = {cell for placement in self.placed for cell in placement.cells(board) or ()}
        notes = [f"Your window: sea columns {max(columns[0], 1)}-{min(columns[-1], layout.sea.width)}",
                 f"Home block {columns[1]}-{columns[-2]} (shaded): each ship",
                 "needs a cell there; a flat ship may",
                 "stick one cell out into a neighbour's",
                 "block (x: off the sea)."]
        header = "  " + "".join(f"{'x' if not 1 <= column <= layout.sea.width else column:>3}" for column in columns)
        text.append(header + "\n")
        for y in range(board.height):
            row = Text(f"{ROW_LETTERS[y]} ")
            for x in range(board.width):
                cell = board.cell(x, y)
                off = not 1 <= columns[x] <= layout.sea.width
                mark = " " if off else MARKS["ship"] if cell in placed else MARKS["unknown"]
                style = "reverse" if cell in highlight else "on grey23" if layout.home(cell) else None
                row.append(f"{mark:>3}", style=style)
            row.append("  " + (notes[y] if y < len(notes) else ""))
            text.append_text(row)
            text.append("\n")

    def _afloat(self) -> str:
        view, fleet = self.seen, self.fleet()
        if view["seats"] == 2:
            me = view["seat"] if view["seat"] is not None else 0
            parts = []
            for seat in (me, 1 - me):
                sunk = set(view["fleets"][seat]["sunk"])
                afloat = " ".join(str(ship.length) for ship in fleet.ships if ship.index not in sunk)
                parts.append(f"{self.who(seat)}: {len(fleet.ships) - len(sunk)} afloat ({afloat})")
            return " │ ".join(parts)
        for names in (self.who, self.short):
            line = "afloat: " + ", ".join(f"{names(seat)}{'*' if self.mate(seat) else ''} {'out' if entry['out'] else entry['afloat']}"
                                          for seat, entry in enumerate(view["fleets"])) + (" (* mate)" if view["teams"] else "")
            if len(line) <= WIDTH:
                break
        return line

    def _doing(self, update: dict) -> str:
        """What to do now, in words (or what is going on)."""
        if self.placing():
            ghost = self.ghost()
            ship = self.ships()[len(self.placed)] if ghost is not None else None
            if self.ready is not None:
                return "fleet chosen: sent when your turn to commit comes"
            what = f"place {named(ship)} ({ship.length})" if ship else "fleet placed"
            return f"{what}: arrows + Enter, r rotate, Backspace undo, a Enter random"
        if self.due():
            due = self.shots_due()
            marked = self.salvo_words() or "none yet"
            if not due:
                need = "no shots"
            elif self.seen["salvo"] == "focus":
                need = f"{max(due.values())} at one of {len(due)} enemies"
            elif len(set(due.values())) == 1 and len(due) > 2:
                need = f"{next(iter(due.values()))} at each of {len(due)} enemies"
            else:
                need = ", ".join(f"{count} at {self.who(foe)}" for foe, count in due.items())
            then = "Enter fires" if self.complete() else "Space/Enter mark, Tab next enemy"
            return f"salvo ({need}): {marked} · {then}"
        if update.get("legal_moves"):
            return f"aim with the arrows, Enter fires at {self.grid().name(self.cursor_cell())} (or type a cell such as b7)"
        lines = (update.get("text") or "").splitlines()
        return lines[-1] if lines else ""

    def salvo_words(self) -> str:
        """The salvo marked so far as it is typed: ``bob:B7 carol:C3``."""
        return " ".join(f"{''.join(self.who(foe).split())}:{self.grid().name(cell)}" for foe, cell in sorted(self.salvo))

    def _shot_line(self, shot: dict) -> str:
        """``bob shot B7: hit, Cruiser sunk``; the space battle's abilities by their own verbs."""
        view = self.seen
        hit, kind, who = shot["hit"], shot.get("kind", "shot"), self.who(shot["seat"])
        outcome = "being opened" if hit is None else "miss" if not hit else counted("ships_hit", hit)
        for owner, ship in shot["sunk"]:
            whose = "" if view["seats"] == 2 else f" of {self.who(owner)}"
            outcome += f", {self.ship_name(ship)}{whose} sunk"
        at = f" at {self.who(shot['target'])}" if view["seats"] > 2 and view["variant"] != "shared" else ""
        timer = " (timer)" if shot["timer"] else ""
        where = grid_of(view["seas"][0]).name(shot["cell"]) if shot["cell"] >= 0 else ""
        if kind == "reserve":
            return f"{who} landed a reserve squadron"
        if kind == "scan":
            return f"{who} scanned {where}{at}: " + ("being opened" if hit is None else f"{hit} ship cells found")
        verb = {"shot": "shot", "nuke": "nuked", "blast": "blasted", "laser": "lasered"}[kind]
        return f"{who} {verb} {where}{at}: {outcome}{timer}"
