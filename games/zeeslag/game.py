"""Zeeslag on the game contract: options, the hidden fleets, forfeits, the full opening and
the views, shared by all variants. The turn rules live in ``duel`` (two seats living) and
``salvo`` (three or more), answering a volley in ``volley``, the layout of the seas in
``waters``; the design of the hidden data is in the package docstring. The space battle adds
the purchase (``purchase``, ``starships``), abilities (``abilities``, ``effects``) and reserves
(``reserve``) on the same shots and salvos.

Every handler ends in :func:`settle`, which takes the steps that need no message (a cell
nobody living can hold is water, a draw with one possible outcome, the end of a volley), so
the pending request follows from the state alone.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from functools import partial
from typing import Any

from fairtable.games.contract import (
    ABSENT,
    BotFactory,
    Chosen,
    CommitHidden,
    Committed,
    Decide,
    Finished,
    Forfeit,
    GameError,
    Move,
    Opened,
    OpenHidden,
    OpenSums,
    OptionsError,
    Prompt,
    PublicRandom,
    RandomValue,
    Request,
    Result,
    Rng,
    RuleError,
    Simultaneous,
    Summed,
    Teams,
    Timeout,
)
from fairtable.games.options import Choice, Flag, Integer, Option
from fairtable.games.rules import Rules
from fairtable.games.zeeslag import duel, effects, outcome, purchase, render, reserve, salvo, volley
from fairtable.games.zeeslag.bots import GreedyBot, RandomBot, random_fleet
from fairtable.games.zeeslag.fleet import DEFAULT_FLEET, FLEETS, IDS, LAYERS, SHIPS, fleet_problem, shape_problem
from fairtable.games.zeeslag.outcome import opening_step, opening_steps
from fairtable.games.zeeslag.sinks import excuse_problem, wrong_answer
from fairtable.games.zeeslag.starships import CATALOGUE, DEFAULT_MONEY
from fairtable.games.zeeslag.state import Board, Sea, Squadron, ZeeslagState, fleet_of, wing_layer, with_board
from fairtable.games.zeeslag.targets import is_out, living, own_ship_cells, teams_for, waters, waters_for
from fairtable.games.zeeslag.view import view

VARIANTS = ("duel", "shared", "space")
SEATS = {"duel": (2, 8), "shared": (3, 8), "space": (2, 6)}
OPTIONS: dict[str, Option] = {
    "fleet": Choice(tuple(FLEETS), DEFAULT_FLEET),
    "money": Integer(20, 1000, DEFAULT_MONEY),
    "water_ring": Flag(True),
    "salvo": Choice(("spread", "focus"), "spread"),
    "shots": Integer(1, 5, 1),
    "teams": Integer(0, 4, 0),
}
BOTS: dict[str, BotFactory] = {"random": RandomBot, "greedy": GreedyBot}
ANSWERS = {"answer": volley.truth, "beam": effects.truth, "muster": purchase.truth}
"""The untimed decisions a seat's node answers from its own data: the one true answer each."""


def settle(state: ZeeslagState) -> ZeeslagState:
    """Take every step that needs no message, until a request is due."""
    while state.committed and state.outcome is None and state.stage != "muster":
        if state.stage in volley.STAGES:
            following = volley.step(state)
        elif state.stage == "done":
            following = outcome.decide(state)
            if following.outcome is None:
                following = duel.after(state) if state.turn is not None else salvo.after(state)
        elif state.stage == "aim" and len(living(state)) == 2:
            following = duel.step(state)
        else:
            following = salvo.step(state)
        if following is state:
            break
        state = following
    return state


REASONS = {"sunk": "every enemy ship sunk", "no targets": "no cell left to shoot at"}
"""Words for the reason codes of this game's results (``games/results.py``)."""


class Zeeslag(Rules[ZeeslagState]):
    """Battleship in every mode of the rule text: the fleet duel, salvos for three or more seats,
    teams, the shared sea with hidden owners, and the space battle."""
    id = "zeeslag"
    variants = VARIANTS
    min_seats = 2
    max_seats = 8
    state_type = ZeeslagState
    options = OPTIONS
    timed = True
    bots = BOTS
    renderer = render
    reasons = REASONS

    def seat_range(self, variant: str) -> tuple[int, int]:
        return SEATS[variant]

    def variant_options(self, variant: str) -> Mapping[str, Option]:
        """The shared sea has no water ring (ships of different seats may touch); the space
        battle buys its fleet with ``money`` instead of a ``fleet`` of the sea."""
        left_out = {"duel": {"money"}, "shared": {"water_ring", "money"}, "space": {"fleet"}}[variant]
        return {name: option for name, option in OPTIONS.items() if name not in left_out}

    def teams(self, variant: str, options: Mapping[str, Any], seats: int) -> Teams:
        return teams_for(options, seats)

    def start(self, variant: str, options: dict[str, Any], seats: int) -> ZeeslagState:
        count = options["teams"]
        if count and (count == 1 or seats < 4 or seats % count or seats // count < 2):
            raise OptionsError(f"option 'teams' splits 4 or more seats into 2..4 equal teams of 2 or more; {seats} seats "
                               f"cannot make {count}")
        seas = len(waters_for(variant, seats).seas)
        stage = "muster" if variant == "space" else "aim"
        return ZeeslagState(variant, options, (Board(),) * seats, (Sea(),) * seas, stage=stage, timeouts=(0,) * seats, sank=(0,) * seats)

    def random_hidden(self, state: ZeeslagState, seat: int, request: Request, rng: Rng) -> dict[str, tuple[int, ...]]:
        """A random legal fleet (space: bought at random), or a random legal squadron."""
        if state.committed:
            return reserve.random_squadron(state, seat, rng)
        return random_fleet(state, seat, rng)

    # ------------------------------------------------------------------ what happens next

    def pending(self, state: ZeeslagState) -> Request:
        if not state.committed:
            if state.outcome is not None:
                return Finished(state.outcome)
            board = waters(state).board
            return CommitHidden(tuple(range(len(state.boards))), board.width, board.height, LAYERS)
        if state.outcome is not None:
            step = opening_step(state)
            if step is None:
                return Finished(state.outcome)
            seat, layer = opening_steps(state)[step]
            return OpenHidden(seat, layer, tuple(range(waters(state).board.size)))
        if state.stage == "muster":
            return purchase.pending(state)
        if state.stage in volley.STAGES:
            return volley.pending(state)
        if state.stage == "aim" and len(living(state)) == 2:
            return duel.pending(state)
        return salvo.pending(state)

    def check_hidden(self, state: ZeeslagState, seat: int, data: Mapping[str, tuple[int, ...]]) -> None:
        """A seat's node refuses to commit anything but a legal fleet (space: a legal purchase),
        or a legal squadron for its reserve."""
        request = self.pending(state)
        if not isinstance(request, CommitHidden) or seat not in request.seats:
            raise RuleError("zeeslag.sequence", f"seat {seat} has nothing to commit now")
        layout = waters(state)
        if state.committed:
            board = state.boards[seat]
            (layer,) = request.layers
            values = data.get(layer) if isinstance(data, Mapping) and set(data) == {layer} else None
            pending = Squadron(reserve.barred(state, seat), reserve.aimed(state, seat))
            wrong = reserve.squadron_problem(layout.board, board.own[IDS], [board.own[w] for w in board.field_layers[1:]],
                                             pending, values if values is not None else ())
            if wrong is not None:
                raise RuleError("zeeslag.reserve", f"seat {seat}: {wrong}")
            return
        problem = fleet_problem(layout.board, fleet_of(state), data, partial(layout.place_problem, seat))
        if problem is not None:
            raise RuleError("zeeslag.fleet", f"seat {seat}: {problem}")
        if state.variant == "space":
            wrong_purchase = purchase.problem(state, seat, data[IDS])
            if wrong_purchase is not None:
                raise RuleError(wrong_purchase[0], f"seat {seat}: {wrong_purchase[1]}")

    def check_draft(self, state: ZeeslagState, seat: int, draft: Any) -> None:
        """The space battle's purchase before its ships are placed, ``{"buy": {kind id: count}}``:
        the catalogue's purchase rules, as :meth:`check_hidden` applies them to the fleet."""
        request = self.pending(state)
        if state.variant != "space" or state.committed or not isinstance(request, CommitHidden) or seat not in request.seats:
            raise RuleError("zeeslag.sequence", f"seat {seat} has no fleet to buy now")
        counts = draft.get("buy") if isinstance(draft, Mapping) and set(draft) == {"buy"} else None
        if not isinstance(counts, Mapping):
            raise RuleError("zeeslag.purchase", f"seat {seat}: a purchase is {{'buy': {{kind: count}}}}, got {draft!r}")
        wrong = CATALOGUE.purchase_problem(CATALOGUE.bought(counts), state.options["money"])
        if wrong is not None:
            raise wrong

    def check_choice(self, state: ZeeslagState, seat: int, choice: Any) -> None:
        """A salvo: its shape, its targets, its counts, as far as this state knows the seat's fleet."""
        request = self.pending(state)
        if not isinstance(request, Simultaneous) or seat not in request.seats:
            raise RuleError("zeeslag.sequence", f"seat {seat} has no salvo to fire now")
        salvo.check(state, seat, choice)

    # ------------------------------------------------------------------ events

    def on_committed(self, state: ZeeslagState, request: CommitHidden, event: Committed) -> ZeeslagState:
        if state.committed:
            return settle(reserve.landed(state, event))
        boards = list(state.boards)
        layout = waters(state)
        for seat, data in event.data.items():
            if seat not in request.seats:
                raise RuleError("zeeslag.hidden", f"seat {seat!r} commits no fleet")
            problem = shape_problem(layout.board, fleet_of(state), data)
            if problem is not None:
                raise RuleError("zeeslag.hidden", f"seat {seat}: {problem}")
            boards[seat] = dataclasses.replace(boards[seat], own={layer: tuple(data[layer]) for layer in LAYERS})
        return settle(dataclasses.replace(state, boards=tuple(boards), committed=True))

    def on_random(self, state: ZeeslagState, request: PublicRandom, event: RandomValue) -> ZeeslagState:
        state = dataclasses.replace(state, draws=state.draws + 1)
        if state.stage == "aim":
            return settle(duel.started(state, event.value))
        return settle(salvo.drawn(state, event.value))

    def on_move(self, state: ZeeslagState, request: Decide, event: Move, timeout: Timeout | None = None) -> ZeeslagState:
        if event.faces:
            raise RuleError("zeeslag.reveal", "zeeslag moves show no cards")
        if state.stage == "answer":
            return settle(volley.answered(state, request, event))
        if state.stage == "beam":
            return settle(effects.beamed(state, request, event))
        if state.stage == "muster":
            return settle(purchase.declared(state, request, event))
        return settle(duel.moved(state, request, event, timeout))

    def on_chosen(self, state: ZeeslagState, request: Simultaneous, event: Chosen, timeouts: tuple[Timeout, ...] = ()) -> ZeeslagState:
        return settle(salvo.chosen(state, request, event, timeouts))

    def on_summed(self, state: ZeeslagState, request: OpenSums, event: Summed) -> ZeeslagState:
        return settle(volley.summed(state, request, event))

    def on_opened(self, state: ZeeslagState, request: OpenHidden, event: Opened) -> ZeeslagState:
        board = self._learn(state, request, event)
        if state.outcome is None:
            return settle(volley.opened(state, request, board))
        if request.layer == (*LAYERS, *state.boards[request.seat].field_layers[1:])[-1]:
            self._judge(state, request.seat, board)
        step = opening_step(state)
        assert step is not None
        return with_board(state, request.seat, board, opening=step + 1)

    def _learn(self, state: ZeeslagState, request: OpenHidden, event: Opened) -> Board:
        """The seat's board with the opened cells, which must be the requested ones, in range,
        and agree with all this state knew of them."""
        if event.seat != request.seat or event.layer != request.layer or set(event.cells) != set(request.cells):
            raise RuleError("zeeslag.opened", f"the opening must be seat {request.seat}'s {request.layer} at the requested cells")
        top = {SHIPS: 1, IDS: len(fleet_of(state).ships)}.get(request.layer, CATALOGUE.squadron)
        board = state.boards[request.seat]
        grid = waters(state).board
        for cell, value in event.cells.items():
            if type(value) is not int or not 0 <= value <= top:
                raise RuleError("zeeslag.opened", f"seat {request.seat}: {request.layer} at {grid.name(cell)} is {value!r}, not in 0..{top}")
            known = board.known(request.layer, cell)
            if known not in (None, value):
                raise RuleError("zeeslag.opened", f"seat {request.seat}: {request.layer} at {grid.name(cell)} opened as {value}, known as {known}")
        return board.with_opened(request.layer, event.cells)

    def _judge(self, state: ZeeslagState, seat: int, board: Board) -> None:
        """At the full opening of ``seat``'s last layer: its opened fleet (and squadrons), judged."""
        cells = range(waters(state).board.size)
        layers = (*LAYERS, *board.field_layers[1:])
        self.judge_hidden(state, seat, {layer: tuple(board.opened_in(layer)[cell] for cell in cells) for layer in layers})

    def judge_hidden(self, state: ZeeslagState, seat: int, data: Mapping[str, tuple[int, ...]]) -> None:
        """``seat``'s whole fleet (at its full opening, or revealed with its seed): legal, every
        sink answer true, no shot aimed at its own ship, and no shot left unfired that its fleet
        did not excuse."""
        layout = waters(state)
        fleet = fleet_of(state)
        board = state.boards[seat]
        wings = tuple(board.field_layers[1:])
        if not isinstance(data, Mapping) or set(data) != {*LAYERS, *wings}:
            raise RuleError("zeeslag.fleet", f"seat {seat}: its hidden data has the layers {', '.join((*LAYERS, *wings))}")
        problem = fleet_problem(layout.board, fleet, {layer: data[layer] for layer in LAYERS}, partial(layout.place_problem, seat))
        if problem is not None:
            raise RuleError("zeeslag.fleet", f"seat {seat}: {problem}")
        if state.variant == "space":
            self._judge_space(state, seat, data)
        wrong = wrong_answer(layout, seat, fleet, state.seas[layout.sea_of(seat)], board, data[IDS])
        if wrong is not None:
            raise RuleError("zeeslag.missing_sink", f"seat {seat}: {wrong}")
        own = own_ship_cells(with_board(state, seat, dataclasses.replace(board, own=data)), seat) or frozenset()
        aimed = [cell for cell in board.aimed if cell in own]
        if aimed:
            raise RuleError("zeeslag.own_target", f"seat {seat}: it aimed at {layout.seas[0].name(aimed[0])}, a cell of its own ship")
        for excuse in board.excuses:
            problem = excuse_problem(excuse, own)
            if problem is not None:
                raise RuleError("zeeslag.salvo", f"seat {seat}: {problem}")

    def _judge_space(self, state: ZeeslagState, seat: int, data: Mapping[str, tuple[int, ...]]) -> None:
        """The purchase and its declared size, every ability used while a ship of its kind was
        afloat, and every squadron's landing."""
        wrong = purchase.problem(state, seat, data[IDS])
        if wrong is not None:
            raise RuleError(wrong[0], f"seat {seat}: {wrong[1]}")
        board = state.boards[seat]
        records = [record.ship for record in state.seas[waters(state).sea_of(seat)].sunk if record.seat == seat]
        present = {value - 1 for value in data[IDS] if value}
        for use in board.uses:
            kind = CATALOGUE.with_ability(use.ability)
            if not any(slot in present and slot not in records[: use.sunk] for slot in CATALOGUE.slots(kind.id)):
                raise RuleError("zeeslag.ability", f"seat {seat} used its {use.ability} with no {kind.name_en} afloat")
        grid = waters(state).board
        for number, squadron in enumerate(board.squadrons, 1):
            earlier = [data[wing_layer(k)] for k in range(1, number)]
            wrong_squadron = reserve.squadron_problem(grid, data[IDS], earlier, squadron, data[wing_layer(number)])
            if wrong_squadron is not None:
                raise RuleError("zeeslag.reserve", f"seat {seat}'s reserve {number}: {wrong_squadron}")

    def present(self, state: ZeeslagState) -> tuple[int, ...]:
        """Every seat but those that withheld their fleet (a seat out of play may still forfeit its opening)."""
        return tuple(seat for seat in range(len(state.boards)) if seat not in state.withheld)

    def on_forfeit(self, state: ZeeslagState, event: Forfeit) -> ZeeslagState:
        """Before the fleets are committed: the game ends (nothing to open). During play: the
        forfeit policy of ``outcome.leave`` (a seat already out only stays out); an absent seat
        cannot open, so its fleet stays closed. During the full opening: the seat withholds the
        rest of its fleet; if it had won, its team loses."""
        seat = event.seat
        reason = f"forfeit: {event.reason}"
        if not state.committed:
            return dataclasses.replace(state, outcome=Result.forfeit(outcome.teams(state), (seat,), reason, state.sank))
        withheld = state.withheld + (seat,) if event.reason == ABSENT or state.outcome is not None else state.withheld
        if state.outcome is None:
            state = dataclasses.replace(state, withheld=withheld)
            return state if is_out(state, seat) else settle(outcome.leave(state, seat, reason))
        result = state.outcome
        if seat in result.winners:
            result = Result.forfeit(outcome.teams(state), withheld, reason, state.sank)
        return dataclasses.replace(state, withheld=withheld, outcome=result)

    # ------------------------------------------------------------------ moves

    def moves(self, state: ZeeslagState, request: Decide | Simultaneous, seat: int) -> tuple[Any, ...]:
        """Duel: shots at every target in reading order (or the pass of a seat whose every
        target holds its own ship). A sink answer: the true one when this state knows the
        fleet (the seat's own), else none listed. Salvos are too many to list
        (:meth:`check_choice` judges them): none."""
        if isinstance(request, Simultaneous):
            return ()
        if state.stage in ANSWERS:
            truth = ANSWERS[state.stage](state, seat)
            return () if truth is None else (truth,)
        return duel.legal_moves(state, seat)

    def reveals(self, state: ZeeslagState, move: Any) -> tuple[int, ...]:
        """Zeeslag has no cards: moves show nothing; cells are shown by openings."""
        return ()

    def default_move(self, state: ZeeslagState, seat: int) -> Any:
        """The timer's shot (duel) or ``{"timeout": true}`` (a salvo the timer fires). A sink
        answer is the node's own, untimed, and always the true one."""
        request = self.pending(state)
        if isinstance(request, Simultaneous) and seat in request.seats:
            return salvo.TIMEOUT
        if not isinstance(request, Decide) or request.seat != seat:
            raise GameError(f"seat {seat} has no decision to make")
        if state.stage in ANSWERS:
            truth = ANSWERS[state.stage](state, seat)
            if truth is None:
                raise GameError(f"this state does not know seat {seat}'s fleet")
            return truth
        return duel.default_move(state, seat)

    def prompt(self, state: ZeeslagState, seat: int) -> Prompt:
        """Place (space: buy and place) the fleet, land a reserve, declare the ships bought, fire
        a salvo, shoot in a duel, or answer: which ships sank, what the laser met."""
        request = self.pending(state)
        if isinstance(request, CommitHidden):
            return Prompt("zeeslag.land" if state.committed else "zeeslag.buy" if state.variant == "space" else "zeeslag.place")
        if isinstance(request, Simultaneous):
            return Prompt("zeeslag.salvo")
        return Prompt({"muster": "zeeslag.declare", "answer": "zeeslag.answer", "beam": "zeeslag.beam"}.get(state.stage, "zeeslag.shoot"))

    def view(self, state: ZeeslagState, seat: int | None) -> dict:
        return view(state, seat, self.pending(state))
