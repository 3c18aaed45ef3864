"""Hidden boards (battleship): every cell committed under one Merkle root, opened cell by cell.

Cell ``(x, y)`` is leaf ``y * width + x``: ``H("fair/board-leaf", [board label, x, y, salt,
value])`` with a salt derived from the owner's seed, so a cell's value cannot be guessed
from its leaf. Leaves are padded to a power of two with ``H("fair/board-pad", "")`` and
paired by ``H("fair/board-node", left || right)``; the published root is
``H("fair/board-root", [board label, width, height, top node])``. The distinct labels keep a
leaf from posing as a node and the root from fitting a board of other dimensions.
"""

from __future__ import annotations

import hmac
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from fairtable.protocol.codec import Value, encode
from fairtable.protocol.errors import UsageError
from fairtable.protocol.fair.errors import FairnessError
from fairtable.protocol.fair.seeds import GameRef, Seed
from fairtable.protocol.hashing import digest

HASH_SIZE = 32
MAX_SIDE = 256
_PAD = digest("fair/board-pad", b"")

Cell = tuple[int, int]


@dataclass(frozen=True)
class Board:
    """One hidden board of one game: whose it is, what it is called, its dimensions."""

    game: GameRef
    owner: int
    name: str
    width: int
    height: int

    def __post_init__(self) -> None:
        for side in (self.width, self.height):
            if type(side) is not int or not 1 <= side <= MAX_SIDE:
                raise UsageError(f"board sides are 1..{MAX_SIDE}, got {side!r}")
        if not isinstance(self.name, str) or not self.name:
            raise UsageError("a board needs a name")

    @cached_property
    def label(self) -> bytes:
        """``H("fair/board", [table, game, owner, name])``: bound into every leaf and the root, so
        a cell opened for one board, owner or game cannot pass for another's."""
        return digest("fair/board", encode([self.game.table, self.game.index, self.owner, self.name]))

    @property
    def cells(self) -> int:
        """How many cells (leaves before padding) the board has."""
        return self.width * self.height

    def index(self, cell: Cell) -> int:
        """The row-major leaf index of ``cell``; raises ``UsageError`` for a cell outside the board,
        so a bad coordinate never reaches the tree."""
        x, y = cell
        if type(x) is not int or type(y) is not int or not (0 <= x < self.width and 0 <= y < self.height):
            raise UsageError(f"cell {cell!r} is outside the {self.width}x{self.height} board")
        return y * self.width + x

    def leaf(self, cell: Cell, salt: bytes, value: Value) -> bytes:
        """The leaf committing ``value`` at ``cell`` under ``salt``; the salt keeps the value unguessable."""
        return digest("fair/board-leaf", encode([self.label, cell[0], cell[1], salt, value]))

    def root(self, top: bytes) -> bytes:
        """The published root over the tree's ``top`` node, bound to this board's label and dimensions."""
        return digest("fair/board-root", encode([self.label, self.width, self.height, top]))


def _node(left: bytes, right: bytes) -> bytes:
    return digest("fair/board-node", left + right)


def cell_salt(seed: Seed, board: Board, cell: Cell) -> bytes:
    """The salt of one cell, derived from the owner's seed: never sent, yet the verifier
    recomputes it after the seed is revealed."""
    return seed.key("board/salt", board.name, board.index(cell))


@dataclass(frozen=True)
class CellOpening:
    """One opened cell with its Merkle path (siblings from the leaf up)."""

    x: int
    y: int
    value: Value
    salt: bytes
    proof: tuple[bytes, ...]

    def to_value(self) -> list:
        """The opening as it travels in an open body: ``[x, y, value, salt, [siblings...]]``."""
        return [self.x, self.y, self.value, self.salt, list(self.proof)]


@dataclass(frozen=True)
class CommittedBoard:
    """The owner's side: the values, salts and every tree level (``levels[0]`` the leaves)."""

    board: Board
    values: tuple[Value, ...] = field(repr=False)
    salts: tuple[bytes, ...] = field(repr=False)
    levels: tuple[tuple[bytes, ...], ...] = field(repr=False)

    @classmethod
    def commit(cls, seed: Seed, board: Board, values: Sequence[Value]) -> CommittedBoard:
        """Commit to ``values`` in row-major order."""
        if len(values) != board.cells:
            raise UsageError(f"a {board.width}x{board.height} board has {board.cells} cells, got {len(values)}")
        cells = [(i % board.width, i // board.width) for i in range(board.cells)]
        salts = tuple(cell_salt(seed, board, cell) for cell in cells)
        level = [board.leaf(cell, salt, value) for cell, salt, value in zip(cells, salts, values)]
        level += [_PAD] * ((1 << (len(level) - 1).bit_length()) - len(level))
        levels = [tuple(level)]
        while len(level) > 1:
            level = [_node(level[i], level[i + 1]) for i in range(0, len(level), 2)]
            levels.append(tuple(level))
        return cls(board, tuple(values), salts, tuple(levels))

    @property
    def root(self) -> bytes:
        """The root to publish before play (:func:`root_body`); every later opening must lead to it."""
        return self.board.root(self.levels[-1][0])

    def open(self, cells: Iterable[Cell]) -> tuple[CellOpening, ...]:
        """Openings with proofs for ``cells``, in the order given."""
        openings = []
        for cell in cells:
            index = self.board.index(cell)
            proof = tuple(level[(index >> depth) ^ 1] for depth, level in enumerate(self.levels[:-1]))
            openings.append(CellOpening(cell[0], cell[1], self.values[index], self.salts[index], proof))
        return tuple(openings)


def root_body(committed: CommittedBoard) -> dict:
    """The canonical body publishing a board's commitment."""
    board = committed.board
    return {"board": board.name, "height": board.height, "root": committed.root, "width": board.width}


def open_body(board: Board, openings: Iterable[CellOpening]) -> dict:
    """The canonical body opening cells: each ``[x, y, value, salt, [siblings...]]``."""
    return {"board": board.name, "cells": [opening.to_value() for opening in openings]}


def check_openings(board: Board, root: bytes, body: Any) -> dict[Cell, Value]:
    """The values of the opened cells; a :class:`FairnessError` names the owner and the first bad cell."""

    def refuse(rule: str, detail: str) -> FairnessError:
        return FairnessError(board.owner, rule, f"board {board.name!r}: {detail}")

    if not (isinstance(body, dict) and set(body) == {"board", "cells"} and body["board"] == board.name
            and isinstance(body["cells"], (list, tuple))):
        raise refuse("board.malformed", "an opening is the map {board, cells}")
    depth = (board.cells - 1).bit_length()
    result: dict[Cell, Value] = {}
    for item in body["cells"]:
        if not (isinstance(item, (list, tuple)) and len(item) == 5):
            raise refuse("board.malformed", "each opened cell is [x, y, value, salt, proof]")
        x, y, value, salt, proof = item
        try:
            index = board.index((x, y))
        except ValueError as exc:
            raise refuse("board.malformed", str(exc)) from None
        if not (isinstance(salt, bytes) and isinstance(proof, (list, tuple)) and len(proof) == depth
                and all(isinstance(h, bytes) and len(h) == HASH_SIZE for h in proof)):
            raise refuse("board.bad-proof", f"cell ({x}, {y}): the proof must hold {depth} hashes of {HASH_SIZE} bytes")
        node = board.leaf((x, y), salt, value)
        for level, sibling in enumerate(proof):
            node = _node(sibling, node) if (index >> level) & 1 else _node(node, sibling)
        if not hmac.compare_digest(board.root(node), root):
            raise refuse("board.bad-proof", f"cell ({x}, {y}): the opening does not lead to the committed root")
        result[(x, y)] = value
    return result


def full_body(committed: CommittedBoard) -> dict:
    """The canonical body opening the whole board at the end: the values in row-major order.

    The salts need not travel: the seed revealed with it derives them.
    """
    return {"board": committed.board.name, "values": list(committed.values)}


def check_full(seed: Seed, board: Board, root: bytes, body: Any) -> dict[Cell, Value]:
    """After the game: the fully opened values, which must rebuild the root with the seed's salts."""
    if not (isinstance(body, dict) and set(body) == {"board", "values"} and body["board"] == board.name
            and isinstance(body["values"], (list, tuple)) and len(body["values"]) == board.cells):
        detail = f"a full opening of board {board.name!r} is {{board, values}}"
        raise FairnessError(board.owner, "board.malformed", detail)
    values = body["values"]
    if not hmac.compare_digest(CommittedBoard.commit(seed, board, values).root, root):
        detail = f"the opened board {board.name!r} does not rebuild its root"
        raise FairnessError(board.owner, "board.root-mismatch", detail)
    return {(i % board.width, i // board.width): value for i, value in enumerate(values)}
