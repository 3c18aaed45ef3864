"""One table this node sits at: the protocol's replica, its journal, its clock, and what acts on it.

The :class:`~fairtable.protocol.session.replica.Replica` decides everything about the chain;
this driver moves envelopes and time into it and its journal records out to disk. After every
input the records are written in full and fsynced (:meth:`LiveTable._commit`) before anything
else happens: only then do links send, clients hear, or timers restart, all in the same
synchronous step, so nothing leaves the node that its journal does not hold. A write that
fails leaves the table *stalled*: the replica is rebuilt from the journal (what the disk
holds is the truth), nothing is signed, clients are told why, and the write is retried.

Timers (``spec/node.md``): this seat's timed decision falls back to the rules' default after
``turn_seconds`` (measured from when the slot became due, which survives a restart); a bot
moves after ``bot_delay``; a decision with one legal move is played at once; absence claims
and settling are the replica's (:meth:`Replica.next_wake`). What is played at once on a
received envelope is written in the same batch as that envelope, and envelopes that arrive
together (:meth:`LiveTable.offer_all`) are one batch.

Nothing is judged on waking: after a restart, a stall, or a timer that fires well past its time
(the process was frozen, suspended or blocked on a disk), the node claims nobody absent for one
grace, so what its links buffered meanwhile arrives first (``Replica.claims_from``).
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import trio

from fairtable.games import Bot, bots, describe, distinct, final_standing, player, registry, say, seated
from fairtable.node.replay import describe_move
from fairtable.node.service import TableUpdate
from fairtable.node.table import notices
from fairtable.node.table.chat import TableChat
from fairtable.node.table.decisions import decision_words
from fairtable.node.table.history import History, entries, told
from fairtable.node.table.journal import Journal, JournalError, TableFiles
from fairtable.node.table.notices import Notice
from fairtable.protocol import Envelope, PublicKey, SecretKey, SignedGenesis, TranscriptFile, dump
from fairtable.protocol.session import (
    CHOICE,
    DEFAULT,
    FORCED,
    MOVE,
    Offered,
    Outcome,
    Recent,
    Replica,
    TableSession,
    Violation,
    proof_of,
)
from fairtable.protocol.session import Timing as ReplicaTiming

log = logging.getLogger("fairtable.node")

MIN_RETRY_SECONDS = 0.1
MAX_RETRY_SECONDS = 2.0
"""How soon a table that could not write its journal or transcript tries again: doubling from the first to the second."""
LATE_WAKE_SECONDS = 1.0
"""A timer that fires this much after its time means the process did not run meanwhile (frozen,
suspended, blocked on a stalled disk): what arrived meanwhile is read before anyone is judged."""
REJOIN_SECONDS = 35.0
"""How long a restarted node waits before it declares anyone absent: the longest a peer waits
between redials of a finished table (``mesh.MAX_FINISHED_BACKOFF``) plus a handshake, so it hears
what it missed before it judges who is silent."""
CHAT_SHOWN = 50
"""Chat lines a table update carries: a screen's worth and more, not the whole evening."""


@dataclass(frozen=True)
class Timing:
    """How long this node waits: ``grace`` for a silent seat (see :class:`~fairtable.protocol.session.replica.Timing`),
    ``bot_delay`` before a bot's move."""

    grace: float = 30.0
    bot_delay: float = 0.0


def rendered(session: TableSession, names: tuple[str, ...], view: dict, legal: tuple[Any, ...]) -> tuple[str | None, tuple[str, ...], str | None]:
    """The game's words for a view (``TableUpdate.text``), for each legal move (``move_texts``) and for
    how a finished game was reached (``standing``); None and nothing for a game without a renderer."""
    renderer = session.game.renderer
    with seated(names):
        text = None if renderer is None else renderer.render(view)
        move_texts = () if renderer is None else tuple(renderer.move_line(view, move) for move in legal)
        standing = None if session.result is None else final_standing(renderer, view, session.result)
    return text, move_texts, standing


class LiveTable:
    """The node's seat at one started table. ``offer`` takes envelopes from peers; ``keep_time`` runs timers.

    ``clock`` is the wall clock the journal's deadlines are kept in (seconds); tests pass
    trio's clock so a mock clock drives everything.
    """

    def __init__(
        self, files: TableFiles, genesis: SignedGenesis, seat: int, key: SecretKey, *,
        lobby: str, addresses: tuple[str, ...], bot: Bot | None = None, timing: Timing | None = None,
        clock: Callable[[], float] = time.time, restarted: bool = False,
    ) -> None:
        self.files = files
        self.journal: Journal | None = None
        self.genesis = genesis
        self.seat = seat
        self.lobby = lobby
        self.addresses = addresses
        self.bot = bot
        self.timing = timing or Timing()
        self.clock = clock
        self._key = key
        self._secret = files.secret()
        self.on_change: Callable[[LiveTable], None] | None = None
        self.version = 0
        self.stalled: str | None = None
        self._changed = trio.Event()
        self._resigning = False
        self._taking = False
        """:meth:`offer_all` is taking a batch: the commits of what the seat plays at once wait for its end."""
        self._saved: bytes | None = None
        """The transcript file as last written (None: no file, the table is not finished here)."""
        self._transcript_failed = False
        self._retry_delay = MIN_RETRY_SECONDS
        self._own_notices: list[tuple[int, Notice]] = []
        """What only this node knows happened (what it played for its seat, a repaired journal),
        each with the chain length it happened at: the table's log merges them with the chain's."""
        self._chain_notices: tuple[tuple[int, bytes | None], list[Notice], dict[int, int]] = ((0, None), [], {})
        self.files.clean()
        self.chat = TableChat(files.dir, genesis.table_id, tuple(seat.key for seat in genesis.genesis.seats), seat, self._notify)
        """What the players said (``node.table.chat``): beside the journal, never in the chain."""
        self.replica = self._restored()
        self.history = History(lambda: self.replica.fresh_session(), self.names)
        """The table's history in the export's notation (``history`` of the client API)."""
        if files.repaired is not None:
            self._note(notices.REPAIRED, None, None, f"Your node found this table's journal {files.repaired}.")
        if restarted:
            self.replica.claims_from = self.clock() + REJOIN_SECONDS
        self._commit(changed=True)

    def _restored(self, claims_from: float = 0.0) -> Replica:
        """A replica rebuilt from the journal alone: what the disk holds is what this node did."""
        contents, journal = self.files.load_journal()
        if self.journal is not None:
            self.journal.close()
        self.journal = journal
        replica = Replica(self.genesis, seat=self.seat, key=self._key, secret=self._secret, private=contents.choices,
                              timing=ReplicaTiming(self.timing.grace), now=self.clock())
        replica.claims_from = claims_from
        replica.load(contents.placed, contents.kept, self.clock(), contents.since)
        return replica

    # ------------------------------------------------------------ reading

    @property
    def session(self) -> TableSession:
        """The replica's session: the game's state and this seat's view of it."""
        return self.replica.session

    @property
    def table_id(self) -> bytes:
        """The table's id (its genesis hash)."""
        return self.genesis.table_id

    @property
    def name(self) -> str:
        """A short name for logs: the first hex digits of the table id."""
        return self.table_id.hex()[:12]

    @property
    def finished(self) -> bool:
        """The game and its seed rounds are over here."""
        return self.replica.finished

    @property
    def envelopes(self) -> Recent[Envelope]:
        """The canonical chain this node holds."""
        return self.replica.chain

    @property
    def forks(self) -> list[int]:
        """Slots where this node switched to a better envelope: evidence a peer may need."""
        return self.replica.forks

    @property
    def seat_count(self) -> int:
        """How many seats the table has."""
        return self.session.seat_count

    def seat_key(self, seat: int) -> PublicKey:
        """``seat``'s public key, from the genesis: what its envelopes are checked against."""
        return self.genesis.genesis.seats[seat].key

    def transcript_bytes(self) -> bytes:
        """The transcript file as far as this node holds the table, with every envelope off the chain it kept."""
        return dump(TranscriptFile(self.session.transcript(), evidence=tuple(self.replica.off_chain())))

    def violations(self) -> list[Violation]:
        """Every violation found so far, on the chain and in the evidence it holds."""
        return self.replica.violations()

    def proof_bytes(self, index: int) -> bytes:
        """A transcript file proving ``violations()[index]`` to anyone: the chain up to the slot of
        the signed envelope it rests on, with that envelope (and an equivocation's twin) as evidence.
        A finding that rests on the whole game (a recomputed stage, a withheld seed) gets the whole transcript."""
        violation = self.violations()[index]
        if violation.evidence is None or violation.evidence in self.envelopes:
            return self.transcript_bytes()
        twins = [p.first for p in self.replica.proofs() if p.second.hash == violation.evidence.hash]
        return dump(proof_of(TranscriptFile(self.session.transcript()), violation.evidence, *twins))

    def deadline(self) -> float | None:
        """Seconds left on this seat's turn timer, or None when it is not this seat's timed decision."""
        due = self.replica.decision_deadline()
        return None if due is None else max(0.0, due - self.clock())

    def turn_clock(self) -> dict | None:
        """``{"seat", "seconds"}``: the seat whose timed decision is open, and its time left by our clock."""
        return self.replica.turn_clock(self.clock())

    @property
    def names(self) -> tuple[str, ...]:
        """The players' names in seat order, as the genesis has them."""
        return tuple(seat.name for seat in self.genesis.genesis.seats)

    def log(self) -> list[Notice]:
        """The table's log (:mod:`~fairtable.node.table.notices`): the chain's notices and this node's own, in the order they happened."""
        chain = self.envelopes
        head = (len(chain), chain[-1].hash if len(chain) else None)
        if self._chain_notices[0] != head:  # the chain grew or a fork replaced its tail: read it again
            self._chain_notices = (head, notices.from_chain(chain, self.seat, self.names), notices.latest_decisions(chain))
        merged = [(notice.index if notice.index is not None else -1, 1, notice) for notice in self._chain_notices[1]]
        merged += [(at, 0, notice) for at, notice in self._own_notices]
        return [notice for _, _, notice in sorted(merged, key=lambda entry: entry[:2])]

    async def history_entries(self, since: int = 0) -> list[dict]:
        """The ``history`` op's entries from envelope ``since`` on, marked from the table's log: told
        with this seat's knowledge while the table is played, from the verifier's replay (every
        seed revealed, so every card named) once its transcript is written."""
        saved = self.transcript_saved
        steps = self.history.steps(self.envelopes) if saved is None else told(await self.history.replayed(saved))
        return entries(steps, self.log(), since)

    @property
    def transcript_saved(self) -> bytes | None:
        """The finished table's transcript file as written (None: not finished here, or not all of it yet)."""
        return self._saved if self.saved else None

    def _note(self, kind: str, seat: int | None, index: int | None, text: str) -> None:
        self._own_notices.append((len(self.envelopes) if index is None else index, Notice(kind, seat, index, text)))

    def update(self) -> TableUpdate:
        """What clients are told about this table now: view, legal moves, clock, result, findings, the log."""
        session = self.session
        genesis = self.genesis.genesis
        view, legal = session.view(), session.legal_moves()
        text, move_texts, standing = rendered(session, self.names, view, legal)
        with seated(self.names):
            prompt, unplayable = (decision_words(session.game, session.state, self.seat)
                                  if self.seat is not None and session.awaiting_decision() else (None, ()))
        return TableUpdate(
            lobby_id=self.lobby, table=self.table_id.hex(), game=genesis.game, variant=genesis.variant,
            seat=self.seat, seats=distinct(self.names), fingerprints=tuple(seat.key.fingerprint for seat in genesis.seats),
            phase="finished" if self.finished else "playing", view=view,
            legal_moves=legal, your_turn=session.awaiting_decision() and self.stalled is None,
            deadline=self.deadline(), decision=session.decision_kind,
            result=None if session.result is None else session.result.to_value(),
            violations=tuple(violation.to_value() for violation in self.violations()),
            stalled=self.stalled, text=text, move_texts=move_texts, standing=standing, clock=self.turn_clock(),
            clocks=self.replica.clocks(self.clock()),
            log=tuple(notice.to_value(self._chain_notices[2]) for notice in self.log()),
            prompt=prompt, unplayable=unplayable,
            chat=self.chat_lines(),
        )

    def chat_lines(self) -> tuple[dict, ...]:
        """The table's last :data:`CHAT_SHOWN` chat lines for clients, oldest first: the author's seat and
        name as the table names it, the text, and the lobby id of the rematch it offers (None for words)."""
        names = distinct(self.names)
        return tuple({"seat": line.seat, "name": names[line.seat], "text": line.text, "rematch": line.rematch or None}
                     for line in self.chat.lines[-CHAT_SHOWN:])

    async def wait_change(self, version: int) -> None:
        """Return once the chain (or the table's state) has changed since ``version``."""
        while self.version == version:
            await self._changed.wait()

    def next_change(self) -> trio.Event:
        """The event set at the table's next change, or at :meth:`wake`."""
        return self._changed

    def wake(self) -> None:
        """Wake every task waiting for a change, changing nothing: a link that must speak at once."""
        self._changed.set()
        self._changed = trio.Event()

    # ------------------------------------------------------------ input

    @property
    def saved(self) -> bool:
        """The table is finished here and its transcript file holds all of it."""
        return self.finished and self.stalled is None and self._saved is not None and not self._transcript_failed

    def offer(self, envelope: Envelope) -> Offered:
        """Take an envelope from a peer. Never raises for bad input."""
        return self.offer_all([envelope])[0]

    def offer_all(self, envelopes: list[Envelope]) -> list[Offered]:
        """Take envelopes that arrived together, in order, each as :meth:`offer` would, but written
        in one journal batch (one fsync) with what this seat plays at once on them: nothing of any
        of them leaves the node, or is shown, before all are on disk. Never raises for bad input."""
        if self.stalled is not None:
            return [Offered(Outcome.HELD, f"not taking envelopes while the journal cannot be written: {self.stalled}")] * len(envelopes)
        offered = []
        self._taking = True
        try:
            for envelope in envelopes:
                offered.append(self.replica.receive(envelope, self.clock()))
                if offered[-1].outcome is Outcome.ACCEPTED:
                    self._act_at_once()
        finally:
            self._taking = False
        # an envelope held off the chain of a finished table belongs in its file and goes to its links as evidence
        self._commit(changed=self.finished and any(o.outcome not in (Outcome.DUPLICATE, Outcome.INVALID) for o in offered))
        if self.stalled is not None:
            return [Offered(Outcome.HELD, f"not kept, the journal cannot be written: {self.stalled}")] * len(envelopes)
        return offered

    def play(self, decision: Any) -> None:
        """Send this seat's decision: a move, its hidden data (or ``{"random": true}`` for a
        random legal placement) or a simultaneous choice. Raises ``NotYourTurn`` or ``Rejected``
        (and sends nothing) if it is not allowed, :class:`JournalError` if it cannot be kept."""
        if self.stalled is not None:
            raise JournalError(f"this table cannot write its journal: {self.stalled}")
        self._decide(decision)
        self._commit()
        if self.stalled is not None:
            raise JournalError(f"the move could not be kept, so it was not sent: {self.stalled}")

    def _decide(self, decision: Any) -> None:
        """Sign ``decision`` into the replica; the caller commits it (alone, or with what it answers)."""
        self.replica.decide(decision, self.clock(), random.SystemRandom())

    def say(self, text: str, rematch: str = "") -> None:
        """Sign and keep this seat's chat line (sent on every link); ``ChatRefused`` when it is none to say."""
        self.chat.say(self._key, text, rematch)

    def resign(self) -> None:
        """Resign at this seat's next resignable slot (now, if it is one); the log says which."""
        if self._resigning:
            return
        self._resigning = True
        self._act()
        if self._resigning:
            slot = self.replica.slot
            awaited = "" if slot is None else f" (now {player(slot.seat, self.seat, self.names)} must send {slot.kind!r})"
            self._note(notices.RESIGNING, self.seat, None,
                       f"You resign: your resignation goes out at your next turn{awaited}; then the table ends the game.")
            self._notify()

    # ------------------------------------------------------------ the disk

    def _commit(self, changed: bool = False) -> None:
        """Write what the replica produced, then let the node act on it (or stall if the disk refuses).
        ``changed``: the replica changed without records (an envelope held off the chain of a
        finished table, a retry that wrote), so links, clients and the transcript file hear of it too."""
        assert self.journal is not None
        if self.stalled is not None:
            return  # the stall rebuilt the replica from the journal; the retry writes what it owes
        if self._taking:
            return  # what the seat plays at once on an envelope of a batch: the batch writes it with the rest
        records = self.replica.drain()
        try:
            self.journal.write(records)
        except JournalError as exc:
            self._stall(str(exc))
            return
        if records or changed:
            self._finish()
            self._notify()

    def _stall(self, why: str) -> None:
        """The journal refused a batch: rebuild from what it holds and sign nothing until a retry writes."""
        if self.stalled is None:
            log.error("table %s: %s; signing nothing until it can write again", self.name, why)
        self.stalled = why
        try:
            self.replica = self._restored(self.replica.claims_from)
            self.replica.drain()  # what it would sign again is signed after the retry
        except JournalError as exc:
            log.error("table %s: cannot reload the journal: %s", self.name, exc)
        self._notify()

    def _retry(self) -> None:
        """Try the disk again: reload from the journal and write what the replica owes. Once it
        writes, the table moves on by itself, but judges nobody absent for one grace: envelopes
        it could not take while stalled are sent again first (spec/node.md, Timers)."""
        if self.stalled is None:
            self._finish()
            if self._transcript_failed:
                self._retry_delay = min(2 * self._retry_delay, MAX_RETRY_SECONDS)
            else:
                self._retry_delay = MIN_RETRY_SECONDS
                self._notify()
            return
        try:
            replica = self._restored(self.replica.claims_from)
            assert self.journal is not None
            self.journal.write(replica.drain())
        except JournalError as exc:
            self.stalled = str(exc)
            self._retry_delay = min(2 * self._retry_delay, MAX_RETRY_SECONDS)
            return
        self.replica, self.stalled, self._retry_delay = replica, None, MIN_RETRY_SECONDS
        log.info("table %s: the journal can be written again; going on", self.name)
        self._postpone_claims()
        self._commit(changed=True)

    def _postpone_claims(self) -> None:
        """Judge nobody absent for one grace from now (after a stall or a late wake)."""
        self.replica.claims_from = max(self.replica.claims_from, self.clock() + self.timing.grace)

    def _finish(self) -> None:
        """Keep ``transcript.ftt`` equal to the finished table: written when it finishes, again
        when a fork or shared evidence changes it, removed when a fork reopens the table."""
        try:
            if not self.finished:
                if self._saved is not None:
                    self.files.remove_transcript()
                    self._saved = None
                    log.info("table %s: a fork reopened the table; its transcript is withdrawn", self.name)
                self._transcript_failed = False
                return
            data = self.transcript_bytes()
            if data == self._saved:
                return
            self.files.write_transcript(data)
        except JournalError as exc:
            if not self._transcript_failed:
                log.error("table %s: cannot keep the transcript file yet (%s); retrying", self.name, exc)
            self._transcript_failed = True
            return
        self._transcript_failed = False
        first = self._saved is None
        self._saved = data
        if first:
            log.info("table %s finished: %s", self.name, describe(self.session.result, [s.name for s in self.genesis.genesis.seats]))

    def _notify(self) -> None:
        self.version += 1
        self.wake()
        if self.on_change is not None:
            self.on_change(self)

    # ------------------------------------------------------------ time

    def _own_action(self) -> tuple[float, Callable[[], None]] | None:
        """What this seat does next on its own, and when (this node's clock)."""
        session = self.session
        slot = self.replica.slot
        if slot is None or slot.seat != self.seat or self.stalled is not None:
            return None
        if self._resigning and session.slot is not None and session.slot.resignable:
            return slot.since, self._resign_now
        if not session.awaiting_decision():
            return None
        if self.bot is not None:
            return slot.since + self.timing.bot_delay, self._bot_move
        due = self.replica.due_decision()
        return None if due is None else (due[0], self._play_due)

    def _next(self) -> tuple[float, Callable[[], None]] | None:
        """The earliest timed action: a retry of the disk, the table's own (claims, settling) or this seat's."""
        if self.stalled is not None or self._transcript_failed:
            return self.clock() + self._retry_delay, self._retry
        actions = [a for a in (self._own_action(),) if a is not None]
        wake = self.replica.next_wake()
        if wake is not None:
            actions.append((wake, self._tick))
        return min(actions, key=lambda action: action[0], default=None)

    async def keep_time(self) -> None:
        """Run this table's timers, bot and retries for as long as the node runs (a finished
        table that a fork reopens plays on)."""
        acted_at = None
        while True:
            version = self.version
            planned = self._next()
            if planned is None or (acted_at is not None and planned[0] <= acted_at):
                acted_at = None  # nothing to do until the table changes (an action that changed nothing is not retried)
                await self.wait_change(version)
                continue
            at, action = planned
            delay = max(0.0, at - self.clock())
            started = trio.current_time()
            with trio.move_on_after(delay):
                await self.wait_change(version)
            if trio.current_time() - started > delay + LATE_WAKE_SECONDS:
                log.info("table %s: this node did not run for a while; judging nobody absent for %g s", self.name, self.timing.grace)
                self._postpone_claims()
                acted_at = None
                await trio.lowlevel.checkpoint()  # what the links hold now is read first
                continue
            if self.version != version:
                acted_at = None
                continue
            acted_at = self.clock()
            try:
                action()
            except Exception:  # a bot or rule bug must not take the node down; wait for news instead
                log.exception("table %s: %s failed", self.name, getattr(action, "__name__", "an action"))
                await self.wait_change(version)
            if self.version != version:
                acted_at = None  # it changed the table: what is due now may be due at once

    def _act(self) -> None:
        """Do this seat's own action now if its time has come."""
        planned = self._own_action()
        if planned is not None and planned[0] <= self.clock():
            planned[1]()

    def _act_at_once(self) -> None:
        """What this seat does at once on an envelope just placed (a bot without delay, a decision
        with one legal move) goes into the same journal batch: one fsync, and still nothing leaves
        the node before both are on disk. A bug here must not cost the envelope its place."""
        try:
            self._act()
        except Exception:
            log.exception("table %s: acting on the envelope just placed failed", self.name)

    def _tick(self) -> None:
        self.replica.tick(self.clock())
        self._commit()

    def _resign_now(self) -> None:
        self._resigning = False
        self.replica.resign(self.clock())
        self._commit()

    def _bot_move(self) -> None:
        """The bot's decision; a move or choice the rules refuse is logged in the game's words and
        not sent (the turn timer then plays the default)."""
        session = self.session
        assert self.bot is not None
        decision = bots.decision(self.bot, session.game, session.state, self.seat)
        refusal = session.explain(decision) if session.decision_kind in (MOVE, CHOICE) else None
        if refusal is not None:
            log.warning("table %s: the bot's move %r is refused: %s (rule %s)", self.name, decision, say(refusal), refusal.rule)
            return
        self._decide(decision)
        self._commit()

    def _play_due(self) -> None:
        """The replica's due decision: the one legal move (no choice at all), or the rules' default
        once the turn timer ran out (hidden data or a composition drawn at random)."""
        due = self.replica.due_decision()
        kind, index = self.session.decision_kind, len(self.envelopes)
        if due is not None and due[1] == DEFAULT:
            log.info("table %s: the turn timer ran out; playing the default", self.name)
        words = self._forced_words() if due is not None and due[1] == FORCED else None
        if self.replica.play_due(self.clock(), random.SystemRandom()) is None or due is None:
            self._commit()
            return
        if words is not None:
            self._note(notices.FORCED, self.seat, index, f"Played for you, your only legal move: {words}.")
        elif kind not in (MOVE, CHOICE):
            # a timed move or choice carries the rules' marker, so the chain says it; a fleet or deck drawn at random does not
            self._note(notices.DEFAULT, self.seat, index, "Your timer ran out: a random legal one was sent for you.")
        self._commit()

    def _forced_words(self) -> str:
        """The one legal move in the game's notation, as a transcript says it (not with the word a
        player would type for it), or as the client API carries it."""
        session = self.session
        (move,) = session.legal_moves()
        view = session.view()
        with seated(self.names):
            return describe_move(registry.get(self.genesis.genesis.game), view, move, view)
