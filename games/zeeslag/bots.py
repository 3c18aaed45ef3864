"""Zeeslag bots: a random one and a hunt-and-target one (``GreedyBot``, found by
``games.bots.heuristic``). Both place a random legal fleet, answer sink questions truthfully
from their own fleet, and aim using only what their seat knows, so they can run on the
seat's own node.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fairtable.games import bots
from fairtable.games.contract import CommitHidden, Rng
from fairtable.games.zeeslag.duel import targets
from fairtable.games.zeeslag.fleet import Fleet, layers, random_placements
from fairtable.games.zeeslag.sea import SEA
from fairtable.games.zeeslag.state import Board, ZeeslagState, fleet_of

if TYPE_CHECKING:
    from fairtable.games.zeeslag.game import Zeeslag


def random_fleet(state: ZeeslagState, rng: Rng) -> dict[str, tuple[int, ...]]:
    """The hidden data of a random legal fleet: the "🎲" button."""
    return layers(SEA, random_placements(SEA, fleet_of(state), rng))


class RandomBot(bots.RandomBot):
    """Shoots at a uniformly random target; the only legal sink answer it knows is the true one.
    Its fleet is the game's ``random_hidden``: :func:`random_fleet`."""


class GreedyBot:
    """Hunt and target. Hunting, it shoots at random among cells that could hold the shortest
    ship still afloat (a checkerboard of its length) and are not known water; after a hit it
    shoots next to it, and along the line once two hits of a ship line up.

    Known water besides the openings: around a sunk ship, and diagonally next to a hit (ships
    are straight and never touch).
    """

    def __init__(self, rng: Rng) -> None:
        self.rng = rng

    def commit(self, game: Zeeslag, state: ZeeslagState, seat: int, request: CommitHidden) -> dict[str, tuple[int, ...]]:
        return random_fleet(state, self.rng)

    def choose(self, game: Zeeslag, state: ZeeslagState, seat: int) -> Any:
        moves = game.legal_moves(state, seat)
        if state.stage != "shoot":
            return moves[0]
        cells = self.aim(state.boards[1 - seat], fleet_of(state))
        return {"shoot": cells[self.rng.randrange(len(cells))]}

    def aim(self, board: Board, fleet: Fleet) -> list[int]:
        """The cells worth a shot now (never empty while a target is left)."""
        open_cells = targets(board)
        sunk = {cell for ship in board.sunk for cell in ship.cells}
        water = {n for cell in sunk for n in SEA.neighbours(cell)}
        live = sorted(set(board.hits) - sunk)
        water |= {n for cell in live for n in SEA.neighbours(cell)} - {n for cell in live for n in SEA.orthogonal(cell)}
        candidates = [cell for cell in open_cells if cell not in water] or list(open_cells)
        if live:
            ship = SEA.component(live, live[0])
            ends = _extensions(ship) if len(ship) > 1 else list(SEA.orthogonal(ship[0]))
            chosen = [cell for cell in ends if cell in candidates]
            if chosen:
                return chosen
        afloat = [ship.length for ship in fleet.ships if all(s.ship != ship.index for s in board.sunk)]
        step = min(afloat, default=1)
        chosen = [cell for cell in candidates if sum(SEA.xy(cell)) % step == 0]
        return chosen or candidates


def _extensions(line: tuple[int, ...]) -> list[int]:
    """The cells just beyond both ends of a straight run of cells (those on the sea)."""
    (x0, y0), (x1, y1) = SEA.xy(line[0]), SEA.xy(line[-1])
    dx, dy = (1, 0) if y0 == y1 else (0, 1)
    ends = ((x0 - dx, y0 - dy), (x1 + dx, y1 + dy))
    return [SEA.cell(x, y) for x, y in ends if SEA.inside(x, y)]
