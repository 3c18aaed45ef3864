"""The table session: one sans-IO state machine that runs a game over a signed transcript.

A live node feeds it every envelope as it arrives and asks it what to send; the verifier
feeds it a finished transcript together with every revealed seed. Both run the same code,
so whatever a live node accepts the verifier re-checks, with full knowledge.

Import from this package, not from its modules. How to use it:

**A live seat** holds a :class:`Replica` (one per table and seat): it keeps the canonical
chain whatever order envelopes arrive in, and it never reads a clock, so every call takes
``now`` (seconds)::

    replica = Replica(genesis, seat=seat, key=key, secret=secret, now=now)
    replica.receive(envelope, now)         # from a peer: an Offered with its Outcome
    replica.decide(move, now)              # this seat's decision, signed
    replica.tick(now)                      # at replica.next_wake(): claims, settling
    due = replica.due_decision()           # (when, FORCED | DEFAULT): then play_due(now, rng)
    for record in replica.drain(): ...     # journal records (Placed, Kept, Choices), in order

The node writes the drained records to disk before it sends anything; :class:`Timing` sets
how long a silent seat is waited for. ``replica.session`` is the :class:`TableSession`: the
game's state, its view for a seat (``view``), the legal moves, what is due (``slot``,
``decision_kind``) and the result.

**The verifier** reads a transcript file and asks :func:`verify` (or :func:`verify_chunks`,
:func:`verify_stream` for files larger than memory, :func:`verify_together` for every seat's
copy of one table) for a :class:`Report`: ``VALID``, ``VIOLATION`` naming each
:class:`Violation` as (index, seat, rule, evidence), ``INCOMPLETE`` or ``DAMAGED``.
:func:`proof_of` cuts a transcript down to the evidence of one violation.

**Message kinds** (``MOVE``, ``HIDDEN``, ``CHOICE``, ``DECK``, ``OPEN``, ``REVEAL``, ``RESIGN``,
``ABSENT``, ``DISPUTE``, ...) are the envelope ``kind`` strings of ``spec/session.md``.

Errors: :class:`NotYourTurn` (nothing of this seat is due) and :class:`Rejected` (the
envelope or decision breaks a rule; its :class:`Violation` says which) change nothing.
"""

from fairtable.protocol.session.deck_walk import walk_deck
from fairtable.protocol.session.errors import NotYourTurn, Rejected, SetupError, Violation
from fairtable.protocol.session.own import DECISIONS, RANDOM_PLACEMENT, DecisionKind
from fairtable.protocol.session.proof import ProofError, proof_of
from fairtable.protocol.session.recent import Recent
from fairtable.protocol.session.replica import (
    DEFAULT,
    FORCED,
    Choices,
    Kept,
    Offered,
    Outcome,
    Placed,
    Record,
    Replica,
    Timing,
    TimingFork,
)
from fairtable.protocol.session.slots import (
    ABSENT,
    BLIND,
    CHOICE,
    COMMIT,
    COMPOSITION,
    DECK,
    DISPUTE,
    DRAW,
    HIDDEN,
    KEYS,
    MOVE,
    OPEN,
    PAIR,
    RANDOM,
    RESIGN,
    REVEAL,
    SEED,
    SHARES,
    UNBLIND,
)
from fairtable.protocol.session.table import WITHHELD_REASON, TableSession, game_seed
from fairtable.protocol.session.verify import (
    DAMAGED,
    INCOMPLETE,
    VALID,
    VIOLATION,
    Report,
    revealed_seeds,
    reveals_of,
    verify,
    verify_chunks,
    verify_stream,
    verify_together,
)
from fairtable.protocol.session.verify import load as load_for_verification

__all__ = [
    "ABSENT",
    "BLIND",
    "CHOICE",
    "COMMIT",
    "COMPOSITION",
    "DAMAGED",
    "DECISIONS",
    "DECK",
    "DEFAULT",
    "DISPUTE",
    "DRAW",
    "FORCED",
    "HIDDEN",
    "INCOMPLETE",
    "KEYS",
    "MOVE",
    "OPEN",
    "PAIR",
    "RANDOM",
    "RANDOM_PLACEMENT",
    "RESIGN",
    "REVEAL",
    "SEED",
    "SHARES",
    "UNBLIND",
    "VALID",
    "VIOLATION",
    "WITHHELD_REASON",
    "Choices",
    "DecisionKind",
    "Kept",
    "NotYourTurn",
    "Offered",
    "Outcome",
    "Placed",
    "ProofError",
    "Recent",
    "Record",
    "Rejected",
    "Replica",
    "Report",
    "SetupError",
    "TableSession",
    "Timing",
    "TimingFork",
    "Violation",
    "game_seed",
    "load_for_verification",
    "proof_of",
    "revealed_seeds",
    "reveals_of",
    "verify",
    "verify_chunks",
    "verify_stream",
    "verify_together",
    "walk_deck",
]
