"""zeeslag: battleship with committed hidden fleets (the Dutch rule text, 002).

Variants: ``duel``, the fleet duel for 2–8 seats, each with its own 10×10 sea (columns 1–10,
rows A–J); ``shared``, the shared sea for 3–8 seats, one sea of a 10-column home block per
seat side by side; ``space``, the space battle for 2–6 seats, each with its own 20×10 star
field, fleets of shaped ships bought from ``money`` (``starships.json``) and four abilities
(laser, scanner, nuke, reserve) answered by openings like shots. Two seats living alternate shots, a hit shooting again; three or more fire
salvos at once and in secret (option ``salvo``: ``spread``, ``shots`` at each living enemy, or
``focus``, all at one); option ``teams`` makes teams of 4+ seats. Options: ``fleet``
(``classic`` or ``ten``, ``fleets.json``), ``water_ring`` (own seas, default true),
``salvo``, ``shots`` (1..5), ``teams`` (0, or 2..4 equal teams), ``turn_seconds``,
``max_timeouts`` and ``idle_seconds``. ``spec/games.md`` has the rules as implemented and
every ruling relied on.

Hidden data: every answer is an opening of committed data, or a masked sum of it, never a
claim. Each seat commits two layers of its board (``ships``: 1 on a ship cell; ``ids``: the
ship's index + 1), so a shot opens hit or miss without telling which ship. A shot cell is
opened by its one possible owner, or, where the fleets of two seats may reach (a shared
border cell), as the masked sum of both (``OpenSums``): everyone learns how many ships lie
there, nobody but those two whose, until the ship sinks. A sink is proven by opening the
ship's ``ids``; "nothing else sank" and everything only the fleet can tell (legality, shots at
one's own ship, short salvos) are judged at the full opening, where every seat opens its whole
board and any lie is pinned on its seat.

The modules: ``sea`` (grids), ``waters`` (whose ships may lie where), ``fleet`` (fleets,
placement, legality), ``state``, ``targets`` (living seats, enemies, targets), ``volley``
(answering shots), ``duel`` and ``salvo`` (the turn rules), ``sinks`` (answers), ``outcome``
(the end, leaving), ``blame`` (a fleet that broke the rules is named before the answer it
spoiled), ``game`` (the contract), ``view``, ``bots``, ``render``; for the space
battle ``starships`` (the catalogue), ``shape``, ``purchase``, ``abilities``, ``effects``
(answering abilities), ``openings`` (a cell opened in every field layer) and ``reserve``.
"""

from fairtable.games.registry import register
from fairtable.games.zeeslag.abilities import reach
from fairtable.games.zeeslag.fleet import FLEETS, Fleet, Placed, Ship, fleet_problem, layers_of
from fairtable.games.zeeslag.game import Zeeslag
from fairtable.games.zeeslag.render import kinds, move_line, own_round, ready_abilities, ticks
from fairtable.games.zeeslag.reserve import squadron_problem
from fairtable.games.zeeslag.sea import ROW_LETTERS, Grid
from fairtable.games.zeeslag.starships import CATALOGUE, SPACE, Kind
from fairtable.games.zeeslag.state import Squadron
from fairtable.games.zeeslag.waters import BLOCK, OwnSeas, SharedSea, Waters

GAME = register(Zeeslag())

__all__ = [
    "BLOCK",
    "CATALOGUE",
    "FLEETS",
    "GAME",
    "ROW_LETTERS",
    "SPACE",
    "Fleet",
    "Grid",
    "Kind",
    "OwnSeas",
    "Placed",
    "SharedSea",
    "Ship",
    "Squadron",
    "Waters",
    "fleet_problem",
    "kinds",
    "layers_of",
    "move_line",
    "own_round",
    "reach",
    "ready_abilities",
    "squadron_problem",
    "ticks",
]
"""What the game's own terminal board draws with: its catalogue, renderer and shape checks."""
