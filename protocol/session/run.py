"""One game of a table as the session runs it: seeds, commitments, decks, handles and openings.

The table session decides *when* each message is due; this module knows *what* each one
must contain and how to check it, in terms of the fairness primitives. A handle is either
a position of a mental deck (opened by every seat's position key) or a private draw of
one seat (shown by its claimed face, checked after the seed reveal). Owned decks and
showing dealt cards to a subset have their own modules (``owned``, ``showing``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from fairtable.games.contract import CommitHidden, Deal, OpenHidden, PrivateDraw, Reveal, Shuffle, ShuffleOwned
from fairtable.protocol.envelope import Envelope
from fairtable.protocol.fair import private_stream, simultaneous
from fairtable.protocol.fair.errors import Violation as FairViolation
from fairtable.protocol.fair.group import Ops, is_scalar
from fairtable.protocol.fair.hidden_board import Board, CommittedBoard, check_openings, open_body, root_body
from fairtable.protocol.fair.mental_deck import Card, Deck, DeckKeys, open_position
from fairtable.protocol.fair.public_random import HashChain, check_tip
from fairtable.protocol.fair.seeds import Game as FairGame
from fairtable.protocol.fair.seeds import Seed, check_seed_reveal, check_start, seed_reveal_body, start_body
from fairtable.protocol.hashing import digest
from fairtable.protocol.session.summing import SumBook

DRAW_LABEL = "draw"


def _malformed(seat: int, what: str) -> FairViolation:
    return FairViolation(seat, "session.malformed", what)


def _pairs(seat: int, value: Any, what: str) -> list[tuple[int, Any]]:
    """A strictly increasing ``[[handle, x], ...]`` list, as every handle-keyed body field is."""
    if not isinstance(value, tuple):
        raise _malformed(seat, f"{what} must be an array of [handle, value] pairs")
    pairs: list[tuple[int, Any]] = []
    for item in value:
        if not isinstance(item, tuple) or len(item) != 2 or type(item[0]) is not int:
            raise _malformed(seat, f"each entry of {what} is a [handle, value] pair")
        if pairs and item[0] <= pairs[-1][0]:
            raise _malformed(seat, f"{what} must be sorted by handle, each handle once")
        pairs.append((item[0], item[1]))
    return pairs


@dataclass
class DeckRecord:
    """A mental deck of this game: its final entries and every position key seen so far
    (and, for an owned deck, the composition commitment of its first stage)."""

    deck: Deck
    first_handle: int
    run: GameRun
    entries: tuple[bytes, ...] = ()
    commitment: bytes | None = None
    published: dict[int, dict[int, bytes]] = field(default_factory=dict)
    opened: dict[Card, int] = field(default_factory=dict)
    _derived: dict[int, DeckKeys] = field(default_factory=dict)

    def keys_of(self, seat: int) -> DeckKeys:
        if seat not in self._derived:
            self._derived[seat] = DeckKeys.derive(self.run.seeds[seat], self.deck)
        return self._derived[seat]

    def key(self, position: int, seat: int) -> bytes | None:
        """``seat``'s key for ``position``: as published, else as derived from a known seed."""
        published = self.published.get(position, {}).get(seat)
        if published is not None:
            return published
        return self.keys_of(seat).position_keys[position] if seat in self.run.seeds else None

    def open(self, position: int, keys: Mapping[int, bytes]) -> int:
        card = open_position(self.deck, position, self.entries[position], keys, self.opened, self.run.ops)
        self.opened[card] = position
        return card.id


class GameRun:
    """The cryptographic side of one game: what each seat must send and what it proves."""

    def __init__(self, fair: FairGame, seat_count: int, known: Mapping[int, bytes], envelopes: Sequence[Envelope],
                 ops: Ops, chain_length: int, private: dict[str, Any], compositions: Mapping[str, tuple[int, ...]] | None = None) -> None:
        self.fair = fair
        self.seat_count = seat_count
        self.envelopes = envelopes
        self.seeds = {seat: Seed(fair, seat, value) for seat, value in known.items()}
        self.chain_length = chain_length
        self.chains = {seat: HashChain.derive(seed, chain_length) for seat, seed in self.seeds.items()}
        self.commitments: dict[int, tuple[bytes, bytes]] = {}
        self.last_reveal: dict[int, bytes] = {}
        self.random_index = 0
        self.decks: list[DeckRecord] = []
        self.handles: dict[int, tuple[DeckRecord, int]] = {}
        self.holder: dict[int, int] = {}
        self.drawn: dict[int, tuple[int, int, int | None]] = {}
        """Each private-draw handle: (drawing seat, bound, face if this session knows it)."""
        self.draws: dict[int, int] = {}
        self.public_faces: dict[int, int] = {}
        self.known_faces: dict[int, int] = {}
        self.boards: dict[tuple[int, str], tuple[Board, bytes | None]] = {}
        self.hidden_rounds = 0
        self.choice_rounds = 0
        self.show_rounds = 0
        self.sums = SumBook(self)
        """Pair keys and every share of the game's masked sums (``summing``)."""
        self.private = private
        """This seat's free choices (hidden data, choices, compositions), persisted by the node."""
        self.compositions = dict(compositions or {})
        """The owned decks' compositions as revealed after the game, by deck name (the verifier's)."""
        self.ops = ops

    # ------------------------------------------------------------ seeds

    def commit_body(self, seat: int) -> dict:
        return start_body(self.seeds[seat], self.chains[seat].tip)

    def check_commit(self, seat: int, body: Any) -> tuple[bytes, bytes]:
        return check_start(seat, body)

    def adopt_commitment(self, seat: int, commitment: tuple[bytes, bytes]) -> None:
        """Record a seat's seed commitment and chain tip; a known seed that does not match is dropped.

        (The verifier then treats that seat's secrets as unknown; its seed reveal is refused.)
        """
        self.commitments[seat] = commitment
        self.last_reveal[seat] = commitment[1]
        seed = self.seeds.get(seat)
        if seed is not None and (seed.commitment != commitment[0] or self.chains[seat].tip != commitment[1]):
            del self.seeds[seat], self.chains[seat]

    def seed_body(self, seat: int) -> dict:
        return seed_reveal_body(self.seeds[seat])

    def check_seed(self, seat: int, body: Any) -> Seed:
        commitment, tip = self.commitments[seat]
        seed = check_seed_reveal(self.fair, seat, body, commitment)
        known = self.seeds.get(seat)
        if known is None or known.value != seed.value:
            check_tip(seed, tip, self.chain_length)
        return seed

    # ------------------------------------------------------------ decks and keys

    def new_deck(self, request: Shuffle | ShuffleOwned) -> DeckRecord:
        """The deck ``deck-<n>`` (n counts the game's shuffles of either kind) over the request's seats."""
        name, seats = f"deck-{len(self.decks)}", request.seats or tuple(range(self.seat_count))
        if isinstance(request, ShuffleOwned):
            deck = Deck.hidden(self.fair, name, seats, request.owner, request.size, request.catalogue, request.max_copies)
        else:
            deck = Deck.public(self.fair, name, seats, request.cards)
        record = DeckRecord(deck, request.first_handle, self)
        self.decks.append(record)
        for position in range(deck.size):
            self.handles[request.first_handle + position] = (record, position)
        return record

    def open_all(self, record: DeckRecord) -> dict[int, int]:
        """Every face of a deck whose every seed is known (the verifier); positions that fail stay unknown."""
        if any(seat not in self.seeds for seat in record.deck.seats):
            return {}
        faces = {}
        for position in range(record.deck.size):
            keys = {seat: record.keys_of(seat).position_keys[position] for seat in record.deck.seats}
            try:
                faces[record.first_handle + position] = record.open(position, keys)
            except FairViolation:
                continue
        self.known_faces.update(faces)
        return faces

    def deal_needs(self, request: Deal) -> dict[int, tuple[int, ...]]:
        """The keys each seat must publish: every seat's but the recipient's, except those already
        published (a card dealt again to its holder, e.g. put back on a pile, needs none)."""
        needs: dict[int, list[int]] = {}
        for recipient, handles in request.to:
            for handle in handles:
                record, position = self._deck_handle(handle)
                holder = self.holder.get(handle, recipient)
                if holder != recipient and handle not in self.public_faces:
                    raise ValueError(f"the game dealt handle {handle}, held by seat {holder}, to seat {recipient}; Show shows it")
                self.holder[handle] = recipient
                for seat in record.deck.seats:
                    if seat != recipient and seat not in record.published.get(position, {}):
                        needs.setdefault(seat, []).append(handle)
        return {seat: tuple(sorted(handles)) for seat, handles in needs.items()}

    def reveal_needs(self, request: Reveal) -> dict[int, tuple[int, ...]]:
        needs: dict[int, list[int]] = {}
        for handle in request.handles:
            if handle in self.public_faces:
                continue
            record, _ = self._deck_handle(handle)
            holder = self.holder.get(handle)
            for seat in record.deck.seats if holder is None else (holder,):
                needs.setdefault(seat, []).append(handle)
        return {seat: tuple(sorted(handles)) for seat, handles in needs.items()}

    def keys_body(self, seat: int, handles: tuple[int, ...]) -> dict:
        keys = []
        for handle in handles:
            record, position = self.handles[handle]
            keys.append([handle, record.keys_of(seat).position_keys[position]])
        return {"keys": keys}

    def check_keys(self, seat: int, wanted: tuple[int, ...], body: Any) -> dict[int, bytes]:
        if not isinstance(body, dict) or set(body) != {"keys"}:
            raise _malformed(seat, "a keys message is the map {keys}")
        pairs = _pairs(seat, body["keys"], "keys")
        if tuple(handle for handle, _ in pairs) != wanted:
            raise _malformed(seat, f"keys for handles {list(wanted)} are due, got {[h for h, _ in pairs]}")
        for handle, key in pairs:
            if not is_scalar(key):
                raise FairViolation(seat, "deck.malformed-keys", f"the key for handle {handle} is not a canonical non-zero scalar")
        return dict(pairs)

    def store_keys(self, seat: int, keys: Mapping[int, bytes]) -> None:
        for handle, key in keys.items():
            record, position = self.handles[handle]
            record.published.setdefault(position, {})[seat] = key

    def open_visible(self, handles: list[int], local: int | None, public: bool = False) -> tuple[dict[int, int], FairViolation | None]:
        """Open the handles this session may see now (all of them when ``public``, a reveal);
        the first failure comes back as a dispute."""
        faces: dict[int, int] = {}
        dispute = None
        for handle in handles:
            if handle in self.known_faces:
                faces[handle] = self.known_faces[handle]
                continue
            record, position = self.handles[handle]
            holder = self.holder.get(handle)
            if local is not None and holder is not None and holder != local and not public and handle not in self.public_faces:
                continue
            keys = {seat: key for seat in record.deck.seats if (key := record.key(position, seat)) is not None}
            if len(keys) < len(record.deck.seats):
                continue
            try:
                faces[handle] = record.open(position, keys)
            except FairViolation as exc:
                dispute = dispute or exc
        self.known_faces.update(faces)
        return faces, dispute

    def _deck_handle(self, handle: int) -> tuple[DeckRecord, int]:
        if handle not in self.handles:
            raise ValueError(f"the game named handle {handle}, which no shuffle created")
        return self.handles[handle]

    # ------------------------------------------------------------ private draws

    def draw_context(self, seat: int) -> bytes:
        """Public input to ``seat``'s next draw: the latest signature another seat made.

        The drawer cannot know it in advance (nobody predicts another key's signature) and
        the signer cannot steer the draw (it does not know the drawer's seed).
        """
        for envelope in reversed(self.envelopes):
            if envelope.seat != seat:
                return digest("session/draw-context", envelope.signature)
        return digest("session/draw-context", self.fair.table)

    def private_draw(self, request: PrivateDraw, local: int | None) -> dict[int, int]:
        counter = self.draws.get(request.seat, 0)
        self.draws[request.seat] = counter + 1
        faces: tuple[int | None, ...] = (None,) * request.count
        seed = self.seeds.get(request.seat)
        if seed is not None:
            faces = private_stream.draw(seed, DRAW_LABEL, self.draw_context(request.seat), counter, request.bound, request.count)
        for offset, face in enumerate(faces):
            self.drawn[request.first_handle + offset] = (request.seat, request.bound, face)
        visible = local is None or local == request.seat
        return {request.first_handle + i: face for i, face in enumerate(faces) if face is not None and visible}

    # ------------------------------------------------------------ moves

    def move_body(self, seat: int, move: Any, reveals: tuple[int, ...]) -> dict:
        keys, faces = [], []
        for handle in sorted(set(reveals)):
            if handle in self.public_faces:
                continue
            if handle in self.drawn:
                faces.append([handle, self.drawn[handle][2]])
            else:
                record, position = self.handles[handle]
                keys.append([handle, record.keys_of(seat).position_keys[position]])
        return {"faces": faces, "keys": keys, "move": move}

    def check_move(self, seat: int, body: Any, reveals_of: Callable[[Any], tuple[int, ...]]) -> tuple[Any, dict[int, int]]:
        """The move and the faces it shows (``reveals_of(move)``), after checking every opening it carries."""
        if not isinstance(body, dict) or set(body) != {"faces", "keys", "move"}:
            raise _malformed(seat, "a move is the map {faces, keys, move}")
        reveals = reveals_of(body["move"])
        keys = dict(_pairs(seat, body["keys"], "keys"))
        claimed = dict(_pairs(seat, body["faces"], "faces"))
        due = sorted(set(handle for handle in reveals if handle not in self.public_faces))
        due_keys = [handle for handle in due if handle not in self.drawn]
        due_faces = [handle for handle in due if handle in self.drawn]
        if sorted(keys) != due_keys or sorted(claimed) != due_faces:
            raise _malformed(seat, f"the move shows handles {due}: keys for {due_keys} and faces for {due_faces} are due")
        faces: dict[int, int] = {}
        for handle in due_keys:
            if handle not in self.handles or self.holder.get(handle) != seat:
                raise FairViolation(seat, "session.not-held", f"the move shows handle {handle}, which was not dealt to seat {seat}")
            if not is_scalar(keys[handle]):
                raise FairViolation(seat, "deck.malformed-keys", f"the key for handle {handle} is not a canonical non-zero scalar")
            record, position = self.handles[handle]
            if seat in self.seeds and handle in self.known_faces:
                # The key is known: equality proves the opening without a multiplication.
                if keys[handle] != record.keys_of(seat).position_keys[position]:
                    raise FairViolation(seat, "deck.key-mismatch", f"the key shown for handle {handle} is not the derived one")
                faces[handle] = self.known_faces[handle]
                continue
            opening = {other: key for other in record.deck.seats if other != seat and (key := record.key(position, other)) is not None}
            opening[seat] = keys[handle]
            try:
                faces[handle] = record.open(position, opening)
            except FairViolation as exc:
                raise FairViolation(seat, "deck.bad-reveal", f"handle {handle}: {exc.detail}") from None
        for handle in due_faces:
            owner, bound, known = self.drawn[handle]
            face = claimed[handle]
            if owner != seat:
                raise FairViolation(seat, "session.not-held", f"the move shows handle {handle}, a private draw of seat {owner}")
            if type(face) is not int or not 0 <= face < bound:
                raise _malformed(seat, f"the face of handle {handle} must be below {bound}")
            if known is not None and known != face:
                raise FairViolation(seat, "private-stream.mismatch", f"handle {handle} was drawn as {known}, shown as {face}")
            faces[handle] = face
        return body["move"], faces

    # ------------------------------------------------------------ hidden data

    def begin_hidden(self, request: CommitHidden) -> None:
        """Name this commit's boards ``<layer>-<n>`` (n counts the game's commits) for every seat."""
        for seat in request.seats:
            for layer in request.layers:
                board = Board(self.fair, seat, f"{layer}-{self.hidden_rounds}", request.width, request.height)
                self.boards[(seat, layer)] = (board, None)
        self.hidden_rounds += 1

    def hidden_body(self, seat: int, request: CommitHidden, data: Mapping[str, Any]) -> dict:
        """Commit this seat's data; it is kept (in :attr:`private`) to open cells later."""
        if set(data) != set(request.layers):
            raise ValueError(f"hidden data has the layers {sorted(request.layers)}, got {sorted(data)}")
        self.private[self._hidden_key(seat)] = {layer: list(values) for layer, values in data.items()}
        return {"boards": [root_body(self._committed(seat, layer)) for layer in request.layers]}

    def check_hidden(self, seat: int, request: CommitHidden, body: Any) -> dict[str, bytes]:
        if not isinstance(body, dict) or set(body) != {"boards"} or not isinstance(body["boards"], tuple) \
                or len(body["boards"]) != len(request.layers):
            raise _malformed(seat, f"a hidden-data commitment is {{boards: [one root per layer of {list(request.layers)}]}}")
        roots = {}
        for layer, item in zip(request.layers, body["boards"]):
            board, _ = self.boards[(seat, layer)]
            expected = {"board": board.name, "height": board.height, "width": board.width}
            if not isinstance(item, dict) or set(item) != {*expected, "root"} or any(item[k] != v for k, v in expected.items()):
                raise _malformed(seat, f"layer {layer!r}: expected {expected} with a root")
            if not isinstance(item["root"], bytes) or len(item["root"]) != 32:
                raise _malformed(seat, f"layer {layer!r}: the root must be 32 bytes")
            roots[layer] = item["root"]
        return roots

    def adopt_hidden(self, seat: int, roots: Mapping[str, bytes]) -> None:
        for layer, root in roots.items():
            board, _ = self.boards[(seat, layer)]
            self.boards[(seat, layer)] = (board, root)

    def own_hidden(self, seat: int) -> dict[str, tuple[int, ...]] | None:
        data = self.private.get(self._hidden_key(seat))
        return None if data is None else {layer: tuple(values) for layer, values in data.items()}

    def open_hidden_body(self, request: OpenHidden) -> dict:
        board, _ = self.boards[(request.seat, request.layer)]
        cells = [(cell % board.width, cell // board.width) for cell in request.cells]
        return open_body(board, self._committed(request.seat, request.layer).open(cells))

    def check_open_hidden(self, request: OpenHidden, body: Any) -> dict[int, int]:
        board, root = self.boards[(request.seat, request.layer)]
        assert root is not None, "cells are opened only after the commitment"
        opened = check_openings(board, root, body)
        cells = {board.index(cell): value for cell, value in opened.items()}
        if sorted(cells) != sorted(set(request.cells)) or len(body["cells"]) != len(cells):
            raise _malformed(request.seat, f"cells {sorted(set(request.cells))} of {request.layer!r} are due, each once")
        if any(type(value) is not int for value in cells.values()):
            raise _malformed(request.seat, "hidden cell values are integers")
        return cast(dict[int, int], cells)

    def _hidden_key(self, seat: int) -> str:
        return f"hidden-{self.hidden_rounds - 1}-{seat}"

    def _committed(self, seat: int, layer: str) -> CommittedBoard:
        board, _ = self.boards[(seat, layer)]
        values = self.private[self._hidden_key(seat)][layer]
        return CommittedBoard.commit(self.seeds[seat], board, values)

    # ------------------------------------------------------------ simultaneous choices

    def begin_choice(self) -> str:
        self.choice_rounds += 1
        return f"choice-{self.choice_rounds - 1}"

    def choice_body(self, seat: int, round_id: str, choice: Any) -> dict:
        self.private[f"{round_id}-{seat}"] = choice
        return simultaneous.commit_body(self.seeds[seat], round_id, choice)

    def reveal_choice_body(self, seat: int, round_id: str) -> dict:
        return simultaneous.reveal_body(self.seeds[seat], round_id, self.private[f"{round_id}-{seat}"])

    def check_choice_reveal(self, seat: int, round_id: str, commitment: bytes, body: Any) -> Any:
        return simultaneous.check_reveals(self.fair, round_id, {seat: commitment}, {seat: body})[seat]
