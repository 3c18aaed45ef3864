"""A greedy drachenherz bot: what a play collects now, against what it leaves the opponent.

Each legal play is tried on the board with the rules' own :func:`resolve`. Its worth is the
points it collects (the dragon's swing included) minus the opponent's best expected reply: for
every kind, the points that kind would collect from the board left behind, times the chance
that the opponent's hand holds enough cards of it (drawn from its set minus the cards seen in
the open). It looks only at public cards and its own hand, so it may run on the seat's node.
Integers only: chances are in thousandths, points in tenths.
"""

from __future__ import annotations

from math import comb
from typing import Any

from fairtable.games.contract import Handle
from fairtable.games.drachenherz.board import Board, free, resolve
from fairtable.games.drachenherz.catalogue import CARDS, DRAGON_POINTS, KINDS, SET, Kind, kind_of
from fairtable.games.drachenherz.moves import parse, takes
from fairtable.games.drachenherz.state import DrachenherzState

SURE = 1000
"""Certainty in the bot's odds: chances are integer thousandths, so its choices never depend on float rounding."""
TENTHS = 10
"""Points are scored in tenths, so a mean card value stays an integer."""
MEAN = {kind: TENTHS * sum(c.value for c in CARDS if c.kind == kind) // sum(c.kind == kind for c in CARDS) for kind in KINDS}
"""A card's mean value per kind, in tenths: the worth of an unseen card the opponent lays."""


def chance(unseen: int, of_kind: int, hand: int, need: int) -> int:
    """In thousandths: a hand of ``hand`` cards drawn from ``unseen`` holds ``need`` of the
    ``of_kind`` cards among them (hypergeometric)."""
    hand = min(hand, unseen)
    if need > min(hand, of_kind):
        return 0
    ways = sum(comb(of_kind, k) * comb(unseen - of_kind, hand - k) for k in range(need, min(hand, of_kind) + 1))
    return SURE * ways // comb(unseen, hand)


class GreedyBot:
    """Plays the move whose gain minus the opponent's expected best reply is largest."""

    def choose(self, game: Any, state: DrachenherzState, seat: int) -> Any:
        """The legal move worth most by :meth:`worth`; ties go to the first listed."""
        moves = game.legal_moves(state, seat)
        return max(moves, key=lambda move: self.worth(state, seat, move))

    def worth(self, state: DrachenherzState, seat: int, move: Any) -> int:
        """What ``move`` gains ``seat`` now minus the opponent's best expected reply, in thousandths
        of tenths of a point (integers only, so the bot is deterministic); no reply is feared on the last turn."""
        parsed = parse(move)
        if not parsed.play:
            return 0
        kind = kind_of(state.faces[parsed.play[0]])
        outcome = resolve(state.board, kind, parsed.play, parsed.take)
        gain = TENTHS * sum(CARDS[state.faces[h]].value for h in outcome.taken) + swing(state.dragon, seat, outcome.dragon)
        holder = seat if outcome.dragon else state.dragon
        last = state.left == 1
        return SURE * gain - (0 if last else threat(state, seat, outcome.board, holder))


def swing(holder: int | None, seat: int, takes_dragon: bool) -> int:
    """The lead in tenths ``seat`` gains by taking the dragon from ``holder``."""
    if not takes_dragon or holder == seat:
        return 0
    return TENTHS * DRAGON_POINTS * (1 if holder is None else 2)


def threat(state: DrachenherzState, seat: int, board: Board, holder: int | None) -> int:
    """The opponent's best expected reply on ``board``, in thousandths of tenths of points."""
    other = 1 - seat
    unseen = unseen_kinds(state, other)
    total = sum(unseen.values())
    hand = len(state.hands[other]) - (holder == seat and state.dragon == other)
    best = 0
    for kind in KINDS.values():
        room = free(board, kind)
        need = 1 if room is None else room
        odds = chance(total, unseen[kind.id], hand, need)
        if odds:
            best = max(best, odds * reply(state, board, kind, need, other, holder))
    return best


def reply(state: DrachenherzState, board: Board, kind: Kind, need: int, other: int, holder: int | None) -> int:
    """What ``other`` collects laying ``need`` unseen cards of ``kind``, choosing its best field."""
    fake: tuple[Handle, ...] = tuple(-1 - i for i in range(need))
    best = 0
    for take in takes(board, kind, need):
        outcome = resolve(board, kind, fake, take)
        gain = sum(TENTHS * CARDS[state.faces[h]].value if h >= 0 else MEAN[kind.id] for h in outcome.taken)
        best = max(best, gain + swing(holder, other, outcome.dragon))
    return best


def unseen_kinds(state: DrachenherzState, seat: int) -> dict[str, int]:
    """How many cards of each kind ``seat``'s hand and pile hold, as far as public cards tell."""
    first = seat * len(SET)
    mine = range(first, first + len(SET))
    played = [h for field in state.board.values() for h in field] + [h for pile in state.collected for h in pile] + list(state.out)
    counts = {kind: sum(c.kind == kind for c in CARDS) for kind in KINDS}
    for h in played:
        if h in mine:
            counts[CARDS[state.faces[h]].kind] -= 1
    return counts
