"""What one table session holds: the genesis, the game's state, the accepted chain and the findings.

:class:`SessionState` is the base the session's jobs share (``flow``: what may come next;
``arrival``: checking an arriving envelope; ``own``: building this seat's envelopes). It
applies events, records findings against the envelope that proved them, and moves the flow
on; it never decides what an envelope must hold.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fairtable.games import registry
from fairtable.games.contract import (
    Event,
    GameError,
    Result,
    RuleError,
)
from fairtable.protocol import codec
from fairtable.protocol.envelope import Envelope
from fairtable.protocol.errors import UsageError
from fairtable.protocol.fair.edwards import ProofOps
from fairtable.protocol.fair.errors import FairnessError
from fairtable.protocol.fair.group import Ops
from fairtable.protocol.genesis import SignedGenesis
from fairtable.protocol.hashing import digest
from fairtable.protocol.session.errors import SetupError, Violation
from fairtable.protocol.session.flow_types import Flow
from fairtable.protocol.session.recent import Recent
from fairtable.protocol.session.run import GameRun
from fairtable.protocol.session.slots import (
    COMPOSITION,
    SEED,
    Slot,
)
from fairtable.protocol.transcript import Transcript


class _Resigned(Exception):
    """Thrown into the flow: ``seat`` resigned at its slot."""

    def __init__(self, seat: int) -> None:
        self.seat = seat


class _Absent(Exception):
    """Thrown into the flow: ``seat`` was declared absent at its slot."""

    def __init__(self, seat: int) -> None:
        self.seat = seat


class _Disputed(Exception):
    """Thrown into the flow: a dispute stopped the game."""


class _Stalled(Exception):
    """The game asked an absent seat for a message: it cannot go on."""


def game_seed(secret: bytes, game: int) -> bytes:
    """A seat's seed for game ``game`` of a table, from its per-table secret: one secret per table
    is all a node keeps, and each game of a match still gets a fresh seed."""
    return digest("session/seed", codec.encode([secret, game]))


class SessionState:
    """The state every job of the session reads and the helpers that change it; see :class:`~fairtable.protocol.session.table.TableSession`."""

    def __init__(
        self,
        genesis: SignedGenesis,
        *,
        seat: int | None = None,
        secret: bytes | None = None,
        seeds: Mapping[tuple[int, int], bytes] | None = None,
        private: Any = None,
        compositions: Mapping[tuple[int, str], tuple[int, ...]] | None = None,
        forgetting: bool = False,
    ) -> None:
        if (seat is None) != (secret is None):
            raise UsageError("a seat's session needs the seat and its secret; the verifier needs neither")
        self.genesis = genesis
        self.seat = seat
        self.auditing = seat is None
        self._secret = secret
        self._given_seeds = dict(seeds or {})
        self._given_compositions = dict(compositions or {})
        self.envelopes: Recent[Envelope] = Recent()
        self.forgetting = forgetting
        """Forget, as each game starts, the envelopes no later check reads (:meth:`_forget_past`):
        the verifier streaming a long transcript. A live table keeps its whole chain."""
        self.head = genesis.table_id
        self.seat_count = len(genesis.genesis.seats)
        try:
            self.game = registry.get(genesis.genesis.game)
            self.state = self.game.setup(genesis.genesis.variant, genesis.genesis.options, self.seat_count)
        except GameError as exc:
            raise SetupError(f"the genesis cannot be played: {exc}") from None
        self.teams = self.game.teams(genesis.genesis.variant, self.game.options_of(self.state), self.seat_count)
        if sorted(seat for team in self.teams for seat in team) != list(range(self.seat_count)):
            raise UsageError(f"{self.game.id} declared teams {self.teams}, which do not partition {self.seat_count} seats")
        self.result: Result | None = None
        self.deal_results: list[Result] = []
        """Each finished deal's result, in order (one per game of a match that reports one)."""
        self.violations: list[Violation] = []
        self.absent: set[int] = set()
        self.claims: list[tuple[int, int, int]] = []
        """Accepted absence claims as ``(envelope index, claimant, absent seat)``."""
        self.disputes: list[tuple[int, int, str, int]] = []
        self.unproven: list[tuple[int, int]] = []
        """The verifier's ``(game, seat)``: seeds committed and never revealed, so deviations only
        they would show (a stage, key or card not derived from them) cannot be ruled out."""
        self.ops = Ops()
        self.proof_ops = ProofOps()
        """The group work of the proof layer (version 3): stages proved or re-proved, proofs and keys checked."""
        self.private: dict[int, dict[str, Any]] = {game: dict(data) for game, data in (private or ())}
        self.run: GameRun  # set by the flow as it starts each game
        self._events: list[Event] = []
        self._flow_gen = self._flow()
        self.slot: Slot | None = next(self._flow_gen)

    @property
    def finished(self) -> bool:
        """The flow has ended: no envelope is expected any more (result, seeds and compositions are in)."""
        return self.slot is None

    def private_value(self) -> list:
        """This seat's free choices as a canonical value ``[[game, {key: choice}], ...]``, for persisting:
        a copy, so that a value taken before a choice compares unequal to one taken after it."""
        return [[game, dict(data)] for game, data in sorted(self.private.items()) if data]

    def transcript(self) -> Transcript:
        """The accepted chain as a :class:`Transcript`: its links checked again as it is built, not
        its signatures (every envelope's was checked before the session accepted it)."""
        return Transcript(self.genesis, self.envelopes, signed=False)

    @property
    def pending(self) -> Any:
        """The game's pending request (what the due decision answers)."""
        return self.game.pending(self.state)

    def view(self, seat: int | None = None) -> dict:
        """The game's view for ``seat`` (default: this session's seat; None on the verifier: the spectator's view), what clients are shown."""
        return self.game.view(self.state, self.seat if seat is None else seat)

    @property
    def disputable(self) -> bool:
        """A dispute stops a game still in play: at any slot before its composition and seed
        rounds. After play the game has its result and every seed is revealed anyway."""
        return self.slot is not None and self.slot.kind not in (COMPOSITION, SEED)

    def _record_input_violation(self, exc: FairnessError) -> None:
        """A message this seat must build on (the previous envelope) proved bad: e.g. a stage
        entry outside the group, found when the next stage multiplies it."""
        previous = self.envelopes[-1]
        evidence = previous if previous.seat == exc.seat else None
        violation = Violation(len(self.envelopes) - 1, exc.seat, exc.rule, exc.detail, evidence, self._suspected(exc.suspects))
        if violation not in self.violations:
            self.violations.append(violation)

    def _violation(self, index: int, seat: int, exc: Exception, envelope: Envelope | None) -> Violation:
        if isinstance(exc, FairnessError):
            return Violation(index, exc.seat, exc.rule, exc.detail, envelope, exc.suspects)
        assert isinstance(exc, RuleError)
        return Violation(index, seat, exc.rule, str(exc), envelope)

    def _suspected(self, suspects: tuple[int, ...]) -> tuple[int, ...]:
        """The suspects of a finding no envelope pins on a seat, as the verifier narrows them: it
        recomputed every message of the seats whose seeds it knows, so when some seeds are missing
        the culprit is among their seats, and an honest seat that revealed its seed is no suspect."""
        unknown = self._unknown_seeds(self.run)
        return tuple(seat for seat in suspects if seat in unknown) or suspects

    def _unknown_seeds(self, run: GameRun) -> tuple[int, ...]:
        """The verifier's view: seats that committed a seed in ``run``'s game it does not know
        (none for a live session, which knows only its own seed and judges nothing by it)."""
        if not self.auditing:
            return ()
        return tuple(seat for seat in sorted(run.commitments) if seat not in run.seeds)

    def _flow(self) -> Flow:
        """The generator of slots (``flow.SessionFlow``)."""
        raise NotImplementedError
