"""zeeslag: battleship with committed hidden fleets (the Dutch rule text, 002).

Variant ``duel``, the fleet duel for two: each seat has its own 10×10 sea (columns 1–10,
rows A–J, cell ``y * 10 + x``), shots alternate and a hit shoots again. Options: ``fleet``
(``classic`` 5,4,3,3,2, default, or ``ten`` 4,3,3,2,2,2,1,1,1,1; ``fleets.json``),
``water_ring`` (default true), ``turn_seconds`` (0..3600, default 60, 0 = no timer) and
``max_timeouts`` (1..100, default 3). The shared sea, teams, salvos for 3+ players and the
space battle are later variants on the same modules: ``sea`` (geometry), ``fleet`` (data,
placement, legality), ``sinks`` (judging sink answers), ``game`` (all but the turns) and
one module per variant's turns (``duel``).

Hidden data: every answer the target gives is an opening of committed data, never a claim.

- ``CommitHidden(seats=(0, 1), width=10, height=10, layers=("ships", "ids"))`` first: layer
  ``ships`` is 1 on a ship cell, else 0; layer ``ids`` is 0 for water, else the ship's index
  in the fleet + 1. Two layers, so a shot shows hit or miss without telling which ship.
  A node commits only a legal fleet (``Game.check_hidden``).
- A shot at ``c``: ``OpenHidden(target, "ships", (c,))`` proves hit or miss.
- After a hit the target answers ``{"sunk": bool}`` (``Decide(target, timed=False)``: only
  the target knows). ``true`` is proven at once by ``OpenHidden(target, "ids", cells)``,
  ``cells`` the hits joined side by side to ``c`` (since ships never touch, exactly the ship):
  one ship, not sunk before, all its length, straight, else ``zeeslag.false_sink``. With the
  water ring, ``OpenHidden(target, "ships", ring cells not opened yet)`` follows; a 1 there is
  ``zeeslag.ring``.
- ``false`` needs the whole ``ids`` layer to judge: the target's own node and the verifier
  (who know it) judge it at once, everyone else at the full opening (``zeeslag.missing_sink``).
- When the outcome is decided, by the last sink, timeouts, a forfeit or whatever else, every
  seat opens everything: ``OpenHidden(seat, "ships", all)``, then ``(seat, "ids", all)``, seat 0
  first. After a seat's ``ids`` the fleet's legality (``zeeslag.fleet``) and every sink answer
  (``zeeslag.missing_sink`` / ``zeeslag.false_sink``) are checked; the error names the seat,
  and the opening is that seat's own message, so the session can attribute it. A seat that
  forfeits during the opening withholds the rest of its fleet, and loses if it had won.

Rulings this engine relies on (the text wins where it speaks; ``spec/games.md`` has all):

- Ships of one seat never touch, not even diagonally; ships are straight, horizontal or
  vertical. Who shoots first: a public random value, drawn after both fleets are committed.
- Water ring: after a sink the 8-neighbourhood of the ship is opened as water and is no
  target. Without it those cells stay targets (a legal fleet has no ship there, but nothing
  proves it before the full opening).
- A shot goes at a cell not opened yet. All of a seat's ships sunk: the shooter wins. Were
  every cell opened without that, a sink answer was false: the shooter wins ("no targets")
  and the full opening names the lie.
- Timer: on timeout the late seat shoots at the first target in reading order (A1, A2, …,
  A10, B1, …). ``max_timeouts`` consecutive timeouts lose at once, before that shot is
  answered. Sink answers are untimed: a node gives them without its player.
"""

from fairtable.games.registry import register
from fairtable.games.zeeslag.game import Zeeslag

GAME = register(Zeeslag())
