"""The shared board: one field per kind plus the special field, and what a play does to it.

Everything here is public: the board holds only played cards, whose faces everyone saw. The
rules and the bots (which try plays on it) use the same :func:`resolve`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from fairtable.games.contract import Handle
from fairtable.games.drachenherz.catalogue import FIELDS, KINDS, SPECIAL, Kind

Board = Mapping[str, tuple[Handle, ...]]
"""Each field id (:data:`~games.drachenherz.catalogue.FIELDS`) to its cards, oldest first."""
EMPTY: Board = {field: () for field in FIELDS}


@dataclass(frozen=True)
class Outcome:
    """What one play did: the board after it, the cards the mover collects, the cards that
    left the game, the ship marks added, and whether a petrified dragon was taken."""

    board: Board
    taken: tuple[Handle, ...] = ()
    out: tuple[Handle, ...] = ()
    marks: int = 0
    dragon: bool = False


def free(board: Board, kind: Kind) -> int | None:
    """Free slots of the kind's field; None for a stack without limit."""
    return None if kind.slots is None else kind.slots - len(board[kind.id])


def acts(board: Board, kind: Kind, count: int) -> bool:
    """Whether playing ``count`` cards of ``kind`` sets off its action: a stack at once, a
    slotted field once it is full."""
    return kind.slots is None or len(board[kind.id]) + count == kind.slots


def resolve(board: Board, kind: Kind, played: tuple[Handle, ...], take: str | None) -> Outcome:
    """Lay ``played`` (cards of ``kind``, within the free slots) and carry out the action, if
    the field acts: take the chosen field (``take``, or the kind's only one), then a full
    slotted field's cards go where the kind says (special field, collection, out of the game)."""
    after = {**board, kind.id: board[kind.id] + played}
    if not acts(board, kind, len(played)):
        return Outcome(after)
    target = take if take is not None else kind.takes[0] if kind.takes else None
    taken: tuple[Handle, ...] = ()
    if target is not None:
        taken, after[target] = after[target], ()
    dragon = target in KINDS and KINDS[target].dragon and bool(taken)
    if kind.slots is None:
        return Outcome(after, taken, dragon=dragon)
    field, after[kind.id] = after[kind.id], ()
    if kind.full == "special":
        after[SPECIAL.id] += field
    elif kind.full == "collect":
        taken += field
    return Outcome(after, taken, field if kind.full == "out" else (), int(kind.mark), dragon)
