"""A tiny game that asks the session for every kind of request towers does not use.

"Probe", two seats, a match of two deals. Each deal: both seats commit a hidden 2x2 grid of
digits (layer "grid"), choose simultaneously which cell of the other's grid to probe, open
the probed cells, and at the end open their whole grid, which must hold digits 0..9. The
higher total of probed values wins the match. It exists to exercise the session.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from fairtable.games.contract import (
    Chosen,
    CommitHidden,
    Committed,
    DealStarted,
    Event,
    Finished,
    Forfeit,
    Game,
    NextDeal,
    Opened,
    OpenHidden,
    Request,
    Result,
    Rng,
    RuleError,
    Simultaneous,
)

CELLS = 4
DEALS = 2


@dataclass(frozen=True)
class ProbeState:
    """The match in progress: the deal, its step, the probed cells, scores and the grids opened in full."""
    options: Mapping[str, Any]
    deal: int = 0
    step: str = "commit"
    probes: tuple[int, ...] = ()
    scores: tuple[int, ...] = (0, 0)
    grids: Mapping[int, tuple[int, ...]] = field(default_factory=dict)
    forfeit: int | None = None


class Probe(Game):
    """See the module docstring."""

    id = "probe"
    variants = ("plain",)
    min_seats = max_seats = 2
    state_type = ProbeState

    def setup(self, variant: str, options: Mapping[str, Any], seats: int) -> ProbeState:
        return ProbeState(dict(options))

    def pending(self, state: ProbeState) -> Request:
        if state.forfeit is not None:
            return Finished(Result((1 - state.forfeit,), "forfeit", state.scores))
        if state.step == "commit":
            return CommitHidden((0, 1), 2, 2, ("grid",))
        if state.step == "choose":
            return Simultaneous((0, 1))
        if state.step.startswith("open-"):
            seat = int(state.step[-1])
            return OpenHidden(seat, "grid", (state.probes[1 - seat],))
        if state.step.startswith("full-"):
            return OpenHidden(int(state.step[-1]), "grid", tuple(range(CELLS)))
        if state.deal + 1 < DEALS:
            return NextDeal(Result((), "deal", state.scores))
        winners = (0,) if state.scores[0] > state.scores[1] else (1,) if state.scores[1] > state.scores[0] else ()
        return Finished(Result(winners, "score", state.scores))

    def apply(self, state: ProbeState, event: Event) -> ProbeState:
        request = self.pending(state)
        if isinstance(event, Forfeit):
            return replace(state, forfeit=event.seat)
        if isinstance(request, CommitHidden) and isinstance(event, Committed):
            return replace(state, step="choose")
        if isinstance(request, Simultaneous) and isinstance(event, Chosen):
            for choice in event.choices:
                if type(choice) is not int or not 0 <= choice < CELLS:
                    raise RuleError("probe.choice", f"a probe is a cell 0..{CELLS - 1}, got {choice!r}")
            return replace(state, step="open-0", probes=tuple(event.choices))
        if isinstance(request, OpenHidden) and isinstance(event, Opened):
            if state.step.startswith("open-"):
                seat = request.seat
                scores = list(state.scores)
                scores[1 - seat] += event.cells[request.cells[0]]
                return replace(state, step="open-1" if seat == 0 else "full-0", scores=tuple(scores))
            grid = tuple(event.cells[cell] for cell in range(CELLS))
            self.check_hidden(state, request.seat, {"grid": grid})
            return replace(state, step="full-1" if request.seat == 0 else "done", grids={**state.grids, request.seat: grid})
        if isinstance(request, NextDeal) and isinstance(event, DealStarted):
            return replace(state, deal=state.deal + 1, step="commit", probes=(), grids={})
        raise RuleError("probe.sequence", f"{type(event).__name__} does not answer {type(request).__name__}")

    def check_hidden(self, state: ProbeState, seat: int, data: Mapping[str, tuple[int, ...]]) -> None:
        grid = data.get("grid", ())
        if len(grid) != CELLS or any(type(v) is not int or not 0 <= v <= 9 for v in grid):
            raise RuleError("probe.grid", f"seat {seat}'s grid must be {CELLS} digits")

    def judge_hidden(self, state: ProbeState, seat: int, data: Mapping[str, tuple[int, ...]]) -> None:
        self.check_hidden(state, seat, data)

    def random_hidden(self, state: ProbeState, seat: int, request: Request, rng: Rng) -> Any:
        return {"grid": tuple(rng.randrange(10) for _ in range(CELLS))}

    def legal_moves(self, state: ProbeState, seat: int) -> tuple[Any, ...]:
        request = self.pending(state)
        return tuple(range(CELLS)) if isinstance(request, Simultaneous) and seat in request.seats else ()

    def reveals(self, state: ProbeState, move: Any) -> tuple[int, ...]:
        return ()

    def default_move(self, state: ProbeState, seat: int) -> Any:
        return 0

    def view(self, state: ProbeState, seat: int | None) -> dict:
        return {"deal": state.deal, "scores": list(state.scores), "step": state.step}


PROBE = Probe()
