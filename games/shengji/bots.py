"""A heuristic shengji bot that plays with its own seat's knowledge only (it can run on the seat's node).

It declares the suit it holds most trumps in, buries low plain cards of its short suits, leads
tractors, high pairs and top cards, wins tricks it can win cheaply, gives points to a partner
who is winning, and otherwise throws its lowest card without points.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from fairtable.games.contract import Face, Handle
from fairtable.games.shengji.catalogue import CARDS
from fairtable.games.shengji.order import TRUMP, Lead, Order, follow_fault, points, shape, winner
from fairtable.games.shengji.state import ShengjiState, team_of

if TYPE_CHECKING:
    from fairtable.games.shengji.game import Shengji

DECLARE_AT = 9
"""Declare a suit only with this many trumps in hand under it."""


class GreedyBot:
    """Plays with its own seat's knowledge: declares the suit that gives it most trumps, buries
    short plain suits, leads strength, wins cheaply or feeds a winning partner points."""

    def choose(self, game: Shengji, state: ShengjiState, seat: int) -> Any:
        """The move for the current step (declare, bury, lead or follow), chosen as the module says."""
        moves = game.legal_moves(state, seat)
        if state.step == "declare":
            return self._declare(state, seat, moves)
        hand = state.hands[seat]
        order = state.order
        faces = state.faces
        if state.step == "bury":
            lengths = Counter(order.suit(faces[h]) for h in hand)
            return min(moves, key=lambda move: _bury_key(order, lengths, faces[move["bury"]]))
        if not state.trick:
            return max(moves, key=lambda move: _lead_value(order, [faces[h] for h in move["lead"]], hand, faces))
        return self._follow(game, state, seat, moves)

    def _declare(self, state: ShengjiState, seat: int, moves: tuple[Any, ...]) -> Any:
        standing = state.declaration
        if standing is not None and team_of(standing.seat) == team_of(seat):
            return {"pass": True}
        best, best_count = {"pass": True}, DECLARE_AT - 1
        for move in moves:
            if "declare" not in move:
                continue
            trump = CARDS[state.faces[move["declare"][0]]].suit_index
            if trump >= 4:
                continue
            order = Order(state.level, trump)
            count = sum(order.suit(state.faces[h]) == TRUMP for h in state.hands[seat])
            if count > best_count:
                best, best_count = move, count
        return best

    def _follow(self, game: Shengji, state: ShengjiState, seat: int, moves: tuple[Any, ...]) -> Any:
        order, faces = state.order, state.faces
        complete = [play for play in state.trick if play.seat != seat]
        mine = next((play.handles for play in state.trick if play.seat == seat), ())
        size = len(state.trick[0].handles)
        best = complete[winner(order, [[faces[h] for h in play.handles] for play in complete])]
        partner_wins = team_of(best.seat) == team_of(seat)
        stake = sum(points([faces[h] for h in play.handles]) for play in complete)
        legal = [move["play"] for move in moves]
        if not partner_wins and (stake or size > 1 or len(complete) < 3):
            plan = self._winning_play(state, seat, complete, mine)
            if plan is not None and (stake or not _spends_trump(order, state, plan)):
                rest = [h for h in plan if h not in mine]
                if rest and rest[0] in legal:
                    return {"play": rest[0]}
        if partner_wins:
            return {"play": max(legal, key=lambda h: (CARDS[faces[h]].points, -_strength(order, faces[h]), -h))}
        return {"play": min(legal, key=lambda h: (CARDS[faces[h]].points, *order.strength(faces[h]), h))}

    def _winning_play(self, state: ShengjiState, seat: int, complete: list, mine: tuple[Handle, ...]) -> list[Handle] | None:
        """The cheapest legal play of the lead's shape that would take the trick now, containing ``mine``."""
        order, faces = state.order, state.faces
        lead_faces = [faces[h] for h in state.trick[0].handles]
        lead = shape(order, lead_faces)
        assert lead is not None
        held = list(state.hands[seat]) + list(mine)
        rule = Lead(lead.suit, lead.size, lead.pairs)
        held_faces = [faces[h] for h in held]
        plays = [[faces[h] for h in play.handles] for play in complete]
        options = []
        for candidate in _forms(order, held, faces, lead.pairs):
            if not set(mine) <= set(candidate):
                continue
            cards = [faces[h] for h in candidate]
            if follow_fault(order, rule, held_faces, cards) is not None:
                continue
            if winner(order, [*plays, cards]) == len(plays):
                options.append(candidate)
        if not options:
            return None
        return min(options, key=lambda c: (sum(_strength(order, faces[h]) for h in c), c))


def _strength(order: Order, face: Face) -> int:
    trump, rank = order.strength(face)
    return rank + 20 * trump


def _spends_trump(order: Order, state: ShengjiState, plan: list[Handle]) -> bool:
    return any(order.suit(state.faces[h]) == TRUMP for h in plan) and order.suit(state.faces[state.trick[0].handles[0]]) != TRUMP


def _forms(order: Order, held: list[Handle], faces: dict | Any, pairs: int) -> list[list[Handle]]:
    """Every single (pairs 0), pair (1) or tractor of ``pairs`` pairs among ``held``."""
    if not pairs:
        return [[h] for h in held]
    by_face: dict[Face, list[Handle]] = {}
    for h in held:
        by_face.setdefault(faces[h], []).append(h)
    doubles = [face for face, hs in by_face.items() if len(hs) == 2]
    forms = []
    for face in doubles:
        run = [face]
        for _ in range(pairs - 1):
            nxt = next((f for f in doubles if order.suit(f) == order.suit(run[-1]) and order.rank(f) == order.rank(run[-1]) + 1), None)
            if nxt is None:
                break
            run.append(nxt)
        if len(run) == pairs:
            forms.append([h for f in run for h in by_face[f]])
    return forms


def _bury_key(order: Order, lengths: Counter, face: Face) -> tuple:
    """Bury plain cards first, then those without points, of the shortest suits, lowest first."""
    suit = order.suit(face)
    return (suit == TRUMP, CARDS[face].points, lengths[suit], order.rank(face), face)


def _lead_value(order: Order, cards: list[Face], hand: tuple[Handle, ...], faces: Any) -> tuple:
    """Tractors, then high pairs, then top plain cards; else a low plain card without points."""
    form = shape(order, cards)
    assert form is not None
    trump = form.suit == TRUMP
    if form.pairs >= 2:
        return (4, form.pairs, form.top)
    if form.pairs == 1 and (form.top >= 8 or trump):
        return (3, not trump, form.top)
    top_plain = max((order.rank(faces[h]) for h in hand if order.suit(faces[h]) == form.suit), default=0)
    if not trump and not form.pairs and form.top >= 11 and form.top == top_plain:
        return (2, 0, form.top)
    return (1, -CARDS[cards[0]].points - 10 * trump, -form.top)
