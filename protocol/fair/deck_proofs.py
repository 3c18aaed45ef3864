"""Proof-carrying stages of the mental deck: the proof layer of protocol version 3 (fairness.md §12).

A deck with proofs computes on edwards25519 encodings
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
from typing import Any

from fairtable.protocol.codec import encode
from fairtable.protocol.errors import UsageError
from fairtable.protocol.fair.edwards import BadPoint, ProofOps, base_mul, check_points, hash_to_points, mul
from fairtable.protocol.fair.equal_logs import EqualLogs, EqualLogsProof, prove_equal_logs, verify_equal_logs
from fairtable.protocol.fair.errors import FairnessError
from fairtable.protocol.fair.group import ORDER, POINT_SIZE, SCALAR_SIZE
from fairtable.protocol.fair.mental_deck import LOCK, SHUFFLE, SHUFFLE_LOCK, Deck, DeckKeys, Entries, check_stage
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

    if commitments.seat != author or (kind != SHUFFLE and len(commitments.position_keys) != deck.size):
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


def stage_work(deck: Deck, index: int) -> tuple[ProofOps, ProofOps]:
    """The group operations §12.4 and §12.3 need to prove stage ``index`` and to verify it, one
    libsodium call each: what a benchmark prices as the proofs' floor.

    Per ``m``-entry part: a shuffle is proved with ``5m`` multiplications (its own ``m`` included),
    ``3m + 4`` fixed-base ones and ``5m + 1`` additions, and verified with ``6m + 4``, ``m + 4`` and
    ``7m + 8``; a lock is proved with ``3m`` and verified with ``4m`` and ``2m`` additions.
    libsodium has no multi-scalar multiplication, so a sum of ``m`` products costs its ``m`` terms.
    """
    m, kind = deck.size, deck.stages[index].kind
    prove, verify = ProofOps(), ProofOps()
    if kind != LOCK:
        prove.mults += m
        if _proves_shuffle(deck, index):
            prove.mults, prove.base_mults, prove.adds = 5 * m, 3 * m + 4, 5 * m + 1
            verify.mults, verify.base_mults, verify.adds = 6 * m + 4, m + 4, 7 * m + 8
    if kind != SHUFFLE:
        prove.mults += 3 * m
        verify.mults += 4 * m
        verify.adds += 2 * m
    return prove, verify


def check_key(deck: Deck, commitments: KeyCommitments, position: int, key: bytes, ops: ProofOps | None = None) -> None:
    """Refuse a published position key that is not the committed one (``key·G ≠ K_position``), naming its sender.

    The key itself is published, so the check is the commitment's own equation: one
    fixed-base multiplication, cheaper than verifying any proof about it.
    """
    if base_mul(_int(key), ops) != commitments.position_keys[position]:
        detail = f"the key for position {position} of deck {deck.name!r} is not the committed one"
        raise FairnessError(commitments.seat, "deck.bad-key", detail)


# ---------------------------------------------------------------- on the wire (§12.8)

DECK_KEY = "deck-key"
POSITION_KEYS = "position-keys"
SHUFFLED = "shuffled"
SHUFFLE_PROOF = "shuffle"
LOCK_PROOF = "lock"


def proof_fields(deck: Deck, index: int) -> frozenset[str]:
    """The fields a proved stage carries besides ``deck``, ``stage`` and ``entries`` (and a hidden
    deck's ``commitment``): ``deck-key`` where it shuffles, ``position-keys`` and ``lock`` where
    it locks, ``shuffled`` for a ``shuffle-lock``, ``shuffle`` where a shuffle is proved."""
    kind = deck.stages[index].kind
    fields = set()
    if kind != LOCK:
        fields.add(DECK_KEY)
    if kind != SHUFFLE:
        fields |= {POSITION_KEYS, LOCK_PROOF}
    if kind == SHUFFLE_LOCK:
        fields.add(SHUFFLED)
    if _proves_shuffle(deck, index):
        fields.add(SHUFFLE_PROOF)
    return frozenset(fields)


def _scalar(value: int) -> bytes:
    return value.to_bytes(SCALAR_SIZE, "little")


def equal_logs_value(proof: EqualLogsProof) -> dict:
    """``{challenge, responses}``, scalars as 32 bytes little-endian: a lock's or an unblinding's proof on the wire."""
    return {"challenge": _scalar(proof.challenge), "responses": [_scalar(s) for s in proof.responses]}


def shuffle_value(proof: ShuffleProof) -> dict:
    """The shuffle argument on the wire: ``{chain, chain-responses, challenge, permutation, responses, vector-responses}``."""
    return {
        "chain": list(proof.chain),
        "chain-responses": [_scalar(s) for s in proof.chain_responses],
        "challenge": _scalar(proof.challenge),
        "permutation": list(proof.permutation),
        "responses": [_scalar(s) for s in proof.responses],
        "vector-responses": [_scalar(s) for s in proof.vector_responses],
    }


def proven_stage_body(deck: Deck, index: int, stage: ProvenStage, commitments: KeyCommitments, commitment: bytes | None = None) -> dict:
    """The canonical body of a proved stage: §5.4's fields, its author's key commitments and its proofs."""
    body: dict[str, Any] = {"deck": deck.name, "stage": index, "entries": list(stage.entries)}
    if commitment is not None:
        body["commitment"] = commitment
    fields = proof_fields(deck, index)
    if DECK_KEY in fields:
        body[DECK_KEY] = commitments.deck_key
    if POSITION_KEYS in fields:
        body[POSITION_KEYS] = list(commitments.position_keys)
    if SHUFFLED in fields:
        assert stage.shuffled is not None
        body[SHUFFLED] = list(stage.shuffled)
    if stage.shuffle is not None:
        body[SHUFFLE_PROOF] = shuffle_value(stage.shuffle)
    if stage.lock is not None:
        body[LOCK_PROOF] = equal_logs_value(stage.lock)
    return body


class _Malformed(Exception):
    """A proof field of the wrong shape (the caller names the stage's author)."""


def _points(value: Any, count: int | None, what: str) -> tuple[bytes, ...]:
    if not isinstance(value, (list, tuple)) or (count is not None and len(value) != count):
        raise _Malformed(f"{what} must be an array of {count} points")
    if not all(isinstance(point, bytes) and len(point) == POINT_SIZE for point in value):
        raise _Malformed(f"{what} must hold {POINT_SIZE}-byte points")
    return tuple(value)


def _point(value: Any, what: str) -> bytes:
    return _points([value], 1, what)[0]


def _scalars(value: Any, count: int, what: str) -> tuple[int, ...]:
    if not isinstance(value, (list, tuple)) or len(value) != count:
        raise _Malformed(f"{what} must be an array of {count} scalars")
    result = []
    for scalar in value:
        if not (isinstance(scalar, bytes) and len(scalar) == SCALAR_SIZE and int.from_bytes(scalar, "little") < ORDER):
            raise _Malformed(f"{what} must hold canonical {SCALAR_SIZE}-byte scalars (below L)")
        result.append(int.from_bytes(scalar, "little"))
    return tuple(result)


def _map(value: Any, keys: set[str], what: str) -> dict:
    if not isinstance(value, dict) or set(value) != keys:
        raise _Malformed(f"{what} must be the map {{{', '.join(sorted(keys))}}}")
    return value


def read_equal_logs(value: Any, count: int, what: str = "the proof") -> EqualLogsProof:
    """An equal-logs proof from its wire value; ``ValueError`` naming what is wrong with its shape."""
    try:
        fields = _map(value, {"challenge", "responses"}, what)
        return EqualLogsProof(_scalars([fields["challenge"]], 1, what)[0], _scalars(fields["responses"], count, f"{what}'s responses"))
    except _Malformed as exc:
        raise ValueError(str(exc)) from None


def _read_shuffle(value: Any, m: int) -> ShuffleProof:
    keys = {"chain", "chain-responses", "challenge", "permutation", "responses", "vector-responses"}
    fields = _map(value, keys, "the shuffle argument")
    s1, s2, s3, s4 = _scalars(fields["responses"], 4, "the shuffle argument's responses")
    return ShuffleProof(
        _points(fields["permutation"], m, "the permutation commitment"),
        _points(fields["chain"], m, "the chain"),
        _scalars([fields["challenge"]], 1, "the challenge")[0],
        (s1, s2, s3, s4),
        _scalars(fields["chain-responses"], m, "the chain responses"),
        _scalars(fields["vector-responses"], m, "the vector responses"),
    )


def check_proven_stage(
    deck: Deck, index: int, body: Any, inputs: Sequence[bytes], deck_key: bytes | None, verify: bool = True,
    ops: ProofOps | None = None,
) -> tuple[Entries, KeyCommitments]:
    """A received stage of a proved deck, in the order of §12.8: its fields, §5.4's checks, the
    shape of its proofs, then the proofs against ``inputs`` (the previous stage's entries) and the
    author's commitments (``deck_key``: its ``D`` from its shuffling stage, for a ``lock``).

    Returns the entries and the commitments the stage publishes. A missing, malformed or false
    proof is ``deck.bad-proof`` naming the author; a hidden deck's first stage, which no proof
    covers, has its entries checked as group points (``deck.invalid-point``). ``verify=False``
    skips the proofs for a body this process computed itself; ``ops`` counts the verification's group work.
    """
    author = deck.stages[index].seat
    fields = proof_fields(deck, index)
    hidden_first = deck.owner is not None and index == 0

    def refuse(detail: str) -> FairnessError:
        return FairnessError(author, "deck.bad-proof", f"stage {index} of deck {deck.name!r}: {detail}")

    if isinstance(body, dict):
        base = {"deck", "entries", "stage"} | ({"commitment"} if hidden_first else set())
        missing = fields - set(body)
        if missing and set(body) <= base | fields:
            raise refuse(f"the stage carries no {', '.join(sorted(missing))}")
    entries = check_stage(deck, index, body, fields)
    try:
        published = _point(body[DECK_KEY], "the deck key commitment") if DECK_KEY in fields else deck_key
        if published is None:
            raise _Malformed(f"seat {author} published no deck key commitment before its lock")
        position_keys = _points(body[POSITION_KEYS], deck.size, "the position key commitments") if POSITION_KEYS in fields else ()
        shuffled = _points(body[SHUFFLED], deck.size, "the shuffled entries") if SHUFFLED in fields else None
        if deck.stages[index].kind == SHUFFLE:
            shuffled = entries
        shuffle = _read_shuffle(body[SHUFFLE_PROOF], deck.size) if SHUFFLE_PROOF in fields else None
        lock = read_equal_logs(body[LOCK_PROOF], deck.size, "the lock proof") if LOCK_PROOF in fields else None
    except (_Malformed, ValueError) as exc:
        raise refuse(str(exc)) from None
    commitments = KeyCommitments(author, published, position_keys)
    if hidden_first:
        try:
            check_points([*(shuffled or entries), published])
        except BadPoint:
            raise FairnessError(author, "deck.invalid-point", f"stage 0 of deck {deck.name!r} holds a value that is no group point") from None
        inputs = shuffled or entries
    if verify:
        verify_stage(deck, index, inputs, ProvenStage(entries, shuffled, shuffle, lock), commitments, ops)
    return entries, commitments
