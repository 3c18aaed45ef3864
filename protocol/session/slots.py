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
COMPOSITION = "composition"
BLIND = "blind"
UNBLIND = "unblind"
PAIR = "pair"
SHARES = "shares"


@dataclass(frozen=True)
class Slot:
    """The next position in the chain: ``seat`` must send an envelope of ``kind``.

    ``check`` validates a received body against everything this session knows and returns
    what the flow needs from it; it raises and changes nothing when the body is refused.
    ``produce`` computes the body the seat's seed dictates; it exists for messages with no
    choice in them (commitments, shuffle stages, keys, reveals) and only where that seat's
    seed is known (the local seat live; every seat in the verifier), which is how the
    verifier recomputes each such message and compares, reporting ``mismatch_rule`` when
    they differ. A commitment has no ``mismatch_rule``: it is what a revealed seed is
    checked against, not the other way round. A ``decision`` slot is a free
    choice of the seat (a move). ``resignable`` slots also accept a resignation.
    """

    seat: int
    kind: str
    check: Callable[[Any], Any]
    produce: Callable[[], Any] | None = None
    mismatch_rule: str = ""
    decision: bool = False
    resignable: bool = False
