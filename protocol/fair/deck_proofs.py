"""Proof-carrying stages of the mental deck: the proof layer of the next protocol version (fairness.md §12).

Not on the wire yet. A deck with proofs computes on edwards25519 encodings
(:mod:`~protocol.fair.edwards`), with the stage computations of §5.4 and one change: the
``shuffle-lock`` stage publishes its shuffled entries too, so that it is a ``shuffle``
followed by a ``lock`` and each half has its proof. Every seat publishes ``D = k·G`` for its
deck key and ``K_i = k_i·G`` for its position keys; then

- a ``shuffle`` carries the shuffle argument (:mod:`~protocol.fair.shuffle_proof`) that its
  entries are its input permuted and multiplied by the ``k`` of ``D``;
- a ``lock`` carries a Chaum–Pedersen batch (:mod:`~protocol.fair.equal_logs`) that entry ``i``
  is its input times ``x_i`` with ``x_i·D = K_i`` (``x_i = k_i·k⁻¹``);
- a published position key ``k_i`` is checked on receipt: ``k_i·G = K_i``.

Together they make a final entry ``(∏_s k_{s,i})·card`` for a permutation of the cards, with
``k_{s,i}`` the keys the seats will publish: every opening lands on a fresh card. The stage-0
shuffle of a hidden deck has no input anyone else knows, so it has no shuffle argument.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from fairtable.protocol.codec import encode
from fairtable.protocol.errors import UsageError
from fairtable.protocol.fair.edwards import ProofOps, base_mul, hash_to_points, mul
from fairtable.protocol.fair.equal_logs import EqualLogs, EqualLogsProof, prove_equal_logs, verify_equal_logs
from fairtable.protocol.fair.errors import FairnessError
from fairtable.protocol.fair.group import ORDER
from fairtable.protocol.fair.mental_deck import LOCK, SHUFFLE, Deck, DeckKeys, Entries
from fairtable.protocol.fair.seeds import Seed, Stream
from fairtable.protocol.fair.shuffle_proof import ShuffleProof, ShuffleStatement, prove_shuffle, verify_shuffle
from fairtable.protocol.hashing import digest


def card_points(deck: Deck, composition: Sequence[int] | None = None) -> Entries:
    """Stage 0's input on Edwards encodings: ``from_uniform(H("fair/card", enc([deck label, c, n])))``."""
    cards = deck.initial_cards(composition)
    return tuple(hash_to_points("fair/card", [encode([deck.label, card.id, card.copy]) for card in cards]))


@dataclass(frozen=True)
class KeyCommitments:
    """A seat's public keys for one deck: ``D = k·G`` and ``K_i = k_i·G``, what its proofs refer to."""

    seat: int
    deck_key: bytes
    position_keys: tuple[bytes, ...]


def commit_keys(keys: DeckKeys, ops: ProofOps | None = None) -> KeyCommitments:
    """The commitments to ``keys``: one fixed-base multiplication per key."""
    return KeyCommitments(
        keys.seat,
        base_mul(_int(keys.deck_key), ops),
        tuple(base_mul(_int(key), ops) for key in keys.position_keys),
    )


@dataclass(frozen=True)
class ProvenStage:
    """A stage's entries and proofs: ``shuffled`` and ``shuffle`` for a shuffling stage, ``lock``
    for a locking one (a ``shuffle-lock`` has all three; its ``entries`` are the locked ones)."""

    entries: Entries
    shuffled: Entries | None
    shuffle: ShuffleProof | None
    lock: EqualLogsProof | None


def _int(scalar: bytes) -> int:
    return int.from_bytes(scalar, "little")


def proof_context(deck: Deck, index: int, part: str) -> bytes:
    """``H("fair/proof-context", enc([deck label, stage, kind, seat, part]))``: what a proof is bound to.

    The deck label binds table, game and deck name; with stage index, kind, author and the part
    (``shuffle`` or ``lock``), a proof made for one place verifies nowhere else.
    """
    stage = deck.stages[index]
    return digest("fair/proof-context", encode([deck.label, index, stage.kind, stage.seat, part]))


def _nonce_stream(seed: Seed, deck: Deck, index: int, part: str, inputs: Sequence[bytes]) -> Stream:
    """The prover's nonces: keyed by its seed and by the input, so one key never serves two statements."""
    key = seed.key("deck/proof", deck.name, index, part)
    return Stream(digest("fair/proof-nonce", encode([key, list(inputs)])))


def _lock_statement(commitments: KeyCommitments, inputs: Sequence[bytes], outputs: Sequence[bytes]) -> EqualLogs:
    m = len(inputs)
    return EqualLogs((commitments.deck_key,) * m, commitments.position_keys, tuple(inputs), tuple(outputs))


def _proves_shuffle(deck: Deck, index: int) -> bool:
    """A shuffling stage has an argument unless it is a hidden deck's first, whose input is secret."""
    return deck.stages[index].kind != LOCK and not (deck.owner is not None and index == 0)


def prove_stage(
    deck: Deck,
    index: int,
    seed: Seed,
    keys: DeckKeys,
    commitments: KeyCommitments,
    inputs: Sequence[bytes],
    ops: ProofOps | None = None,
) -> ProvenStage:
    """Compute stage ``index`` from ``inputs`` (Edwards entries) and prove it.

    ``shuffle``: ``out[i] = k·in[p[i]]``; ``lock``: ``out[i] = (k_i·k⁻¹)·in[i]``; ``shuffle-lock``:
    both, the shuffled entries published. ``seed`` gives the nonces (§12.5).
    """
    stage = deck.stages[index]
    if keys.seat != stage.seat or seed.seat != stage.seat:
        raise UsageError(f"stage {index} belongs to seat {stage.seat}")
    if len(inputs) != deck.size:
        raise UsageError(f"stage {index} takes {deck.size} entries, got {len(inputs)}")
    k = _int(keys.deck_key)
    entries, shuffled, shuffle = tuple(inputs), None, None
    if stage.kind != LOCK:
        shuffled = tuple(mul(k, entries[j], ops) for j in keys.permutation)
        if _proves_shuffle(deck, index):
            statement = ShuffleStatement(entries, shuffled, commitments.deck_key)
            stream = _nonce_stream(seed, deck, index, "shuffle", entries)
            shuffle = prove_shuffle(proof_context(deck, index, "shuffle"), statement, keys.permutation, k, stream, ops)
        entries = shuffled
        if stage.kind == SHUFFLE:
            return ProvenStage(entries, shuffled, shuffle, None)
    inverse = pow(k, -1, ORDER)
    factors = [_int(key) * inverse % ORDER for key in keys.position_keys]
    locked = tuple(mul(x, entry, ops) for x, entry in zip(factors, entries))
    stream = _nonce_stream(seed, deck, index, "lock", entries)
    lock_statement = _lock_statement(commitments, entries, locked)
    lock = prove_equal_logs(proof_context(deck, index, "lock"), lock_statement, factors, stream, ops)
    return ProvenStage(locked, shuffled, shuffle, lock)


def verify_stage(
    deck: Deck,
    index: int,
    inputs: Sequence[bytes],
    stage: ProvenStage,
    commitments: KeyCommitments,
    ops: ProofOps | None = None,
) -> None:
    """Check stage ``index``'s proofs against its input (the previous stage's entries) and its author's commitments.

    A :class:`FairnessError` ``deck.bad-proof`` names the author when a proof is missing,
    superfluous or false: the entries are then not its input permuted and re-keyed under its
    committed keys (a substituted, copied, dropped entry, a wrong key, a stale input), or the
    proof was made for another table, deck, stage or author.
    """
    kind = deck.stages[index].kind
    author = deck.stages[index].seat

    def refuse(detail: str) -> FairnessError:
        return FairnessError(author, "deck.bad-proof", f"stage {index} of deck {deck.name!r}: {detail}")

    if commitments.seat != author or len(commitments.position_keys) != deck.size:
        raise UsageError(f"stage {index} is checked against the commitments of seat {author}")
    if len(inputs) != deck.size or len(stage.entries) != deck.size:
        raise refuse(f"a stage has {deck.size} entries")
    wants_shuffled = kind != LOCK
    if (stage.shuffled is not None) != wants_shuffled or (stage.shuffle is not None) != _proves_shuffle(deck, index):
        raise refuse("the stage does not carry the proofs its kind needs")
    if (stage.lock is not None) != (kind != SHUFFLE):
        raise refuse("the stage does not carry the proofs its kind needs")
    entries = tuple(inputs)
    if stage.shuffled is not None:
        if len(stage.shuffled) != deck.size:
            raise refuse(f"a stage has {deck.size} shuffled entries")
        if stage.shuffle is not None:
            statement = ShuffleStatement(entries, stage.shuffled, commitments.deck_key)
            if not verify_shuffle(proof_context(deck, index, "shuffle"), statement, stage.shuffle, ops):
                raise refuse("the shuffle argument fails")
        entries = stage.shuffled
        if kind == SHUFFLE and stage.entries != stage.shuffled:
            raise refuse("a shuffle's entries are its shuffled entries")
    if stage.lock is not None:
        lock_statement = _lock_statement(commitments, entries, stage.entries)
        if not verify_equal_logs(proof_context(deck, index, "lock"), lock_statement, stage.lock, ops):
            raise refuse("the lock proof fails")


def check_key(deck: Deck, commitments: KeyCommitments, position: int, key: bytes, ops: ProofOps | None = None) -> None:
    """Refuse a published position key that is not the committed one (``key·G ≠ K_position``), naming its sender.

    The key itself is published, so the check is the commitment's own equation: one
    fixed-base multiplication, cheaper than verifying any proof about it.
    """
    if base_mul(_int(key), ops) != commitments.position_keys[position]:
        detail = f"the key for position {position} of deck {deck.name!r} is not the committed one"
        raise FairnessError(commitments.seat, "deck.bad-key", detail)
