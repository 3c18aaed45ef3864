"""A toy card game for 2..16 seats, configured by its variant: the session's decks, deals, draws,
reveals and shows beyond two seats. It exists to exercise the session.

Variant ``plain`` (trick-taking): teams, many seats, a kitty dealt to one seat, a card shown to a
partner, a match of several deals. A deal: the dealer (a public random value for the first
deal, then the next seat); one joint shuffle; ``hand`` cards to each seat; the 4 left, the
kitty, to the dealer only; each team shows its members' first cards to each other; ``hand``
tricks, each seat in turn from the dealer's left playing one card (the higher face wins a
trick, whose winner leads the next); the kitty revealed. The team with most tricks wins the deal.

Variants ``deck`` and ``draw`` (high card, the session tests' mental deck and private draws for
2 to 4 seats): the last seat deals, so seat 0 leads and the seats play in order; no kitty;
``deck`` shuffles one more card than it deals and reveals it to everyone before the play (the
"trump", for show), ``draw`` draws the cards privately instead (faces below
:data:`DRAW_BOUND`); each seat gets one more card after its first play; the highest total of
faces played wins the deal.

Options: ``hand`` cards each (1..4; default 3, 2 in ``deck`` and ``draw``), ``deals`` per match
(1..5; default 2, 1), ``target`` (0: play every deal; else the first team with that many deals
won takes the match at once), ``partners`` (default true in ``plain``: seat s plays with seat
s + n/2; needs an even number of seats, at least 4). A forfeit ends the match: the seat's team
loses (``Result.forfeit``).
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
    PrivateDraw,
    PrivateDrawn,
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
DRAW_BOUND = 10
"""Every privately drawn face is below this."""


@dataclass(frozen=True)
class Style:
    """What a variant deals and how it scores: the rules that set the session's messages apart."""

    dealer: bool
    """A public random value picks the first dealer; else the last seat deals and seat 0 leads."""
    kitty: int
    """Cards dealt to the dealer after the hands, revealed at the deal's end."""
    trump: bool
    """One card more is shuffled and revealed to everyone before the play."""
    refill: bool
    """Each seat gets one card more after its first play."""
    draw: bool
    """The cards are drawn privately instead of dealt from a shuffled deck."""
    tricks: bool
    """The team with most tricks wins the deal (the trick's winner leads the next); else the
    highest total of faces played, the seats playing in turn."""


STYLES = {
    "plain": Style(dealer=True, kitty=KITTY, trump=False, refill=False, draw=False, tricks=True),
    "deck": Style(dealer=False, kitty=0, trump=True, refill=True, draw=False, tricks=False),
    "draw": Style(dealer=False, kitty=0, trump=False, refill=True, draw=True, tricks=False),
}


def _options(hand: int, deals: int, partners: bool) -> dict[str, Option]:
    return {"hand": Integer(1, 4, hand), "deals": Integer(1, 5, deals), "target": Integer(0, 5, 0), "partners": Flag(partners)}


OPTIONS = _options(3, 2, True)
HIGHCARD_OPTIONS = _options(2, 1, False)


@dataclass(frozen=True)
class TricksState:
    """A match in progress: the deal's step, hands, kitty and trick, the deal's scores and deals won per team."""
    options: Mapping[str, Any]
    style: Style
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
    played: int = 0
    """Tricks played in this deal."""
    refills: int = 0
    """Cards given after a first play in this deal."""
    owed: int | None = None
    """The seat a card is owed to (its first play was just made)."""
    scores: tuple[int, ...] = ()
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
    variants = tuple(STYLES)
    min_seats = 2
    max_seats = 16
    state_type = TricksState
    options = OPTIONS

    def seat_range(self, variant: str) -> tuple[int, int]:
        """``deck`` and ``draw`` for 2 to 4 seats (a private draw's bound allows no more)."""
        return (2, 16) if variant == "plain" else (2, 4)

    def variant_options(self, variant: str) -> Mapping[str, Option]:
        """``deck`` and ``draw`` deal 2 cards to single seats for one deal by default."""
        return OPTIONS if variant == "plain" else HIGHCARD_OPTIONS

    def teams(self, variant: str, options: Mapping[str, Any], seats: int) -> Teams:
        if not options["partners"]:
            return super().teams(variant, options, seats)
        return tuple((seat, seat + seats // 2) for seat in range(seats // 2))

    def start(self, variant: str, options: dict[str, Any], seats: int) -> TricksState:
        if options["partners"] and (seats < 4 or seats % 2):
            raise OptionsError(f"option 'partners' needs an even number of seats, at least 4, not {seats}")
        teams = self.teams(variant, options, seats)
        style = STYLES[variant]
        state = TricksState(options, style, teams, wins=(0,) * len(teams))
        return state if style.dealer else dataclasses.replace(state, step=self._after_dealer(style), dealer=seats - 1)

    # ------------------------------------------------------------------ requests

    def size(self, state: TricksState) -> int:
        """The handles one deal uses: the hands, the kitty, the refills and the trump."""
        style = state.style
        return state.seats * (state.options["hand"] + style.refill) + style.kitty + style.trump

    def pending(self, state: TricksState) -> Request:
        if state.result is not None:
            return Finished(state.result, state.deal_result)
        if state.deal_result is not None:
            return NextDeal(state.deal_result)
        hand = state.options["hand"]
        start = state.first_handle
        if state.step == "dealer":
            return PublicRandom(state.seats)
        if state.step == "shuffle":
            return Shuffle(tuple(range(self.size(state))), start)
        if state.step == "deal" and state.style.draw:
            seat = len(state.hands)
            return PrivateDraw(seat, DRAW_BOUND, hand, start + seat * hand)
        if state.step == "deal":
            return Deal(tuple((seat, tuple(range(start + seat * hand, start + (seat + 1) * hand))) for seat in range(state.seats)))
        if state.step == "kitty":
            return Deal(((state.dealer, self._kitty(state)),))
        if state.step == "trump":
            return Reveal((start + self.size(state) - 1,))
        if state.step == "show":
            team = state.teams[state.shown]
            return Show(tuple(state.hands[seat][0] for seat in team), team)
        if state.step == "play" and state.owed is not None:
            handle = start + state.seats * hand + state.style.kitty + state.refills
            return PrivateDraw(state.owed, DRAW_BOUND, 1, handle) if state.style.draw else Deal(((state.owed, (handle,)),))
        if state.step == "play":
            return Decide(state.turn)
        return Reveal(state.kitty)

    def _kitty(self, state: TricksState) -> tuple[int, ...]:
        start = state.first_handle + state.seats * state.options["hand"]
        return tuple(range(start, start + state.style.kitty))

    def _after_dealer(self, style: Style) -> str:
        return "deal" if style.draw else "shuffle"

    def _after_hands(self, state: TricksState) -> str:
        """The step after the hands and the kitty: the trump, else what follows it."""
        return "trump" if state.style.trump else self._after_trump(state)

    def _after_trump(self, state: TricksState) -> str:
        """The teams' shows, or the play when every team is one seat."""
        return "show" if len(state.teams[0]) > 1 else "play"

    # ------------------------------------------------------------------ events

    def present(self, state: TricksState) -> range:
        return range(state.seats)

    def on_forfeit(self, state: TricksState, event: Forfeit) -> TricksState:
        return dataclasses.replace(state, result=Result.forfeit(state.teams, (event.seat,), f"forfeit: {event.reason}", state.wins))

    def on_random(self, state: TricksState, request: PublicRandom, event: RandomValue) -> TricksState:
        return dataclasses.replace(state, step=self._after_dealer(state.style), dealer=event.value)

    def on_shuffled(self, state: TricksState, request: Shuffle, event: Shuffled) -> TricksState:
        return dataclasses.replace(state, step="deal", faces={**state.faces, **event.faces})

    def on_dealt(self, state: TricksState, request: Deal, event: Dealt) -> TricksState:
        faces = {**state.faces, **event.faces}
        if state.step == "play":
            return self._given(dataclasses.replace(state, faces=faces), request.to[0][1])
        if state.step == "kitty":
            return dataclasses.replace(state, step=self._after_hands(state), kitty=self._kitty(state), faces=faces)
        state = dataclasses.replace(state, hands=tuple(handles for _, handles in request.to), faces=faces,
                                    scores=(0,) * len(state.teams), turn=(state.dealer + 1) % state.seats)
        return dataclasses.replace(state, step="kitty" if state.style.kitty else self._after_hands(state))

    def on_drawn(self, state: TricksState, request: PrivateDraw, event: PrivateDrawn) -> TricksState:
        handles = tuple(range(request.first_handle, request.first_handle + request.count))
        state = dataclasses.replace(state, faces={**state.faces, **event.faces})
        if state.step == "play":
            return self._given(state, handles)
        hands = (*state.hands, handles)
        if len(hands) < state.seats:
            return dataclasses.replace(state, hands=hands)
        return dataclasses.replace(state, hands=hands, step=self._after_hands(state), scores=(0,) * len(state.teams),
                                   turn=(state.dealer + 1) % state.seats)

    def _given(self, state: TricksState, handles: tuple[int, ...]) -> TricksState:
        """The owed seat's card, given after its first play."""
        seat = state.owed
        assert seat is not None
        hands = state.hands[:seat] + (state.hands[seat] + handles,) + state.hands[seat + 1 :]
        return dataclasses.replace(state, hands=hands, owed=None, refills=state.refills + 1)

    def on_shown(self, state: TricksState, request: Show, event: Shown) -> TricksState:
        shown = state.shown + 1
        return dataclasses.replace(state, shown=shown, step="show" if shown < len(state.teams) else "play", faces={**state.faces, **event.faces})

    def on_move(self, state: TricksState, request: Decide, event: Move, timeout: Timeout | None = None) -> TricksState:
        seat = request.seat
        move = event.move
        if not (isinstance(move, Mapping) and set(move) == {"play"} and move["play"] in state.hands[seat] and move["play"] in event.faces):
            raise RuleError("tricks.move", f"seat {seat} plays {{'play': handle}} with a handle of its hand, shown, not {move!r}")
        handle = move["play"]
        faces = {**state.faces, **event.faces}
        hands = state.hands[:seat] + (tuple(h for h in state.hands[seat] if h != handle),) + state.hands[seat + 1 :]
        trick = (*state.trick, (seat, handle))
        owed = seat if state.style.refill and state.played == 0 else None
        scores = state.scores
        if not state.style.tricks:
            team = team_of(state, seat)
            scores = scores[:team] + (scores[team] + faces[handle],) + scores[team + 1 :]
        state = dataclasses.replace(state, hands=hands, faces=faces, owed=owed, scores=scores, turn=(seat + 1) % state.seats)
        if len(trick) < state.seats:
            return dataclasses.replace(state, trick=trick)
        state = dataclasses.replace(state, trick=(), played=state.played + 1)
        if state.style.tricks:
            winner = max(trick, key=lambda played: faces[played[1]])[0]
            team = team_of(state, winner)
            state = dataclasses.replace(state, turn=winner, scores=scores[:team] + (scores[team] + 1,) + scores[team + 1 :])
        if state.played < state.options["hand"]:
            return state
        return dataclasses.replace(state, step="open") if state.style.kitty else self._deal_over(state)

    def on_revealed(self, state: TricksState, request: Reveal, event: Revealed) -> TricksState:
        state = dataclasses.replace(state, faces={**state.faces, **event.faces})
        return self._deal_over(state) if state.step == "open" else dataclasses.replace(state, step=self._after_trump(state))

    def _deal_over(self, state: TricksState) -> TricksState:
        """The deal's result (most tricks, or the highest total), and the match's once it is decided."""
        best = max(state.scores)
        winning = [index for index, count in enumerate(state.scores) if count == best]
        winners = state.teams[winning[0]] if len(winning) == 1 else ()
        partners = state.teams if state.options["partners"] else ()
        deal = Result(tuple(sorted(winners)), "tricks" if state.style.tricks else "score", state.scores, teams=partners)
        wins = tuple(count + (len(winning) == 1 and index == winning[0]) for index, count in enumerate(state.wins))
        state = dataclasses.replace(state, wins=wins, deal_result=deal, step="done")
        target = state.options["target"]
        if state.deal + 1 < state.options["deals"] and not (target and max(wins) >= target):
            return state
        leader = max(wins)
        leaders = [index for index, count in enumerate(wins) if count == leader]
        match = tuple(sorted(state.teams[leaders[0]])) if len(leaders) == 1 else ()
        return dataclasses.replace(state, result=Result(match, "deals", wins, teams=partners))

    def on_deal_started(self, state: TricksState, request: NextDeal, event: DealStarted) -> TricksState:
        return dataclasses.replace(state, deal=state.deal + 1, dealer=(state.dealer + 1) % state.seats, step=self._after_dealer(state.style),
                                   shown=0, played=0, refills=0, first_handle=state.first_handle + self.size(state), deal_result=None,
                                   hands=(), kitty=())

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
            "hand": None if seat is None or seat >= len(state.hands) else [[h, state.faces.get(h)] for h in state.hands[seat]],
            "kitty": [state.faces.get(h) for h in state.kitty] if seat == state.dealer or state.step == "done" else len(state.kitty),
            "result": None if state.result is None else state.result.to_value(),
            "step": state.step,
            "trick": [[s, state.faces[h]] for s, h in state.trick],
            "tricks": list(state.scores),
            "wins": list(state.wins),
        }


TRICKS = Tricks()
