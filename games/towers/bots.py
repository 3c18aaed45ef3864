"""A greedy towers bot: one-move lookahead through the rules themselves, with a material score.

It looks only at what its seat knows (its own hand and the public numbers), so it can run
on the seat's own node.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fairtable.games.contract import Move
from fairtable.games.towers.catalogue import CARDS
from fairtable.games.towers.effects import RESOURCES, Side, resolve
from fairtable.games.towers.state import TowersState

if TYPE_CHECKING:
    from fairtable.games.towers.game import Towers

WIN = 10**9
"""The score of a won game: above any material lead, so the bot always takes a win it sees."""
AGAIN = 30
"""What another action is worth."""


def material(side: Side) -> int:
    """Integer worth of one side: producers pay every turn, the tower counts more than the wall."""
    return 10 * side.tower + 4 * side.wall + 35 * (side.mines + side.monasteries + side.barracks) + sum(
        getattr(side, name) for name in RESOURCES
    )


def edge(sides: tuple[Side, ...], seat: int) -> int:
    """``seat``'s material lead."""
    return material(sides[seat]) - material(sides[1 - seat])


def score(state: TowersState, seat: int) -> int:
    """How good ``state`` is for ``seat``: a decided game dominates, then the material lead."""
    if state.result is not None:
        winners = state.result.winners
        return 0 if not winners else WIN if seat in winners else -WIN
    return edge(state.sides, seat) + (AGAIN if state.turn == seat else 0)


class GreedyBot:
    """Plays the move whose resulting position scores best; discards its least useful card."""

    def choose(self, game: Towers, state: TowersState, seat: int) -> Any:
        """The legal move with the best one-move score for ``seat``; ties go to the first listed."""
        moves = game.legal_moves(state, seat)
        return max(moves, key=lambda move: self._value(game, state, seat, move))

    def _value(self, game: Towers, state: TowersState, seat: int, move: dict) -> int:
        handle: int = move["play"] if "play" in move else move["discard"]
        if "play" in move:
            return score(game.apply(state, Move(seat, move, {handle: state.faces[handle]})), seat)
        # A discard changes nothing now; throw away the card whose effect would help least.
        card = CARDS[state.faces[handle]]
        helps = edge(resolve(card.effect, (state.sides[0], state.sides[1]), seat), seat) - edge(state.sides, seat)
        return score(state, seat) - 1 - max(0, helps - 3 * card.cost) // 4
