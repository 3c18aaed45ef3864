"""The towers rules on the game contract (the rulings they rely on are in the package docstring)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from fairtable.games.contract import (
    BotFactory,
    Deal,
    Dealt,
    Decide,
    Faces,
    Finished,
    Forfeit,
    GameError,
    Handle,
    Move,
    PrivateDraw,
    PrivateDrawn,
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
from fairtable.games.faces import learn
from fairtable.games.options import Choice
from fairtable.games.rules import Rules, timer_on, unmarked
from fairtable.games.towers import render
from fairtable.games.towers.bots import GreedyBot
from fairtable.games.towers.catalogue import BATTLEFIELDS, CARDS, DEFAULT_BATTLEFIELD, HAND_SIZE, Battlefield, Card
from fairtable.games.towers.effects import RESOURCES, Change, Side, resolve
from fairtable.games.towers.state import RECENT, Action, TowersState

VARIANTS = ("normal", "infinite")
OPTIONS = {"battlefield": Choice(tuple(BATTLEFIELDS), DEFAULT_BATTLEFIELD)}
BOTS: dict[str, BotFactory] = {"greedy": lambda rng: GreedyBot()}


def battlefield(state: TowersState) -> Battlefield:
    """The battlefield the table chose: starting values and goals."""
    return BATTLEFIELDS[state.options["battlefield"]]


def affordable(card: Card, side: Side) -> bool:
    """Whether ``side`` has enough of the card's resource to play it."""
    return card.cost <= getattr(side, card.resource)


def parse_move(move: Any) -> tuple[str, Handle]:
    """``(kind, handle)`` of a move value (without the timer's marker), or :class:`RuleError` ``towers.move``."""
    if isinstance(move, Mapping) and set(move) in ({"play"}, {"discard"}):
        kind = "play" if "play" in move else "discard"
        handle = move[kind]
        if isinstance(handle, int) and not isinstance(handle, bool):
            return kind, handle
    raise RuleError("towers.move", f"a move is {{'play': h}}, {{'discard': h}} or {{'discard': h, 'timeout': true}}, got {move!r}", "move")


def _learn(state: TowersState, faces: Faces, allowed: set[Handle]) -> dict[Handle, int]:
    return learn(state.faces, faces, allowed, len(CARDS), "towers.face")


def _replace_at(values: tuple, index: int, value: Any) -> tuple:
    return values[:index] + (value,) + values[index + 1 :]


def _income(sides: tuple[Side, ...], seat: int) -> tuple[Side, ...]:
    """The sides as ``seat``'s turn starts: with its income (a refill may still be dealt first)."""
    return _replace_at(sides, seat, sides[seat].produced())


def _victory(state: TowersState, sides: tuple[Side, ...]) -> Result | None:
    """Checked after every card: a seat wins by its own tower, any own resource, or the
    enemy's tower at 0; both at once is a draw."""
    field = battlefield(state)
    reasons: list[str | None] = []
    for seat, side in enumerate(sides):
        if side.tower >= field.victory_tower:
            reasons.append("tower")
        elif any(getattr(side, name) >= field.victory_resource for name in RESOURCES):
            reasons.append("resource")
        elif sides[1 - seat].tower == 0:
            reasons.append("destroyed")
        else:
            reasons.append(None)
    winners = tuple(seat for seat, reason in enumerate(reasons) if reason)
    if len(winners) == 2:
        return Result((), "simultaneous")
    first = next((reason for reason in reasons if reason), None)
    return Result(winners, first) if first else None


REASONS = {
    "tower": "own tower built to the goal",
    "resource": "a resource reached the goal",
    "destroyed": "enemy tower destroyed",
    "simultaneous": "both reached a goal at once",
}
"""Words for the reason codes of this game's results (``games/results.py``)."""


REFUSAL_MARKS = {"towers.cost": "towers.cost"}
"""The one-word mark of each refusal a hand card's play meets (``Game.marks``)."""


class Towers(Rules[TowersState]):
    """The 102-card tower duel: build your tower or wreck the other's, on one of eight battlefields,
    with a normal or infinite deck."""
    id = "towers"
    variants = VARIANTS
    min_seats = 2
    max_seats = 2
    state_type = TowersState
    options = OPTIONS
    timed = True
    bots = BOTS
    renderer = render
    reasons = REASONS
    marks = REFUSAL_MARKS

    def start(self, variant: str, options: dict[str, Any], seats: int) -> TowersState:
        start = BATTLEFIELDS[options["battlefield"]].start
        return TowersState(
            variant=variant,
            options=options,
            sides=(start, start),
            hands=((), ()),
            deck=(),
            # The whole catalogue starts in the pile, so the first shuffle is just the first reshuffle.
            discard=tuple(range(len(CARDS))) if variant == "normal" else (),
            faces={},
            next_handle=0,
            owed=(HAND_SIZE, HAND_SIZE),
        )

    # ------------------------------------------------------------------ what happens next

    def pending(self, state: TowersState) -> Request:
        if state.result is not None:
            return Finished(state.result)
        if state.turn is None:
            return PublicRandom(2)
        for seat, count in enumerate(state.owed):
            if count:
                if state.variant == "infinite":
                    return PrivateDraw(seat, len(CARDS), count, state.next_handle)
                if not state.deck:
                    return Shuffle(tuple(sorted(state.discard)), state.next_handle)
                return Deal(self._deal_plan(state))
        return Decide(state.turn, timed=timer_on(state.options))

    @staticmethod
    def _deal_plan(state: TowersState) -> tuple[tuple[int, tuple[Handle, ...]], ...]:
        """Owed cards from the top of the deck, seat 0's first, as far as the deck reaches."""
        plan, top = [], 0
        for seat, count in enumerate(state.owed):
            handles = state.deck[top : top + count]
            top += len(handles)
            if handles:
                plan.append((seat, handles))
        return tuple(plan)

    # ------------------------------------------------------------------ events

    def present(self, state: TowersState) -> tuple[int, ...]:
        return (0, 1)

    def on_forfeit(self, state: TowersState, event: Forfeit) -> TowersState:
        return dataclasses.replace(state, result=Result((1 - event.seat,), f"forfeit: {event.reason}"))

    def on_random(self, state: TowersState, request: PublicRandom, event: RandomValue) -> TowersState:
        return dataclasses.replace(state, turn=event.value, sides=_income(state.sides, event.value))

    def on_shuffled(self, state: TowersState, request: Shuffle, event: Shuffled) -> TowersState:
        handles = range(request.first_handle, request.first_handle + len(request.cards))
        return dataclasses.replace(
            state,
            deck=tuple(handles),
            discard=(),
            faces=_learn(state, event.faces, set(handles)),
            next_handle=handles.stop,
        )

    def on_dealt(self, state: TowersState, request: Deal, event: Dealt) -> TowersState:
        dealt = {handle for _, handles in request.to for handle in handles}
        hands, owed = list(state.hands), list(state.owed)
        for seat, handles in request.to:
            hands[seat] += handles
            owed[seat] -= len(handles)
        return dataclasses.replace(
            state,
            hands=tuple(hands),
            owed=tuple(owed),
            deck=state.deck[len(dealt) :],
            faces=_learn(state, event.faces, dealt),
        )

    def on_drawn(self, state: TowersState, request: PrivateDraw, event: PrivateDrawn) -> TowersState:
        handles = range(request.first_handle, request.first_handle + request.count)
        return dataclasses.replace(
            state,
            hands=_replace_at(state.hands, request.seat, state.hands[request.seat] + tuple(handles)),
            owed=_replace_at(state.owed, request.seat, 0),
            faces=_learn(state, event.faces, set(handles)),
            next_handle=handles.stop,
        )

    def on_move(self, state: TowersState, request: Decide, event: Move, timeout: Timeout | None = None) -> TowersState:
        seat = request.seat
        kind, handle = parse_move(event.move)
        if timeout and kind != "discard":
            raise RuleError("towers.move", "the timer's move is {'discard': h, 'timeout': true}", "timeout")
        hand = state.hands[seat]
        if handle not in hand:
            raise RuleError("towers.hand", f"handle {handle} is not in seat {seat}'s hand", "towers.hand")
        if set(event.faces) != {handle}:
            raise RuleError("towers.reveal", f"the move must show exactly the face of handle {handle}")
        faces = _learn(state, event.faces, {handle})
        if timeout:
            if all(h in faces for h in hand):
                expected = self.default_move(dataclasses.replace(state, faces=faces), seat)
                if expected["discard"] != handle:
                    raise RuleError("towers.timeout", f"the timer discards the worst card, handle {expected['discard']}", "timeout")
        card = CARDS[faces.pop(handle)]
        sides = state.sides
        if kind == "play":
            if state.must_discard:
                raise RuleError("towers.discard", "after drawing for a card's effect you must discard", "towers.discard")
            if not affordable(card, sides[seat]):
                have = getattr(sides[seat], card.resource)
                raise RuleError("towers.cost", f"{card.name} costs {card.cost} {card.resource}, seat {seat} has {have}", "towers.cost",
                                card=f"towers.cards.{card.id}", cost=card.cost, resource=f"towers.resources.{card.resource}", have=have)
            sides = resolve((Change(card.resource, -card.cost, "self"), *card.effect), sides, seat)
        hand = tuple(h for h in hand if h != handle)
        changes: dict[str, Any] = dict(
            sides=sides,
            hands=_replace_at(state.hands, seat, hand),
            discard=state.discard + (card.id,) if state.variant == "normal" else (),
            faces=faces,
            recent=(state.recent + (Action(seat, card.id, kind == "play", timeout is not None),))[-RECENT:],
        )
        result = Result((1 - seat,), "timeouts") if timeout and timeout.final else _victory(state, sides)
        if result is not None:
            changes.update(result=result)
        elif kind == "play" and card.after == "draw_discard":
            changes.update(owed=_replace_at(state.owed, seat, 1), must_discard=True)
        else:
            changes.update(owed=_replace_at(state.owed, seat, HAND_SIZE - len(hand)), must_discard=False)
            if not ((kind == "play" and card.after == "play_again") or state.must_discard):
                changes.update(turn=1 - seat, sides=_income(sides, 1 - seat))
        return dataclasses.replace(state, **changes)

    # ------------------------------------------------------------------ moves

    def moves(self, state: TowersState, request: Decide | Simultaneous, seat: int) -> tuple[Any, ...]:
        """Discards of any card; plays of cards known affordable, or of unknown faces (maybe affordable)."""
        hand = state.hands[seat]
        plays = () if state.must_discard else tuple(
            {"play": h} for h in hand if h not in state.faces or affordable(CARDS[state.faces[h]], state.sides[seat])
        )
        return plays + tuple({"discard": h} for h in hand)

    def prompt(self, state: TowersState, seat: int) -> Prompt:
        """Play or discard; after a "draw a card, discard a card" card, discard (and play again)."""
        return Prompt("towers.discard" if state.must_discard else "towers.play")

    def attempts(self, state: TowersState, seat: int) -> tuple[Any, ...]:
        """Each hand card's play, while a play may be made (a discard is always legal)."""
        return () if state.must_discard else tuple({"play": h} for h in state.hands[seat])

    def reveals(self, state: TowersState, move: Any) -> tuple[Handle, ...]:
        """Playing or discarding a card shows it to everyone."""
        return (parse_move(unmarked(move))[1],)

    def default_move(self, state: TowersState, seat: int) -> Any:
        """Discard the worst card: the most expensive one ``seat`` cannot afford, else the
        cheapest; ties by the lower catalogue id, then the lower handle."""
        hand = state.hands[seat]
        if not hand or any(h not in state.faces for h in hand):
            raise GameError(f"this state does not know seat {seat}'s hand")
        side = state.sides[seat]
        cards = [(CARDS[state.faces[h]], h) for h in hand]
        blocked = [(-card.cost, card.id, h) for card, h in cards if not affordable(card, side)]
        worst = min(blocked or [(card.cost, card.id, h) for card, h in cards])
        return {"discard": worst[2], "timeout": True}

    # ------------------------------------------------------------------ views

    def view(self, state: TowersState, seat: int | None) -> dict:
        field = battlefield(state)
        normal = state.variant == "normal"
        return {
            "battlefield": field.id,
            "victory": {"resource": field.victory_resource, "tower": field.victory_tower},
            "variant": state.variant,
            "seat": seat,
            "turn": state.turn,
            "phase": _phase(state),
            "players": [
                {**dataclasses.asdict(side), "cards": len(state.hands[index]), "timeouts": state.timeouts[index]}
                for index, side in enumerate(state.sides)
            ],
            "hand": None if seat is None else [{"card": state.faces.get(h), "handle": h} for h in state.hands[seat]],
            "deck": len(state.deck) if normal else None,
            "discard": len(state.discard) if normal else None,
            "recent": [dataclasses.asdict(action) for action in state.recent],
            "result": None if state.result is None else state.result.to_value(),
        }


def _phase(state: TowersState) -> str:
    if state.result is not None:
        return "over"
    if state.turn is None:
        return "start"
    return "discard" if state.must_discard else "play"

