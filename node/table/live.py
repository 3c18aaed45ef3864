"""One table this node sits at: its session, its journal, and what the node does on each envelope.

Every envelope, received or our own, goes the same way: the session checks and accepts it,
the journal appends and fsyncs it, and only then does the node act on it (send, relay,
notify, time). Our own envelopes are sealed first, so a restarted node finds in its journal
every envelope it ever sent and never signs a second one for the same slot.

Timers (``spec/node.md``): this seat's own timed decision falls back to the game's default
move after ``turn_seconds``; another seat silent past its turn time plus ``grace`` is
declared absent, by the lowest-numbered other seat still present only, so that two claimants
never fork the chain.
"""

from __future__ import annotations

import enum
import logging
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import trio

from fairtable.games import bots
from fairtable.games.contract import CommitHidden, Decide
from fairtable.games.referee import Bot
from fairtable.node.service import TableUpdate
from fairtable.node.table.journal import Journal, TableFiles
from fairtable.protocol.envelope import Envelope
from fairtable.protocol.genesis import SignedGenesis
from fairtable.protocol.identity import SecretKey
from fairtable.protocol.session.errors import Rejected, Violation
from fairtable.protocol.session.slots import ABSENT, CHOICE, DISPUTE, HIDDEN, MOVE, SEED
from fairtable.protocol.session.table import TableSession
from fairtable.protocol.transcript import EquivocationProof

log = logging.getLogger("fairtable.node")

MAX_AHEAD = 64
"""Envelopes further ahead of our chain than this are refused, not buffered."""


class Outcome(enum.Enum):
    ACCEPTED = "accepted"
    DUPLICATE = "duplicate"
    AHEAD = "ahead"
    REJECTED = "rejected"
    CONFLICT = "conflict"


@dataclass(frozen=True)
class Offered:
    outcome: Outcome
    reason: str = ""


@dataclass(frozen=True)
class Timing:
    """How long this node waits for a slot: ``grace`` for a silent seat, ``bot_delay`` before a bot's move."""

    grace: float = 30.0
    bot_delay: float = 0.0


RANDOM_PLACEMENT = {"random": True}
"""What a client sends instead of hidden data to have its node draw a random legal one."""


class LiveTable:
    """The node's seat at one started table. ``offer`` takes envelopes from peers; ``keep_time`` runs timers."""

    def __init__(
        self, files: TableFiles, journal: Journal, genesis: SignedGenesis, seat: int, key: SecretKey, *,
        lobby: str, addresses: tuple[str, ...], bot: Bot | None = None, timing: Timing = Timing(),
        envelopes: tuple[Envelope, ...] = (),
    ) -> None:
        self.files = files
        self.journal = journal
        self.seat = seat
        self.lobby = lobby
        self.addresses = addresses
        self.bot = bot
        self.timing = timing
        self._key = key
        self._secret = files.secret()
        self.session = self._replay(genesis, envelopes)
        self.pending: dict[int, Envelope] = {}
        self.equivocations: list[EquivocationProof] = []
        self.forks: list[int] = []
        self.on_change: Callable[[LiveTable], None] | None = None
        self.version = 0
        self.slot_since = trio.current_time()
        self._changed = trio.Event()
        self._resigning = False
        self._seen_violations = 0
        self._saved_head: bytes | None = None
        self._advance()
        self.journal.sync()
        self._finish()

    def _replay(self, genesis: SignedGenesis, envelopes: tuple[Envelope, ...]) -> TableSession:
        """A fresh session fed the journal again, so a restarted node re-checks every envelope."""
        session = TableSession(genesis, seat=self.seat, secret=self._secret, private=self.files.read_private())
        for envelope in envelopes:
            try:
                session.receive(envelope)
            except Rejected as rejected:
                log.error("table %s: journal envelope %d refused on reload (%s); cutting the journal there",
                          self.name, envelope.seq, rejected)
                self.journal.rewrite(genesis, list(session.envelopes))
                break
        return session

    # ------------------------------------------------------------ reading

    @property
    def table_id(self) -> bytes:
        return self.session.genesis.table_id

    @property
    def name(self) -> str:
        return self.table_id.hex()[:12]

    @property
    def finished(self) -> bool:
        return self.session.finished

    @property
    def envelopes(self) -> list[Envelope]:
        return self.session.envelopes

    @property
    def seat_count(self) -> int:
        return self.session.seat_count

    def seat_key(self, seat: int):
        return self.session.genesis.genesis.seats[seat].key

    def transcript_bytes(self) -> bytes:
        """The transcript file as far as this node holds the table: its journal and an end record."""
        return self.journal.transcript(len(self.envelopes), self.session.head)

    def violations(self) -> tuple[Violation, ...]:
        proofs = tuple(Violation(p.second.seq, p.second.seat, "chain.equivocation",
                                 "two different envelopes signed for one slot", p.second) for p in self.equivocations)
        return tuple(self.session.violations) + proofs

    def deadline(self) -> float | None:
        """Seconds left on this seat's turn timer, or None when it is not this seat's timed decision."""
        if not self.session.awaiting_decision():
            return None
        turn = self._turn_seconds()
        return max(0.0, self.slot_since + turn - trio.current_time()) if turn else None

    def update(self) -> TableUpdate:
        session = self.session
        genesis = session.genesis.genesis
        return TableUpdate(
            lobby_id=self.lobby, table=self.table_id.hex(), game=genesis.game, variant=genesis.variant,
            seat=self.seat, seats=tuple(seat.name for seat in genesis.seats),
            phase="finished" if self.finished else "playing", view=session.view(),
            legal_moves=session.legal_moves(), your_turn=session.awaiting_decision(), deadline=self.deadline(),
            decision=session.decision_kind,
            result=None if session.result is None else session.result.to_value(),
            violations=tuple(violation.to_value() for violation in self.violations()),
        )

    async def wait_change(self, version: int) -> None:
        """Return once the chain has changed since ``version``."""
        while self.version == version:
            await self._changed.wait()

    # ------------------------------------------------------------ envelopes from peers

    def offer(self, envelope: Envelope) -> Offered:
        """Take an envelope from a peer: accept it, buffer it, or say why not. Never raises for bad input."""
        session = self.session
        if envelope.table != self.table_id:
            return Offered(Outcome.REJECTED, "the envelope belongs to another table")
        count = len(session.envelopes)
        if envelope.seq < count:
            held = session.envelopes[envelope.seq]
            if held.content == envelope.content:
                return Offered(Outcome.DUPLICATE)
            return self._conflict(held, envelope)
        if envelope.seq > count:
            if envelope.seq - count > MAX_AHEAD:
                return Offered(Outcome.REJECTED, f"envelope {envelope.seq} is too far ahead of our {count}")
            self.pending.setdefault(envelope.seq, envelope)
            return Offered(Outcome.AHEAD)
        try:
            session.receive(envelope)
        except Rejected as rejected:
            return Offered(Outcome.REJECTED, str(rejected))
        self.journal.append(envelope)
        self._drain_pending()
        self._advance()
        self._notify()
        return Offered(Outcome.ACCEPTED)

    def _drain_pending(self) -> None:
        while (envelope := self.pending.pop(len(self.session.envelopes), None)) is not None:
            try:
                self.session.receive(envelope)
            except Rejected as rejected:
                log.warning("table %s: buffered envelope %d refused: %s", self.name, envelope.seq, rejected)
                break
            self.journal.append(envelope)
        count = len(self.session.envelopes)
        self.pending = {seq: envelope for seq, envelope in self.pending.items() if seq > count}

    def _conflict(self, held: Envelope, theirs: Envelope) -> Offered:
        """A different envelope for a slot we hold: an equivocation, an absence claim to adopt, or a fork."""
        seats = self.session.genesis.genesis.seats
        if theirs.seat >= len(seats) or not theirs.verify(seats[theirs.seat].key):
            return Offered(Outcome.REJECTED, f"envelope {theirs.seq} does not verify under the key of the seat it names")
        if theirs.seat == held.seat:
            if all(proof.second.content != theirs.content for proof in self.equivocations):
                proof = EquivocationProof(self.session.genesis, held, theirs)
                proof.check()
                self.equivocations.append(proof)
                self.files.add_equivocation(proof)
                self._notify()
            return Offered(Outcome.CONFLICT, f"seat {held.seat} signed two different envelopes for slot {held.seq}: proof kept")
        if self._adopt_claim(held, theirs):
            return Offered(Outcome.ACCEPTED)
        return Offered(Outcome.CONFLICT, f"slot {held.seq} holds seat {held.seat}'s envelope here, not seat {theirs.seat}'s")

    def _adopt_claim(self, held: Envelope, claim: Envelope) -> bool:
        """Give up our chain from ``held`` on for a peer's out-of-turn claim at that slot.

        An absence claim against ``held``'s seat (the late seat was declared absent while its
        envelope was on its way), or a dispute (someone proved cheating): the claimant's chain
        wins. We switch only if that signs nothing twice: we are the absent seat (which signs
        nothing after a claim against it), or we signed nothing from that slot on.
        """
        seq = held.seq
        absence = claim.kind == ABSENT and claim.body == {"seat": held.seat}
        if not (absence or claim.kind == DISPUTE):
            return False
        if not (absence and held.seat == self.seat) and any(envelope.seat == self.seat for envelope in self.envelopes[seq:]):
            return False
        fresh = TableSession(self.session.genesis, seat=self.seat, secret=self._secret, private=self.session.private_value())
        for envelope in self.envelopes[:seq]:
            fresh.accept_linked(envelope)
        try:
            fresh.receive(claim)
        except Rejected:
            return False
        log.warning("table %s: seat %d sent %r at slot %d; adopting that chain over ours (%d envelopes dropped)",
                     self.name, claim.seat, claim.kind, seq, len(self.envelopes) - seq)
        self.session = fresh
        self._seen_violations = len(fresh.violations)
        self.pending.clear()
        self.journal.rewrite(fresh.genesis, list(fresh.envelopes))
        self.forks.append(seq)
        self._advance()
        self._notify()
        return True

    # ------------------------------------------------------------ our own envelopes

    def play(self, decision: Any) -> None:
        """Send this seat's decision: a move, its hidden data (or ``{"random": true}`` for a
        random legal placement) or a simultaneous choice. Raises ``NotYourTurn`` or ``Rejected``
        and sends nothing if it is not allowed."""
        session = self.session
        kind = session.decision_kind
        if kind == HIDDEN and decision == RANDOM_PLACEMENT:
            placer = bots.random_bot(session.game, random.SystemRandom())
            decision = placer.commit(session.game, session.state, self.seat, session.pending)
        message = session.decide(decision)
        if kind in (HIDDEN, CHOICE):
            self.files.write_private(session.private_value())
        self._emit(*message)
        self._advance()
        self._notify()

    def resign(self) -> None:
        """Resign at this seat's next resignable slot (now, if it is one)."""
        self._resigning = True
        if self._advance():
            self._notify()

    def _emit(self, kind: str, body: Any) -> None:
        session = self.session
        envelope = Envelope.seal(self._key, self.table_id, len(session.envelopes), session.head, self.seat, kind, body)
        session.accept_linked(envelope)  # sealed onto our own head: the link holds by construction
        self.journal.append(envelope)

    def _advance(self) -> bool:
        """Seal every automatic message this seat owes now; True if any."""
        sent = self._dispute()
        while not self.session.finished:
            slot = self.session.slot
            if self._resigning and slot.seat == self.seat and slot.resignable:
                self._resigning = False
                self._emit(*self.session.resign_body())
            else:
                outgoing = self.session.outgoing()
                if outgoing is None:
                    return sent
                self._emit(*outgoing)
            sent = True
        return sent

    def _dispute(self) -> bool:
        """Stop the table over a violation this seat found but cannot pin on one seat (a card that
        opens to no card) or cannot play past (a stage entry outside the group): every seed is
        then revealed, and the verifier names the culprit."""
        session = self.session
        fresh = session.violations[self._seen_violations:]
        self._seen_violations = len(session.violations)
        blocking = [v for v in fresh if v.rule != "session.absent"]
        if not blocking or session.finished or session.slot.kind == SEED or session.disputes:
            return False
        log.warning("table %s: %s at envelope %d (suspects %s); disputing the game",
                    self.name, blocking[0].rule, blocking[0].index, list(blocking[0].suspects) or [blocking[0].seat])
        self._emit(*session.dispute_body(blocking[0]))
        return True

    def _notify(self) -> None:
        """Sync the journal, then let the node act: links send, timers restart, clients hear."""
        self.journal.sync()
        self.version += 1
        self.slot_since = trio.current_time()
        self._changed.set()
        self._changed = trio.Event()
        self._finish()
        if self.on_change is not None:
            self.on_change(self)

    def _finish(self) -> None:
        """Write the transcript file once the table is finished (again if a fork changed its end)."""
        if self.finished and self._saved_head != self.session.head:
            self.files.write_transcript(self.transcript_bytes())
            self._saved_head = self.session.head
            log.info("table %s finished: %s", self.name, self.session.result)

    # ------------------------------------------------------------ timers

    def _turn_seconds(self) -> int:
        """The turn timer of the current slot: only a timed decision has one."""
        session = self.session
        slot = session.slot
        if slot is None or not slot.decision:
            return 0
        request = session.game.pending(session.state)
        if not ((isinstance(request, Decide) and request.timed) or isinstance(request, CommitHidden)):
            return 0
        return int(session.game.options_of(session.state).get("turn_seconds", 0) or 0)

    def claimant(self) -> int | None:
        """The one seat that may declare the due seat absent: the lowest other seat still present."""
        slot = self.session.slot
        if slot is None:
            return None
        present = [seat for seat in range(self.seat_count) if seat != slot.seat and seat not in self.session.absent]
        return min(present, default=None)

    def plan(self) -> tuple[float, Callable[[], None]] | None:
        """What this node does if the current slot stays unfilled, and after how many seconds."""
        slot = self.session.slot
        if slot is None:
            return None
        turn = self._turn_seconds()
        if slot.seat == self.seat:
            if slot.decision and self.bot is not None:
                return self.timing.bot_delay, self._bot_move
            if self.session.decision_kind == MOVE and len(self.session.legal_moves()) == 1:
                return 0.0, self._forced_move
            if slot.decision and turn:
                return turn, self._default_move
            return None
        if slot.decision and not turn:
            return None
        if self.claimant() != self.seat:
            return None
        return turn + self.timing.grace, self._claim_absence

    async def keep_time(self) -> None:
        """Run this table's bot and timers until it is finished."""
        while not self.finished:
            version = self.version
            plan = self.plan()
            if plan is None:
                await self.wait_change(version)
                continue
            delay, action = plan
            with trio.move_on_at(self.slot_since + delay):
                await self.wait_change(version)
            if self.version == version:
                try:
                    action()
                except Exception:  # a bot or rule bug must not take the node down; wait for news instead
                    log.exception("table %s: %s failed", self.name, getattr(action, "__name__", "an action"))
                    await self.wait_change(version)

    def _bot_move(self) -> None:
        session = self.session
        self.play(bots.decision(self.bot, session.game, session.state, self.seat))

    def _forced_move(self) -> None:
        """A decision with one legal move (e.g. telling whether a hit sank a ship) is no choice: play it."""
        (move,) = self.session.legal_moves()
        self.play(move)

    def _default_move(self) -> None:
        session = self.session
        log.info("table %s: the turn timer ran out; playing the default move", self.name)
        if session.decision_kind == HIDDEN:
            self.play(RANDOM_PLACEMENT)  # hidden data not chosen in time: a random legal one
        else:
            self.play(session.game.default_move(session.state, self.seat))

    def _claim_absence(self) -> None:
        due = self.session.slot.seat
        log.warning("table %s: seat %d stayed silent past its time and grace; declaring it absent", self.name, due)
        self._emit(*self.session.absence_claim_body())
        self._advance()
        self._notify()
