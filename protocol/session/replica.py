"""One replica of a table's chain: every decision about which envelope continues it, sans-IO.

A live node and the verifier hold a :class:`Replica`. It takes envelopes in any order (from
peers, relays, a journal, a transcript file's chain and evidence) and keeps the one
**canonical chain** every honest replica converges on (``spec/session.md`` §10):

- An envelope is signature-checked before it is kept anywhere; envelopes that do not continue
  our chain yet (ahead of it, or on another fork) wait in a bounded :class:`_Pool`, so a forged
  or garbage relay can never make a replica ignore the real envelope.
- For one slot (same sequence number and ``prev``) the candidates are ranked: a **final**
  absence claim first (every present seat but the due one declared it absent for that slot),
  then the due seat's own envelope, then out-of-turn stoppers (disputes, and the lone claim of
  a table where only one other seat is present) by seat number. At every slot the best
  candidate the session accepts is on the chain. A replica that holds a worse one switches when
  a better one arrives, so replicas that have seen the same envelopes hold the same chain,
  whatever the order of arrival.
- A claim that is not final names nobody when the due seat's own envelope takes the slot, and
  the due seat's envelope that arrives after a final claim is late evidence, naming nobody
  either: without a common clock these are timing forks (:meth:`Replica.timing_forks`).
- Two different envelopes one seat signed for one slot (same ``seq`` and ``prev``) are an
  equivocation: the proof is kept and both stay candidates (the hash decides).
- A signed envelope the session refuses is kept as evidence with the violation it proves.

Time comes in as a number (``now``, seconds): the replica never reads a clock. It says when
it next needs one (:meth:`Replica.next_wake`). Everything that must reach the disk before it
is acted on comes out of :meth:`Replica.drain` as journal records, in order.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from fairtable.games.contract import CommitHidden, Decide, Request, Rng, ShuffleOwned, Simultaneous, Timer
from fairtable.games.options import IDLE_SECONDS
from fairtable.protocol.envelope import Envelope
from fairtable.protocol.genesis import SignedGenesis
from fairtable.protocol.identity import SecretKey
from fairtable.protocol.session.errors import NotYourTurn, Rejected, Violation
from fairtable.protocol.session.recent import Recent
from fairtable.protocol.session.slots import ABSENT, DISPUTE, MOVE, SEED
from fairtable.protocol.session.table import TableSession
from fairtable.protocol.transcript import EquivocationProof

Rank = tuple[int, int, bytes]
"""(class, seat, envelope hash): lower ranks first at a slot (``spec/session.md`` §10 rule 2)."""

STOPPERS = (ABSENT, DISPUTE)
"""Kinds any seat may send out of turn; each ends the game (``spec/session.md`` §5, §6)."""

FORCED = "forced"
"""A decision with one legal move: it is played at once (:meth:`Replica.due_decision`)."""
DEFAULT = "default"
"""A timed decision whose turn timer ran out: the rules' default is played (:meth:`Replica.due_decision`)."""

POOL_PER_SEAT = 256
"""Envelopes of one seat a replica keeps off its chain (ahead of it, on forks, as evidence)."""


@dataclass(frozen=True)
class Timing:
    """How long a replica waits. ``grace`` covers network delay and clock drift between nodes:
    a silent seat may be declared absent ``grace`` after its deadline, and each further seat
    in claimant order ``grace`` later. ``settle`` is how long a replica waits before building
    on an out-of-turn stopper, so that the late seat's envelope, if it is on its way, still
    wins before anything irreversible (a seed reveal) is signed on top; it defaults to ``grace``."""

    grace: float = 30.0
    settle: float | None = None

    @property
    def settle_seconds(self) -> float:
        """How long an out-of-turn stopper stands before this seat builds on it (``settle``, else one
        grace): the late seat's own envelope may still win the slot."""
        return self.grace if self.settle is None else self.settle


class Outcome(enum.Enum):
    """What became of an envelope offered to a replica: what a node tells its link (keep, ignore,
    or hold the peer to account)."""

    ACCEPTED = "accepted"
    """On the chain now."""
    DUPLICATE = "duplicate"
    """Already held; nothing to do."""
    HELD = "held"
    """Kept for later: ahead of the chain, on another fork, or a claim whose time has not come."""
    REFUSED = "refused"
    """Signed by its seat but refused by the session: kept as evidence."""
    OUTRANKED = "outranked"
    """Acceptable, but another envelope ranks first at its slot (or a claim waits for the others'):
    kept off the chain as evidence. A peer that sent it holds another chain: send ours."""
    CONFLICT = "conflict"
    """A second envelope of one seat for one slot: the proof is kept, the first envelope stays."""
    INVALID = "invalid"
    """Not attributable to any seat (wrong table, bad signature): dropped."""


@dataclass(frozen=True)
class Offered:
    """An :class:`Outcome` and, for anything but acceptance, why: what the node logs and tells a client."""

    outcome: Outcome
    reason: str = ""


@dataclass(frozen=True)
class Placed:
    """Journal record: ``envelope`` stands at its ``seq`` on the chain (anything after it goes)."""

    envelope: Envelope


@dataclass(frozen=True)
class Kept:
    """Journal record: a signed envelope off the chain, kept as evidence: ``violation`` is what
    it proves, if anything; ``twin`` the seat's other envelope for the same slot (an equivocation).
    With neither, it is held off the chain for now: ahead of it, on another fork, or this seat's
    own absence claim waiting for every other claimant's to join it."""

    envelope: Envelope
    violation: Violation | None = None
    twin: Envelope | None = None


@dataclass(frozen=True)
class Choices:
    """Journal record: this seat's committed free choices (``TableSession.private_value``), to
    be on disk before the commitment that binds them leaves."""

    value: list


@dataclass(frozen=True)
class Due:
    """Journal record: the slot after ``count`` envelopes became due at ``since`` (this node's clock)."""

    count: int
    since: float


Record = Placed | Kept | Choices | Due


@dataclass(frozen=True)
class SlotInfo:
    """The slot after a chain prefix: who is due, since when (this replica's clock), and how long
    that seat may take before the others wait only ``grace`` more (0 for automatic messages)."""

    seat: int
    kind: str
    since: float
    allowance: float
    claimants: tuple[int, ...] = ()
    """The present seats other than the due one: a claim is final once each declared it absent."""


@dataclass(frozen=True)
class TimingFork:
    """Slot ``index``, due to ``seat``, was contested by the absence claims of ``claimants``.

    ``held_by`` says who kept the slot: ``"claim"`` (the claim was final and ``seat``'s own
    envelope came later) or ``"seat"`` (``seat``'s own envelope came before the claim was final).
    Nobody is named: without a common clock an early claim and a late envelope look alike.
    ``exposed`` lists the seats whose seed was revealed on the side that lost the slot.
    """

    index: int
    seat: int
    claimants: tuple[int, ...]
    held_by: str
    exposed: tuple[int, ...] = ()

    def to_value(self) -> dict:
        """As a canonical value (sorted keys, no floats): what reports, clients and test vectors carry."""
        return {"claimants": list(self.claimants), "exposed": list(self.exposed), "held_by": self.held_by,
                "index": self.index, "seat": self.seat}


def timed(request: Request) -> bool:
    """Whether the turn timer covers the decision ``request`` asks for: choosing hidden data or an
    owned deck always, a move or a simultaneous choice when the game marks it timed."""
    if isinstance(request, CommitHidden | ShuffleOwned):
        return True
    return isinstance(request, Decide | Simultaneous) and request.timed


def timer(session: TableSession) -> Timer | None:
    """The table's turn timer, as its game declares it for the table's options."""
    return session.game.timer(session.game.options_of(session.state))


def turn_seconds(session: TableSession) -> int:
    """Seconds per timed decision; 0 when the timer is off or the game has none."""
    table_timer = timer(session)
    return table_timer.turn_seconds if table_timer else 0


def allowance(session: TableSession) -> float:
    """Seconds the due seat may take: the turn timer for a timed decision, the table's
    ``idle_seconds`` for an untimed one (or with no timer), nothing for automatic messages."""
    slot = session.slot
    if slot is None or not slot.decision:
        return 0.0
    turn = turn_seconds(session)
    if turn and timed(session.pending):
        return float(turn)
    table_timer = timer(session)
    return float(table_timer.idle_seconds if table_timer else IDLE_SECONDS)


class _Pool:
    """Signature-checked envelopes off the chain, by the hash they link to; bounded per seat
    (``limit``) on a live node, unbounded for the verifier, whose file bounds it."""

    def __init__(self, limit: int | None = POOL_PER_SEAT) -> None:
        self._by_prev: dict[bytes, dict[bytes, Envelope]] = {}
        self._per_seat: dict[int, int] = {}
        self._limit = limit

    def add(self, envelope: Envelope) -> bool:
        siblings = self._by_prev.setdefault(envelope.prev, {})
        if envelope.hash in siblings:
            return True
        if self._limit is not None and self._per_seat.get(envelope.seat, 0) >= self._limit:
            return False
        siblings[envelope.hash] = envelope
        self._per_seat[envelope.seat] = self._per_seat.get(envelope.seat, 0) + 1
        return True

    def remove(self, envelope: Envelope) -> None:
        siblings = self._by_prev.get(envelope.prev, {})
        if siblings.pop(envelope.hash, None) is not None:
            self._per_seat[envelope.seat] -= 1
            if not siblings:
                del self._by_prev[envelope.prev]

    def children(self, prev: bytes) -> list[Envelope]:
        return list(self._by_prev.get(prev, {}).values())

    def holds(self, envelope: Envelope) -> bool:
        return envelope.hash in self._by_prev.get(envelope.prev, {})

    def __iter__(self):
        for siblings in self._by_prev.values():
            yield from siblings.values()


class Replica:
    """One seat's replica (``seat``, ``key``, ``secret``) or the verifier's (``seeds``, no clock).

    ``private`` restores the seat's committed free choices; ``now`` is the replica's clock at
    creation (the start of the first slot). The verifier passes ``auditing`` implicitly (no
    seat): every claim is then taken as the transcript recorded it, since a file has no clock.
    ``forgetting`` (the verifier streaming a file's chain, no evidence to contest it) keeps only
    the recent envelopes and slots (``recent.py``): no fork can then be decided.
    """

    def __init__(self, genesis: SignedGenesis, *, seat: int | None = None, key: SecretKey | None = None,
                 secret: bytes | None = None, seeds: Mapping[tuple[int, int], bytes] | None = None,
                 compositions: Mapping[tuple[int, str], tuple[int, ...]] | None = None,
                 private: Any = None, timing: Timing | None = None, now: float = 0.0, forgetting: bool = False) -> None:
        if (seat is None) != (key is None):
            raise ValueError("a seat's replica needs the seat and its key; the verifier's needs neither")
        self.genesis = genesis
        self.seat = seat
        self.timing = timing or Timing()
        self._key = key
        self._new_session: Callable[[Any], TableSession] = lambda choices: TableSession(
            genesis, seat=seat, secret=secret, seeds=seeds, compositions=compositions, private=choices, forgetting=forgetting)
        self.session = self._new_session(private)
        self.slots: Recent[SlotInfo | None] = Recent()
        self.slots.append(self._slot_info(now))
        self.pool = _Pool(None if seat is None else POOL_PER_SEAT)
        self.signed: dict[tuple[int, bytes], Envelope] = {}
        self.evidence: dict[tuple[bytes, str], Kept] = {}
        """What signed envelopes off the chain prove, by (envelope hash, rule): one envelope may
        prove two things (an equivocation that also breaks a rule)."""
        self.forks: list[int] = []
        self._records: list[Record] = []
        self._disputing: Violation | None = None
        self.claims_from = 0.0
        """This seat claims nobody absent before this time: a replica restarted after being away
        first gives its peers the time to reconnect and hand it what it missed."""
        self._seen_violations = 0

    # ------------------------------------------------------------------ reading

    @property
    def auditing(self) -> bool:
        """The verifier's replica: it holds no seat and signs nothing."""
        return self.seat is None

    @property
    def chain(self) -> Recent[Envelope]:
        """The canonical chain as this replica holds it (the session's accepted envelopes)."""
        return self.session.envelopes

    @property
    def head(self) -> bytes:
        """The hash the next envelope's ``prev`` must name: the last envelope's, or the table id."""
        return self.session.head

    @property
    def finished(self) -> bool:
        """The session's flow has ended (read off its slot: the hottest check of every arrival)."""
        return self.session.slot is None

    @property
    def slot(self) -> SlotInfo | None:
        """The current slot, or None when the table is finished."""
        return self.slots[-1]

    def violations(self) -> list[Violation]:
        """Everything this replica found: the session's, and what its evidence proves
        (refused envelopes, equivocations)."""
        found = [*self.session.violations, *(kept.violation for kept in self.evidence.values() if kept.violation is not None)]
        return sorted(found, key=lambda v: v.index)

    def proofs(self) -> list[EquivocationProof]:
        """Every equivocation seen: two envelopes one seat signed for one slot, kept as proof."""
        return [EquivocationProof(self.genesis, kept.twin, kept.envelope) for kept in self.evidence.values() if kept.twin is not None]

    def off_chain(self) -> list[Envelope]:
        """Signed envelopes of this table not on the chain (evidence, forks, our own dropped ones),
        for a transcript file: with them anyone can recompute the chain and every finding."""
        on_chain = {e.hash for e in self.chain}
        found = [*(k.envelope for k in self.evidence.values()), *(k.twin for k in self.evidence.values() if k.twin),
                 *self.signed.values(), *self.pool]
        out = {e.hash: e for e in found if e.hash not in on_chain}
        return sorted(out.values(), key=lambda e: (e.seq, e.seat, e.hash))

    def timing_forks(self) -> list[TimingFork]:
        """Every slot of our chain that absence claims contested with the due seat's own envelope.

        These name nobody: a transcript holds no clock, so nothing in it tells an early claim from
        a late envelope (``spec/session.md`` §10). ``exposed`` lets a ``session.seed-exposed``
        dispute be checked: the disputer's seed was revealed on the side that lost."""
        forks: list[TimingFork] = []
        if not any(True for _ in self.pool):
            return forks  # nothing off the chain contests any slot (a forgetting verifier's case too)
        for index in range(max(self.chain.first, self.slots.first), len(self.chain)):
            info = self.slots[index]
            on_chain = self.chain[index]
            rivals = self.pool.children(on_chain.prev)
            if info is None or not rivals:
                continue
            claims = [e for e in (*rivals, on_chain) if _claims(e, info.seat)]
            own = [e for e in rivals if e.seat == info.seat]
            if on_chain.seat == info.seat and claims:
                losers, held_by = claims, "seat"
            elif _claims(on_chain, info.seat) and own:
                losers, held_by = own, "claim"
            else:
                continue
            claimants = tuple(sorted({e.seat for e in claims}))
            forks.append(TimingFork(index, info.seat, claimants, held_by, self._seeds_after(losers)))
        return forks

    def claimants(self, index: int) -> tuple[int, ...]:
        """The seats whose claims against the due seat of chain slot ``index`` we hold (none known
        once a forgetting replica let the slot go: its file had no other claims to hold)."""
        if index < max(self.chain.first, self.slots.first):
            return ()
        info, on_chain = self.slots[index], self.chain[index]
        if info is None:
            return ()
        return tuple(sorted({e.seat for e in (*self.pool.children(on_chain.prev), on_chain) if _claims(e, info.seat)}))

    def held_claims(self) -> list[Envelope]:
        """Every absence claim we hold off the chain for a slot of our chain: waiting at our head,
        concurring with a final claim we placed, or void. A node sends them on to every peer, so
        that each replica holds the claims we hold and judges each slot's finality as we do."""
        claims = [e for e in self.pool if e.kind == ABSENT and self._parent_index(e) is not None]
        return sorted(claims, key=lambda e: (e.seq, e.seat))

    def waiting_claims(self) -> list[Envelope]:
        """The claims at our head that wait for the other claimants'."""
        slot = self.slot
        if slot is None:
            return []
        return sorted((e for e in self.pool.children(self.head) if _claims(e, slot.seat)), key=lambda e: e.seat)

    def _seeds_after(self, envelopes: Iterable[Envelope]) -> tuple[int, ...]:
        """The seats whose ``seed`` envelope we hold on top of any of ``envelopes`` (off our chain)."""
        seats, todo = set(), list(envelopes)
        while todo:
            envelope = todo.pop()
            if envelope.kind == SEED:
                seats.add(envelope.seat)
            todo.extend(self.pool.children(envelope.hash))
        return tuple(sorted(seats))

    def drain(self) -> list[Record]:
        """The journal records produced since the last call, in the order they must be written."""
        records, self._records = self._records, []
        return records

    def decision_deadline(self) -> float | None:
        """When this seat's open decision falls to the rules' default (its turn timer), if it has one."""
        slot = self.slot
        if slot is None or self.seat is None or slot.seat != self.seat or not self.session.awaiting_decision():
            return None
        turn = turn_seconds(self.session)
        return slot.since + turn if turn and timed(self.session.pending) else None

    def claim_time(self) -> float | None:
        """When this seat declares the due seat absent if it stays silent: its deadline plus grace.
        Every other present seat does the same by its own clock (a claim is final once all did);
        None once this seat has claimed for the slot."""
        slot = self.slot
        if slot is None or self.seat is None or self.seat not in slot.claimants or (len(self.chain), self.head) in self.signed:
            return None
        return max(self.claims_from, slot.since + slot.allowance + self.timing.grace)

    def next_wake(self) -> float | None:
        """The earliest time :meth:`tick` may have something to do (a claim to make or adopt, a
        settled stopper to build on). The seat's own decision deadline is separate."""
        slot = self.slot
        if slot is None:
            return None
        times = [t for t in (self.claim_time(), self._settled_at()) if t is not None]
        if len(slot.claimants) == 1 and any(e.kind == ABSENT for e in self.pool.children(self.head)):
            times.append(self._claims_open_at())
        return min(times, default=None)

    # ------------------------------------------------------------------ input

    def receive(self, envelope: Envelope, now: float, *, verified: bool = False) -> Offered:
        """Take an envelope from anywhere. ``verified``: its signature was already checked
        (a transcript reader checks the chain's). Never raises for bad input."""
        if envelope.table != self.genesis.table_id:
            return Offered(Outcome.INVALID, "the envelope belongs to another table")
        chain = self.chain
        if (envelope.seq < len(chain) and chain[envelope.seq].content == envelope.content) or self.pool.holds(envelope):
            return Offered(Outcome.DUPLICATE)
        if self._refused(envelope):
            return self._fate(envelope, "")
        seats = self.genesis.genesis.seats
        if envelope.seat >= len(seats) or not (verified or envelope.verify(seats[envelope.seat].key)):
            return Offered(Outcome.INVALID, f"envelope {envelope.seq}: its signature does not verify under the key of seat {envelope.seat}")
        twin = self._twin(envelope)
        if twin is not None:
            self._equivocation(twin, envelope)
        offered = self._continue(envelope, now)
        if twin is not None and offered.outcome is not Outcome.ACCEPTED:
            return Offered(Outcome.CONFLICT, f"seat {envelope.seat} signed two different envelopes for slot {envelope.seq}: proof kept")
        return offered

    def _continue(self, envelope: Envelope, now: float) -> Offered:
        """A signature-checked envelope: placed at our head, contested against our chain, or held."""
        parent = self._parent_index(envelope)
        if parent is None or parent == len(self.chain):
            if not self._hold(envelope):
                return Offered(Outcome.REFUSED, f"seat {envelope.seat} has too many envelopes off the chain here")
            self._extend(now)
            return self._fate(envelope, "ahead of our chain or on another fork")
        return self._contest(envelope, now)

    def tick(self, now: float) -> None:
        """Time passed: adopt claims whose time has come, make this seat's own claim, build on a
        settled stopper. Call at :meth:`next_wake` (and after any input, which does it anyway)."""
        self._extend(now)
        claim_at = self.claim_time()
        if claim_at is not None and now >= claim_at and not self.finished:
            self._claim(now)

    def decide(self, decision: Any, now: float, rng: Rng | None = None) -> Envelope:
        """Sign this seat's decision (a move, hidden data, a simultaneous choice or a composition;
        ``rng`` draws a random legal placement for :data:`~fairtable.protocol.session.own.RANDOM_PLACEMENT`).
        Raises :class:`NotYourTurn` or :class:`Rejected` and changes nothing when it is not allowed."""
        return self._sign_decision(lambda: self.session.decide(decision, rng), now)

    def due_decision(self) -> tuple[float, str] | None:
        """When this seat's open decision is made without it, and how: :data:`FORCED` at once when
        only one move is legal (no choice at all), :data:`DEFAULT` when its turn timer runs out.
        None when the decision waits for the seat (or none is open): the node sleeps until then."""
        slot, session = self.slot, self.session
        if slot is None or self.seat is None or slot.seat != self.seat or not session.awaiting_decision():
            return None
        if session.decision_kind == MOVE and len(session.legal_moves()) == 1:
            return slot.since, FORCED
        deadline = self.decision_deadline()
        return None if deadline is None else (deadline, DEFAULT)

    def play_due(self, now: float, rng: Rng) -> Envelope | None:
        """Sign what :meth:`due_decision` says is due by ``now``: the one legal move, or the rules'
        default for the open decision (``rng`` draws hidden data or a composition at random).
        None when nothing is due yet."""
        due = self.due_decision()
        if due is None or now < due[0]:
            return None
        if due[1] == FORCED:
            (move,) = self.session.legal_moves()
            return self.decide(move, now)
        return self._sign_decision(lambda: self.session.default_body(rng), now)

    def turn_clock(self, now: float) -> dict | None:
        """``{"seat", "seconds"}``: the seat whose timed decision is open, and its time left by ``now``
        (what clients show as the clock); None when no timed decision is open."""
        slot, session = self.slot, self.session
        turn = turn_seconds(session)
        due = session.slot
        if slot is None or due is None or not due.decision or not turn or not timed(session.pending):
            return None
        return {"seat": slot.seat, "seconds": round(max(0.0, slot.since + turn - now), 3)}

    def clocks(self, now: float) -> list[dict] | None:
        """Every seat's clock by ``now``, in seat order (what clients show side by side):
        ``turn``, the seconds left of its turn time (all of it for a seat not due), ``grace``,
        the seconds left of the grace that follows, in which the others wait before they may
        declare it absent (all of it until the turn time has run out), and whether it is
        ``running``. None when the table has no turn timer."""
        turn = turn_seconds(self.session)
        if not turn:
            return None
        running = self.turn_clock(now)
        clocks = []
        for seat in range(self.session.seat_count):
            left, grace = float(turn), self.timing.grace
            if running is not None and running["seat"] == seat:
                left = running["seconds"]
                grace = round(min(grace, max(0.0, self.timing.grace - (now - self._turn_ends()))), 3)
            clocks.append({"grace": grace, "running": running is not None and running["seat"] == seat, "seat": seat, "turn": left})
        return clocks

    def _turn_ends(self) -> float:
        slot = self.slot
        assert slot is not None
        return slot.since + turn_seconds(self.session)

    def fresh_session(self) -> TableSession:
        """A session with this seat's knowledge and choices, before any envelope: to tell the chain again (a history)."""
        return self._new_session(self.session.private_value())

    def _sign_decision(self, build: Callable[[], tuple[str, Any]], now: float) -> Envelope:
        """Sign the ``(kind, body)`` ``build`` makes of this seat's decision, its free choices
        journalled first (a restart must open what it committed)."""
        self._refuse_twice()
        before = self.session.private_value()
        kind, body = build()
        if self.session.private_value() != before:
            self._records.append(Choices(self.session.private_value()))
        return self._sign_own(kind, body, now)

    def resign(self, now: float) -> Envelope:
        """Sign this seat's resignation at its resignable slot; :class:`NotYourTurn` otherwise."""
        self._refuse_twice()
        return self._sign_own(*self.session.resign_body(), now)

    def load(self, placed: Iterable[Envelope], kept: Iterable[Kept], now: float, since: float | None) -> None:
        """Restore from a journal: ``placed`` in journal order (an envelope at ``seq`` replaces what
        stood there), ``kept`` evidence; ``since`` is when the current slot became due."""
        final: list[Envelope] = []
        superseded: list[Envelope] = []
        for envelope in placed:
            superseded += final[envelope.seq:]
            final[envelope.seq:] = [envelope]
        for envelope in final:
            try:
                self.session.accept_linked(envelope)
            except Rejected:
                superseded += final[envelope.seq:]
                break
            self.slots.append(self._slot_info(now))
        for envelope in [*final, *superseded]:
            if envelope.seat == self.seat:
                self.signed.setdefault((envelope.seq, envelope.prev), envelope)
        for envelope in superseded:
            if envelope.hash not in {e.hash for e in self.chain}:
                self.pool.add(envelope)
        for record in kept:
            if record.violation is None and record.twin is None:
                if record.envelope.hash not in {e.hash for e in self.chain}:
                    self.pool.add(record.envelope)  # held off the chain: ahead of it, on a fork, or our own claim
                if record.envelope.seat == self.seat:
                    self.signed.setdefault((record.envelope.seq, record.envelope.prev), record.envelope)
            else:
                self.evidence.setdefault(_key(record), record)
        self._seen_violations = len(self.session.violations)
        if since is not None and self.slot is not None:
            self.slots[-1] = replace(self.slot, since=since)
        self._records.clear()
        self._produce(now)

    # ------------------------------------------------------------------ the chain

    def _parent_index(self, envelope: Envelope) -> int | None:
        """The chain index ``envelope`` would stand at, if its ``prev`` is on our chain."""
        if envelope.seq > len(self.chain):
            return None
        expected = self.genesis.table_id if envelope.seq == 0 else self.chain[envelope.seq - 1].hash
        return envelope.seq if envelope.prev == expected else None

    def _rank(self, index: int, envelope: Envelope) -> Rank | None:
        """Lower ranks first: a final absence claim, the due seat's envelope, then stoppers by seat;
        the hash breaks the tie between two envelopes of one seat (an equivocation), so every
        replica picks alike. None: not a candidate yet (a claim still waiting for the others')."""
        info = self.slots[index]
        if info is None:
            return (2, envelope.seat, envelope.hash)
        if envelope.seat == info.seat:
            return (1, envelope.seat, envelope.hash)
        if _claims(envelope, info.seat) and len(info.claimants) > 1:
            return (0, envelope.seat, envelope.hash) if self._final(index, envelope.prev) else None
        return (2, envelope.seat, envelope.hash)

    def _held_at(self, index: int, prev: bytes) -> list[Envelope]:
        """Every candidate we hold for the slot after ``prev`` at ``index``: our chain's and the pool's."""
        held = self.pool.children(prev)
        if index < len(self.chain) and self.chain[index].prev == prev:
            held.append(self.chain[index])
        return held

    def _final(self, index: int, prev: bytes) -> bool:
        """Every present seat but the due one declared it absent for this slot (two seats at least:
        one seat's word against the due seat's envelope proves nothing either way)."""
        info = self.slots[index]
        if info is None or len(info.claimants) < 2:
            return False
        claimed = {e.seat for e in self._held_at(index, prev) if _claims(e, info.seat)}
        return claimed.issuperset(info.claimants)

    def _claims_open_at(self) -> float:
        slot = self.slot
        assert slot is not None
        return slot.since + slot.allowance + self.timing.grace

    def _adoptable(self, index: int, envelope: Envelope, now: float) -> bool:
        """A lone claim counts only past the claimed seat's deadline plus grace, by our clock (a
        final one carries every other seat's judgement by its own clock)."""
        if envelope.kind != ABSENT or self.auditing:
            return True
        info = self.slots[index]
        return info is None or len(info.claimants) > 1 or now >= info.since + info.allowance + self.timing.grace

    def _ranked(self, index: int, envelopes: Iterable[Envelope], now: float) -> list[tuple[Rank, Envelope]]:
        """The candidates among ``envelopes`` for slot ``index`` that may be placed now, best first."""
        ranks = [(rank, e) for e in envelopes if (rank := self._rank(index, e)) is not None and self._adoptable(index, e, now)]
        return sorted(ranks, key=lambda pair: pair[0])

    def _extend(self, now: float) -> None:
        """Place the best acceptable candidate at our head, again and again; then our own messages."""
        progress = True
        while progress and not self.finished:
            progress = False
            for _, candidate in self._ranked(len(self.chain), self.pool.children(self.head), now):
                self.pool.remove(candidate)
                if self._place(candidate, now):
                    progress = True
                    break
            if not progress:
                progress = self._produce(now)

    def _place(self, envelope: Envelope, now: float) -> bool:
        """Put ``envelope`` at our head if the session accepts it; a refusal is kept as evidence."""
        try:
            self.session.accept_linked(envelope)
        except Rejected as rejected:
            self._keep(Kept(envelope, rejected.violation))
            return False
        self._records.append(Placed(envelope))
        self.slots.append(self._slot_info(now))
        self._records.append(Due(len(self.chain), now))
        if envelope.seat == self.seat:
            self.signed[(envelope.seq, envelope.prev)] = envelope
        if self.session.forgetting:
            self.slots.forget_before(len(self.chain) - 1)  # the slot before the last tells who sent a stopper out of turn
        return True

    def _contest(self, envelope: Envelope, now: float) -> Offered:
        """``envelope`` is for a slot our chain already fills: it joins the candidates there, and
        if the best of them is no longer the one we hold, our chain switches to it."""
        index = envelope.seq
        held = self.chain[index]
        if not self._hold(envelope):
            return Offered(Outcome.REFUSED, f"seat {envelope.seat} has too many envelopes off the chain here")
        held_rank = self._rank(index, held) or (3, held.seat, held.hash)
        for rank, better in self._ranked(index, self.pool.children(held.prev), now):
            if rank >= held_rank:
                break
            trial = self._rebuilt(index)
            try:
                trial.accept_linked(better)
            except Rejected as rejected:
                self._keep(Kept(better, rejected.violation))
                continue
            self.pool.remove(better)
            self._switch(index, better, trial, now)
            break
        return self._fate(envelope, "")

    def _hold(self, envelope: Envelope) -> bool:
        """Put a signature-checked envelope in the pool, journaled as a plain ``Kept`` so a restart
        holds it again (a node that settled and restarted writes the same evidence); False when its
        seat has no room left."""
        if self.pool.holds(envelope):
            return True
        if not self.pool.add(envelope):
            return False
        self._records.append(Kept(envelope))
        return True

    def _switch(self, index: int, envelope: Envelope, trial: TableSession, now: float) -> None:
        """Our chain leaves its envelope at ``index`` for ``envelope`` (``trial`` has taken it)."""
        dropped = self.chain[index:]
        self.session = trial
        self._seen_violations = len(trial.violations)
        if self._disputing is not None and self._disputing.index >= index:
            self._disputing = None  # what it disputed is no longer on the chain
        if any(old.kind == SEED and old.seat == self.seat for old in dropped):
            # our seed of this game was revealed on the fork we left: its hidden cards are no longer
            # hidden, so the game cannot go on fairly; stop it (a timing fork, naming nobody)
            detail = f"seat {self.seat}'s seed was revealed on the side of a timing fork at envelope {index} that lost the slot"
            self._disputing = Violation(index, None, "session.seed-exposed", detail)
        del self.slots[index + 1:]
        self._records.append(Placed(envelope))
        self.slots.append(self._slot_info(now))
        self._records.append(Due(len(self.chain), now))
        for old in dropped:
            if not self._refused(old):
                self.pool.add(old)
        self.forks.append(index)
        self._extend(now)

    def _rebuilt(self, index: int) -> TableSession:
        """A fresh session fed our chain up to ``index``: the state a slot was decided in."""
        session = self.fresh_session()
        for envelope in self.chain[:index]:
            session.accept_linked(envelope)
        return session

    def _fate(self, envelope: Envelope, otherwise: str) -> Offered:
        """What became of ``envelope``: on the chain, kept as evidence, or held for later."""
        if envelope.seq < len(self.chain) and self.chain[envelope.seq].hash == envelope.hash:
            return Offered(Outcome.ACCEPTED)
        kept = [k for k in self.evidence.values() if k.envelope.hash == envelope.hash]
        if kept:
            outcome = Outcome.CONFLICT if any(k.twin is not None for k in kept) else Outcome.REFUSED
            return Offered(outcome, "; ".join(f"{k.violation.rule}: {k.violation.detail}" for k in kept if k.violation is not None))
        index = self._parent_index(envelope)
        if index is not None and index < len(self.chain):
            held = self.chain[index]
            return Offered(Outcome.OUTRANKED, f"slot {index} holds seat {held.seat}'s {held.kind!r}, which ranks first")
        if envelope.kind == ABSENT and self.pool.holds(envelope) and envelope.prev == self.head:
            return Offered(Outcome.HELD, f"seat {envelope.seat}'s claim waits for the claimed seat's deadline plus grace, or the other seats' claims")
        return Offered(Outcome.HELD, otherwise)

    def _slot_info(self, now: float) -> SlotInfo | None:
        """The slot now due. After an out-of-turn stopper that may still lose its slot, the next
        seat waits ``settle`` before it builds on it (:meth:`_settled_at`), so the others allow it
        that much more."""
        slot = self.session.slot
        if slot is None:
            return None
        extra = self.timing.settle_seconds if self._ends_in_stopper() else 0.0
        claimants = tuple(s for s in range(self.session.seat_count) if s != slot.seat and s not in self.session.absent)
        return SlotInfo(slot.seat, slot.kind, now, allowance(self.session) + extra, claimants)

    def _ends_in_stopper(self) -> bool:
        """The chain's last envelope is an absence claim or dispute sent out of turn that the due
        seat's own envelope could still outrank (not a final claim)."""
        if not self.chain or self.chain[-1].kind not in STOPPERS or len(self.slots) < len(self.chain):
            return False
        index = len(self.chain) - 1
        before = self.slots[index]
        last = self.chain[-1]
        return before is not None and last.seat != before.seat and not (_claims(last, before.seat) and self._final(index, last.prev))

    # ------------------------------------------------------------------ findings

    def _twin(self, envelope: Envelope) -> Envelope | None:
        """Another envelope of the same seat for the same slot (``seq`` and ``prev``), if we hold one."""
        candidates = [*self.pool.children(envelope.prev), *(k.envelope for k in self.evidence.values())]
        if envelope.seq < len(self.chain):
            candidates.append(self.chain[envelope.seq])
        return next((c for c in candidates if c.seat == envelope.seat and c.seq == envelope.seq
                     and c.prev == envelope.prev and c.content != envelope.content), None)

    def _equivocation(self, first: Envelope, second: Envelope) -> None:
        """Keep the proof. Both envelopes stay candidates for the slot; the rank decides."""
        EquivocationProof(self.genesis, first, second).check()
        detail = f"seat {second.seat} signed two different envelopes for slot {second.seq}"
        self._keep(Kept(second, Violation(second.seq, second.seat, "chain.equivocation", detail, second), first), candidate=True)

    def _refused(self, envelope: Envelope) -> bool:
        """Kept as evidence and no longer a candidate: the session refused it."""
        return any(k.envelope.hash == envelope.hash and k.twin is None for k in self.evidence.values())

    def _keep(self, kept: Kept, candidate: bool = False) -> None:
        if _key(kept) not in self.evidence:
            self.evidence[_key(kept)] = kept
            if not candidate:
                self.pool.remove(kept.envelope)
            self._records.append(kept)

    # ------------------------------------------------------------------ our own envelopes

    def _refuse_twice(self) -> None:
        """A decision this seat signed for this slot before (on a fork it returned to) is final."""
        if (len(self.chain), self.head) in self.signed:
            raise NotYourTurn("this seat already signed its envelope for this slot")

    def _claim(self, now: float) -> Envelope:
        """Declare the due seat absent for the current slot. With one other present seat the claim
        takes the slot as any stopper; with more it waits in the pool until every other present
        seat's claim joins it (it is journaled first: a node never signs twice for a slot)."""
        slot = self.slot
        assert self._key is not None and self.seat is not None and slot is not None
        if len(slot.claimants) == 1:
            return self._sign_own(*self.session.absence_claim_body(), now)
        kind, body = self.session.absence_claim_body()
        envelope = Envelope.seal(self._key, self.genesis.table_id, len(self.chain), self.head, self.seat, kind, body)
        self.signed[(envelope.seq, envelope.prev)] = envelope
        self._records.append(Kept(envelope))
        self.pool.add(envelope)
        self._extend(now)
        return envelope

    def _sign_own(self, kind: str, body: Any, now: float) -> Envelope:
        assert self._key is not None and self.seat is not None
        envelope = Envelope.seal(self._key, self.genesis.table_id, len(self.chain), self.head, self.seat, kind, body)
        self.signed[(envelope.seq, envelope.prev)] = envelope
        if not self._place(envelope, now):
            raise AssertionError(f"our own {kind!r} envelope was refused")
        self._extend(now)
        return envelope

    def _settled_at(self) -> float | None:
        """When our automatic messages may build on an out-of-turn stopper that ended the game:
        ``settle`` after it was placed (until then the late seat's envelope may still win the slot)."""
        slot = self.slot
        if slot is None or slot.kind != SEED or slot.seat != self.seat or not self._ends_in_stopper():
            return None
        return slot.since + self.timing.settle_seconds

    def _produce(self, now: float) -> bool:
        """Sign every automatic message this seat owes now (its secrets dictate them); True if any."""
        if self.seat is None or self.finished:
            return False
        if self._dispute_due(now):
            return True
        settled = self._settled_at()
        if settled is not None and now < settled:
            return False
        signed_before = self.signed.get((len(self.chain), self.head))
        if signed_before is not None and self.session.slot is not None and self.session.slot.seat == self.seat:
            return self._place(signed_before, now)
        outgoing = self.session.outgoing()
        if outgoing is None:
            return False
        self._sign_own(*outgoing, now)
        return True

    def _dispute_due(self, now: float) -> bool:
        """Stop the game over a violation this seat found but cannot pin on one seat (a card that
        opens to no card) or cannot compute past (a stage entry outside the group). If another
        seat's in-slot envelope wins the slot, the dispute is signed again at the next one."""
        session = self.session
        fresh = session.violations[self._seen_violations:]
        self._seen_violations = len(session.violations)
        if fresh and self._disputing is None:
            self._disputing = fresh[0]
        if self._disputing is None or not session.disputable or session.disputes:
            return False
        if (len(self.chain), self.head) in self.signed:
            return False
        self._sign_own(*session.dispute_body(self._disputing), now)
        return True


def _claims(envelope: Envelope, seat: int) -> bool:
    """``envelope`` is a well-formed claim that ``seat`` is absent (the only one a seat can sign for a slot)."""
    return envelope.kind == ABSENT and envelope.seat != seat and envelope.body == {"seat": seat}


def _key(kept: Kept) -> tuple[bytes, str]:
    return kept.envelope.hash, "" if kept.violation is None else kept.violation.rule
