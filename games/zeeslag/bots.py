"""Zeeslag bots: a random one and a hunt-and-target one (``GreedyBot``, found by
``games.bots.heuristic``), for every mode: duel turns, salvos (spread or focus) and the
shared sea. Both place a random legal fleet, answer sink questions with the only legal
(true) answer their own state knows, and aim using only what their seat knows, so they can
run on the seat's own node.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fairtable.games.contract import CommitHidden, Decide, Rng, Simultaneous
from fairtable.games.zeeslag.fleet import layers, random_placements
from fairtable.games.zeeslag.salvo import due
from fairtable.games.zeeslag.state import ZeeslagState, fleet_of
from fairtable.games.zeeslag.targets import aimable, enemies, sunk_ships, waters

if TYPE_CHECKING:
    from fairtable.games.zeeslag.game import Zeeslag


def random_fleet(state: ZeeslagState, seat: int, rng: Rng) -> dict[str, tuple[int, ...]]:
    """The hidden data of a random legal fleet for ``seat``'s board: the "🎲" button."""
    layout = waters(state)
    return layers(layout.board, random_placements(layout.board, fleet_of(state), rng, lambda cells: layout.place_problem(seat, cells)))


def sample(cells: list[int], count: int, rng: Rng) -> list[int]:
    """``count`` of ``cells`` drawn without replacement by ``rng.randrange`` alone."""
    pool, chosen = list(cells), []
    for _ in range(min(count, len(pool))):
        chosen.append(pool.pop(rng.randrange(len(pool))))
    return chosen


class RandomBot:
    """Shoots at uniformly random targets: a random legal shot, or a random legal salvo (for
    focus at a random enemy). Its fleet is the game's ``random_hidden``."""

    def __init__(self, rng: Rng) -> None:
        self.rng = rng

    def commit(self, game: Zeeslag, state: ZeeslagState, seat: int, request: CommitHidden) -> dict[str, tuple[int, ...]]:
        return random_fleet(state, seat, self.rng)

    def tiers(self, state: ZeeslagState, seat: int, foe: int) -> list[list[int]]:
        """The cells worth a shot at ``foe``'s waters, best first; all aimable cells in all."""
        return [list(aimable(state, seat, foe))]

    def choose(self, game: Zeeslag, state: ZeeslagState, seat: int) -> Any:
        request = game.pending(state)
        if isinstance(request, Simultaneous):
            return {"salvo": sorted([foe, cell] for foe, cells in self.salvo(state, seat) for cell in cells)}
        moves = game.legal_moves(state, seat)
        if not isinstance(request, Decide) or state.stage == "answer" or moves == ({"pass": True},):
            return moves[0]
        (foe,) = enemies(state, seat)
        best = next(tier for tier in self.tiers(state, seat, foe) if tier)
        return {"shoot": best[self.rng.randrange(len(best))]}

    def salvo(self, state: ZeeslagState, seat: int) -> list[tuple[int, list[int]]]:
        """The cells to fire at, per enemy."""
        if state.options["salvo"] == "focus":
            foes = [foe for foe in enemies(state, seat) if aimable(state, seat, foe)]
            if not foes:
                return []
            foe = self.focus(state, seat, foes)
            plan = due(state, seat, foe)
        else:
            plan = due(state, seat, None)
        layout = waters(state)
        taken: dict[int, set[int]] = {}
        salvo = []
        for foe, count in plan:
            fired = taken.setdefault(layout.sea_of(foe), set())
            cells = self.pick(state, seat, foe, count, fired)
            fired.update(cells)
            salvo.append((foe, cells))
        return salvo

    def focus(self, state: ZeeslagState, seat: int, foes: list[int]) -> int:
        return foes[self.rng.randrange(len(foes))]

    def pick(self, state: ZeeslagState, seat: int, foe: int, count: int, taken: set[int]) -> list[int]:
        """``count`` cells (fewer if fewer are left) of ``foe``'s waters, best tiers first, none in ``taken``."""
        chosen: list[int] = []
        for tier in self.tiers(state, seat, foe):
            chosen += sample([cell for cell in tier if cell not in chosen and cell not in taken], count - len(chosen), self.rng)
        return chosen


class GreedyBot(RandomBot):
    """Hunt and target, per enemy's waters. Cells next to a hit not yet sunk come first, along
    the line once two hits of it line up; hunting, cells on a checkerboard of the shortest
    ship still afloat; never known water. Focused salvos go at the enemy with the most
    such leads, else the one with fewest ships afloat.

    Known water besides the openings, on cells only the enemy's own ships can reach: around
    its sunk ships, and diagonally next to its unsunk hits (a seat's ships are straight and
    never touch; in the shared sea ships of different seats may, so border cells stay open).
    """

    def tiers(self, state: ZeeslagState, seat: int, foe: int) -> list[list[int]]:
        layout = waters(state)
        index = layout.sea_of(foe)
        grid, sea = layout.seas[index], state.seas[index]
        reach = set(layout.reach(foe))
        mine = [cell for cell in aimable(state, seat, foe)]

        def alone(cell: int) -> bool:
            return layout.holders(index, cell) == (foe,)

        sunk = {cell for ship in sea.sunk if ship.seat == foe for cell in ship.cells}
        sunk_anywhere = {cell for ship in sea.sunk for cell in ship.cells}
        live = sorted(cell for cell in sea.hits if cell in reach and cell not in sunk_anywhere)
        water = {n for cell in sunk for n in grid.neighbours(cell) if alone(n)}
        water |= {n for cell in live if alone(cell) for n in grid.neighbours(cell) if alone(n)} - {
            n for cell in live for n in grid.orthogonal(cell)}
        open_cells = [cell for cell in mine if cell not in water]
        leads: list[int] = []
        for cell in live:
            line = grid.component(live, cell)
            ends = _extensions(grid, line) if len(line) > 1 and grid.is_line(line) else list(grid.orthogonal(cell))
            leads += [end for end in ends if end in open_cells and end not in leads]
        afloat = [ship.length for ship in fleet_of(state).ships if ship.index not in sunk_ships(state, foe)]
        step = min(afloat, default=1)
        hunt = [cell for cell in open_cells if sum(grid.xy(cell)) % step == 0 and cell not in leads]
        rest = [cell for cell in open_cells if cell not in leads and cell not in hunt]
        return [leads, hunt, rest, [cell for cell in mine if cell in water]]

    def focus(self, state: ZeeslagState, seat: int, foes: list[int]) -> int:
        afloat = {foe: len(fleet_of(state).ships) - len(sunk_ships(state, foe)) for foe in foes}
        return min(foes, key=lambda foe: (-len(self.tiers(state, seat, foe)[0]), afloat[foe], foe))


def _extensions(grid: Any, line: tuple[int, ...]) -> list[int]:
    """The cells just beyond both ends of a straight run of cells (those on the sea)."""
    (x0, y0), (x1, y1) = grid.xy(line[0]), grid.xy(line[-1])
    dx, dy = (1, 0) if y0 == y1 else (0, 1)
    ends = ((x0 - dx, y0 - dy), (x1 + dx, y1 + dy))
    return [grid.cell(x, y) for x, y in ends if grid.inside(x, y)]
