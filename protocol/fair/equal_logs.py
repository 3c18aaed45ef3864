"""Chaum–Pedersen proofs of equal discrete logarithms, many statements under one challenge (fairness.md §12.3).

Statement ``i`` says ``h_i = x_i · g_i`` and ``b_i = x_i · a_i`` for one secret ``x_i``. The
deck uses it where a seat multiplies entries by a secret it committed to: a ``lock`` stage
(``K_i = x_i · D`` against the deck-key commitment ``D``, ``out_i = x_i · in_i``) and an
unblinding (``K = k · G``, ``X = k · Y``). One Fiat–Shamir challenge serves the whole batch,
so a stage's proof is one challenge and one response per position.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from fairtable.protocol.codec import encode
from fairtable.protocol.errors import UsageError
from fairtable.protocol.fair.edwards import BASE, BadPoint, ProofOps, base_mul, mul, nonces, scalars, sub
from fairtable.protocol.fair.group import ORDER
from fairtable.protocol.fair.seeds import Stream

LABEL = "fair/equal-logs"


@dataclass(frozen=True)
class EqualLogs:
    """The public statements: for each ``i``, ``log_{g[i]} h[i] = log_{a[i]} b[i]``."""

    g: tuple[bytes, ...]
    h: tuple[bytes, ...]
    a: tuple[bytes, ...]
    b: tuple[bytes, ...]

    def __post_init__(self) -> None:
        if not len(self.g) == len(self.h) == len(self.a) == len(self.b) > 0:
            raise UsageError("equal-logs statements need the same number (at least one) of g, h, a and b")


@dataclass(frozen=True)
class EqualLogsProof:
    """The challenge ``c`` and a response ``s_i = w_i + c·x_i mod L`` per statement."""

    challenge: int
    responses: tuple[int, ...]


def _mul(scalar: int, point: bytes, ops: ProofOps | None) -> bytes:
    """A multiplication, from the fixed-base table when the point is ``G``."""
    return base_mul(scalar, ops) if point == BASE else mul(scalar, point, ops)


def _challenge(context: bytes, statement: EqualLogs, commitments: Sequence[bytes]) -> int:
    data = encode([context, list(statement.g), list(statement.h), list(statement.a), list(statement.b), list(commitments)])
    return scalars(LABEL, data, 1)[0]


def prove_equal_logs(
    context: bytes, statement: EqualLogs, witnesses: Sequence[int], stream: Stream, ops: ProofOps | None = None,
) -> EqualLogsProof:
    """The proof for ``witnesses`` (``x_i``), its nonces ``w_i`` the next scalars of ``stream``.

    ``context`` binds the proof to its use (table, deck, stage, author): the same statement
    proved for another context gives another challenge, so a proof cannot be replayed.
    """
    if len(witnesses) != len(statement.g):
        raise UsageError("one witness per equal-logs statement")
    ws = nonces(stream, len(witnesses))
    commitments = [_mul(w, g, ops) for w, g in zip(ws, statement.g)]
    commitments += [mul(w, a, ops) for w, a in zip(ws, statement.a)]
    c = _challenge(context, statement, commitments)
    return EqualLogsProof(c, tuple((w + c * x) % ORDER for w, x in zip(ws, witnesses)))


def verify_equal_logs(context: bytes, statement: EqualLogs, proof: EqualLogsProof, ops: ProofOps | None = None) -> bool:
    """Whether ``proof`` proves ``statement`` in ``context``.

    Recomputes ``T_i = s_i·g_i − c·h_i`` and ``V_i = s_i·a_i − c·b_i`` and the challenge from
    them: four multiplications per statement (three when ``g_i`` is ``G``). A point outside the
    prime-order group fails the proof (libsodium's multiplication refuses it).
    """
    c, responses = proof.challenge, proof.responses
    if len(responses) != len(statement.g):
        return False
    try:
        commitments = [sub(_mul(s, g, ops), mul(c, h, ops), ops) for s, g, h in zip(responses, statement.g, statement.h)]
        commitments += [sub(mul(s, a, ops), mul(c, b, ops), ops) for s, a, b in zip(responses, statement.a, statement.b)]
    except BadPoint:
        return False
    return _challenge(context, statement, commitments) == c
