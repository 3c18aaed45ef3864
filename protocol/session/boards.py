"""A game's hidden boards: each seat's committed data per layer, opened cell by cell.

The session commits a seat's hidden data (``hidden``) as one salted Merkle root per layer
(``fair.hidden_board``), opens cells as the game asks (``open``), and has every board not fully
opened revealed with the seat's seed after the game. The seat's own values are its free choice,
kept in the game's ``private`` data (persisted by the node) to open cells later.
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from fairtable.games.contract import CommitHidden, OpenHidden
from fairtable.protocol.errors import UsageError
from fairtable.protocol.fair.errors import FairnessError
from fairtable.protocol.fair.hidden_board import Board, CommittedBoard, cell_salt, check_openings, open_body, root_body
from fairtable.protocol.session.errors import malformed as _malformed

if TYPE_CHECKING:
    from fairtable.protocol.session.run import GameRun


@dataclass(eq=False)
class HeldBoard:
    """A seat's committed board of one layer: its root and the cells opened so far."""

    board: Board
    layer: str
    round: int
    root: bytes = b""
    opened: dict[int, int] = field(default_factory=dict)


class BoardBook:
    """The hidden boards of one game: each seat's latest board of each layer, and every board
    committed in the game, in order (what a seed reveal must open in full)."""

    def __init__(self, run: GameRun) -> None:
        self._run = weakref.ref(run)
        self.boards: dict[tuple[int, str], HeldBoard] = {}
        """Each seat's latest board of each layer."""
        self.committed: list[HeldBoard] = []
        """Every board committed in this game, in order."""
        self.rounds = 0
        """The game's commits so far (a board is named ``<layer>-<round>``)."""

    @property
    def run(self) -> GameRun:
        """Its game, referred to weakly: a finished game is freed at once, not left to the cycle collector."""
        run = self._run()
        assert run is not None, "a board book outlived its game"
        return run

    def owed(self, seat: int) -> list[HeldBoard]:
        """``seat``'s boards not fully opened: its seed reveal opens them, so they are checked whatever the result."""
        return [held for held in self.committed if held.board.owner == seat and len(held.opened) < held.board.cells]

    def begin(self, request: CommitHidden) -> None:
        """Name this commit's boards ``<layer>-<n>`` (n counts the game's commits) for every seat."""
        for seat in request.seats:
            for layer in request.layers:
                board = Board(self.run.fair, seat, f"{layer}-{self.rounds}", request.width, request.height)
                self.boards[(seat, layer)] = HeldBoard(board, layer, self.rounds)
        self.rounds += 1

    def commit_body(self, seat: int, request: CommitHidden, data: Mapping[str, Any]) -> dict:
        """Commit this seat's data; it is kept in the game's ``private`` data (persisted by the node) to open cells later."""
        if set(data) != set(request.layers):
            raise UsageError(f"hidden data has the layers {sorted(request.layers)}, got {sorted(data)}")
        self.run.private[self._key(seat)] = {layer: list(values) for layer, values in data.items()}
        return {"boards": [root_body(self.committed_board(self.boards[(seat, layer)])) for layer in request.layers]}

    def check_commit(self, seat: int, request: CommitHidden, body: Any) -> dict[str, bytes]:
        """The roots of a seat's ``hidden`` message, one per layer of the request, after checking its shape."""
        if not isinstance(body, dict) or set(body) != {"boards"} or not isinstance(body["boards"], tuple) \
                or len(body["boards"]) != len(request.layers):
            raise _malformed(seat, f"a hidden-data commitment is {{boards: [one root per layer of {list(request.layers)}]}}")
        roots = {}
        for layer, item in zip(request.layers, body["boards"]):
            board = self.boards[(seat, layer)].board
            expected = {"board": board.name, "height": board.height, "width": board.width}
            if not isinstance(item, dict) or set(item) != {*expected, "root"} or any(item[k] != v for k, v in expected.items()):
                raise _malformed(seat, f"layer {layer!r}: expected {expected} with a root")
            if not isinstance(item["root"], bytes) or len(item["root"]) != 32:
                raise _malformed(seat, f"layer {layer!r}: the root must be 32 bytes")
            roots[layer] = item["root"]
        return roots

    def adopt(self, seat: int, roots: Mapping[str, bytes]) -> None:
        """Keep the seat's accepted roots: what every later opening is checked against."""
        for layer, root in roots.items():
            held = self.boards[(seat, layer)]
            held.root = root
            self.committed.append(held)

    def own(self, seat: int) -> dict[str, tuple[int, ...]] | None:
        """This node's data of ``seat``'s latest board of each layer (a game may commit again,
        e.g. a layer more in the middle of play), or None if it holds none."""
        data = {}
        for (owner, layer), held in self.boards.items():
            values = self.run.private.get(self._key(owner, held.round), {}).get(layer) if owner == seat else None
            if values is not None:
                data[layer] = tuple(values)
        return data or None

    def open_body(self, request: OpenHidden) -> dict:
        """This node's ``open`` message for the requested cells of its own board, with their salts and proofs."""
        held = self.boards[(request.seat, request.layer)]
        cells = [(cell % held.board.width, cell // held.board.width) for cell in request.cells]
        return open_body(held.board, self.committed_board(held).open(cells))

    def check_open(self, request: OpenHidden, body: Any) -> dict[int, int]:
        """The values an ``open`` message proves, by cell index: every requested cell once, each proven against the root."""
        held = self.boards[(request.seat, request.layer)]
        board = held.board
        cells: dict[int, int] = {}
        for cell, value in check_openings(board, held.root, body).items():
            if type(value) is not int:
                raise _malformed(request.seat, "hidden cell values are integers")
            cells[board.index(cell)] = value
        if sorted(cells) != sorted(set(request.cells)) or len(body["cells"]) != len(cells):
            raise _malformed(request.seat, f"cells {sorted(set(request.cells))} of {request.layer!r} are due, each once")
        return cells

    def adopt_opened(self, request: OpenHidden, cells: Mapping[int, int], body: Any) -> list[FairnessError]:
        """Keep the opened values; where the owner's seed is known, check the salts it derives.

        A salt of the owner's choosing would not let it change a value (the root binds the
        leaf), but nothing a seat sends may be random except what its seed derives; only the
        verifier (or the owner itself) can tell, so a wrong salt is recorded, not refused.
        """
        held = self.boards[(request.seat, request.layer)]
        held.opened.update(cells)
        seed = self.run.seeds.get(request.seat)
        if seed is None:
            return []
        for x, y, _value, salt, _proof in body["cells"]:
            if salt != cell_salt(seed, held.board, (x, y)):
                detail = f"board {held.board.name!r}: the salt of cell ({x}, {y}) is not derived from the seed"
                return [FairnessError(request.seat, "board.salt-mismatch", detail)]
        return []

    def _key(self, seat: int, round_index: int | None = None) -> str:
        return f"hidden-{self.rounds - 1 if round_index is None else round_index}-{seat}"

    def committed_board(self, held: HeldBoard) -> CommittedBoard:
        """The full committed board of a board this node holds the values of (its own), salts derived from the seed."""
        owner = held.board.owner
        values = self.run.private[self._key(owner, held.round)][held.layer]
        return CommittedBoard.commit(self.run.seeds[owner], held.board, values)
