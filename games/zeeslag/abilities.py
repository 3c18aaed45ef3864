"""Abilities of the space battle: what a move asks for, when a seat may use one, and the cells
each reaches. How they are answered is in ``effects`` (laser, scan, nuke) and ``reserve``.

An ability replaces a shot and ends the turn (duel), or replaces the shots at one enemy (a
salvo). It is written ``{"laser": cell}`` (a cell of row A or J of the enemy's field: the beam
starts there and runs down or up its column), ``{"scan": cell}`` (the 3×3 around it),
``{"nuke": cell}`` (a shot; if it hits, the 13-cell diamond around it is hit too) or
``{"reserve": true}`` (three fighters land on the seat's own field); in a salvo with
``"at": enemy`` added (for a reserve in a spread salvo: the enemy whose shots it replaces).

A seat may use an ability while a ship of its kind is afloat (Lancer: laser, Spirit: scan,
Dreadnought: nuke, space station: reserve) and its **cycle** allows: with cycle n, first in the
seat's n-th own round, then n own rounds after its last use. An **own round** is a duel turn
(begun with its first action) or a salvo. The cycle is public and checked by everyone; whether
the ship is afloat only its owner knows, so others refuse only what they can tell (every ship
of the kind sunk: ``zeeslag.ability``; a capital ship when the seat's other capital ship sank: a
second capital ship, ``zeeslag.purchase``) and the full opening judges the rest (``Use``). A
state that knows the fleet names what is wrong with the fleet first (``blame``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from fairtable.games.contract import RuleError
from fairtable.games.zeeslag.blame import blame
from fairtable.games.zeeslag.fleet import IDS
from fairtable.games.zeeslag.sea import Grid
from fairtable.games.zeeslag.starships import ABILITIES, CATALOGUE
from fairtable.games.zeeslag.state import Use, ZeeslagState, with_board
from fairtable.games.zeeslag.targets import sunk_ships, waters


@dataclass(frozen=True)
class Ability:
    """A parsed ability: its name, the enemy it is aimed at (or spares; None in a duel) and its cell (-1 for a reserve)."""

    name: str
    at: int | None
    cell: int


def parse(move: Any, salvo: bool) -> Ability:
    """The ability of a duel move or of a salvo's ``ability`` entry, or ``zeeslag.move``."""
    if isinstance(move, Mapping):
        names = [key for key in move if key in ABILITIES]
        aimed = "at" in move
        rest = set(move) - set(names) - {"at"}
        at = move.get("at")
        if len(names) == 1 and not rest and aimed <= salvo and (not aimed or type(at) is int):
            name, value = names[0], move[names[0]]
            if name == "reserve" and value is True:
                return Ability(name, at, -1)
            if name != "reserve" and type(value) is int and aimed == salvo:
                return Ability(name, at, value)
    form = '{"laser" | "scan" | "nuke": cell} or {"reserve": true}' + (', with "at": enemy' if salvo else "")
    raise RuleError("zeeslag.move", f"an ability is {form}, got {move!r}", "move")


def own_round(state: ZeeslagState, seat: int) -> int:
    """The own round ``seat`` is choosing for now: the duel turn under way or about to begin, or the salvo due."""
    rounds = state.boards[seat].rounds
    return rounds if state.turn == seat and state.actions else rounds + 1


def next_round(state: ZeeslagState, seat: int, name: str) -> int:
    """The first own round in which ``seat`` may use ``name`` again, by its cycle."""
    cycle = CATALOGUE.with_ability(name).cycle
    last = state.boards[seat].used.get(name)
    return cycle if last is None else last + cycle


def afloat(state: ZeeslagState, seat: int, name: str, knowing: bool = True) -> bool | None:
    """Whether a ship of ``name``'s kind of ``seat`` is afloat: known where the state knows the
    fleet (and ``knowing``); else False when everyone can tell, None when only the full opening will."""
    kind = CATALOGUE.with_ability(name)
    sunk = set(sunk_ships(state, seat))
    ids = state.boards[seat].own.get(IDS) if knowing else None
    if ids is not None:
        present = {value - 1 for value in ids if value}
        return any(slot in present and slot not in sunk for slot in CATALOGUE.slots(kind.id))
    dead = [CATALOGUE.kind_of(ship) for ship in sunk]
    if dead.count(kind) >= kind.most or (kind.capital and any(other is not None and other.capital for other in dead)):
        return False
    return None


def _missing(state: ZeeslagState, seat: int, name: str) -> tuple[str, str]:
    """The rule a use of ``name`` with no ship of its kind afloat breaks: a capital ship claimed
    after the seat's other capital ship sank is a second capital ship bought (``zeeslag.purchase``)
    as far as a state that does not know the fleet can tell; otherwise ``zeeslag.ability``."""
    kind = CATALOGUE.with_ability(name)
    other = next((other for other in map(CATALOGUE.kind_of, sunk_ships(state, seat)) if other is not None and other.capital
                  and other != kind), None)
    if other is not None and kind.capital and IDS not in state.boards[seat].own:
        return "zeeslag.purchase", (f"seat {seat} uses its {name}, so a {kind.name_en} of its fleet is afloat, but its {other.name_en} "
                                    "sank: a fleet holds at most one capital ship")
    return "zeeslag.ability", f"seat {seat} has no {kind.name_en} afloat for its {name}"


def ready(state: ZeeslagState, seat: int, name: str) -> bool:
    """Whether ``name``'s cycle lets ``seat`` use it in the own round it chooses for now."""
    return own_round(state, seat) >= next_round(state, seat, name)


def usable(state: ZeeslagState, seat: int, name: str) -> bool:
    """Whether ``seat`` may use ``name`` now, as far as this state knows."""
    return ready(state, seat, name) and afloat(state, seat, name) is not False


def check(state: ZeeslagState, seat: int, ability: Ability, target: int) -> None:
    """``zeeslag.ability`` unless ``seat`` may use ``ability`` now at ``target``'s field (its own for a reserve)."""
    name = ability.name
    if not ready(state, seat, name):
        raise RuleError("zeeslag.ability", f"seat {seat} may use its {name} from its own round {next_round(state, seat, name)} on, "
                                           f"not in round {own_round(state, seat)}", "zeeslag.ability:round",
                              ability=name, round=next_round(state, seat, name))
    if afloat(state, seat, name) is False:
        raise blame(state, seat, *_missing(state, seat, name), "zeeslag.ability:afloat", ability=name)
    grid = waters(state).seas[target]
    if name == "laser" and ability.cell not in aims(grid, name):
        raise RuleError("zeeslag.ability", f"a laser starts at a cell of row A or row J, not {ability.cell!r}", "zeeslag.ability:laser-row")
    if name == "scan" and ability.cell not in aims(grid, name):
        raise RuleError("zeeslag.ability", f"a scan is centred on a cell of the field, not {ability.cell!r}", "zeeslag.target:off")


def aims(grid: Grid, name: str) -> range | tuple[int, ...]:
    """The cells of an enemy field a laser or scan may be aimed at: a laser at a cell of row A
    (its beam runs down) or of the last row (up), a scan at any cell (a nuke is a shot)."""
    if name == "laser":
        return tuple(grid.cell(x, y) for y in (0, grid.height - 1) for x in range(grid.width))
    return range(grid.size)


def used(state: ZeeslagState, seat: int, name: str) -> ZeeslagState:
    """``seat`` uses ``name`` in its current own round: the cycle restarts, and the use is kept for the full opening."""
    board = state.boards[seat]
    board = dataclasses.replace(board, used={**board.used, name: own_round(state, seat)},
                                uses=board.uses + (Use(name, len(sunk_ships(state, seat))),))
    return with_board(state, seat, board)


# ------------------------------------------------------------------ the cells an ability reaches


def beam_path(grid: Grid, start: int) -> tuple[int, ...]:
    """A laser's column from its start: down from row A, up from row J."""
    x, y = grid.xy(start)
    rows = range(grid.height) if y == 0 else range(grid.height - 1, -1, -1)
    return tuple(grid.cell(x, row) for row in rows)


def scan_area(grid: Grid, cell: int) -> tuple[int, ...]:
    """The 3×3 around ``cell``, clipped at the edges, in reading order."""
    x, y = grid.xy(cell)
    return tuple(grid.cell(x + dx, y + dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if grid.inside(x + dx, y + dy))


def blast_area(grid: Grid, cell: int) -> tuple[int, ...]:
    """The nuke's diamond: every cell within 2 orthogonally and 1 diagonally (row distance plus
    column distance at most 2), clipped at the edges, centre included, in reading order."""
    x, y = grid.xy(cell)
    return tuple(grid.cell(x + dx, y + dy) for dy in range(-2, 3) for dx in range(-2, 3)
                 if abs(dx) + abs(dy) <= 2 and grid.inside(x + dx, y + dy))


def reach(grid: Grid, name: str, cell: int) -> tuple[int, ...]:
    """Every cell an ability aimed at ``cell`` may open or hit."""
    if name == "laser":
        return beam_path(grid, cell)
    if name == "scan":
        return scan_area(grid, cell)
    return blast_area(grid, cell)
