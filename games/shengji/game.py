"""The shengji rules on the game contract (rulings in the package docstring, all of it in spec/games.md)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from typing import Any

from fairtable.games.contract import (
    BotFactory,
    Deal,
    DealStarted,
    Dealt,
    Decide,
    Face,
    Faces,
    Finished,
    Forfeit,
    GameError,
    Handle,
    Move,
    NextDeal,
    OptionsError,
    Prompt,
    PublicRandom,
    RandomValue,
    Request,
    Result,
    Reveal,
    Revealed,
    RuleError,
    Shuffle,
    Shuffled,
    Simultaneous,
    Teams,
    Timeout,
)
from fairtable.games.faces import learn
from fairtable.games.options import Integer
from fairtable.games.rules import Rules, timer_on, unmarked
from fairtable.games.shengji import render
from fairtable.games.shengji.bots import GreedyBot
from fairtable.games.shengji.catalogue import CARDS, DECK, HAND, KITTY, SEATS, SMALL_JOKER, SUITS, level_name
from fairtable.games.shengji.order import TRUMP, Lead, follow_fault, level_change, pairs, points, shape, winner
from fairtable.games.shengji.state import TEAMS, Declaration, Play, ShengjiState, Trick, team_of
from fairtable.games.shengji.views import view

OPTIONS = {
    "start": Integer(2, 14, 2),
    "target": Integer(2, 14, 14),
    "deals": Integer(0, 10_000, 0),
}
BOTS: dict[str, BotFactory] = {"greedy": lambda rng: GreedyBot()}
STEP_MOVES = {"declare": ("pass", "declare"), "bury": ("bury",)}


def parse_move(move: Any) -> tuple[str, tuple[Handle, ...]]:
    """``(kind, handles)`` of a move value (without the timer's marker), or :class:`RuleError` ``shengji.move``."""
    if isinstance(move, Mapping) and len(move) == 1:
        ((kind, value),) = move.items()
        if kind == "pass" and value is True:
            return kind, ()
        if kind in ("bury", "play") and _is_handle(value):
            return kind, (value,)
        if kind in ("declare", "lead") and isinstance(value, (list, tuple)) and value and all(map(_is_handle, value)):
            if len(set(value)) == len(value):
                return kind, tuple(value)
    raise RuleError("shengji.move", "a move is {'pass': true}, {'declare': [h, ...]}, {'bury': h}, {'lead': [h, ...]} or "
                    f"{{'play': h}}, optionally with 'timeout': true; got {move!r}", "move")


def _is_handle(value: Any) -> bool:
    return type(value) is int and value >= 0


def _replace_at(values: tuple, index: int, value: Any) -> tuple:
    return values[:index] + (value,) + values[index + 1 :]


def known(state: ShengjiState, handles: tuple[Handle, ...]) -> list[Face] | None:
    """The faces of ``handles`` if this state knows them all."""
    if any(handle not in state.faces for handle in handles):
        return None
    return [state.faces[handle] for handle in handles]


def declaration_strength(state: ShengjiState, faces: list[Face]) -> tuple[int, int | None] | None:
    """``(strength, trump suit)`` of showing ``faces`` as a declaration, or None if it is none:
    a level card (1), two identical level cards (2), two small jokers (3), two big jokers (4)."""
    cards = [CARDS[face] for face in faces]
    if len(cards) > 2 or (len(cards) == 2 and faces[0] != faces[1]):
        return None
    card = cards[0]
    if card.joker:
        return (3 if card.rank == SMALL_JOKER else 4, None) if len(cards) == 2 else None
    return (len(cards), card.suit_index) if card.rank == state.level else None


def lead_of(state: ShengjiState) -> Lead | None:
    """The shape of the trick's lead (the pattern every follower must match as far as it can), or
    None before anyone led."""
    if not state.trick:
        return None
    order = state.order
    form = shape(order, [state.faces[handle] for handle in state.trick[0].handles])
    assert form is not None
    return Lead(form.suit, form.size, form.pairs)


def own_play(state: ShengjiState, seat: int) -> tuple[Handle, ...]:
    """The cards ``seat`` has put into the current trick so far."""
    return next((play.handles for play in state.trick if play.seat == seat), ())


def _distinct(state: ShengjiState, hand: tuple[Handle, ...]) -> tuple[Handle, ...]:
    """One handle per face among single-card moves: two identical cards are the same move,
    unless one of them was shown to everyone (declared, or in a revealed kitty) and the other not."""
    shown = set(state.declaration.handles if state.declaration else ()) | (set(state.kitty) if state.declaration is None else set())
    seen: set[tuple[Face, bool]] = set()
    kept = []
    for handle in hand:
        key = (state.faces[handle], handle in shown)
        if key not in seen:
            seen.add(key)
            kept.append(handle)
    return tuple(kept)


def describe(faces: list[Face] | tuple[Face, ...]) -> str:
    """Cards as their short codes, for refusals and logs."""
    return " ".join(CARDS[face].code for face in faces) or "nothing"


REASONS = {"deal limit reached": "the higher level when the deal limit was reached"}
"""Words for the reason codes of this game's results (``games/results.py``)."""


REFUSAL_MARKS = {"shengji.follow": "shengji.follow", "shengji.pairs": "shengji.pairs"}
"""The one-word mark of each refusal a hand card's play meets (``Game.marks``)."""


class Shengji(Rules[ShengjiState]):
    """Tractor for four seats in two fixed partnerships: bidding trumps, the kitty, tricks, and
    levels from 2 to ace."""
    id = "shengji"
    variants = ("standard",)
    min_seats = SEATS
    max_seats = SEATS
    state_type = ShengjiState
    options = OPTIONS
    timed = True
    bots = BOTS
    renderer = render
    reasons = REASONS
    marks = REFUSAL_MARKS

    def teams(self, variant: str, options: Mapping[str, Any], seats: int) -> Teams:
        return TEAMS

    def start(self, variant: str, options: dict[str, Any], seats: int) -> ShengjiState:
        if options["start"] > options["target"]:
            raise OptionsError(f"option 'start' ({options['start']}) must not be above option 'target' ({options['target']})")
        return ShengjiState(options, (options["start"], options["start"]), options["start"])

    # ------------------------------------------------------------------ what happens next

    def pending(self, state: ShengjiState) -> Request:
        if state.result is not None:
            return Finished(state.result, state.deal_result)
        if state.deal_result is not None:
            return NextDeal(state.deal_result)
        step = state.step
        if step == "start":
            return PublicRandom(SEATS)
        if step == "shuffle":
            return Shuffle(DECK, state.first_handle)
        if step == "deal":
            first = state.first_handle
            return Deal(tuple((seat, tuple(range(first + seat * HAND, first + (seat + 1) * HAND))) for seat in range(SEATS)))
        if step == "kitty":
            assert state.dealer is not None
            return Deal(((state.dealer, state.kitty),))
        if step == "trump":
            return Reveal(state.kitty)
        if step == "buried":
            return Reveal(state.buried)
        return Decide(state.turn, timed=timer_on(state.options))

    # ------------------------------------------------------------------ events

    def present(self, state: ShengjiState) -> range:
        return range(SEATS)

    def on_forfeit(self, state: ShengjiState, event: Forfeit) -> ShengjiState:
        return dataclasses.replace(state, result=Result.forfeit(TEAMS, (event.seat,), f"forfeit: {event.reason}", self._levels(state)))

    def on_random(self, state: ShengjiState, request: PublicRandom, event: RandomValue) -> ShengjiState:
        return dataclasses.replace(state, step="shuffle", starter=event.value)

    def on_shuffled(self, state: ShengjiState, request: Shuffle, event: Shuffled) -> ShengjiState:
        handles = range(request.first_handle, request.first_handle + len(DECK))
        return dataclasses.replace(state, step="deal", faces=self._learn(state, event.faces, set(handles)),
                                   kitty=tuple(handles[SEATS * HAND :]))

    def on_dealt(self, state: ShengjiState, request: Deal, event: Dealt) -> ShengjiState:
        dealt = {handle for _, handles in request.to for handle in handles}
        faces = self._learn(state, event.faces, dealt)
        if state.step == "deal":
            turn = state.starter if state.dealer is None else state.dealer
            return dataclasses.replace(state, step="declare", hands=tuple(handles for _, handles in request.to), faces=faces, turn=turn)
        assert state.dealer is not None
        hands = _replace_at(state.hands, state.dealer, state.hands[state.dealer] + state.kitty)
        return dataclasses.replace(state, step="trump" if state.declaration is None else "bury", hands=hands, faces=faces,
                                   turn=state.dealer)

    def on_revealed(self, state: ShengjiState, request: Reveal, event: Revealed) -> ShengjiState:
        faces = self._learn(state, event.faces, set(request.handles))
        if not set(request.handles) <= set(faces):
            raise RuleError("shengji.reveal", "a reveal must show every requested card")
        if state.step == "trump":
            first = next(face for face in (faces[handle] for handle in state.kitty) if not CARDS[face].joker)
            return dataclasses.replace(state, step="bury", faces=faces, trump=CARDS[first].suit_index)
        return self._end_deal(dataclasses.replace(state, faces=faces))

    def on_move(self, state: ShengjiState, request: Decide, event: Move, timeout: Timeout | None = None) -> ShengjiState:
        seat = request.seat
        kind, handles = parse_move(event.move)
        allowed = STEP_MOVES.get(state.step, ("lead",) if not state.trick else ("play",))
        if kind not in allowed:
            raise RuleError("shengji.move", f"now seat {seat} may {' or '.join(allowed)}, not {kind}", "shengji.move:step",
                            may=" / ".join(allowed))
        if any(handle not in state.hands[seat] for handle in handles):
            raise RuleError("shengji.hand", f"seat {seat} does not hold every card of {list(handles)}", "shengji.hand")
        shown = set(self.reveals(state, event.move))
        faces = self._learn(state, event.faces, shown)
        if not shown <= set(faces):
            raise RuleError("shengji.reveal", f"the move must show the faces of {sorted(shown)}")
        state = dataclasses.replace(state, faces=faces)
        if timeout:
            self._check_default(state, seat, event.move)
            if timeout.final:
                return dataclasses.replace(state, result=Result.forfeit(TEAMS, (seat,), "timeouts", self._levels(state)))
        if kind in ("pass", "declare"):
            return self._declare(state, seat, handles)
        if kind == "bury":
            return self._bury(state, seat, handles[0])
        if kind == "lead":
            return self._lead(state, seat, handles)
        return self._follow(state, seat, handles[0])

    def on_deal_started(self, state: ShengjiState, request: NextDeal, event: DealStarted) -> ShengjiState:
        dealer = self._next_dealer(state)
        return ShengjiState(state.options, state.levels, state.levels[team_of(dealer)], step="shuffle", deal=state.deal + 1,
                            starter=state.starter, dealer=dealer, first_handle=state.first_handle + len(DECK), timeouts=state.timeouts)

    # ------------------------------------------------------------------ the steps of a deal

    def _declare(self, state: ShengjiState, seat: int, handles: tuple[Handle, ...]) -> ShengjiState:
        """A declaration or a pass; three passes after a declaration, or four without one, end the round."""
        declaration, dealer, passes = state.declaration, state.dealer, state.passes + 1
        if handles:
            faces = [state.faces[handle] for handle in handles]
            found = declaration_strength(state, faces)
            if found is None:
                raise RuleError("shengji.declare", f"{describe(faces)} is no declaration at level {level_name(state.level)}: "
                                "show a level card, two identical level cards or two identical jokers", "shengji.declare",
                                cards=describe(faces), level=level_name(state.level))
            strength, trump = found
            if declaration is not None and strength <= declaration.strength:
                raise RuleError("shengji.overcall", f"{describe(faces)} does not overcall seat {declaration.seat}'s declaration "
                                "(an overcall must be stronger: level card < level pair < small-joker pair < big-joker pair)", "shengji.overcall",
                                cards=describe(faces))
            declaration, passes = Declaration(seat, handles, strength, trump), 0
            dealer = seat if dealer is None else dealer
        if passes < (3 if declaration is not None else SEATS):
            return dataclasses.replace(state, declaration=declaration, dealer=dealer, passes=passes, turn=(seat + 1) % SEATS)
        dealer = state.starter if dealer is None else dealer
        return dataclasses.replace(state, step="kitty", declaration=declaration, dealer=dealer, passes=passes, turn=dealer)

    def _bury(self, state: ShengjiState, seat: int, handle: Handle) -> ShengjiState:
        hand = tuple(h for h in state.hands[seat] if h != handle)
        buried = state.buried + (handle,)
        step = "play" if len(buried) == KITTY else "bury"
        return dataclasses.replace(state, hands=_replace_at(state.hands, seat, hand), buried=buried, step=step)

    def _lead(self, state: ShengjiState, seat: int, handles: tuple[Handle, ...]) -> ShengjiState:
        faces = [state.faces[handle] for handle in handles]
        if shape(state.order, faces) is None:
            raise RuleError("shengji.lead", f"seat {seat} leads {describe(faces)}: a lead is one card, a pair of identical "
                            "cards or consecutive pairs of one suit (no throws)", "shengji.lead", cards=describe(faces))
        state = dataclasses.replace(state, trick=(Play(seat, handles),))
        return self._after_play(state, seat, handles)

    def _follow(self, state: ShengjiState, seat: int, handle: Handle) -> ShengjiState:
        lead = lead_of(state)
        assert lead is not None
        before = own_play(state, seat)
        held = known(state, state.hands[seat] + before)
        if held is not None:
            chosen = [state.faces[h] for h in before + (handle,)]
            fault = follow_fault(state.order, lead, held, chosen)
            if fault is not None:
                raise self._renege(state, seat, lead, held, chosen, fault)
        handles = before + (handle,)
        trick = state.trick[:-1] if before else state.trick
        return self._after_play(dataclasses.replace(state, trick=(*trick, Play(seat, handles))), seat, (handle,))

    def _renege(self, state: ShengjiState, seat: int, lead: Lead, held: list[Face], chosen: list[Face], fault: str) -> RuleError:
        """The verifier's (or the seat's own node's) finding: the seat, the trick, what it held and what it played."""
        order = state.order
        suited = sorted((face for face in held if order.suit(face) == lead.suit), key=order.sort_key)
        suit = "trump" if lead.suit == len(SUITS) else SUITS[lead.suit]
        where = f"seat {seat} in trick {state.tricks + 1} ({lead.size} {suit} led by seat {state.trick[0].seat})"
        if fault == "follow":
            return RuleError("shengji.follow", f"{where} held {describe(suited)} of the led suit and played {describe(chosen)}",
                             "shengji.follow", suit=f"shengji.suits.{suit}", cards=describe(suited))
        return RuleError("shengji.pairs", f"{where} held {pairs(suited)} pairs in {describe(suited)} and played {describe(chosen)}, "
                         f"which cannot give the {min(lead.pairs, pairs(suited))} pairs it owes", "shengji.pairs", suit=f"shengji.suits.{suit}",
                         owed=min(lead.pairs, pairs(suited)), cards=describe(suited))

    def _after_play(self, state: ShengjiState, seat: int, handles: tuple[Handle, ...]) -> ShengjiState:
        hand = tuple(h for h in state.hands[seat] if h not in handles)
        state = dataclasses.replace(state, hands=_replace_at(state.hands, seat, hand))
        lead = lead_of(state)
        assert lead is not None
        if len(state.trick[-1].handles) < lead.size:
            return state
        if len(state.trick) < SEATS:
            return dataclasses.replace(state, turn=(seat + 1) % SEATS)
        order = state.order
        best = state.trick[winner(order, [[state.faces[h] for h in play.handles] for play in state.trick])].seat
        won = sum(points([state.faces[h] for h in play.handles]) for play in state.trick)
        taken = list(state.points)
        taken[team_of(best)] += won
        state = dataclasses.replace(state, trick=(), last=Trick(state.trick, best), tricks=state.tricks + 1,
                                    points=(taken[0], taken[1]), turn=best)
        return state if any(state.hands) else dataclasses.replace(state, step="buried")

    def _end_deal(self, state: ShengjiState) -> ShengjiState:
        """Score the deal: the kitty bonus, the level change and the next dealer; end the match if it is won."""
        assert state.dealer is not None and state.attackers is not None and state.last is not None
        attackers, defenders = state.attackers, 1 - state.attackers
        size = len(state.last.plays[0].handles)
        bonus = points([state.faces[h] for h in state.buried]) * 2 * size if team_of(state.last.winner) == attackers else 0
        scored = state.points[attackers] + bonus
        keep, up = level_change(scored)
        levels = list(state.levels)
        gaining = defenders if keep else attackers
        levels[gaining] += up
        if keep:
            reason = f"attackers {scored}: defenders up {up}"
        else:
            reason = f"attackers {scored}: attackers take over" + (f", up {up}" if up else "")
        totals = list(state.points)
        totals[attackers] += bonus
        deal = Result(TEAMS[gaining], reason, tuple(totals[team_of(seat)] for seat in range(SEATS)), teams=TEAMS)
        state = dataclasses.replace(state, step="done", bonus=bonus, levels=(levels[0], levels[1]), deal_result=deal)
        return dataclasses.replace(state, result=self._match_result(state))

    def _match_result(self, state: ShengjiState) -> Result | None:
        """The first team past the target level wins; with a deal limit, when it is reached the
        higher level wins, and on equal levels the team that deals next."""
        target, limit = state.options["target"], state.options["deals"]
        past = [team for team in (0, 1) if state.levels[team] > target]
        if past:
            return Result(TEAMS[past[0]], f"past {level_name(target)}", self._levels(state), teams=TEAMS)
        if limit and state.deal + 1 >= limit:
            first, second = state.levels
            team = 0 if first > second else 1 if second > first else team_of(self._next_dealer(state))
            return Result(TEAMS[team], "deal limit reached", self._levels(state), teams=TEAMS)
        return None

    def _next_dealer(self, state: ShengjiState) -> int:
        """The dealer's partner while the defenders keep the deal; after a takeover the seat after the old dealer."""
        assert state.dealer is not None and state.deal_result is not None
        kept = team_of(state.deal_result.winners[0]) == team_of(state.dealer)
        return (state.dealer + (2 if kept else 1)) % SEATS

    @staticmethod
    def _levels(state: ShengjiState) -> tuple[int, ...]:
        return tuple(state.levels[team_of(seat)] for seat in range(SEATS))

    def _check_default(self, state: ShengjiState, seat: int, move: Any) -> None:
        """A timeout move must be the rules' default, where this state knows the hand."""
        try:
            expected = self.default_move(state, seat)
        except GameError:
            expected = None  # the hand is unknown here: the verifier checks it
        if expected is not None and parse_move(move) != parse_move(unmarked(expected)):
            raise RuleError("shengji.timeout", f"the timer's move for seat {seat} is {expected}, not {move}", "timeout")

    @staticmethod
    def _learn(state: ShengjiState, faces: Faces, allowed: set[Handle]) -> dict[Handle, Face]:
        return learn(state.faces, faces, allowed, len(CARDS), "shengji.face")

    # ------------------------------------------------------------------ moves

    def moves(self, state: ShengjiState, request: Decide | Simultaneous, seat: int) -> tuple[Any, ...]:
        order = state.order
        hand = tuple(sorted(state.hands[seat], key=lambda h: (*order.sort_key(state.faces[h]), h) if h in state.faces else (9, 0, 0, h)))
        faces = known(state, hand)
        if faces is None:
            return ()
        if state.step == "declare":
            return ({"pass": True}, *self._declarations(state, hand))
        if state.step == "bury":
            return tuple({"bury": handle} for handle in _distinct(state, hand))
        if not state.trick:
            return tuple({"lead": list(handles)} for handles in self._leads(state, hand))
        lead = lead_of(state)
        assert lead is not None
        before = own_play(state, seat)
        held = faces + [state.faces[h] for h in before]
        chosen = [state.faces[h] for h in before]
        return tuple({"play": h} for h in _distinct(state, hand) if follow_fault(order, lead, held, [*chosen, state.faces[h]]) is None)

    def _declarations(self, state: ShengjiState, hand: tuple[Handle, ...]) -> list[dict]:
        current = state.declaration.strength if state.declaration else 0
        by_face: dict[Face, list[Handle]] = {}
        for handle in hand:
            by_face.setdefault(state.faces[handle], []).append(handle)
        moves = []
        for face, handles in sorted(by_face.items()):
            for count in (1, 2)[: len(handles)]:
                found = declaration_strength(state, [face] * count)
                if found is not None and found[0] > current:
                    moves.append({"declare": handles[:count]})
        return moves

    def _leads(self, state: ShengjiState, hand: tuple[Handle, ...]) -> list[tuple[Handle, ...]]:
        """Every single, every pair and every run of two or more pairs on consecutive ranks of one effective suit."""
        order = state.order
        leads: list[tuple[Handle, ...]] = [(handle,) for handle in _distinct(state, hand)]
        by_face: dict[Face, list[Handle]] = {}
        for handle in hand:
            by_face.setdefault(state.faces[handle], []).append(handle)
        doubles = sorted((face for face, handles in by_face.items() if len(handles) == 2), key=order.sort_key)
        leads += [tuple(by_face[face]) for face in doubles]

        def runs(run: tuple[Face, ...]) -> Iterator[tuple[Face, ...]]:
            """Every longer run from ``run``: each pair on the next rank of its suit may follow, so
            every off-suit level pair continues the trump ace and leads on to the trump-suit level pair."""
            last = run[-1]
            for other in doubles:
                if order.suit(other) == order.suit(last) and order.rank(other) == order.rank(last) + 1:
                    yield run + (other,)
                    yield from runs(run + (other,))

        leads += [tuple(h for face in run for h in by_face[face]) for start in doubles for run in runs((start,))]
        return leads

    def prompt(self, state: ShengjiState, seat: int) -> Prompt:
        """Declare or pass, bury the kitty (the cards still to bury), lead, or follow the lead."""
        if state.step in ("declare", "bury"):
            return Prompt(f"shengji.{state.step}", {"count": KITTY - len(state.buried)} if state.step == "bury" else {})
        return Prompt("shengji.follow" if state.trick else "shengji.lead")

    def attempts(self, state: ShengjiState, seat: int) -> tuple[Any, ...]:
        """Each hand card's play while following a lead (every card may lead, declare or be buried)."""
        return tuple({"play": h} for h in state.hands[seat]) if state.step == "play" and state.trick else ()

    def reveals(self, state: ShengjiState, move: Any) -> tuple[Handle, ...]:
        """Declaring shows the declared cards, playing shows the cards played; burying and passing show nothing."""
        kind, handles = parse_move(unmarked(move))
        return handles if kind in ("declare", "lead", "play") else ()

    def default_move(self, state: ShengjiState, seat: int) -> Any:
        """Pass a declaration; bury, lead or follow with the lowest card allowed (plain before
        trump, no points before points, then by rank, face and handle)."""
        if state.step == "declare":
            return {"pass": True, "timeout": True}
        hand = state.hands[seat]
        if not hand or known(state, hand) is None:
            raise GameError(f"this state does not know seat {seat}'s hand")
        order = state.order

        def low(handle: Handle) -> tuple[bool, int, int, int, int]:
            face = state.faces[handle]
            return (order.suit(face) == TRUMP, CARDS[face].points, order.rank(face), face, handle)

        if state.step == "bury":
            return {"bury": min(hand, key=low), "timeout": True}
        if not state.trick:
            return {"lead": [min(hand, key=low)], "timeout": True}
        return {"play": min((move["play"] for move in self.legal_moves(state, seat)), key=low), "timeout": True}

    def view(self, state: ShengjiState, seat: int | None) -> dict:
        return view(state, seat)
