"""The offline verifier: a table session fed every revealed seed, replaying a whole transcript.

Because it knows every seed, the session recomputes every message a seat's seed dictates
(commitments, shuffle stages, keys, public-random reveals, private draws) and knows every
face, so every rule check the live nodes had to skip is made here. The report lists each
violation as (envelope index, seat, rule, explanation) with the seat's signed envelope, and
the result of each deal of a match.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from fairtable.games.contract import Result
from fairtable.protocol.envelope import Envelope
from fairtable.protocol.errors import ProtocolError
from fairtable.protocol.fair.seeds import SEED_SIZE
from fairtable.protocol.genesis import PROTOCOL_VERSION, SignedGenesis
from fairtable.protocol.session.errors import Violation
from fairtable.protocol.session.replica import Replica, TimingFork
from fairtable.protocol.session.slots import COMPOSITION, SEED
from fairtable.protocol.session.table import TableSession
from fairtable.protocol.transcript_file import RevealedSeed, TranscriptFile, TranscriptFileError, TranscriptReader

SEED_EXPOSED = "session.seed-exposed"
"""The dispute of a seat whose seed was revealed on the side of a timing fork that lost its slot."""

VALID = "valid"
VIOLATION = "violation"
INCOMPLETE = "incomplete"
DAMAGED = "damaged"


@dataclass(frozen=True)
class Owed:
    """A message the transcript's end leaves due: ``seat`` was to send ``kind`` as envelope ``index``.

    Not a finding against the seat: a transcript that stops says nothing about why (it may
    have been saved before the message arrived). Only a claim in the chain does.
    """

    index: int
    seat: int
    kind: str

    def to_value(self) -> dict:
        """As a canonical value (sorted keys, no floats): what reports, clients and test vectors carry."""
        return {"index": self.index, "kind": self.kind, "seat": self.seat}


@dataclass(frozen=True)
class Absence:
    """``seat`` forfeited at envelope ``index`` because ``claimants`` declared it absent (the
    claim on the chain is ``claimant``'s; with three or more seats every other present seat's
    claim makes it final, ``spec/session.md`` §10).

    Not a finding against ``seat``: a transcript holds no clock, so the forfeit rests on the
    claimants' word."""

    index: int
    seat: int
    claimant: int
    claimants: tuple[int, ...] = ()

    def to_value(self) -> dict:
        """As a canonical value (sorted keys, no floats): what reports, clients and test vectors carry."""
        who = self.claimants or (self.claimant,)
        names = " and ".join(f"seat {seat}" for seat in who)
        note = f"declared absent by {names}: a forfeit on their word" if len(who) > 1 else f"declared absent by {names}: a forfeit on its word"
        return {"claimant": self.claimant, "claimants": list(who), "index": self.index, "note": note, "seat": self.seat}


@dataclass(frozen=True)
class Unproven:
    """``seat`` committed a seed for game ``game`` and never revealed it (it withheld it, or left).

    Not a finding: the seat forfeited (§5), but whatever only that seed would show (a stage or
    key not derived from it, a card its hidden hand or deck held) cannot be ruled out."""

    game: int
    seat: int

    def to_value(self) -> dict:
        """As a canonical value (sorted keys, no floats): what reports, clients and test vectors carry."""
        note = (f"seat {self.seat}'s seed of game {self.game} was never revealed: deviations only that seed "
                "would show cannot be ruled out")
        return {"game": self.game, "note": note, "seat": self.seat}


@dataclass(frozen=True)
class Unjudged:
    """Seat ``seat``'s dispute at envelope ``index`` (``rule``), which names nobody: with a seed
    missing, the replay cannot show the dispute false, so its sender is not named for it."""

    index: int
    seat: int
    rule: str

    def to_value(self) -> dict:
        """As a canonical value (sorted keys, no floats): what reports, clients and test vectors carry."""
        note = "not judged: a dispute is false only if the replay with every seed finds nothing, and a seed is missing"
        return {"index": self.index, "note": note, "rule": self.rule, "seat": self.seat}


@dataclass(frozen=True)
class Report:
    """What a verification found, summed up by :attr:`status`.

    ``violations`` are findings against seats, each with its evidence. ``damage`` says what
    broke the file after its readable prefix (which was verified); ``owed`` lists what the
    end of an intact transcript leaves due when the table did not finish.
    """

    game: str
    variant: str
    seats: tuple[str, ...]
    envelopes: int
    result: Result | None
    violations: tuple[Violation, ...] = field(default=())
    absences: tuple[Absence, ...] = field(default=())
    deals: tuple[Result, ...] = ()
    """Each deal's own result, for a match of several deals."""
    owed: tuple[Owed, ...] = field(default=())
    damage: str | None = None
    timing: tuple[TimingFork, ...] = ()
    """Slots where absence claims and the due seat's own envelope competed: timing forks, which
    name nobody (a transcript holds no clock)."""
    unproven: tuple[Unproven, ...] = ()
    """Seeds never revealed, whose deviations the replay cannot rule out."""
    unjudged: tuple[Unjudged, ...] = ()
    """Disputes left unjudged for want of a seed."""
    version: int = PROTOCOL_VERSION
    """The table's protocol version, which says what was checked live (:attr:`guarantees`)."""

    @property
    def guarantees(self) -> str:
        """What the table's protocol version guaranteed its seats while they played."""
        if self.version >= 3:
            return "every deck stage, position key and unblinding was proved and checked on receipt"
        return "deck stages and position keys were checked only after the seed reveal (version 2: no proofs)"

    @property
    def status(self) -> str:
        """``violation`` if any seat is named, else ``damaged``, ``incomplete`` or ``valid``."""
        if self.violations:
            return VIOLATION
        if self.damage is not None:
            return DAMAGED
        return INCOMPLETE if self.owed else VALID

    @property
    def valid(self) -> bool:
        """The transcript is complete and nobody deviated."""
        return self.status == VALID

    def to_value(self) -> dict:
        """As a canonical value (sorted keys, no floats): what reports, clients and test vectors carry."""
        return {
            "absences": [absence.to_value() for absence in self.absences],
            "damage": self.damage,
            "deals": [deal.to_value() for deal in self.deals],
            "envelopes": self.envelopes,
            "game": self.game,
            "owed": [owed.to_value() for owed in self.owed],
            "result": None if self.result is None else self.result.to_value(),
            "seats": list(self.seats),
            "status": self.status,
            "timing": [fork.to_value() for fork in self.timing],
            "unjudged": [dispute.to_value() for dispute in self.unjudged],
            "unproven": [unproven.to_value() for unproven in self.unproven],
            "valid": self.valid,
            "variant": self.variant,
            "violations": [violation.to_value() for violation in self.violations],
        }


class Reveals:
    """The seeds and owned-deck compositions the chain reveals, gathered envelope by envelope.

    A seat's n-th seed envelope reveals its seed of game n (each game closes with one seed
    round); a game's compositions come before its seeds, so the owner's count of seed envelopes
    so far is the game. Only the shape is trusted here; the session checks each value when it
    reaches it.
    """

    def __init__(self) -> None:
        self.seeds: dict[tuple[int, int], bytes] = {}
        self.compositions: dict[tuple[int, str], tuple[int, ...]] = {}
        self._games: dict[int, int] = {}

    def see(self, envelope: Envelope) -> None:
        """Collect what ``envelope`` reveals (a seed, a composition): a streamed file is read once."""
        body = envelope.body
        game = self._games.get(envelope.seat, 0)
        if envelope.kind == SEED:
            self._games[envelope.seat] = game + 1
            seed = body.get("seed") if isinstance(body, dict) else None
            if isinstance(seed, bytes) and len(seed) == SEED_SIZE:
                self.seeds[(game, envelope.seat)] = seed
        elif envelope.kind == COMPOSITION and isinstance(body, dict) and isinstance(body.get("deck"), str) \
                and isinstance(body.get("cards"), tuple) and all(type(card) is int for card in body["cards"]):
            self.compositions[(game, body["deck"])] = body["cards"]

    def all_seeds(self, outside: Iterable[RevealedSeed]) -> dict[tuple[int, int], bytes]:
        """Every seed revealed: those of the file's seeds record (``outside`` the chain), then the chain's."""
        return {**{(seed.game, seed.seat): seed.seed for seed in outside}, **self.seeds}


def reveals_of(file: TranscriptFile) -> Reveals:
    """The seeds and compositions the whole file reveals (a viewer needs them before its replay)."""
    reveals = Reveals()
    for envelope in file.transcript.envelopes:
        reveals.see(envelope)
    return reveals


def revealed_seeds(file: TranscriptFile) -> dict[tuple[int, int], bytes]:
    """Every seed the file reveals, in seed envelopes or its seeds record, by ``(game, seat)``."""
    return reveals_of(file).all_seeds(file.seeds)


def verify(file: TranscriptFile, broken: ProtocolError | None = None) -> Report:
    """Replay ``file``; ``broken`` is what cut the file short after its readable prefix, if anything.

    The chain and the file's evidence go through one replica (``replica.py``), the same code a
    live node runs, so a fork in the file (a timing fork, an equivocation, a refused
    envelope) resolves here exactly as it did, or should have, on every honest node.

    Raises :class:`~protocol.errors.ProtocolError` only when the genesis names a table this
    implementation cannot set up (an unknown game, bad options): then nothing is verifiable.
    """
    return _report(file.transcript.genesis, len(file.transcript), _replayed([file]), broken)


def _replayed(files: Sequence[TranscriptFile]) -> Replica:
    """One verifier replica fed every chain envelope, then every evidence envelope, of ``files``
    (of one table), with every seed and composition they reveal (the first file's where two differ)."""
    seeds: dict[tuple[int, int], bytes] = {}
    compositions: dict[tuple[int, str], tuple[int, ...]] = {}
    for file in reversed(files):
        reveals = reveals_of(file)
        seeds.update(reveals.all_seeds(file.seeds))
        compositions.update(reveals.compositions)
    replica = Replica(files[0].transcript.genesis, seeds=seeds, compositions=compositions)
    for file in files:
        for envelope in file.transcript.envelopes:
            replica.receive(envelope, 0.0, verified=True)
    for file in files:
        for envelope in file.evidence:
            replica.receive(envelope, 0.0)
    return replica


def _report(genesis: SignedGenesis, count: int, replica: Replica, broken: ProtocolError | None) -> Report:
    """The report on a replay of ``count`` chain envelopes (and the evidence) through ``replica``."""
    session = replica.session
    violations = replica.violations()
    # A refused envelope ends the replay and names its seat: nothing is owed after it.
    owed = _owed(session) if len(session.envelopes) >= count else ()
    timing = tuple(replica.timing_forks())
    disputes = _open_disputes(session, timing)
    judged = _judged_disputes(session, violations, disputes)
    violations.extend(judged)
    violations = _named(violations)
    violations.sort(key=lambda violation: violation.index)
    unjudged = () if judged or any(v.seat is not None for v in violations) else \
        tuple(Unjudged(index, seat, rule) for index, seat, rule, _ in disputes)
    table = genesis.genesis
    return Report(
        table.game, table.variant, tuple(seat.key.fingerprint for seat in table.seats),
        min(count, len(replica.chain)) if replica.waiting_claims() else count, session.result, tuple(violations),
        tuple(Absence(index, seat, claimant, replica.claimants(index)) for index, claimant, seat in session.claims),
        tuple(session.deal_results), owed, _damage(replica, count, broken), timing,
        tuple(Unproven(game, seat) for game, seat in session.unproven), unjudged, table.version,
    )


def _damage(replica: Replica, count: int, broken: ProtocolError | None) -> str | None:
    """What keeps the file from being verified whole: a break in its bytes, or a chain that stops
    at a claim the file does not show final (its other claimants' claims are missing)."""
    if broken is not None:
        return str(broken)
    claims = replica.waiting_claims() if len(replica.chain) < count else []
    if not claims:
        return None
    claim = claims[0]
    return (f"envelope {claim.seq} is seat {claim.seat}'s absence claim against seat {claim.body['seat']}, which the file "
            "does not show final: the other present seats' claims for that slot are missing")


def load(chunks: Iterable[bytes]) -> tuple[TranscriptFile, ProtocolError | None]:
    """Read a transcript file for verification.

    Whatever breaks the file after its genesis (a record cut short or undecodable, an
    envelope that does not continue the chain, a bad or missing end record) comes back with
    the readable prefix: that prefix is still verified, and the break is reported as damage.
    A file without a readable header and genesis raises :class:`~protocol.errors.ProtocolError`.
    """
    reader = TranscriptReader()
    broken = _read(reader, chunks)
    assert reader.transcript is not None
    return TranscriptFile(reader.transcript, reader.seeds, tuple(reader.evidence)), broken


def _read(reader: TranscriptReader, chunks: Iterable[bytes]) -> ProtocolError | None:
    """Feed ``chunks`` to ``reader`` to the end; what broke the file after its genesis, if anything."""
    try:
        for chunk in chunks:
            reader.feed(chunk)
        reader.close()
    except ProtocolError as broken:
        if reader.transcript is None:
            raise
        return broken
    return None


def verify_chunks(chunks: Iterable[bytes]) -> Report:
    """Verify a transcript file given in pieces (as read from disk or a socket); damage after the genesis is reported, not raised."""
    return verify(*load(chunks))


@dataclass(frozen=True)
class Streamed:
    """A file verified by :func:`verify_stream`: the report, the genesis, and, when asked for,
    the chain's envelope hashes packed 32 bytes each in sequence order (to compare files)."""

    report: Report
    genesis: SignedGenesis
    hashes: bytes = b""


def verify_stream(read: Callable[[], Iterable[bytes]], hashes: bool = False) -> Streamed:
    """Verify the file ``read()`` yields in chunks, in memory bounded by its longest game, not its length.

    ``read`` is called twice. The first pass checks the chain and gathers what the replay
    needs before it starts (every revealed seed and composition, the evidence); the second
    replays the chain through a forgetting replica (``replica.py``), envelope by envelope as
    it is read. It checks every link but no signature again: the links end in the head the
    first pass verified, so a file that changed in between is refused at the end, before any
    report. A file with evidence (envelopes off the chain, which may contest any slot) is
    replayed whole in memory instead. The report is the one :func:`verify` gives.
    """
    packed = bytearray()
    reveals = Reveals()

    def scan(envelope: Envelope) -> None:
        reveals.see(envelope)
        if hashes:
            packed.extend(envelope.hash)

    first = TranscriptReader(scan)
    broken = _read(first, read())
    transcript = first.transcript
    assert transcript is not None
    if first.evidence:
        report = verify(*load(read()))
    else:
        replica = Replica(transcript.genesis, seeds=reveals.all_seeds(first.seeds), compositions=reveals.compositions,
                          forgetting=True)
        replayed, head = 0, transcript.genesis.table_id

        def replay(envelope: Envelope) -> None:
            nonlocal replayed, head
            if replayed < len(transcript):
                replica.receive(envelope, 0.0, verified=True)
                replica.drain()  # journal records: a verifier writes no journal
                replayed, head = replayed + 1, envelope.hash

        _read(TranscriptReader(replay, signed=False), read())
        if replayed != len(transcript) or head != transcript.head:
            raise TranscriptFileError(f"the file changed while it was verified ({len(transcript)} envelopes, then {replayed})")
        report = _report(transcript.genesis, len(transcript), replica, broken)
        seats = transcript.genesis.genesis.seats
        if any(v.evidence is not None and not v.evidence.verify(seats[v.evidence.seat].key) for v in report.violations):
            # a hash covers an envelope's content, not its signature: the evidence must carry the one checked
            raise TranscriptFileError("the file changed while it was verified (a signature of the evidence)")
    return Streamed(report, transcript.genesis, bytes(packed))


@dataclass(frozen=True)
class Together:
    """Files of one table verified together: the report on the chain they settle on, and for
    each file (in order) the envelope index where its chain leaves that one (None: it does not,
    though it may stop sooner)."""

    report: Report
    leaves_at: tuple[int | None, ...]


def verify_together(files: Sequence[TranscriptFile]) -> Together:
    """Several transcripts of one table as one body of evidence (``spec/session.md`` §7 item 6).

    Every envelope of every file, chain and evidence, goes through one replica, the code a
    live node runs: files that fork are settled by the rules of §10 (the chain every honest
    replica holding all these envelopes holds), and two envelopes one seat signed for one slot
    (same ``seq`` and ``prev``) are ``chain.equivocation`` with their proof. Envelopes of one
    seat at one ``seq`` after different ``prev`` values stand on two forks and prove nothing.
    Each file's damage is its own (reported with that file); the joint report has none.

    Raises :class:`~protocol.errors.ProtocolError` when the files are not of one table, or as
    :func:`verify` does.
    """
    genesis = files[0].transcript.genesis
    if any(file.transcript.genesis.table_id != genesis.table_id for file in files):
        raise TranscriptFileError("the transcripts are not all of one table")
    replica = _replayed(files)
    settled = [envelope.hash for envelope in replica.chain]
    leaves_at = tuple(next((seq for seq, envelope in enumerate(file.transcript.envelopes)
                            if seq >= len(settled) or envelope.hash != settled[seq]), None) for file in files)
    return Together(_report(genesis, len(settled), replica, None), leaves_at)


Dispute = tuple[int, int, str, int]


def _open_disputes(session: TableSession, timing: tuple[TimingFork, ...]) -> list[Dispute]:
    """The disputes the replay must judge: all but a ``session.seed-exposed`` one that a timing
    fork justifies (the disputer's seed was revealed on the side that lost its slot)."""
    exposed = {seat for fork in timing for seat in fork.exposed}
    return [d for d in session.disputes if not (d[2] == SEED_EXPOSED and d[1] in exposed)]


def _judged_disputes(session: TableSession, found: list[Violation], disputes: list[Dispute]) -> list[Violation]:
    """A dispute stopped the game; with every seed known, the replay must name a culprit,
    or the seat that disputed did so falsely. With a seed missing (withheld, or the transcript
    stops before it) nothing shows a dispute false: it is left unjudged."""
    if not disputes or not session.finished or session.unproven or any(v.seat is not None for v in found):
        return []
    return [Violation(index, seat, "session.false-dispute", f"disputed envelope {about} ({rule}), but the replay with every seed finds no violation")
            for index, seat, rule, about in disputes]


def _named(found: list[Violation]) -> list[Violation]:
    """Findings that name a seat, if there are any; else all.

    A finding without a seat (a card that opens to no card, seen live) says only that
    someone cheated. With every seed the replay also names who (a stage or key that differs
    from its recomputation), so the unattributed consequences would only list honest seats
    among the suspects.
    """
    named = [violation for violation in found if violation.seat is not None]
    return named or found


def _owed(session: TableSession) -> tuple[Owed, ...]:
    """What the transcript's end leaves due: the due slot, or in a seed round every seed still to come."""
    slot, index = session.slot, len(session.envelopes)
    if slot is None:
        return ()
    if slot.kind == SEED:
        return tuple(Owed(index, seat, SEED) for seat in session.seed_round_seats() if seat >= slot.seat)
    return (Owed(index, slot.seat, slot.kind),)
