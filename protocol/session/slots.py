"""Message kinds and the slot: who speaks next, what they may send, how it is checked."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

COMMIT = "commit"
RANDOM = "random"
DECK = "deck"
KEYS = "keys"
MOVE = "move"
SEED = "seed"
RESIGN = "resign"
ABSENT = "absent"
DISPUTE = "dispute"
HIDDEN = "hidden"
OPEN = "open"
CHOICE = "choice"
REVEAL = "reveal"
DRAW = "draw"

COMPOSITION = "composition"
BLIND = "blind"
UNBLIND = "unblind"
PAIR = "pair"
SHARES = "shares"

DICTATED = frozenset({RANDOM, DECK, KEYS, BLIND, UNBLIND, OPEN, REVEAL, COMPOSITION, SEED, DRAW, PAIR, SHARES})
"""Kinds whose body follows from what the sender committed before (its seed, hidden data,
choice or composition): sending one is no new choice, except an owned deck's first ``deck``
stage, where the owner chose its cards. Every other kind (``commit`` included: the seed is
chosen there) is a free choice of its sender."""


@dataclass(frozen=True)
class Slot:
    """The next position in the chain: ``seat`` must send an envelope of ``kind``.

    ``check`` validates a received body against everything this session knows and returns
    what the flow needs from it; it raises and changes nothing when the body is refused.
    ``produce`` computes the body for messages with no choice in them (commitments, shuffle
    stages, keys, reveals, openings, draw messages), where this session can: from the seat's
    seed (the local seat live; every seat in the verifier) or from the local seat's own
    committed choices (openings, choice and seed reveals: the local seat only). The verifier
    recomputes the seed-dictated ones and compares, reporting ``mismatch_rule`` when they
    differ. A commitment has no ``mismatch_rule``: it is what a revealed seed is checked
    against, not the other way round. A ``decision`` slot is a free choice of the seat (a
    move). ``resignable`` slots also accept a resignation.
    """

    seat: int
    kind: str
    check: Callable[[Any], Any]
    produce: Callable[[], Any] | None = None
    mismatch_rule: str = ""
    decision: bool = False
    resignable: bool = False
    produce_encoded: Callable[[], bytes] | None = None
    """``produce``'s body already encoded, where the producer keeps the encoding (a proved stage)."""
