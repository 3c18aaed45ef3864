"""The drachenherz rules on the game contract (the rulings they rely on are in the package docstring)."""

from __future__ import annotations

import dataclasses
from typing import Any

from fairtable.games.contract import (
    BotFactory,
    Deal,
    DealStarted,
    Dealt,
    Decide,
    Finished,
    Forfeit,
    Handle,
    Move,
    NextDeal,
    Prompt,
    PublicRandom,
    RandomValue,
    Request,
    Result,
    RuleError,
    Shuffle,
    Shuffled,
    Simultaneous,
    Timeout,
)
from fairtable.games.drachenherz import match, moves, render
from fairtable.games.drachenherz.board import free, resolve
from fairtable.games.drachenherz.bots import GreedyBot
from fairtable.games.drachenherz.catalogue import CARDS, DRAGON_HAND, HAND, MARKS, SET, kind_of
from fairtable.games.drachenherz.state import RECENT, SEATS, DrachenherzState, Play
from fairtable.games.drachenherz.view import view
from fairtable.games.faces import learn
from fairtable.games.rules import Rules, timer_on, unmarked

OPTIONS = match.OPTIONS
BOTS: dict[str, BotFactory] = {"greedy": lambda rng: GreedyBot()}
LAST_TURN = 1
"""Turns left after the third ship mark: the other player's last turn."""
PILE_TURNS = 3
"""Turns left after a seat's pile runs out: the other's, that seat's next one, the other's last."""


def _at(values: tuple, index: int, value: Any) -> tuple:
    return values[:index] + (value,) + values[index + 1 :]


def _soonest(left: int | None, turns: int) -> int:
    return turns if left is None else min(left, turns)


def hand_limit(state: DrachenherzState, seat: int) -> int:
    """How many cards ``seat`` may hold: the dragon's holder may hold more."""
    return HAND + (DRAGON_HAND if state.dragon == seat else 0)


REASONS = {
    "points": "more points",
    "dragon": "equal points: the dragon's holder wins",
    "draw": "level on every count",
    "match": "first to the games the match needs",
    "sumof": "most points over the match's games",
}
"""Words for the reason codes of this game's results (``games/results.py``)."""


REFUSAL_MARKS = {"drachenherz.slots": "drachenherz.full"}
"""The one-word mark of each refusal a hand card's play meets (``Game.marks``)."""


class Drachenherz(Rules[DrachenherzState]):
    """Dragonheart for two: play cards onto the nine piles, take what a card lets you take, the most
    points when the deck or the ship runs out wins."""
    id = "drachenherz"
    variants = ("standard",)
    min_seats = 2
    max_seats = 2
    state_type = DrachenherzState
    options = OPTIONS
    timed = True
    bots = BOTS
    renderer = render
    reasons = REASONS
    marks = REFUSAL_MARKS

    def start(self, variant: str, options: dict[str, Any], seats: int) -> DrachenherzState:
        match.check(options)
        return DrachenherzState(options)

    # ------------------------------------------------------------------ what happens next

    def pending(self, state: DrachenherzState) -> Request:
        if state.result is not None:
            return Finished(state.result, state.deal_result)
        if state.deal_result is not None:
            return NextDeal(state.deal_result)
        if state.turn is None:
            return PublicRandom(SEATS)
        if state.decks < SEATS:
            return Shuffle(SET, state.decks * len(SET))
        if state.giving is not None:
            return PublicRandom(len(state.hands[state.giving]))
        if any(state.owed):
            return Deal(tuple((seat, state.piles[seat][:count]) for seat, count in enumerate(state.owed) if count))
        return Decide(state.turn, timed=timer_on(state.options))

    # ------------------------------------------------------------------ events

    def present(self, state: DrachenherzState) -> range:
        return range(SEATS)

    def on_forfeit(self, state: DrachenherzState, event: Forfeit) -> DrachenherzState:
        """A seat that leaves loses the game and the match."""
        return self._lose(state, event.seat, f"forfeit: {event.reason}")

    def _lose(self, state: DrachenherzState, seat: int, reason: str) -> DrachenherzState:
        teams = tuple((s,) for s in range(SEATS))
        if match.mode(state.options) == "single":
            return dataclasses.replace(state, result=Result.forfeit(teams, (seat,), reason, match.match_scores(state)))
        deal = state.deal_result or Result.forfeit(teams, (seat,), reason, match.game_result(state).scores)
        return dataclasses.replace(state, deal_result=deal, result=Result.forfeit(teams, (seat,), reason, match.match_scores(state)))

    def on_random(self, state: DrachenherzState, request: PublicRandom, event: RandomValue) -> DrachenherzState:
        if state.turn is None:
            return dataclasses.replace(state, first=event.value, turn=event.value)
        seat = state.giving
        assert seat is not None
        handle = state.hands[seat][event.value]
        state = dataclasses.replace(
            state,
            hands=_at(state.hands, seat, tuple(h for h in state.hands[seat] if h != handle)),
            piles=_at(state.piles, seat, (handle, *state.piles[seat])),
            returned=(*state.returned, handle),
            giving=None,
        )
        return self._refill(state)

    def on_shuffled(self, state: DrachenherzState, request: Shuffle, event: Shuffled) -> DrachenherzState:
        handles = range(request.first_handle, request.first_handle + len(request.cards))
        decks = state.decks + 1
        return dataclasses.replace(
            state,
            decks=decks,
            piles=_at(state.piles, state.decks, tuple(handles)),
            faces=learn(state.faces, event.faces, handles, len(CARDS), "drachenherz.face"),
            owed=(HAND,) * SEATS if decks == SEATS else state.owed,
        )

    def on_dealt(self, state: DrachenherzState, request: Deal, event: Dealt) -> DrachenherzState:
        dealt = {h for _, handles in request.to for h in handles}
        hands, piles = list(state.hands), list(state.piles)
        for seat, handles in request.to:
            hands[seat] += handles
            piles[seat] = piles[seat][len(handles) :]
        state = dataclasses.replace(
            state,
            hands=tuple(hands),
            piles=tuple(piles),
            owed=(0,) * SEATS,
            returned=tuple(h for h in state.returned if h not in dealt),
            faces=learn(state.faces, event.faces, dealt, len(CARDS), "drachenherz.face"),
        )
        return self._end_turn(state) if state.moved else state

    def on_move(self, state: DrachenherzState, request: Decide, event: Move, timeout: Timeout | None = None) -> DrachenherzState:
        seat = request.seat
        move = moves.parse(event.move)
        hand = state.hands[seat]
        if not set(move.play) <= set(hand):
            raise RuleError("drachenherz.hand", f"seat {seat} holds {list(hand)}, not all of {list(move.play)}", "drachenherz.hand")
        if set(event.faces) != set(move.play):
            raise RuleError("drachenherz.reveal", f"the move must show exactly the faces of {list(move.play)}")
        faces = learn(state.faces, event.faces, move.play, len(CARDS), "drachenherz.face")
        if timeout:
            # The timer's card is a public position, so every state can check it, and then knows its face.
            if move.play != hand[:1] or move != moves.parse(unmarked(moves.default(dataclasses.replace(state, faces=faces), seat))):
                raise RuleError("drachenherz.timeout",
                                "the timer plays the first hand card alone, taking the first field that holds cards where it must choose", "timeout")
        state = dataclasses.replace(state, faces=faces, moved=True)
        if move.play:
            state = self._lay(state, seat, move, timeout is not None)
        elif hand:
            raise RuleError("drachenherz.pass", "a turn lays at least one card while the hand holds any", "drachenherz.pass")
        if timeout and timeout.final:
            return self._lose(state, seat, "timeouts")
        return state if state.giving is not None else self._refill(state)

    def _lay(self, state: DrachenherzState, seat: int, move: moves.Parsed, timed_out: bool) -> DrachenherzState:
        """Lay the cards on their field and carry out its action; the dragon changes hands if
        a petrified dragon was taken."""
        kinds = {kind_of(state.faces[h]) for h in move.play}
        if len(kinds) > 1:
            raise RuleError("drachenherz.kind", "one play lays cards of one kind: " + ", ".join(sorted(kind.id for kind in kinds)),
                            "drachenherz.kind")
        (kind,) = kinds
        room = free(state.board, kind)
        if room is not None and len(move.play) > room:
            raise RuleError("drachenherz.slots", f"the {kind.id} field has {room} free slots, not {len(move.play)}", "drachenherz.slots",
                            field=f"drachenherz.cards.{kind.id}.field", room=room, count=len(move.play))
        allowed = moves.takes(state.board, kind, len(move.play))
        if move.take not in allowed:
            raise RuleError("drachenherz.take", f"this play of {kind.id} cards {moves.take_needed(kind, allowed)}, "
                                                f"not {move.take!r}", "drachenherz.take", field=f"drachenherz.cards.{kind.id}.field")
        outcome = resolve(state.board, kind, move.play, move.take)
        gains = outcome.dragon and state.dragon != seat
        loser = state.dragon if gains else None
        play = Play(seat, tuple(state.faces[h] for h in move.play), move.take, tuple(state.faces[h] for h in outcome.taken), gains, timed_out)
        return dataclasses.replace(
            state,
            hands=_at(state.hands, seat, tuple(h for h in state.hands[seat] if h not in move.play)),
            board=outcome.board,
            collected=_at(state.collected, seat, state.collected[seat] + outcome.taken),
            out=state.out + outcome.out,
            marks=state.marks + outcome.marks,
            dragon=seat if gains else state.dragon,
            giving=loser if loser is not None and state.hands[loser] else None,
            recent=(*state.recent, play)[-RECENT:],
        )

    def _refill(self, state: DrachenherzState) -> DrachenherzState:
        """The mover draws up to its hand size as far as its pile reaches, then the turn ends."""
        seat = state.turn
        assert seat is not None
        count = min(max(0, hand_limit(state, seat) - len(state.hands[seat])), len(state.piles[seat]))
        if count:
            return dataclasses.replace(state, owed=_at((0,) * SEATS, seat, count))
        return self._end_turn(state)

    def _end_turn(self, state: DrachenherzState) -> DrachenherzState:
        """Count down to the end (the third ship mark, or the mover's pile used up), then the
        other seat moves, or the game is over."""
        seat = state.turn
        assert seat is not None
        left = None if state.left is None else state.left - 1
        if state.marks >= MARKS:
            left = _soonest(left, LAST_TURN)
        if not state.piles[seat]:
            left = _soonest(left, PILE_TURNS)
        if left != 0:
            return dataclasses.replace(state, turn=1 - seat, left=left, moved=False)
        result = match.game_result(state)
        wins, totals, over = match.after_game(state, result)
        single = match.mode(state.options) == "single"
        return dataclasses.replace(state, left=0, moved=False, wins=wins, totals=totals, result=over,
                                   deal_result=None if single else result)

    def on_deal_started(self, state: DrachenherzState, request: NextDeal, event: DealStarted) -> DrachenherzState:
        deal = state.deal + 1
        return DrachenherzState(state.options, deal=deal, first=state.first, turn=match.starter(state, deal), timeouts=state.timeouts,
                                wins=state.wins, totals=state.totals)

    # ------------------------------------------------------------------ moves and views

    def moves(self, state: DrachenherzState, request: Decide | Simultaneous, seat: int) -> tuple[Any, ...]:
        return moves.legal(state, seat)

    def prompt(self, state: DrachenherzState, seat: int) -> Prompt:
        return Prompt("drachenherz.lay")

    def attempts(self, state: DrachenherzState, seat: int) -> tuple[Any, ...]:
        """Laying alone each hand card no legal play lays (its field full, say): the others can be laid."""
        laid = {h for move in moves.legal(state, seat) for h in move["play"]}
        return tuple(moves.value((h,)) for h in state.hands[seat] if h not in laid)

    def reveals(self, state: DrachenherzState, move: Any) -> tuple[Handle, ...]:
        """A play lays its cards face up."""
        return moves.played(move)

    def default_move(self, state: DrachenherzState, seat: int) -> Any:
        return moves.default(state, seat)

    def view(self, state: DrachenherzState, seat: int | None) -> dict:
        return view(state, seat)

