"""Zeeslag on the game contract: options, the hidden fleets, the start, forfeits, the full
opening and the views, shared by all variants; a variant's turns live in its own module
(``duel.py``). The design of the hidden data is in the package docstring.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from fairtable.games.contract import (
    ABSENT,
    BotFactory,
    CommitHidden,
    Committed,
    Decide,
    Finished,
    Forfeit,
    Move,
    Opened,
    OpenHidden,
    PublicRandom,
    RandomValue,
    Request,
    Rng,
    RuleError,
)
from fairtable.games.options import TIMER, Choice, Flag
from fairtable.games.rules import Rules
from fairtable.games.zeeslag import render
from fairtable.games.zeeslag.bots import GreedyBot, RandomBot, random_fleet
from fairtable.games.zeeslag.duel import Duel
from fairtable.games.zeeslag.fleet import DEFAULT_FLEET, FLEETS, IDS, LAYERS, SHIPS, fleet_problem, shape_problem
from fairtable.games.zeeslag.sea import SEA
from fairtable.games.zeeslag.sinks import wrong_answer
from fairtable.games.zeeslag.state import Board, Shot, ZeeslagState, fleet_of, with_board

VARIANTS = {"duel": Duel()}
OPTIONS = {"fleet": Choice(tuple(FLEETS), DEFAULT_FLEET), "water_ring": Flag(True), **TIMER}
BOTS: dict[str, BotFactory] = {"random": RandomBot, "greedy": GreedyBot}


def opening_steps(seats: int) -> tuple[tuple[int, str], ...]:
    """The full opening, in order: each seat's ``ships`` layer, then its ``ids`` layer."""
    return tuple((seat, layer) for seat in range(seats) for layer in LAYERS)


def _opening_step(state: ZeeslagState) -> int | None:
    """The index of the next full-opening step, skipping seats that withheld; ``None`` when done."""
    steps = opening_steps(len(state.boards))
    return next((i for i in range(state.opening, len(steps)) if steps[i][0] not in state.withheld), None)


class Zeeslag(Rules[ZeeslagState]):
    id = "zeeslag"
    variants = tuple(VARIANTS)
    min_seats = 2
    max_seats = 2
    state_type = ZeeslagState
    options = OPTIONS
    bots = BOTS
    renderer = render

    def seat_range(self, variant: str) -> tuple[int, int]:
        return VARIANTS[variant].seats, VARIANTS[variant].seats

    def start(self, variant: str, options: dict[str, Any], seats: int) -> ZeeslagState:
        return ZeeslagState(variant, options, (Board(),) * seats, timeouts=(0,) * seats)

    def random_hidden(self, state: ZeeslagState, seat: int, request: Request, rng: Rng) -> dict[str, tuple[int, ...]]:
        """A random legal fleet."""
        return random_fleet(state, rng)

    # ------------------------------------------------------------------ what happens next

    def pending(self, state: ZeeslagState) -> Request:
        if not state.committed:
            return Finished(state.outcome) if state.outcome else CommitHidden(tuple(range(len(state.boards))), SEA.width, SEA.height, LAYERS)
        if state.outcome is not None:
            step = _opening_step(state)
            if step is None:
                return Finished(state.outcome)
            seat, layer = opening_steps(len(state.boards))[step]
            return OpenHidden(seat, layer, tuple(range(SEA.size)))
        if state.turn is None:
            return PublicRandom(len(state.boards))
        return VARIANTS[state.variant].pending(state)

    def check_hidden(self, state: ZeeslagState, seat: int, data: Mapping[str, tuple[int, ...]]) -> None:
        """A seat's node refuses to commit anything but a legal fleet."""
        request = self.pending(state)
        if not isinstance(request, CommitHidden) or seat not in request.seats:
            raise RuleError("zeeslag.sequence", f"seat {seat} has nothing to commit now")
        problem = fleet_problem(SEA, fleet_of(state), data)
        if problem is not None:
            raise RuleError("zeeslag.fleet", f"seat {seat}: {problem}")

    # ------------------------------------------------------------------ events

    def on_committed(self, state: ZeeslagState, request: CommitHidden, event: Committed) -> ZeeslagState:
        boards = list(state.boards)
        for seat, data in event.data.items():
            if seat not in request.seats:
                raise RuleError("zeeslag.hidden", f"seat {seat!r} commits no fleet")
            problem = shape_problem(SEA, fleet_of(state), data)
            if problem is not None:
                raise RuleError("zeeslag.hidden", f"seat {seat}: {problem}")
            boards[seat] = dataclasses.replace(boards[seat], own={layer: tuple(data[layer]) for layer in LAYERS})
        return dataclasses.replace(state, boards=tuple(boards), committed=True)

    def on_random(self, state: ZeeslagState, request: PublicRandom, event: RandomValue) -> ZeeslagState:
        if type(event.value) is not int or not 0 <= event.value < request.bound:
            raise RuleError("zeeslag.random", f"who starts must be below {request.bound}, got {event.value!r}")
        return VARIANTS[state.variant].start(state, event.value)

    def on_move(self, state: ZeeslagState, request: Decide, event: Move) -> ZeeslagState:
        return VARIANTS[state.variant].moved(state, request, event)

    def on_opened(self, state: ZeeslagState, request: OpenHidden, event: Opened) -> ZeeslagState:
        board = self._learn(state, request, event)
        if state.outcome is None:
            return VARIANTS[state.variant].opened(state, request, board, event)
        if request.layer == IDS:
            self._judge(state, request.seat, board)
        step = _opening_step(state)
        assert step is not None
        return with_board(state, request.seat, board, opening=step + 1)

    def _learn(self, state: ZeeslagState, request: OpenHidden, event: Opened) -> Board:
        """The seat's board with the opened cells, which must be the requested ones, in range,
        and agree with all this state knew of them."""
        if event.seat != request.seat or event.layer != request.layer or set(event.cells) != set(request.cells):
            raise RuleError("zeeslag.opened", f"the opening must be seat {request.seat}'s {request.layer} at the requested cells")
        top = 1 if request.layer == SHIPS else len(fleet_of(state).ships)
        board = state.boards[request.seat]
        for cell, value in event.cells.items():
            if type(value) is not int or not 0 <= value <= top:
                raise RuleError("zeeslag.opened", f"seat {request.seat}: {request.layer} at {SEA.name(cell)} is {value!r}, not in 0..{top}")
            known = board.known(request.layer, cell)
            if known not in (None, value):
                raise RuleError("zeeslag.opened", f"seat {request.seat}: {request.layer} at {SEA.name(cell)} opened as {value}, known as {known}")
        # A board keeps each layer's openings in the field named after the layer.
        opened: dict[str, Any] = {request.layer: {**getattr(board, request.layer), **event.cells}}
        return dataclasses.replace(board, **opened)

    def _judge(self, state: ZeeslagState, seat: int, board: Board) -> None:
        """At the full opening of ``seat``'s ids: its opened fleet, judged."""
        cells = range(SEA.size)
        self.judge_hidden(state, seat, {SHIPS: tuple(board.ships[cell] for cell in cells), IDS: tuple(board.ids[cell] for cell in cells)})

    def judge_hidden(self, state: ZeeslagState, seat: int, data: Mapping[str, tuple[int, ...]]) -> None:
        """A legal fleet, and every sink answer the seat gave true."""
        problem = fleet_problem(SEA, fleet_of(state), data)
        if problem is not None:
            raise RuleError("zeeslag.fleet", f"seat {seat}: {problem}")
        wrong = wrong_answer(SEA, state.boards[seat], data[IDS])
        if wrong is not None:
            rule, message = wrong
            raise RuleError(rule, f"seat {seat}: {message}")

    def on_forfeit(self, state: ZeeslagState, event: Forfeit) -> ZeeslagState:
        """Before the outcome: the others win, and the full opening follows (nothing to open
        before the fleets are committed); an absent seat cannot open, so its fleet stays
        closed. During the full opening: the seat withholds the rest of its fleet; if it had
        won, it loses."""
        seat, seats = event.seat, len(state.boards)
        if type(seat) is not int or not 0 <= seat < seats or seat in state.withheld:
            raise RuleError("zeeslag.seat", f"seat {seat!r} cannot forfeit")
        reason = f"forfeit: {event.reason}"
        rules = VARIANTS[state.variant]
        if state.outcome is None:
            outcome = rules.result(state, tuple(s for s in range(seats) if s != seat), reason)
            withheld = state.withheld + ((seat,) if event.reason == ABSENT else ())
            return dataclasses.replace(state, outcome=outcome, stage="shoot", aim=None, withheld=withheld)
        withheld = state.withheld + (seat,)
        outcome = state.outcome
        if seat in outcome.winners:
            outcome = rules.result(state, tuple(s for s in range(seats) if s not in withheld), reason)
        return dataclasses.replace(state, withheld=withheld, outcome=outcome)

    # ------------------------------------------------------------------ moves

    def legal_moves(self, state: ZeeslagState, seat: int) -> tuple[Any, ...]:
        """Shots at every target in reading order; a sink answer: the true one when this state
        knows the fleet (the target's own), else either."""
        if not state.committed or state.outcome is not None or state.turn is None:
            return ()
        return VARIANTS[state.variant].legal_moves(state, seat)

    def reveals(self, state: ZeeslagState, move: Any) -> tuple[int, ...]:
        """Zeeslag has no cards: moves show nothing; cells are shown by openings."""
        return ()

    def default_move(self, state: ZeeslagState, seat: int) -> Any:
        return VARIANTS[state.variant].default_move(state, seat)

    # ------------------------------------------------------------------ views

    def view(self, state: ZeeslagState, seat: int | None) -> dict:
        return {
            "variant": state.variant,
            "fleet": state.options["fleet"],
            "water_ring": state.options["water_ring"],
            "seat": seat,
            "turn": state.turn,
            "phase": _phase(state),
            "aim": state.aim,
            "seas": [_sea(board, index == seat) for index, board in enumerate(state.boards)],
            "timeouts": list(state.timeouts),
            "recent": [_shot(shot) for shot in state.recent],
            "result": None if state.outcome is None else state.outcome.to_value(),
        }


def _sea(board: Board, own: bool) -> dict:
    """One seat's sea as a viewer may see it: the public shots, sinks and water, and the
    fleet layout (``ids`` per cell) to its owner, or to all once fully opened."""
    layout = board.own.get(IDS) if own else None
    if layout is None and len(board.ids) == SEA.size:
        layout = tuple(board.ids[cell] for cell in range(SEA.size))
    return {
        "shots": list(board.shots),
        "hits": list(board.hits),
        "water": list(board.water),
        "sunk": [{"ship": sunk.ship, "cells": list(sunk.cells)} for sunk in board.sunk],
        "layout": None if layout is None else list(layout),
    }


def _shot(shot: Shot) -> dict:
    return {"seat": shot.seat, "target": shot.target, "cell": shot.cell, "timeout": shot.timeout, "hit": shot.hit, "sunk": shot.sunk}


def _phase(state: ZeeslagState) -> str:
    """``placement``, ``start``, a turn's stage (see ``duel.py``), ``opening`` or ``over``."""
    if state.outcome is not None:
        return "opening" if state.committed and _opening_step(state) is not None else "over"
    if not state.committed:
        return "placement"
    return "start" if state.turn is None else state.stage

