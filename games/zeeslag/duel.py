"""The duel rules, whenever exactly two seats are living: alternate shots, a hit shoots again.

Who shoots first is a public random value over the two (``PublicRandom(2)``), drawn after
the fleets are committed, or when a game of more seats comes down to two. A turn of shooter
``s`` at its enemy ``e``:

- ``Decide(s, timed=turn_seconds > 0)``: ``{"shoot": cell}``, a cell of ``e``'s waters not
  opened yet (in the shared sea not one of ``s``'s own ship cells); on timeout the timer's
  ``{"shoot": cell, "timeout": true}`` at the first such cell in reading order (the timer does
  not know ``s``'s fleet: ``s`` may then hit its own ship). In the shared sea a seat whose
  every target holds its own ship (fleets may share a border cell) passes: ``{"pass": true}``.
- The volley of that one shot (``volley``). A hit: ``s`` shoots again; else ``e`` shoots.

``max_timeouts`` consecutive timeouts lose at once, before that shot is fired. Every cell of
``e``'s waters opened with ``e`` still afloat means a sink answer was false: ``s`` wins
(``no targets``) and the full opening names the lie. Two passes in a row end in a draw.

The space battle: a turn is at most :data:`ACTIONS` actions (a hit shoots again only while
fewer were taken), and an ability (``abilities``) is an action that ends the turn. A turn is
one of the shooter's own rounds, begun with its first action.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from fairtable.games.contract import Decide, Move, PublicRandom, Request, RuleError, Timeout
from fairtable.games.rules import timer_on
from fairtable.games.zeeslag import abilities, outcome, reserve, volley
from fairtable.games.zeeslag.abilities import Ability
from fairtable.games.zeeslag.starships import ABILITIES
from fairtable.games.zeeslag.state import Excuse, Shot, Task, ZeeslagState, turn_of, with_board
from fairtable.games.zeeslag.targets import aimable, enemies, living, not_a_target, own_ship_cells, public_targets, team_of, waters

ACTIONS = 3
"""The most actions of a space battle's duel turn."""


def parse_move(move: Any) -> tuple[str, int | None]:
    """``(kind, cell)`` of a duel move (without the timer's marker), or :class:`RuleError` ``zeeslag.move``."""
    if isinstance(move, Mapping):
        if set(move) == {"shoot"} and type(move["shoot"]) is int:
            return "shoot", move["shoot"]
        if move == {"pass": True}:
            return "pass", None
    raise RuleError("zeeslag.move", f"a shot is {{'shoot': cell}}, {{'shoot': cell, 'timeout': true}} or {{'pass': true}}, got {move!r}", "move")


def enemy(state: ZeeslagState, seat: int) -> int:
    """The one living enemy of ``seat``: a duel runs only while two seats (or teams of one) are left."""
    (other,) = enemies(state, seat)
    return other


def pending(state: ZeeslagState) -> Request:
    """What the duel asks next: who shoots first (a public random value over the two) until it
    is drawn, then the shooter's timed decision."""
    if state.turn is None:
        return PublicRandom(2)
    return Decide(state.turn, timed=timer_on(state.options))


def started(state: ZeeslagState, value: int) -> ZeeslagState:
    """The state once the first shooter is drawn: ``value`` indexes the living seats."""
    return dataclasses.replace(state, turn=living(state)[value], passes=0, actions=0)


def step(state: ZeeslagState) -> ZeeslagState:
    """No target left for the shooter: a sink answer was false, the shooter wins."""
    if state.turn is not None and not public_targets(state, enemy(state, state.turn)):
        return dataclasses.replace(state, outcome=outcome.result(state, team_of(state, state.turn), "no targets"))
    return state


def is_ability(state: ZeeslagState, move: Any) -> bool:
    """True when ``move`` uses a space-battle ability rather than shooting (no other variant has any)."""
    return state.variant == "space" and isinstance(move, Mapping) and bool(set(move) & set(ABILITIES))


def _acted(state: ZeeslagState, seat: int, ends: bool) -> ZeeslagState:
    """Space battle: one more action of the turn (its first begins an own round); an ability ends it."""
    if state.variant != "space":
        return state
    board = state.boards[seat]
    if not state.actions:
        state = with_board(state, seat, dataclasses.replace(board, rounds=board.rounds + 1))
    return dataclasses.replace(state, actions=ACTIONS if ends else state.actions + 1)


def _ability(state: ZeeslagState, shooter: int, target: int, move: Any) -> ZeeslagState:
    ability = abilities.parse(move, salvo=False)
    check_ability(state, shooter, ability, target)
    state = abilities.used(state, shooter, ability.name)
    state = _acted(dataclasses.replace(state, passes=0), shooter, ends=True)
    return launch(state, shooter, ability, target)


def check_ability(state: ZeeslagState, seat: int, ability: Ability, target: int) -> None:
    """What everyone can check of an ability ``seat`` aims at ``target`` (its cycle, its kind,
    its cell), and what only its own node can (that a squadron fits)."""
    abilities.check(state, seat, ability, seat if ability.name == "reserve" else target)
    if ability.name == "nuke" and ability.cell not in public_targets(state, target):
        raise not_a_target(state, target, ability.cell, f"{ability.cell!r} is no cell of seat {target}'s field that is still a target")
    if ability.name == "reserve" and reserve.can_land(state, seat) is False:
        raise RuleError("zeeslag.reserve", f"seat {seat} has no room on its field for a squadron", "zeeslag.reserve")


def launch(state: ZeeslagState, seat: int, ability: Ability, target: int) -> ZeeslagState:
    """The volley of one ability (a duel turn's last action)."""
    if ability.name == "reserve":
        return volley.begin(dataclasses.replace(state, landing=(seat,)), ())
    state = dataclasses.replace(state, tasks=(Task(ability.name, seat, target, ability.cell),))
    shots = (Shot(seat, target, ability.cell, False, kind="nuke"),) if ability.name == "nuke" else ()
    return volley.begin(state, shots)


def moved(state: ZeeslagState, request: Decide, event: Move, timeout: Timeout | None) -> ZeeslagState:
    """Apply the shooter's move: an ability, a pass, a shot or the timer's shot (``timeout`` set);
    raises :class:`RuleError` naming the broken rule (a cell that is no target, a wrong timer shot, an
    unjustified pass), so a bad move changes nothing."""
    shooter = request.seat
    target = enemy(state, shooter)
    if timeout and (is_ability(state, event.move) or parse_move(event.move)[0] != "shoot"):
        raise RuleError("zeeslag.move", f"the timer's move is {{'shoot': cell, 'timeout': true}}, got {event.move!r}", "timeout")
    if is_ability(state, event.move):
        return _ability(state, shooter, target, event.move)
    kind, cell = parse_move(event.move)
    public = public_targets(state, target)
    layout = waters(state)
    if kind == "pass":
        stuck = own_ship_cells(state, shooter) is None or not aimable(state, shooter, target)
        if not layout.shared or not public or not set(public) <= set(layout.reach(shooter)) or not stuck:
            raise RuleError("zeeslag.pass", f"seat {shooter} has targets to aim at; only one whose every target holds its own ship passes",
                            "zeeslag.pass")
        board = state.boards[shooter]
        board = dataclasses.replace(board, excuses=board.excuses + (Excuse(public, len(public), 0, 1),))
        state = with_board(state, shooter, board, passes=state.passes + 1)
        if state.passes >= 2:
            return dataclasses.replace(state, outcome=outcome.result(state, (), "no targets"))
        return dataclasses.replace(state, turn=target)
    assert cell is not None
    if cell not in public:
        raise not_a_target(state, target, cell, f"{cell!r} is no cell of the enemy's waters that is still a target")
    if timeout:
        if cell != public[0]:
            raise RuleError("zeeslag.timeout", f"the timer shoots the first target in reading order, {layout.seas[0].name(public[0])}", "timeout")
        if timeout.final:
            return outcome.leave(state, shooter, "timeouts")
        state = _acted(state, shooter, ends=False)
    else:
        if cell not in aimable(state, shooter, target):
            raise RuleError("zeeslag.own_target", f"seat {shooter} aims at its own ship", "zeeslag.own_target")
        state = _acted(state, shooter, ends=False)
        if layout.shared:
            board = state.boards[shooter]
            state = with_board(state, shooter, dataclasses.replace(board, aimed=board.aimed + (cell,)))
    return volley.begin(dataclasses.replace(state, passes=0), (Shot(shooter, target, cell, timeout is not None),))


def after(state: ZeeslagState) -> ZeeslagState:
    """After the volley: a hit shoots again (space: if the turn has actions left), else the enemy shoots."""
    shooter = turn_of(state)
    again = any(shot.hit for shot in state.volley) and (state.variant != "space" or state.actions < ACTIONS)
    turn = shooter if again else enemy(state, shooter)
    return dataclasses.replace(state, stage="aim", volley=(), turn=turn, actions=state.actions if again else 0)


def legal_moves(state: ZeeslagState, seat: int) -> tuple[Any, ...]:
    """Shots at every target in reading order, then (space) every ability the seat may use:
    lasers from row A then row J, scans, nukes, the reserve."""
    if state.turn != seat:
        return ()
    target = enemy(state, seat)
    cells = aimable(state, seat, target)
    if not cells and public_targets(state, target):
        return ({"pass": True},)
    return tuple({"shoot": cell} for cell in cells) + ability_moves(state, seat, target)


def ability_moves(state: ZeeslagState, seat: int, target: int) -> tuple[dict, ...]:
    """The ability moves ``seat`` may make at ``target`` now, as far as this state knows (space battle)."""
    if state.variant != "space":
        return ()
    grid = waters(state).board
    aims = {
        "laser": [grid.cell(x, y) for y in (0, grid.height - 1) for x in range(grid.width)],
        "scan": list(range(grid.size)),
        "nuke": list(public_targets(state, target)),
        "reserve": [-1],
    }
    moves: list[dict] = []
    for name in ABILITIES:
        if not abilities.usable(state, seat, name) or (name == "reserve" and reserve.can_land(state, seat) is False):
            continue
        moves += [{name: True} if cell == -1 else {name: cell} for cell in aims[name]]
    return tuple(moves)


def default_move(state: ZeeslagState, seat: int) -> Any:
    """The timer's shot: the first target in reading order (the timer does not know the fleet)."""
    return {"shoot": public_targets(state, enemy(state, seat))[0], "timeout": True}
