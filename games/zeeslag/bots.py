"""Zeeslag bots: a random one and a hunt-and-target one (``GreedyBot``, found by
``games.bots.heuristic``), for every mode: duel turns, salvos (spread or focus), the shared sea
and the space battle. Both place a random legal fleet (the greedy one buys a chosen fleet in
the space battle), answer sink questions with the only legal (true) answer their own state
knows, and aim using only what their seat knows, so they can run on the seat's own node.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fairtable.games.contract import CommitHidden, Decide, Rng, Simultaneous
from fairtable.games.zeeslag import abilities, reserve
from fairtable.games.zeeslag.abilities import Ability, beam_path, scan_area
from fairtable.games.zeeslag.fleet import layers, layers_of, random_berths, random_placements
from fairtable.games.zeeslag.salvo import due
from fairtable.games.zeeslag.starships import ABILITIES, CATALOGUE, SPACE
from fairtable.games.zeeslag.state import ZeeslagState, fleet_of, fleet_size
from fairtable.games.zeeslag.targets import aimable, enemies, public_targets, sunk_ships, waters

if TYPE_CHECKING:
    from fairtable.games.zeeslag.game import Zeeslag

PURCHASE = ("lancer", "lancer", "dreadnought", "spirit", "frigate", "frigate", "cruiser", "cruiser", "cruiser",
            "scout", "scout", "scout", "scout", "spirit")
"""The greedy bot's shopping list in the space battle, bought in order while the money lasts:
lasers, the nuke and a scanner first, then as many cells as it can pay for."""


def random_fleet(state: ZeeslagState, seat: int, rng: Rng, bought: tuple[int, ...] | None = None) -> dict[str, tuple[int, ...]]:
    """The hidden data of a random legal fleet for ``seat``'s board: the "🎲" button. In the
    space battle the ships ``bought`` (slots), or a random purchase, placed at random."""
    layout = waters(state)
    if state.variant == "space":
        slots = CATALOGUE.random_purchase(state.options["money"], rng) if bought is None else bought
        return layers_of(layout.board, random_berths(layout.board, [SPACE.ships[slot] for slot in slots], rng))
    return layers(layout.board, random_placements(layout.board, fleet_of(state), rng, lambda cells: layout.place_problem(seat, cells)))


def shopping(money: int) -> tuple[int, ...]:
    """The slots :data:`PURCHASE` buys with ``money``: each kind on the list in turn, when affordable and allowed."""
    bought: list[int] = []
    for kind_id in PURCHASE:
        slots = [slot for slot in CATALOGUE.slots(kind_id) if slot not in bought]
        if slots and CATALOGUE.purchase_problem((*bought, slots[0]), money) is None:
            bought.append(slots[0])
    return tuple(sorted(bought))


def sample(cells: list[int], count: int, rng: Rng) -> list[int]:
    """``count`` of ``cells`` drawn without replacement by ``rng.randrange`` alone."""
    pool, chosen = list(cells), []
    for _ in range(min(count, len(pool))):
        chosen.append(pool.pop(rng.randrange(len(pool))))
    return chosen


def ability_move(ability: Ability) -> dict:
    """The move (or a salvo's ``ability`` entry, with ``at``) of ``ability``."""
    move: dict[str, Any] = {ability.name: True if ability.name == "reserve" else ability.cell}
    return move if ability.at is None else {**move, "at": ability.at}


def usable(state: ZeeslagState, seat: int) -> list[str]:
    """The abilities ``seat`` may use now (space battle), by its own knowledge."""
    if state.variant != "space":
        return []
    return [name for name in ABILITIES if abilities.usable(state, seat, name) and (name != "reserve" or reserve.can_land(state, seat))]


class RandomBot:
    """Shoots at uniformly random targets: a random legal shot, or a random legal salvo (for
    focus at a random enemy). In the space battle a duel turn is a uniformly random legal move
    (shot or ability), and a salvo uses a random usable ability (or none) at a random enemy.
    Its fleet is the game's ``random_hidden``."""

    def __init__(self, rng: Rng) -> None:
        self.rng = rng

    def commit(self, game: Zeeslag, state: ZeeslagState, seat: int, request: CommitHidden) -> dict[str, tuple[int, ...]]:
        """A random legal fleet: the game's ``random_hidden``."""
        return game.random_hidden(state, seat, request, self.rng)

    def tiers(self, state: ZeeslagState, seat: int, foe: int) -> list[list[int]]:
        """The cells worth a shot at ``foe``'s waters, best first; all aimable cells in all."""
        return [list(aimable(state, seat, foe))]

    def choose(self, game: Zeeslag, state: ZeeslagState, seat: int) -> Any:
        """A shot, salvo, ability or answer for ``seat``'s current step; steps with one sensible move
        (a sink answer, a beam, a muster) take the first legal one."""
        request = game.pending(state)
        if isinstance(request, Simultaneous):
            ability = self.ability(state, seat, list(enemies(state, seat)), salvo=True)
            move: dict[str, Any] = {"salvo": sorted([foe, cell] for foe, cells in self.salvo(state, seat, ability) for cell in cells)}
            return move if ability is None else {**move, "ability": ability_move(ability)}
        moves = game.legal_moves(state, seat)
        if not isinstance(request, Decide) or state.stage in ("answer", "beam", "muster") or moves == ({"pass": True},):
            return moves[0]
        (foe,) = enemies(state, seat)
        ability = self.ability(state, seat, [foe], salvo=False)
        if ability is not None:
            return ability_move(ability)
        best = next(tier for tier in self.tiers(state, seat, foe) if tier)
        return {"shoot": best[self.rng.randrange(len(best))]}

    def ability(self, state: ZeeslagState, seat: int, foes: list[int], salvo: bool) -> Ability | None:
        """The ability to use now instead of shots, if any: at random, as often as each legal
        move it gives (a duel), or one in two salvos."""
        names = usable(state, seat)
        foes = [foe for foe in foes if public_targets(state, foe)]
        if not names or not foes:
            return None
        grid = waters(state).board
        foe = foes[self.rng.randrange(len(foes))]
        choices = {"laser": [grid.cell(x, y) for y in (0, grid.height - 1) for x in range(grid.width)],
                   "scan": list(range(grid.size)), "nuke": list(public_targets(state, foe)), "reserve": [-1]}
        if salvo:
            if self.rng.randrange(2):
                return None
            name = names[self.rng.randrange(len(names))]
        else:
            weights = [len(aimable(state, seat, foe)), *(len(choices[name]) for name in names)]
            index = self.rng.randrange(sum(weights))
            pick = 0
            while index >= weights[pick]:
                index, pick = index - weights[pick], pick + 1
            if pick == 0:
                return None
            name = names[pick - 1]
        cells = choices[name]
        at = None if not salvo or (name == "reserve" and state.options["salvo"] == "focus") else foe
        return Ability(name, at, cells[self.rng.randrange(len(cells))])

    def salvo(self, state: ZeeslagState, seat: int, ability: Ability | None = None) -> list[tuple[int, list[int]]]:
        """The cells to fire at, per enemy (none at the enemy an ability replaces the shots at)."""
        if state.options["salvo"] == "focus":
            foes = [foe for foe in enemies(state, seat) if aimable(state, seat, foe)]
            if not foes or ability is not None:
                return []
            foe = self.focus(state, seat, foes)
            plan = due(state, seat, foe)
        else:
            plan = due(state, seat, None, None if ability is None else ability.at)
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
        """The enemy a focused salvo goes at: here one at random; :class:`GreedyBot` aims."""
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

    In the space battle ships are shaped, so leads are the ship cells a scan found and every
    side of an unsunk hit, and hunting keeps to a checkerboard. It buys :data:`PURCHASE`, nukes
    a lead when it can, and with no lead at an enemy it fires a laser down the column it
    knows least of, scans the 3×3 it knows least of, or lands its reserve, in that order.
    """

    def commit(self, game: Zeeslag, state: ZeeslagState, seat: int, request: CommitHidden) -> dict[str, tuple[int, ...]]:
        """In the space battle the fleet its money buys from :data:`PURCHASE`, placed at random; otherwise as :class:`RandomBot`."""
        if state.variant == "space" and not state.committed:
            return random_fleet(state, seat, self.rng, shopping(state.options["money"]))
        return super().commit(game, state, seat, request)

    def tiers(self, state: ZeeslagState, seat: int, foe: int) -> list[list[int]]:
        if state.variant == "space":
            return self._space_tiers(state, seat, foe)
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

    def _space_tiers(self, state: ZeeslagState, seat: int, foe: int) -> list[list[int]]:
        grid, sea = waters(state).board, state.seas[foe]
        targets = public_targets(state, foe)
        sunk = {cell for ship in sea.sunk for cell in ship.cells}
        live = [cell for cell in sea.hits if cell not in sunk]
        leads = sorted(cell for cell in sea.seen if cell not in sea.opened)
        leads += sorted({n for cell in live for n in grid.orthogonal(cell) if n not in sea.opened and n not in leads})
        hunt = [cell for cell in targets if sum(grid.xy(cell)) % 2 == 0 and cell not in leads]
        return [leads, hunt, [cell for cell in targets if cell not in leads and cell not in hunt]]

    def ability(self, state: ZeeslagState, seat: int, foes: list[int], salvo: bool) -> Ability | None:
        names = usable(state, seat)
        foes = [foe for foe in foes if public_targets(state, foe)]
        if not names or not foes:
            return None
        focus_reserve = salvo and state.options["salvo"] == "focus"
        leads = {foe: self._space_tiers(state, seat, foe)[0] for foe in foes}
        if "nuke" in names:
            for foe in foes:
                if leads[foe]:
                    return Ability("nuke", foe if salvo else None, leads[foe][0])
        quiet = [foe for foe in foes if not leads[foe]]
        if not quiet:
            return None
        grid = waters(state).board
        for name, aims, area in (("laser", _laser_starts(grid), beam_path), ("scan", range(grid.size), scan_area)):
            if name not in names:
                continue
            foe, cell = max(((foe, cell) for foe in quiet for cell in aims),
                            key=lambda pick: (_unknown(state, pick[0], area(grid, pick[1])), -pick[0], -pick[1]))
            if _unknown(state, foe, area(grid, cell)):
                return Ability(name, foe if salvo else None, cell)
        if "reserve" in names and _behind(state, seat, foes):
            return Ability("reserve", None if not salvo or focus_reserve else quiet[0], -1)
        return None

    def focus(self, state: ZeeslagState, seat: int, foes: list[int]) -> int:
        """The enemy with the most leads to follow, then the fewest ships afloat, then the lowest seat."""
        afloat = {foe: (fleet_size(state, foe) or 0) - len(sunk_ships(state, foe)) for foe in foes}
        return min(foes, key=lambda foe: (-len(self.tiers(state, seat, foe)[0]), afloat[foe], foe))


def _laser_starts(grid: Any) -> list[int]:
    return [grid.cell(x, y) for y in (0, grid.height - 1) for x in range(grid.width)]


def _unknown(state: ZeeslagState, foe: int, cells: tuple[int, ...]) -> int:
    """How many of ``cells`` of ``foe``'s field nobody knows the content of."""
    sea = state.seas[foe]
    return sum(cell not in sea.opened and cell not in sea.seen for cell in cells)


def _behind(state: ZeeslagState, seat: int, foes: list[int]) -> bool:
    """Whether ``seat`` has no more ships afloat than its strongest enemy: time for a reserve."""
    def afloat(who: int) -> int:
        return (fleet_size(state, who) or 0) - len(sunk_ships(state, who))
    return afloat(seat) <= max(afloat(foe) for foe in foes)


def _extensions(grid: Any, line: tuple[int, ...]) -> list[int]:
    """The cells just beyond both ends of a straight run of cells (those on the sea)."""
    (x0, y0), (x1, y1) = grid.xy(line[0]), grid.xy(line[-1])
    dx, dy = (1, 0) if y0 == y1 else (0, 1)
    ends = ((x0 - dx, y0 - dy), (x1 + dx, y1 + dy))
    return [grid.cell(x, y) for x, y in ends if grid.inside(x, y)]
