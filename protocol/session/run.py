"""One game of a table as the session runs it: seeds, commitments, decks, handles and openings.

The table session decides *when* each message is due; this module knows *what* each one
must contain and how to check it, in terms of the fairness primitives. A handle is either
a position of a mental deck (opened by every seat's position key) or a private draw of
one seat (shown by its claimed face, checked after the seed reveal). Owned decks and
showing dealt cards to a subset have their own modules (``owned``, ``showing``).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from fairtable.games.contract import Deal, PrivateDraw, Reveal, Shuffle, ShuffleOwned
from fairtable.protocol import codec
from fairtable.protocol.envelope import Envelope
from fairtable.protocol.errors import UsageError
from fairtable.protocol.fair import private_stream, simultaneous
from fairtable.protocol.fair.deck_proofs import KeyCommitments, check_key, check_proven_stage, commit_keys, prove_stage, proven_stage_body
from fairtable.protocol.fair.edwards import ProofOps
from fairtable.protocol.fair.errors import FairnessError
from fairtable.protocol.fair.group import Ops, is_scalar
from fairtable.protocol.fair.hidden_board import check_full, full_body
from fairtable.protocol.fair.mental_deck import LOCK, Card, Deck, DeckKeys, open_position, open_positions, repeated
from fairtable.protocol.fair.public_random import HashChain, check_tip
from fairtable.protocol.fair.seeds import GameRef, Seed, check_seed_reveal, check_start, seed_reveal_body, start_body
from fairtable.protocol.hashing import digest
from fairtable.protocol.session.boards import BoardBook
from fairtable.protocol.session.errors import malformed as _malformed
from fairtable.protocol.session.recent import Recent
from fairtable.protocol.session.slots import DECK, DICTATED
from fairtable.protocol.session.summing import SumBook

DRAW_LABEL = "draw"




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


def _free_choice(envelope: Envelope) -> bool:
    """Whether the sender chose this envelope's body (see :data:`~protocol.session.slots.DICTATED`)."""
    owned_first_stage = envelope.kind == DECK and isinstance(envelope.body, dict) and "commitment" in envelope.body
    return envelope.kind not in DICTATED or owned_first_stage


def _field(item: Any, key: str) -> Any:
    return item.get(key) if isinstance(item, dict) else None


@dataclass
class DeckRecord:
    """A mental deck of this game: its final entries and every position key seen so far
    (and, for an owned deck, the composition commitment of its first stage)."""

    deck: Deck
    first_handle: int
    run_ref: weakref.ReferenceType[GameRun]
    """Its game, referred to weakly: a finished game is freed at once, not left to the cycle collector."""
    entries: tuple[bytes, ...] = ()
    commitment: bytes | None = None
    published: dict[int, dict[int, bytes]] = field(default_factory=dict)
    opened: dict[Card, int] = field(default_factory=dict)
    commitments: dict[int, KeyCommitments] = field(default_factory=dict)
    """A proved deck's key commitments by seat, as its stages published them (``D``, then ``K``)."""
    _derived: dict[int, DeckKeys] = field(default_factory=dict)
    _committed: dict[int, KeyCommitments] = field(default_factory=dict)
    _produced: dict[int, tuple[tuple[bytes, ...], dict, bytes]] = field(default_factory=dict)
    dictated: set[int] = field(default_factory=set)
    """Stages received byte for byte as their author's known seed dictates them (the verifier's)."""
    derived_keys: set[int] = field(default_factory=set)
    """Seats whose published position-key commitments are those of their derived keys."""

    @property
    def run(self) -> GameRun:
        """Its game, referred to weakly: a finished game is freed at once, not left to the cycle collector."""
        run = self.run_ref()
        assert run is not None, "a deck record outlived its game"
        return run

    def keys_of(self, seat: int) -> DeckKeys:
        """``seat``'s keys for this deck, derived from its seed once and kept: every opening needs them."""
        if seat not in self._derived:
            self._derived[seat] = DeckKeys.derive(self.run.seeds[seat], self.deck)
            self.run.ops.derived += self.deck.size + 1
        return self._derived[seat]

    def proven_body(self, index: int, inputs: tuple[bytes, ...], commitment: bytes | None = None) -> dict:
        """Stage ``index`` of a proved deck as its author's seed dictates it, with its proofs."""
        return self._proven(index, inputs, commitment)[1]

    def proven_encoding(self, index: int, inputs: tuple[bytes, ...]) -> bytes:
        """:meth:`proven_body` encoded, as computed with it (the verifier compares the received bytes with it)."""
        return self._proven(index, inputs)[2]

    def _proven(self, index: int, inputs: tuple[bytes, ...], commitment: bytes | None = None) -> tuple[tuple[bytes, ...], dict, bytes]:
        """The dictated stage's inputs, body and encoding, computed once: its check compares with it."""
        produced = self._produced.get(index)
        if produced is None or produced[0] != inputs:
            deck, seat, ops = self.deck, self.deck.stages[index].seat, self.run.proof_ops
            keys = self.keys_of(seat)
            if seat not in self._committed:
                self._committed[seat] = commit_keys(keys, ops)
            commitments = self._committed[seat]
            stage = prove_stage(deck, index, self.run.seeds[seat], keys, commitments, inputs, ops)
            body = proven_stage_body(deck, index, stage, commitments, commitment)
            produced = self._produced[index] = (inputs, body, codec.encode(body))
        return produced

    def check_proven(self, index: int, inputs: tuple[bytes, ...], body: Any) -> tuple[bytes, ...]:
        """A received stage of a proved deck: checked and its proofs verified on receipt
        (fairness.md §12.8), except a body equal to the one its author's known seed dictates,
        which this process proved itself. Keeps the commitments it publishes."""
        seat = self.deck.stages[index].seat
        if seat in self.run.seeds and (index or self.deck.owner is None):
            self._proven(index, inputs)
        produced = self._produced.get(index)
        own = produced is not None and produced[0] == inputs and produced[2] == codec.encode(body)
        earlier = self.commitments.get(seat)
        entries, published = check_proven_stage(self.deck, index, body, inputs, earlier.deck_key if earlier else None,
                                                verify=not own, ops=self.run.proof_ops)
        self.commitments[seat] = KeyCommitments(seat, published.deck_key, published.position_keys or (earlier.position_keys if earlier else ()))
        if own:
            self.dictated.add(index)
        if published.position_keys:
            # The commitments are the derived keys' exactly when the stage publishing them was dictated.
            (self.derived_keys.add if own else self.derived_keys.discard)(seat)
        return entries

    def check_key(self, seat: int, position: int, key: bytes) -> None:
        """On a proved deck, refuse a published position key that is not ``seat``'s committed one (``deck.bad-key``).

        Where the commitments are those of the seat's derived keys, the derived key is the one
        scalar below L with ``k·G = K``: equality decides it without a multiplication."""
        if not self.deck.proved:
            return
        commitments = self.commitments.get(seat)
        if commitments is None or len(commitments.position_keys) != self.deck.size:
            raise UsageError(f"seat {seat} published a key of deck {self.deck.name!r} before its commitments")
        if seat in self.derived_keys and key == self.keys_of(seat).position_keys[position]:
            return
        check_key(self.deck, commitments, position, key, self.run.proof_ops)

    def faces_by_permutation(self) -> dict[int, Card] | None:
        """Every position's card, where every stage was dictated (the verifier's, all seeds known):
        the entries are then this process's own products of the card points under the seats'
        permutations, so the permutations name each card and no opening multiplication is needed."""
        deck = self.deck
        if deck.owner is not None or self.opened or len(self.dictated) != len(deck.stages):
            return None
        cards = deck.initial_cards()
        for stage in deck.stages:
            if stage.kind != LOCK:
                cards = tuple(cards[j] for j in self.keys_of(stage.seat).permutation)
        return dict(enumerate(cards))

    def keys(self, position: int) -> dict[int, bytes]:
        """Every seat's key for ``position`` this session knows: as published, else as derived
        from a known seed."""
        keys = {seat: self.keys_of(seat).position_keys[position] for seat in self.deck.seats if seat in self.run.seeds}
        keys.update(self.published.get(position, {}))
        return keys

    def open(self, position: int, keys: Mapping[int, bytes]) -> tuple[int, FairnessError | None]:
        """The card id at ``position``, and the finding if that card was already opened elsewhere.

        Raises a :class:`FairnessError` when the position opens to no card. A repeat is
        returned, not raised: the card did open, and whether anyone else can tell depends on
        what this session saw before (its own hand), so it must not decide whether an
        envelope is accepted.
        """
        card = open_position(self.deck, position, self.entries[position], keys, None, self.run.ops)
        repeat = repeated(self.deck, position, card, self.opened)
        self.opened.setdefault(card, position)
        return card.id, repeat




def _failed_reveal(seat: int, handle: int, key: bytes, record: DeckRecord, position: int, failure: FairnessError) -> FairnessError:
    """A card a move shows that opens to no card. Live, that is the mover's ``deck.bad-reveal``:
    the card opened for it when it was dealt, with the same keys. Where the mover's seed is known
    (the verifier) and its key is the derived one, the mover is honest: a stage or another seat's
    key was false, and the recomputation names its author at that envelope (``spec/session.md``
    §7 item 5), so the finding names no seat."""
    if seat in record.run.seeds and key == record.keys_of(seat).position_keys[position]:
        others = tuple(other for other in record.deck.seats if other != seat)
        return FairnessError(None, "deck.no-card", f"handle {handle}: {failure.detail}; the mover's key is the derived one", others)
    return FairnessError(seat, "deck.bad-reveal", f"handle {handle}: {failure.detail}")


class GameRun:
    """The cryptographic side of one game: what each seat must send and what it proves."""

    def __init__(self, fair: GameRef, seat_count: int, known: Mapping[int, bytes], envelopes: Recent[Envelope],
                 ops: Ops, private: dict[str, Any], compositions: Mapping[str, tuple[int, ...]] | None = None,
                 proved: bool = False, proof_ops: ProofOps | None = None) -> None:
        self.fair = fair
        self.proved = proved
        """Protocol version 3: the game's decks prove every stage and key (fairness.md §12)."""
        self.seat_count = seat_count
        self.envelopes = envelopes
        self.seeds = {seat: Seed(fair, seat, value) for seat, value in known.items()}
        self.chains = {seat: HashChain.derive(seed) for seat, seed in self.seeds.items()}
        ops.hashes += sum(chain.length for chain in self.chains.values())
        self.commitments: dict[int, tuple[bytes, bytes]] = {}
        self.last_reveal: dict[int, bytes] = {}
        self.random_index = 0
        self.decks: list[DeckRecord] = []
        self.handles: dict[int, tuple[DeckRecord, int]] = {}
        self.holder: dict[int, int] = {}
        self.drawn: dict[int, tuple[int, int, int | None]] = {}
        """Private-draw handles: ``(drawer, bound, face)``, the face None where the seed is unknown."""
        self.draws: dict[int, int] = {}
        self.public_faces: dict[int, int] = {}
        self.known_faces: dict[int, int] = {}
        self.hidden = BoardBook(self)
        """The game's hidden boards (``boards``)."""
        self.choice_rounds = 0
        self.unrevealed: dict[tuple[str, int], bytes] = {}
        """Simultaneous choices committed and not yet revealed: ``(round, seat)`` to the commitment."""
        self.show_rounds = 0
        self.sums = SumBook(self)
        """Pair keys and every share of the game's masked sums (``summing``)."""
        self.private = private
        """This seat's free choices (hidden data, choices, compositions), persisted by the node."""
        self.compositions = dict(compositions or {})
        """The owned decks' compositions as revealed after the game, by deck name (the verifier's)."""
        self.ops = ops
        self.proof_ops = proof_ops if proof_ops is not None else ProofOps()
        """The proof layer's group work (multiplications, fixed-base ones, additions), counted for benchmarks."""

    # ------------------------------------------------------------ seeds

    def commit_body(self, seat: int) -> dict:
        """This seat's ``commit`` body: its seed's commitment and its hash chain's tip, binding all its randomness for the game."""
        return start_body(self.seeds[seat], self.chains[seat].tip)

    def check_commit(self, seat: int, body: Any) -> tuple[bytes, bytes]:
        """A ``commit`` body's seed commitment and chain tip, after checking its shape."""
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
        """The seed reveal, with every committed choice of the seat still closed: the values of
        each board not fully opened and each simultaneous choice not revealed (the game may have
        ended before it asked for them), so they are checked whatever the result."""
        boards = [full_body(self.hidden.committed_board(held)) for held in self.hidden.owed(seat)]
        choices = [{"choice": self.private[f"{round_id}-{seat}"], "round": round_id} for round_id in self.owed_choices(seat)]
        return {**seed_reveal_body(self.seeds[seat]), "boards": boards, "choices": choices}

    def owed_choices(self, seat: int) -> list[str]:
        """The simultaneous rounds whose choice ``seat`` committed and has not revealed: its seed reveal opens them."""
        return [round_id for round_id, owner in self.unrevealed if owner == seat]

    def check_seed(self, seat: int, body: Any) -> Seed:
        """The seed of a seed reveal, after checking its shape, commitment and chain tip.

        The openings it carries are checked by :meth:`audit_seed`: a wrong one is recorded
        against the seat, but does not make its (valid) seed unusable.
        """
        boards = [held.board.name for held in self.hidden.owed(seat)]
        rounds = self.owed_choices(seat)
        if not (isinstance(body, dict) and set(body) == {"boards", "choices", "seed"}
                and isinstance(body["boards"], tuple) and isinstance(body["choices"], tuple)
                and [_field(item, "board") for item in body["boards"]] == boards
                and [_field(item, "round") for item in body["choices"]] == rounds
                and all(set(item) == {"choice", "round"} for item in body["choices"])):
            raise FairnessError(seat, "seed.malformed", f"a seed reveal is {{seed, boards: {boards}, choices: {rounds}}}, "
                                "opening every board not fully opened and every choice not revealed")
        commitment, tip = self.commitments[seat]
        seed = check_seed_reveal(self.fair, seat, {"seed": body["seed"]}, commitment)
        known = self.seeds.get(seat)
        if known is None or known.value != seed.value:
            check_tip(seed, tip)
        return seed

    def audit_seed(self, seed: Seed, body: Any) -> tuple[list[FairnessError], dict[str, tuple[int, ...]] | None]:
        """Check the openings a seed reveal carries against their commitments, with the seed.

        Returns what is wrong, and the seat's latest hidden data in full (its latest board of
        every layer it committed) when the reveal completed it (for the game to judge), else None.
        """
        seat = seed.seat
        findings: list[FairnessError] = []
        owed = self.hidden.owed(seat)
        completed: dict[str, tuple[int, ...]] = {}
        for held, item in zip(owed, body["boards"]):
            try:
                check_full(seed, held.board, held.root, item)
            except FairnessError as exc:
                findings.append(exc)
                continue
            values = tuple(value for value in item["values"] if type(value) is int)
            if len(values) < held.board.cells:
                findings.append(FairnessError(seat, "board.malformed", f"board {held.board.name!r}: hidden cell values are integers"))
                continue
            completed[held.layer] = values
        for item in body["choices"]:
            round_id = item["round"]
            reveal = simultaneous.reveal_body(seed, round_id, item["choice"])
            try:
                simultaneous.check_reveals(self.fair, round_id, {seat: self.unrevealed[(round_id, seat)]}, {seat: reveal})
            except FairnessError as exc:
                findings.append(exc)
        latest = [held for (owner, _), held in sorted(self.hidden.boards.items()) if owner == seat and held in self.hidden.committed]
        if findings or not latest or not any(held in owed for held in latest):
            return findings, None
        data = {held.layer: completed.get(held.layer) or tuple(held.opened[i] for i in range(held.board.cells)) for held in latest}
        return findings, data

    # ------------------------------------------------------------ decks and keys

    def new_deck(self, request: Shuffle | ShuffleOwned) -> DeckRecord:
        """The deck ``deck-<n>`` (n counts the game's shuffles of either kind) over the request's seats."""
        name, seats = f"deck-{len(self.decks)}", request.seats or tuple(range(self.seat_count))
        if isinstance(request, ShuffleOwned):
            deck = Deck.hidden(self.fair, name, seats, request.owner, request.size, request.catalogue, request.max_copies, self.proved)
        else:
            deck = Deck.public(self.fair, name, seats, request.cards, self.proved)
        record = DeckRecord(deck, request.first_handle, weakref.ref(self))
        self.decks.append(record)
        self.ops.points += deck.size
        for position in range(deck.size):
            self.handles[request.first_handle + position] = (record, position)
        return record

    def open_all(self, record: DeckRecord, checked: bool = True) -> dict[int, int]:
        """Every face of a deck whose every seed is known (the verifier), or none.

        None when a position fails to open (a stage was false; the replay has named its
        author): the game then goes on knowing what the live seats knew, opening cards as
        they are dealt, rather than with a deck it could not have been dealt.
        """
        deck = record.deck
        if any(seat not in self.seeds for seat in deck.seats):
            return {}
        cards = record.faces_by_permutation()
        if cards is None:
            keys = {seat: dict(enumerate(record.keys_of(seat).position_keys)) for seat in deck.seats}
            try:
                cards = open_positions(deck, dict(enumerate(record.entries)), keys, record.opened, self.ops, checked)
            except FairnessError:
                record.opened.clear()
                return {}
        for position, card in cards.items():
            record.opened.setdefault(card, position)
        faces = {record.first_handle + position: card.id for position, card in cards.items()}
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
                    raise UsageError(f"the game dealt handle {handle}, held by seat {holder}, to seat {recipient}; Show shows it")
                self.holder[handle] = recipient
                for seat in record.deck.seats:
                    if seat != recipient and seat not in record.published.get(position, {}):
                        needs.setdefault(seat, []).append(handle)
        return {seat: tuple(sorted(handles)) for seat, handles in needs.items()}

    def reveal_needs(self, request: Reveal) -> dict[int, tuple[int, ...]]:
        """For a public reveal: which seats must publish their keys for which handles (the holder alone for a card in its hand)."""
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
        """This seat's ``keys`` body: its position keys for ``handles``, derived from its seed."""
        keys = []
        for handle in handles:
            record, position = self.handles[handle]
            keys.append([handle, record.keys_of(seat).position_keys[position]])
        return {"keys": keys}

    def check_keys(self, seat: int, wanted: tuple[int, ...], body: Any) -> dict[int, bytes]:
        """The keys of a ``keys`` message, by handle, after checking they are the handles due, in order, each a canonical scalar."""
        if not isinstance(body, dict) or set(body) != {"keys"}:
            raise _malformed(seat, "a keys message is the map {keys}")
        pairs = _pairs(seat, body["keys"], "keys")
        if tuple(handle for handle, _ in pairs) != wanted:
            raise _malformed(seat, f"keys for handles {list(wanted)} are due, got {[h for h, _ in pairs]}")
        for handle, key in pairs:
            if not is_scalar(key):
                raise FairnessError(seat, "deck.malformed-keys", f"the key for handle {handle} is not a canonical non-zero scalar")
            record, position = self.handles[handle]
            record.check_key(seat, position, key)
        return dict(pairs)

    def store_keys(self, seat: int, keys: Mapping[int, bytes]) -> None:
        """Keep a seat's published keys: with the rest of a position's keys they open it."""
        for handle, key in keys.items():
            record, position = self.handles[handle]
            record.published.setdefault(position, {})[seat] = key

    def open_visible(self, handles: list[int], local: int | None, public: bool = False) -> tuple[dict[int, int], list[FairnessError]]:
        """Open the handles this session may see now (all of them when ``public``, a reveal), and
        what proved some stage or key false (a position that opens to no card, or to one seen
        before): grounds for a dispute."""
        faces: dict[int, int] = {}
        findings: list[FairnessError] = []
        for handle in handles:
            if handle in self.known_faces:
                faces[handle] = self.known_faces[handle]
                continue
            record, position = self.handles[handle]
            holder = self.holder.get(handle)
            if local is not None and holder is not None and holder != local and not public and handle not in self.public_faces:
                continue
            keys = record.keys(position)
            if len(keys) < len(record.deck.seats):
                continue
            try:
                faces[handle], repeat = record.open(position, keys)
            except FairnessError as exc:
                findings.append(exc)
                continue
            if repeat is not None:
                findings.append(repeat)
        self.known_faces.update(faces)
        return faces, findings

    def _deck_handle(self, handle: int) -> tuple[DeckRecord, int]:
        if handle not in self.handles:
            raise UsageError(f"the game named handle {handle}, which no shuffle created")
        return self.handles[handle]

    # ------------------------------------------------------------ private draws

    def draw_source(self, seat: int) -> Envelope | None:
        """The envelope whose signature seeds ``seat``'s next draw, if the chain holds one yet.

        It must be another seat's, and newer than the drawer's latest free envelope (one
        whose body is not dictated by what it committed before: a move, hidden data, a
        choice, a commitment): the drawer then fixed everything it chose before that
        signature existed, and cannot compute it (it needs the other seat's key). None means
        no envelope qualifies, and another seat must sign a ``draw`` message first.
        """
        for envelope in reversed(self.envelopes.held()):
            if envelope.seat != seat:
                return envelope
            if _free_choice(envelope):
                return None
        return None

    def private_draw(self, request: PrivateDraw, local: int | None, source: Envelope) -> dict[int, int]:
        """Draw ``request`` from the drawer's stream, ``source``'s signature as the context."""
        counter = self.draws.get(request.seat, 0)
        self.draws[request.seat] = counter + 1
        faces: tuple[int | None, ...] = (None,) * request.count
        seed = self.seeds.get(request.seat)
        if seed is not None:
            context = digest("session/draw-context", source.signature)
            faces = private_stream.draw(seed, DRAW_LABEL, context, counter, request.bound, request.count)
        for offset, face in enumerate(faces):
            self.drawn[request.first_handle + offset] = (request.seat, request.bound, face)
        visible = local is None or local == request.seat
        return {request.first_handle + i: face for i, face in enumerate(faces) if face is not None and visible}

    # ------------------------------------------------------------ moves

    def move_body(self, seat: int, move: Any, reveals: tuple[int, ...]) -> dict:
        """A ``move`` body: the move, with the keys (or private-draw faces) of the cards it shows, so every seat sees them at once."""
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

    def check_move(self, seat: int, body: Any, reveals_of: Callable[[Any], tuple[int, ...]]
                   ) -> tuple[Any, dict[int, int], list[FairnessError]]:
        """The move, the faces it shows (``reveals_of(move)``) after checking every opening it
        carries, and the shown cards that repeat one this session saw (not the mover's doing:
        an honest mover shows the card it was dealt)."""
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
        repeats: list[FairnessError] = []
        for handle in due_keys:
            if handle not in self.handles or self.holder.get(handle) != seat:
                raise FairnessError(seat, "session.not-held", f"the move shows handle {handle}, which was not dealt to seat {seat}")
            if not is_scalar(keys[handle]):
                raise FairnessError(seat, "deck.malformed-keys", f"the key for handle {handle} is not a canonical non-zero scalar")
            record, position = self.handles[handle]
            record.check_key(seat, position, keys[handle])
            if seat in self.seeds and handle in self.known_faces:
                # The key is known: equality proves the opening without a multiplication.
                if keys[handle] != record.keys_of(seat).position_keys[position]:
                    raise FairnessError(seat, "deck.key-mismatch", f"the key shown for handle {handle} is not the derived one")
                faces[handle] = self.known_faces[handle]
                continue
            opening = {**record.keys(position), seat: keys[handle]}
            try:
                faces[handle], repeat = record.open(position, opening)
            except FairnessError as exc:
                raise _failed_reveal(seat, handle, keys[handle], record, position, exc) from None
            if repeat is not None:
                repeats.append(repeat)
        for handle in due_faces:
            owner, bound, known = self.drawn[handle]
            face = claimed[handle]
            if owner != seat:
                raise FairnessError(seat, "session.not-held", f"the move shows handle {handle}, a private draw of seat {owner}")
            if type(face) is not int or not 0 <= face < bound:
                raise _malformed(seat, f"the face of handle {handle} must be below {bound}")
            if known is not None and known != face:
                raise FairnessError(seat, "private-stream.mismatch", f"handle {handle} was drawn as {known}, shown as {face}")
            faces[handle] = face
        return body["move"], faces, repeats

    # ------------------------------------------------------------ simultaneous choices

    def begin_choice(self) -> str:
        """Open a simultaneous round and name it (``choice-<n>``): commitments and reveals are bound to the round."""
        self.choice_rounds += 1
        return f"choice-{self.choice_rounds - 1}"

    def choice_body(self, seat: int, round_id: str, choice: Any) -> dict:
        """This seat's ``choice`` commitment, the choice kept (persisted by the node) to reveal it once every seat has committed."""
        self.private[f"{round_id}-{seat}"] = choice
        return simultaneous.commit_body(self.seeds[seat], round_id, choice)

    def adopt_choice(self, seat: int, round_id: str, commitment: bytes) -> None:
        """Keep a seat's accepted commitment: its reveal is checked against it."""
        self.unrevealed[(round_id, seat)] = commitment

    def reveal_choice_body(self, seat: int, round_id: str) -> dict:
        """This seat's ``reveal`` of its committed choice, salted from its seed."""
        return simultaneous.reveal_body(self.seeds[seat], round_id, self.private[f"{round_id}-{seat}"])

    def check_choice_reveal(self, seat: int, round_id: str, body: Any) -> Any:
        """The choice a ``reveal`` opens, after checking it against the seat's commitment."""
        return simultaneous.check_reveals(self.fair, round_id, {seat: self.unrevealed[(round_id, seat)]}, {seat: body})[seat]

    def adopt_reveal(self, seat: int, round_id: str, body: Any) -> list[FairnessError]:
        """The choice is open; where the seat's seed is known, its salt must be the derived one
        (recorded, not refused, as for board salts)."""
        del self.unrevealed[(round_id, seat)]
        seed = self.seeds.get(seat)
        if seed is None:
            return []
        try:
            simultaneous.check_salt(seed, round_id, body["salt"])
        except FairnessError as exc:
            return [exc]
        return []
