"""Salvos, while three or more seats are living: everyone aims at once, in secret.

Each round is ``Simultaneous(living seats, timed=turn_seconds > 0)``: every seat commits to
its salvo, then all are revealed, so nobody aims knowing another's aim. A salvo is
``{"salvo": [[enemy, cell], ...]}``, pairs increasing, cells distinct, each cell a target
in that enemy's waters:

- option ``salvo`` = ``spread``: ``shots`` = k shots at each living enemy, all of them due
  (fewer only where the enemy has fewer targets left; in the shared sea, enemies in seat
  order, a shot at a border cell counts for the one enemy its pair names, and a border cell
  fired at for one enemy is no longer a target left for the next: the rules are silent, and so
  no shot counts twice and no cell is fired at twice);
- ``focus``: all k × (living enemies) shots at one enemy of the seat's choice.

In the shared sea a seat may not aim at its own ship cells, which only its own node knows:
it fires fewer shots only where its ships fill the enemy's remaining targets, and says so
by leaving them out; the cells it could have meant are kept (:class:`~state.Excuse`) and
the full opening checks the count. Cells it aimed at are kept too, checked likewise.

On timeout a seat's choice is the marked default ``{"timeout": true}`` and the timer fires
all its shots, at random targets by public random values (its own fleet unknown to the
timer, it may hit its own ship in the shared sea): for focus, first ``PublicRandom`` picks
each late seat's enemy (among those with targets, mixed radix over the late seats in order),
then one ``PublicRandom`` picks every missing cell (mixed radix: for each late seat, enemy
and shot in order, an index into that enemy's targets still free, sorted; two of one late
seat's timer shots at neighbouring enemies may so fall on one border cell, the second wasted).
A draw with one outcome is skipped; so is every draw once the game's public values run short
(``PUBLIC_VALUES``, one kept for the duel's start): the timer then fires at the first targets
in reading order, as in the duel. ``max_timeouts``
consecutive timeouts and the seat leaves (``outcome.leave``) before its shots are fired.
Then the salvos' shots are one volley (``volley``), and the next round follows; with two
seats left, the duel rules (``duel``).

The space battle: a salvo may hold one ability, ``{"salvo": [...], "ability": {"at": enemy,
...}}`` (``abilities``), which replaces the shots at that enemy (spread; a reserve names the
enemy it spares) or the whole salvo (focus; a reserve then names none). Every salvo is one of
its seat's own rounds. The reserves of the round land first, then its shots are answered,
then its abilities (``effects``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from math import prod
from typing import Any

from fairtable.games.contract import PUBLIC_VALUES, Chosen, PublicRandom, Request, RuleError, Simultaneous, Timeout
from fairtable.games.rules import timer_on
from fairtable.games.zeeslag import abilities, effects, outcome, volley
from fairtable.games.zeeslag.abilities import Ability
from fairtable.games.zeeslag.duel import check_ability
from fairtable.games.zeeslag.state import Excuse, Late, Shot, Task, ZeeslagState, with_board
from fairtable.games.zeeslag.targets import enemies, living, not_a_target, own_ship_cells, public_targets, waters

TIMEOUT = {"timeout": True}
"""The default choice of a seat whose timer ran out: the timer fires all its shots."""


def pending(state: ZeeslagState) -> Request:
    """What the salvo round asks next: every living seat's secret salvo (timed by the table), or the
    public random value that aims the shots of seats whose timer ran out."""
    if state.stage == "aim":
        return Simultaneous(living(state), timed=timer_on(state.options))
    return PublicRandom(_bound(state))


def due(state: ZeeslagState, seat: int, target: int | None, spared: int | None = None) -> list[tuple[int, int]]:
    """``(enemy, shots due)`` of ``seat``'s salvo. Focus: at ``target``, or at no one at all
    (``None``: each enemy then with the count it would have been due). Spread: at every enemy
    but ``spared`` (whose shots an ability replaces)."""
    foes = enemies(state, seat)
    shots = state.options["shots"]
    if state.options["salvo"] == "focus":
        shots *= len(foes)
        foes = foes if target is None else (target,)
    return [(foe, min(shots, len(public_targets(state, foe)))) for foe in foes if foe != spared]


def due_beside(state: ZeeslagState, seat: int, at: int) -> list[tuple[int, int]]:
    """The shots still due beside an ability aimed at enemy ``at`` (space battle): spread, those at
    every other enemy; focus, none (the ability replaces the whole salvo, as :func:`check` reads it)."""
    return [] if state.options["salvo"] == "focus" else due(state, seat, None, at)


def parse_salvo(move: Any, space: bool = False) -> tuple[tuple[tuple[int, int], ...], Ability | None]:
    """The ``(enemy, cell)`` pairs of a salvo and its ability (space battle), or :class:`RuleError` ``zeeslag.move``."""
    forms = ({"salvo"}, {"salvo", "ability"}) if space else ({"salvo"},)
    pairs = move.get("salvo") if isinstance(move, Mapping) and set(move) in forms else None
    if not isinstance(pairs, (list, tuple)) or not all(
            isinstance(pair, (list, tuple)) and len(pair) == 2 and all(type(x) is int for x in pair) for pair in pairs):
        raise RuleError("zeeslag.move", f"a salvo is {{'salvo': [[enemy, cell], ...]}}, got {move!r}", "move")
    shots = tuple((pair[0], pair[1]) for pair in pairs)
    if list(shots) != sorted(set(shots)):
        raise RuleError("zeeslag.move", "a salvo's [enemy, cell] pairs are increasing, each pair once")
    return shots, (abilities.parse(move["ability"], salvo=True) if "ability" in move else None)


def check(state: ZeeslagState, seat: int, choice: Any) -> tuple[tuple[Shot, ...], tuple[Excuse, ...], Ability | None]:
    """The shots of ``seat``'s free choice, the excuses its missing shots need and its ability,
    or the rule it breaks."""
    if choice == TIMEOUT:
        raise RuleError("zeeslag.timer", "only the timer fires a salvo for a seat, as its marked default", "timeout")
    shots, ability = parse_salvo(choice, state.variant == "space")
    foes = enemies(state, seat)
    focus = state.options["salvo"] == "focus"
    if ability is not None:
        if focus and shots:
            raise RuleError("zeeslag.salvo", "an ability replaces a focused salvo's every shot")
        if (ability.at is None) != (focus and ability.name == "reserve") or (ability.at is not None and ability.at not in foes):
            raise RuleError("zeeslag.ability", f"seat {seat}'s {ability.name} must name one of its living enemies {list(foes)}"
                            + (" (a reserve in a focused salvo names none)" if focus else ""))
        check_ability(state, seat, ability, seat if ability.at is None else ability.at)
        if focus:
            return (), (), ability
    spared = None if ability is None else ability.at
    for foe, cell in shots:
        if foe not in foes or foe == spared:
            raise RuleError("zeeslag.target", f"seat {foe} is no living enemy of seat {seat}" if foe not in foes
                            else f"seat {seat}'s {ability.name if ability else ''} replaces its shots at seat {foe}")
        if cell not in public_targets(state, foe):
            raise not_a_target(state, foe, cell, f"{cell} is no cell of seat {foe}'s waters that is still a target")
    layout = waters(state)
    if len({(layout.sea_of(foe), cell) for foe, cell in shots}) != len(shots):
        raise RuleError("zeeslag.salvo", "a salvo fires at each cell of a sea once", "zeeslag.salvo:twice")
    named = sorted({foe for foe, _ in shots})
    if focus and len(named) > 1:
        raise RuleError("zeeslag.salvo", "a focused salvo fires every shot at one enemy", "zeeslag.salvo:focus")
    own = own_ship_cells(state, seat) if layout.shared else None
    excuses = []
    taken: set[tuple[int, int]] = set()
    for foe, count in due(state, seat, named[0] if named and focus else None, spared):
        sea = layout.sea_of(foe)
        cells = [cell for target, cell in shots if target == foe]
        public = [cell for cell in public_targets(state, foe) if (sea, cell) not in taken]
        taken.update((sea, cell) for cell in cells)
        reach = set(layout.reach(seat)) if layout.sea_of(seat) == layout.sea_of(foe) else set()
        count = min(count, len(public))
        if own is not None:
            if set(cells) & own:
                raise RuleError("zeeslag.own_target", f"seat {seat} aims at its own ship", "zeeslag.own_target")
            wanted = min(count, len([cell for cell in public if cell not in own]))
            if len(cells) != wanted:
                raise RuleError("zeeslag.salvo", f"seat {seat} must fire {wanted} shots at seat {foe}, not {len(cells)}", "zeeslag.salvo:shots",
                                owed=wanted, fired=len(cells))
        least = min(count, len([cell for cell in public if cell not in reach]))
        if not least <= len(cells) <= count:
            raise RuleError("zeeslag.salvo", f"seat {seat} must fire {count} shots at seat {foe}, not {len(cells)}", "zeeslag.salvo:shots",
                            owed=count, fired=len(cells))
        if len(cells) < count:
            spare = tuple(cell for cell in public if cell in reach and cell not in cells)
            excuses.append(Excuse(spare, len(public), len(cells), count))
    return tuple(Shot(seat, foe, cell, False) for foe, cell in shots), tuple(excuses), ability


def chosen(state: ZeeslagState, request: Simultaneous, event: Chosen, timeouts: tuple[Timeout, ...]) -> ZeeslagState:
    """Apply the revealed salvos: check each (or the timer's default); ``timeouts`` (one per seat the
    timer fired for) say who leaves. Begins the volley with its shots and ability tasks; raises
    :class:`RuleError` naming the seat for a salvo that breaks a rule."""
    if len(event.choices) != len(request.seats):
        raise RuleError("zeeslag.choice", f"one salvo per seat of {list(request.seats)} is due")
    shots: list[Shot] = []
    late: list[int] = []
    tasks: list[Task] = []
    landing: list[int] = []
    layout = waters(state)
    for seat, choice in zip(request.seats, event.choices):
        if seat in event.absent:
            continue
        if seat in event.defaults:
            if choice != TIMEOUT:
                raise RuleError("zeeslag.timeout", f"seat {seat}'s timer fires its salvo: the default is {TIMEOUT}")
            state = _begun(state, seat)
            late.append(seat)
            continue
        fired, excuses, ability = check(state, seat, choice)
        shots.extend(fired)
        if ability is not None:
            state = abilities.used(state, seat, ability.name)
            if ability.name == "reserve":
                landing.append(seat)
            else:
                assert ability.at is not None
                tasks.append(Task(ability.name, seat, ability.at, ability.cell))
                if ability.name == "nuke":
                    shots.append(Shot(seat, ability.at, ability.cell, False, kind="nuke"))
        state = _begun(state, seat)
        board = state.boards[seat]
        aimed = tuple(shot.cell for shot in fired) if layout.shared else ()
        board = dataclasses.replace(board, aimed=board.aimed + aimed, excuses=board.excuses + excuses)
        state = with_board(state, seat, board)
    for timeout in timeouts:
        if timeout.final:
            late.remove(timeout.seat)
            state = outcome.leave(state, timeout.seat, "timeouts")
            if state.outcome is not None:
                return state
    stage = "pick" if state.options["salvo"] == "focus" and late else "fill"
    tasks = [task for task in tasks if task.target not in state.left]
    return dataclasses.replace(state, volley=tuple(shots), late=tuple(Late(seat) for seat in late), stage=stage,
                               tasks=effects.tasks_of(tasks), landing=tuple(landing))


def _begun(state: ZeeslagState, seat: int) -> ZeeslagState:
    """Space battle: a salvo is one of its seat's own rounds (counted once its ability is checked and used)."""
    if state.variant != "space":
        return state
    board = state.boards[seat]
    return with_board(state, seat, dataclasses.replace(board, rounds=board.rounds + 1))


def _picks(state: ZeeslagState) -> list[tuple[int, tuple[int, ...]]]:
    """Each late seat of a focused round and the enemies the timer may aim its shots at."""
    return [(entry.seat, tuple(foe for foe in enemies(state, entry.seat) if public_targets(state, foe))) for entry in state.late]


def _fills(state: ZeeslagState) -> list[tuple[int, int, tuple[int, ...], int]]:
    """``(seat, enemy, targets, shots)`` for every late seat's shots, in order."""
    fills = []
    for entry in state.late:
        if state.options["salvo"] == "focus" and entry.target is None:
            continue
        for foe, count in due(state, entry.seat, entry.target):
            fills.append((entry.seat, foe, public_targets(state, foe), count))
    return fills


def _bound(state: ZeeslagState) -> int:
    """The draw's bound; 1 once the game's public values run short (keeping one for the duel's
    start): the timer then fires at the first targets in reading order (every digit 0)."""
    if state.draws + 1 >= PUBLIC_VALUES:
        return 1
    if state.stage == "pick":
        return prod(len(foes) for _, foes in _picks(state) if len(foes) > 1)
    return prod(prod(range(len(cells) - count + 1, len(cells) + 1)) for _, _, cells, count in _fills(state))


def drawn(state: ZeeslagState, value: int) -> ZeeslagState:
    """The public random value of a ``pick`` or ``fill``, read digit by digit (mixed radix)."""
    if state.stage == "pick":
        late = []
        for (_, foes), entry in zip(_picks(state), state.late):
            target = None
            if len(foes) == 1:
                target = foes[0]
            elif foes:
                value, digit = divmod(value, len(foes))
                target = foes[digit]
            late.append(dataclasses.replace(entry, target=target))
        return dataclasses.replace(state, late=tuple(late), stage="fill")
    shots = list(state.volley)
    for seat, foe, cells, count in _fills(state):
        free = list(cells)
        for _ in range(count):
            value, digit = divmod(value, len(free))
            shots.append(Shot(seat, foe, free.pop(digit), True))
    shots.sort(key=lambda shot: (shot.seat, shot.target, shot.cell))
    return volley.begin(dataclasses.replace(state, late=()), tuple(shots))


def step(state: ZeeslagState) -> ZeeslagState:
    """A draw with one outcome needs no value; a round in which nobody has a target cannot be
    played: sink answers must have been false, the game ends undecided (``no targets``)."""
    if state.stage in ("pick", "fill") and _bound(state) == 1:
        return drawn(state, 0)
    if state.stage == "aim" and not any(public_targets(state, foe) for seat in living(state) for foe in enemies(state, seat)):
        return dataclasses.replace(state, outcome=outcome.result(state, (), "no targets"))
    return state


def after(state: ZeeslagState) -> ZeeslagState:
    """The next round; a round in which nobody fired (every seat's targets its own ships) would
    repeat for ever: the game ends undecided (``no targets``). A space battle's round may fire no
    shot and still act (scans, reserves, lasers that hit nothing), which the cycles keep from
    repeating."""
    if not state.volley and state.variant != "space":
        return dataclasses.replace(state, outcome=outcome.result(state, (), "no targets"))
    return dataclasses.replace(state, stage="aim", volley=(), turn=None)
