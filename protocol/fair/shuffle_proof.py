"""The shuffle argument for one re-keyed shuffle: ``out[i] = k · in[p[i]]`` with ``D = k · G`` (fairness.md §12.4).

It is the proof of a shuffle of Terelius and Wikström (2010) in the form of Haenni, Locher,
Koenig and Dubuis ("Pseudo-code algorithms for verifiable re-encryption mix-nets", 2017),
with the re-encryption replaced by the multiplication by ``k``:

1. the prover commits to its permutation, ``c_j = r_j·G + H_{q[j]}`` for ``q = p⁻¹``;
2. challenges ``u_j`` follow from everything so far; ``u'_i = u_{p[i]}``;
3. a chain ``ĉ_i = r̂_i·G + u'_i·ĉ_{i−1}`` (``ĉ_{−1} = Ĥ``) commits to ``∏ u'_i``;
4. a sigma protocol, made non-interactive by one more challenge ``c``, shows at once that the
   committed matrix is a permutation (``Σ c_j`` opens to all ones, ``ĉ_{m−1}`` to ``∏ u_j``)
   and that ``Σ u'_i·out_i = k · Σ u_j·in_j`` with ``D = k·G``.

Since ``u`` is random, the last equation holds for a permutation only if every output is
``k`` times the input the permutation sends it: a substituted, copied or dropped entry, or one
multiplied by another key, fails (soundness error about ``(m + 2)/L`` per hash query).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from fairtable.protocol.codec import encode
from fairtable.protocol.errors import UsageError
from fairtable.protocol.fair.edwards import (
    CHAIN_BASE,
    BadPoint,
    ProofOps,
    add,
    base_mul,
    combination,
    generator_sum,
    generators,
    mul,
    nonces,
    scalars,
    sub,
    total,
)
from fairtable.protocol.fair.group import ORDER
from fairtable.protocol.fair.seeds import Stream
from fairtable.protocol.hashing import digest

LABEL_U = "fair/shuffle-u"
LABEL_C = "fair/shuffle-c"


@dataclass(frozen=True)
class ShuffleStatement:
    """``outputs`` are ``inputs`` permuted and multiplied by the ``k`` of ``key_commitment = k·G``."""

    inputs: tuple[bytes, ...]
    outputs: tuple[bytes, ...]
    key_commitment: bytes

    def __post_init__(self) -> None:
        if not 0 < len(self.inputs) == len(self.outputs):
            raise UsageError("a shuffle statement has as many outputs as inputs, at least one")


@dataclass(frozen=True)
class ShuffleProof:
    """Commitments (``permutation``: ``c_j``, ``chain``: ``ĉ_i``), the challenge ``c`` and the responses.

    ``responses`` is ``[s1, s2, s3, s4]``; ``chain_responses`` the ``ŝ_i``, ``vector_responses``
    the ``s'_i``. On the wire: ``2m`` points and ``2m + 5`` scalars.
    """

    permutation: tuple[bytes, ...]
    chain: tuple[bytes, ...]
    challenge: int
    responses: tuple[int, int, int, int]
    chain_responses: tuple[int, ...]
    vector_responses: tuple[int, ...]


def _u_challenges(context: bytes, statement: ShuffleStatement, permutation: Sequence[bytes]) -> tuple[bytes, list[int]]:
    """``(h₁, u)``: ``h₁ = H("fair/shuffle-u", enc([context, in, out, D, c]))`` and ``m`` scalars of its stream."""
    data = encode([context, list(statement.inputs), list(statement.outputs), statement.key_commitment, list(permutation)])
    h1 = digest(LABEL_U, data)
    return h1, scalars(LABEL_U, h1, len(statement.inputs))


def _c_challenge(h1: bytes, chain: Sequence[bytes], t: Sequence[bytes], t_chain: Sequence[bytes]) -> int:
    """``c``: the first scalar of the stream keyed by ``H("fair/shuffle-c", enc([h₁, ĉ, [t1…t5], t̂]))``."""
    return scalars(LABEL_C, encode([h1, list(chain), list(t), list(t_chain)]), 1)[0]


def prove_shuffle(
    context: bytes,
    statement: ShuffleStatement,
    permutation: Sequence[int],
    key: int,
    stream: Stream,
    ops: ProofOps | None = None,
) -> ShuffleProof:
    """The proof that ``statement.outputs[i] = key · statement.inputs[permutation[i]]``.

    Nonces come from ``stream`` in a fixed order (``r``, ``r̂``, ``ω1…ω4``, ``ω̂``, ``ω'``, ``m``
    each where a vector), so the proof is a function of the prover's randomness.
    """
    m = len(statement.inputs)
    if sorted(permutation) != list(range(m)):
        raise UsageError(f"a shuffle of {m} entries needs a permutation of 0..{m - 1}")
    hs = generators(m)
    inverse = [0] * m
    for i, j in enumerate(permutation):
        inverse[j] = i
    r = nonces(stream, m)
    r_chain = nonces(stream, m)
    w1, w2, w3, w4 = nonces(stream, 4)
    w_chain = nonces(stream, m)
    w_vector = nonces(stream, m)
    commitments = tuple(add(base_mul(r[j], ops), hs[inverse[j]], ops) for j in range(m))
    h1, u = _u_challenges(context, statement, commitments)
    u_out = [u[j] for j in permutation]
    chain: list[bytes] = []
    previous = CHAIN_BASE
    for i in range(m):
        previous = add(base_mul(r_chain[i], ops), mul(u_out[i], previous, ops), ops)
        chain.append(previous)
    r_bar = sum(rj * uj for rj, uj in zip(r, u)) % ORDER
    r_sum = sum(r) % ORDER
    r_hat = 0
    for i in range(m):
        r_hat = (r_hat * u_out[i] + r_chain[i]) % ORDER
    t3 = add(base_mul(w3, ops), combination(w_vector, hs, ops), ops)
    # Σ ω'_i·out_i − ω4·Σ u_j·in_j, with out_i = k·in_{p[i]}: one term per input.
    t4 = combination([(key * w_vector[inverse[j]] - w4 * u[j]) % ORDER for j in range(m)], statement.inputs, ops)
    t = [base_mul(w1, ops), base_mul(w2, ops), t3, t4, base_mul(w4, ops)]
    before = [CHAIN_BASE, *chain[:-1]]
    t_chain = [add(base_mul(w_chain[i], ops), mul(w_vector[i], before[i], ops), ops) for i in range(m)]
    c = _c_challenge(h1, chain, t, t_chain)
    return ShuffleProof(
        commitments,
        tuple(chain),
        c,
        ((w1 + c * r_sum) % ORDER, (w2 + c * r_hat) % ORDER, (w3 + c * r_bar) % ORDER, (w4 + c * key) % ORDER),
        tuple((w_chain[i] + c * r_chain[i]) % ORDER for i in range(m)),
        tuple((w_vector[i] + c * u_out[i]) % ORDER for i in range(m)),
    )


def verify_shuffle(context: bytes, statement: ShuffleStatement, proof: ShuffleProof, ops: ProofOps | None = None) -> bool:
    """Whether ``proof`` proves ``statement`` in ``context``.

    Recomputes ``t1…t5`` and every ``t̂_i`` from the responses and the challenge from them: about
    ``6m`` multiplications, ``m`` fixed-base ones and ``7m`` additions. Every received point is
    multiplied at least once, so libsodium's checks refuse one outside the prime-order group.
    """
    m = len(statement.inputs)
    if not (len(proof.permutation) == len(proof.chain) == len(proof.chain_responses) == len(proof.vector_responses) == m):
        return False
    hs = generators(m)
    c = proof.challenge
    s1, s2, s3, s4 = proof.responses
    h1, u = _u_challenges(context, statement, proof.permutation)
    product = 1
    for value in u:
        product = product * value % ORDER
    try:
        # Each c_j is multiplied (checked) in Σ c·u_j·c_j before its plain sum is formed.
        cu = combination([c * uj % ORDER for uj in u], proof.permutation, ops)
        ones = sub(total(proof.permutation, ops), generator_sum(m), ops)
        end = sub(mul(c, proof.chain[-1], ops), mul(c * product, CHAIN_BASE, ops), ops)
        t1 = sub(base_mul(s1, ops), mul(c, ones, ops), ops)
        t2 = sub(base_mul(s2, ops), end, ops)
        t3 = sub(add(base_mul(s3, ops), combination(proof.vector_responses, hs, ops), ops), cu, ops)
        t4 = sub(
            combination(proof.vector_responses, statement.outputs, ops),
            combination([s4 * uj % ORDER for uj in u], statement.inputs, ops),
            ops,
        )
        t5 = sub(base_mul(s4, ops), mul(c, statement.key_commitment, ops), ops)
        before = [CHAIN_BASE, *proof.chain[:-1]]
        t_chain = [
            sub(add(base_mul(proof.chain_responses[i], ops), mul(proof.vector_responses[i], before[i], ops), ops),
                mul(c, proof.chain[i], ops), ops)
            for i in range(m)
        ]
    except BadPoint:
        return False
    return _c_challenge(h1, proof.chain, [t1, t2, t3, t4, t5], t_chain) == c
