"""A toy trick-taking game for 2..16 seats: teams, many seats, a kitty dealt to one seat, a card
shown to a partner, and a match of several deals. It exists to exercise the session.

Deck: faces ``0 .. seats * hand + 3`` (the higher face wins a trick). Options: ``hand`` cards
each (1..4, default 3), ``deals`` per match (1..5, default 2), ``target`` (0: play every deal;
else the first team with that many deals won takes the match at once), ``partners`` (default
true: seat s plays with seat s + n/2; needs an even number of seats, at least 4).

A deal: the dealer (a public random value for the first deal, then the next seat); one joint
shuffle; ``hand`` cards to each seat; the 4 left, the kitty, to the dealer only; each team
shows its members' first cards to each other; ``hand`` tricks, each seat in turn from the
dealer's left playing one card; the kitty revealed. The team with most tricks wins the deal.
A forfeit ends the match: the seat's team loses (``Result.forfeit``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from fairtable.games.contract import (
    Deal,
    DealStarted,
    Dealt,
    Decide,
    Finished,
    Forfeit,
    GameError,
    Move,
    NextDeal,
    OptionsError,
    PublicRandom,
    RandomValue,
    Request,
    Result,
    Reveal,
    Revealed,
    RuleError,
    Show,
    Shown,
    Shuffle,
    Shuffled,
    Simultaneous,
    Teams,
    Timeout,
)
from fairtable.games.options import Flag, Integer, Option
from fairtable.games.rules import Rules

KITTY = 4
OPTIONS: dict[str, Option] = {"hand": Integer(1, 4, 3), "deals": Integer(1, 5, 2), "target": Integer(0, 5, 0), "partners": Flag(True)}


@dataclass(frozen=True)
class TricksState:
    """A match in progress: the deal's step, hands, kitty and trick, tricks and deals won per team."""
    options: Mapping[str, Any]
    teams: Teams
    step: str = "dealer"
    deal: int = 0
    dealer: int = 0
    turn: int = 0
    first_handle: int = 0
    hands: tuple[tuple[int, ...], ...] = ()
    kitty: tuple[int, ...] = ()
    shown: int = 0
    trick: tuple[tuple[int, int], ...] = ()
    tricks: tuple[int, ...] = ()
    wins: tuple[int, ...] = ()
    faces: Mapping[int, int] = field(default_factory=dict)
    deal_result: Result | None = None
    result: Result | None = None

    @property
    def seats(self) -> int:
        """Every seat of every team: the table's size."""
        return sum(len(team) for team in self.teams)


def team_of(state: TricksState, seat: int) -> int:
    """The index of ``seat``'s team."""
    return next(index for index, team in enumerate(state.teams) if seat in team)


class Tricks(Rules[TricksState]):
    """See the module docstring."""

    id = "tricks"
    variants = ("plain",)
    min_seats = 2
    max_seats = 16
    state_type = TricksState
    options = OPTIONS

    def teams(self, variant: str, options: Mapping[str, Any], seats: int) -> Teams:
        if not options["partners"]:
            return super().teams(variant, options, seats)
        return tuple((seat, seat + seats // 2) for seat in range(seats // 2))

    def start(self, variant: str, options: dict[str, Any], seats: int) -> TricksState:
        if options["partners"] and (seats < 4 or seats % 2):
            raise OptionsError(f"option 'partners' needs an even number of seats, at least 4, not {seats}")
        teams = self.teams(variant, options, seats)
        return TricksState(options, teams, wins=(0,) * len(teams))

    # ------------------------------------------------------------------ requests

    def pending(self, state: TricksState) -> Request:
        if state.result is not None:
            return Finished(state.result, state.deal_result)
        if state.deal_result is not None:
            return NextDeal(state.deal_result)
        hand = state.options["hand"]
        if state.step == "dealer":
            return PublicRandom(state.seats)
        if state.step == "shuffle":
            return Shuffle(tuple(range(state.seats * hand + KITTY)), state.first_handle)
        if state.step == "deal":
            start = state.first_handle
            return Deal(tuple((seat, tuple(range(start + seat * hand, start + (seat + 1) * hand))) for seat in range(state.seats)))
        if state.step == "kitty":
            return Deal(((state.dealer, self._kitty(state)),))
        if state.step == "show":
            team = state.teams[state.shown]
            return Show(tuple(state.hands[seat][0] for seat in team), team)
        if state.step == "play":
            return Decide(state.turn)
        return Reveal(state.kitty)

    def _kitty(self, state: TricksState) -> tuple[int, ...]:
        start = state.first_handle + state.seats * state.options["hand"]
        return tuple(range(start, start + KITTY))

    # ------------------------------------------------------------------ events

    def present(self, state: TricksState) -> range:
        return range(state.seats)

    def on_forfeit(self, state: TricksState, event: Forfeit) -> TricksState:
        return dataclasses.replace(state, result=Result.forfeit(state.teams, (event.seat,), f"forfeit: {event.reason}", state.wins))

    def on_random(self, state: TricksState, request: PublicRandom, event: RandomValue) -> TricksState:
        return dataclasses.replace(state, step="shuffle", dealer=event.value)

    def on_shuffled(self, state: TricksState, request: Shuffle, event: Shuffled) -> TricksState:
        return dataclasses.replace(state, step="deal", faces={**state.faces, **event.faces})

    def on_dealt(self, state: TricksState, request: Deal, event: Dealt) -> TricksState:
        faces = {**state.faces, **event.faces}
        if state.step == "kitty":
            step = "show" if len(state.teams[0]) > 1 else "play"
            return dataclasses.replace(state, step=step, kitty=self._kitty(state), faces=faces, turn=(state.dealer + 1) % state.seats)
        return dataclasses.replace(state, step="kitty", hands=tuple(handles for _, handles in request.to), faces=faces,
                                   tricks=(0,) * len(state.teams))

    def on_shown(self, state: TricksState, request: Show, event: Shown) -> TricksState:
        shown = state.shown + 1
        return dataclasses.replace(state, shown=shown, step="show" if shown < len(state.teams) else "play", faces={**state.faces, **event.faces})

    def on_move(self, state: TricksState, request: Decide, event: Move, timeout: Timeout | None = None) -> TricksState:
        seat = request.seat
        move = event.move
        if not (isinstance(move, Mapping) and set(move) == {"play"} and move["play"] in state.hands[seat]):
            raise RuleError("tricks.move", f"seat {seat} plays {{'play': handle}} with a handle of its hand, not {move!r}")
        handle = move["play"]
        faces = {**state.faces, **event.faces}
        hands = state.hands[:seat] + (tuple(h for h in state.hands[seat] if h != handle),) + state.hands[seat + 1 :]
        trick = (*state.trick, (seat, handle))
        if len(trick) < state.seats:
            return dataclasses.replace(state, hands=hands, trick=trick, faces=faces, turn=(seat + 1) % state.seats)
        winner = max(trick, key=lambda played: faces[played[1]])[0]
        tricks = list(state.tricks)
        tricks[team_of(state, winner)] += 1
        step = "play" if hands[0] else "open"
        return dataclasses.replace(state, hands=hands, trick=(), faces=faces, turn=winner, tricks=tuple(tricks), step=step)

    def on_revealed(self, state: TricksState, request: Reveal, event: Revealed) -> TricksState:
        best = max(state.tricks)
        winning = [index for index, count in enumerate(state.tricks) if count == best]
        winners = state.teams[winning[0]] if len(winning) == 1 else ()
        partners = state.teams if state.options["partners"] else ()
        deal = Result(tuple(sorted(winners)), "tricks", state.tricks, teams=partners)
        wins = tuple(count + (len(winning) == 1 and index == winning[0]) for index, count in enumerate(state.wins))
        state = dataclasses.replace(state, faces={**state.faces, **event.faces}, wins=wins, deal_result=deal, step="done")
        target = state.options["target"]
        if state.deal + 1 < state.options["deals"] and not (target and max(wins) >= target):
            return state
        leader = max(wins)
        leaders = [index for index, count in enumerate(wins) if count == leader]
        match = tuple(sorted(state.teams[leaders[0]])) if len(leaders) == 1 else ()
        return dataclasses.replace(state, result=Result(match, "deals", wins, teams=partners))

    def on_deal_started(self, state: TricksState, request: NextDeal, event: DealStarted) -> TricksState:
        size = state.seats * state.options["hand"] + KITTY
        return dataclasses.replace(state, deal=state.deal + 1, dealer=(state.dealer + 1) % state.seats, step="shuffle", shown=0,
                                   first_handle=state.first_handle + size, deal_result=None, hands=(), kitty=())

    # ------------------------------------------------------------------ moves and views

    def moves(self, state: TricksState, request: Decide | Simultaneous, seat: int) -> tuple[Any, ...]:
        return tuple({"play": handle} for handle in state.hands[seat])

    def reveals(self, state: TricksState, move: Any) -> tuple[int, ...]:
        return (move["play"],) if isinstance(move, Mapping) and type(move.get("play")) is int else ()

    def default_move(self, state: TricksState, seat: int) -> Any:
        """The lowest card of the hand (needs the seat's own knowledge)."""
        hand = state.hands[seat]
        if any(handle not in state.faces for handle in hand):
            raise GameError(f"this state does not know seat {seat}'s hand")
        return {"play": min(hand, key=lambda handle: state.faces[handle])}

    def view(self, state: TricksState, seat: int | None) -> dict:
        return {
            "deal": state.deal,
            "dealer": state.dealer,
            "hand": None if seat is None or not state.hands else [[h, state.faces.get(h)] for h in state.hands[seat]],
            "kitty": [state.faces.get(h) for h in state.kitty] if seat == state.dealer or state.step == "done" else len(state.kitty),
            "result": None if state.result is None else state.result.to_value(),
            "step": state.step,
            "trick": [[s, state.faces[h]] for s, h in state.trick],
            "tricks": list(state.tricks),
            "wins": list(state.wins),
        }


TRICKS = Tricks()
