"""The space battle's bought fleets: what a seat commits, the size it declares, and the
judgement of its purchase at the full opening.

Each seat commits its fleet as in every variant (``ships`` and ``ids``, the ids naming slots of
the catalogue, ``starships``), so its composition and cost stay hidden. Then every seat in
turn declares how many ships it bought, ``Decide(seat, timed=False)`` → ``{"ships": n}``: all
the others learn of its fleet until ships sink, and what tells when it is out. Its own node
knows the true count and declares it (the one legal move); everyone else refuses a count no
money could buy (``zeeslag.count``) and checks the rest at the full opening, with the
composition: a legal purchase (``zeeslag.purchase``) of exactly that many ships.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

from fairtable.games.contract import Decide, Move, RuleError
from fairtable.games.zeeslag.fleet import IDS
from fairtable.games.zeeslag.starships import CATALOGUE
from fairtable.games.zeeslag.state import ZeeslagState, with_board


def bought(ids: Sequence[int]) -> tuple[int, ...]:
    """The slots a fleet's ``ids`` layer uses."""
    return tuple(sorted({value - 1 for value in ids if value}))


def declaring(state: ZeeslagState) -> int | None:
    """The next seat to declare its fleet's size, None once all have (seats that left declare nothing)."""
    return next((seat for seat, board in enumerate(state.boards) if board.declared is None and seat not in state.left), None)


def pending(state: ZeeslagState) -> Decide:
    """The next declaration due: the seat whose turn it is to say how many ships it bought (not timed)."""
    seat = declaring(state)
    assert seat is not None
    return Decide(seat, timed=False)


def truth(state: ZeeslagState, seat: int) -> dict | None:
    """The true declaration, if this state knows the seat's fleet."""
    ids = state.boards[seat].own.get(IDS)
    return None if ids is None else {"ships": len(bought(ids))}


def declared(state: ZeeslagState, request: Decide, event: Move) -> ZeeslagState:
    """Apply a fleet-size declaration; raises :class:`RuleError` ``zeeslag.count`` for a count no
    money could buy, or one this state knows to be false. Once all have declared, aiming begins."""
    seat = request.seat
    move = event.move
    count = move.get("ships") if isinstance(move, Mapping) and set(move) == {"ships"} else None
    most = CATALOGUE.most_ships(state.options["money"])
    if type(count) is not int or not 1 <= count <= most:
        raise RuleError("zeeslag.count", f"seat {seat}: a fleet's size is {{'ships': n}}, 1 <= n <= {most} (the most "
                                         f"{state.options['money']} buys), got {move!r}")
    known = truth(state, seat)
    if known is not None and known["ships"] != count:
        raise RuleError("zeeslag.count", f"seat {seat} bought {known['ships']} ships, not {count}")
    state = with_board(state, seat, dataclasses.replace(state.boards[seat], declared=count))
    return dataclasses.replace(state, stage="aim") if declaring(state) is None else state


def problem(state: ZeeslagState, seat: int, ids: Sequence[int]) -> tuple[str, str] | None:
    """``(rule, what)`` wrong with ``seat``'s purchase by its full ``ids``: a legal one, of the
    size it declared (once it has)."""
    ships = bought(ids)
    wrong = CATALOGUE.purchase_problem(ships, state.options["money"])
    if wrong is not None:
        return wrong.rule, wrong.detail
    count = state.boards[seat].declared
    if count is not None and count != len(ships):
        return "zeeslag.count", f"it declared {count} ships and bought {len(ships)}"
    return None

