"""The table session: drives a game from its genesis over the envelope chain, sans-IO.

The session is a generator-based flow (:meth:`TableSession._flow`) that yields one
:class:`~protocol.session.slots.Slot` per envelope it expects, in an order every honest
node computes identically from the transcript so far. Game requests become rounds:

- every game of a match opens with a ``commit`` from each seat (seed hash and hash-chain tip)
  and closes with a ``seed`` reveal from each seat;
- ``PublicRandom``: one ``random`` reveal per seat;
- ``Shuffle``: one ``deck`` stage per stage of the mental deck's schedule;
- ``Deal`` / ``Reveal``: one ``keys`` message per seat that holds keys the recipients lack;
- ``Decide``: one ``move`` from the deciding seat, carrying the keys (or private-draw faces)
  of the cards the move shows;
- ``PrivateDraw``: no message at all; the drawing seat derives its faces, the verifier later too.

A live session knows its own seat's seeds; the verifier knows every revealed seed. Where a
seed is known the session recomputes what that seat had to send and records a violation
when the envelope differs: the same code checks live and after the game.
"""

from __future__ import annotations

from collections.abc import Generator, Mapping
from functools import partial
from typing import Any

from fairtable.games import registry
from fairtable.games.contract import (
    Chosen,
    CommitHidden,
    Committed,
    Deal,
    DealStarted,
    Dealt,
    Decide,
    Event,
    Finished,
    Forfeit,
    GameError,
    Move,
    NextDeal,
    Opened,
    OpenHidden,
    PrivateDraw,
    PrivateDrawn,
    PublicRandom,
    RandomValue,
    Result,
    Reveal,
    Revealed,
    RuleError,
    Shuffle,
    Shuffled,
    Simultaneous,
)
from fairtable.protocol import codec
from fairtable.protocol.envelope import Envelope
from fairtable.protocol.errors import UsageError
from fairtable.protocol.fair import simultaneous
from fairtable.protocol.fair.errors import FairnessError
from fairtable.protocol.fair.group import Ops
from fairtable.protocol.fair.mental_deck import check_stage, run_stage, stage_body
from fairtable.protocol.fair.public_random import check_reveal, public_below, reveal_body
from fairtable.protocol.fair.seeds import GameRef, Seed
from fairtable.protocol.genesis import SignedGenesis
from fairtable.protocol.hashing import digest
from fairtable.protocol.session.errors import NotYourTurn, Rejected, SetupError, Violation
from fairtable.protocol.session.run import GameRun
from fairtable.protocol.session.slots import ABSENT, CHOICE, COMMIT, DECK, DISPUTE, DRAW, HIDDEN, KEYS, MOVE, OPEN, RANDOM, RESIGN, REVEAL, SEED, Slot
from fairtable.protocol.transcript import Transcript, TranscriptError, check_link

Flow = Generator[Slot, Any, None]


class _Resigned(Exception):
    def __init__(self, seat: int) -> None:
        self.seat = seat


class _Absent(Exception):
    def __init__(self, seat: int) -> None:
        self.seat = seat


class _Disputed(Exception):
    pass


def _check_empty(seat: int, kind: str, body: Any) -> None:
    if body != {}:
        raise FairnessError(seat, "session.malformed", f"a {kind!r} message has an empty body")


def game_seed(secret: bytes, game: int) -> bytes:
    """A seat's seed for game ``game`` of a table, from its per-table secret."""
    return digest("session/seed", codec.encode([secret, game]))


class TableSession:
    """One table as seen by one seat (``seat`` and its ``secret``) or by the verifier (``seeds``).

    ``secret`` is the seat's random per-table secret (its game seeds derive from it).
    ``seeds`` maps ``(game, seat)`` to seeds known in advance; the verifier passes every
    revealed seed, so it knows every face from the first shuffle on.

    ``private`` restores what :meth:`private_value` returned: the seat's own free choices
    that later messages must open (hidden data, simultaneous choices). They are not
    derivable from the seed, so a node persists :meth:`private_value` after each
    :meth:`hidden_body` or :meth:`choice_body`, before sending, and passes it back when it
    restarts.
    """

    def __init__(
        self,
        genesis: SignedGenesis,
        *,
        seat: int | None = None,
        secret: bytes | None = None,
        seeds: Mapping[tuple[int, int], bytes] | None = None,
        private: Any = None,
    ) -> None:
        if (seat is None) != (secret is None):
            raise UsageError("a seat's session needs the seat and its secret; the verifier needs neither")
        self.genesis = genesis
        self.seat = seat
        self.auditing = seat is None
        self._secret = secret
        self._given_seeds = dict(seeds or {})
        self.envelopes: list[Envelope] = []
        self.head = genesis.table_id
        self.seat_count = len(genesis.genesis.seats)
        try:
            self.game = registry.get(genesis.genesis.game)
            self.state = self.game.setup(genesis.genesis.variant, genesis.genesis.options, self.seat_count)
        except GameError as exc:
            raise SetupError(f"the genesis cannot be played: {exc}") from None
        self.result: Result | None = None
        self.violations: list[Violation] = []
        self.absent: set[int] = set()
        self.disputes: list[tuple[int, int, str, int]] = []
        self.ops = Ops()
        self.private: dict[int, dict[str, Any]] = {game: dict(data) for game, data in (private or ())}
        self.run: GameRun  # set by the flow as it starts each game (below)
        self._events: list[Event] = []
        self._flow_gen = self._flow()
        self.slot: Slot | None = next(self._flow_gen)

    # ------------------------------------------------------------------ public API

    @property
    def finished(self) -> bool:
        return self.slot is None

    def receive(self, envelope: Envelope) -> tuple[Event, ...]:
        """Check and accept the next envelope; return the game events it caused.

        Raises :class:`Rejected` (with the violation) and changes nothing when the envelope
        does not continue the chain or breaks the protocol or the rules.
        """
        index = len(self.envelopes)
        try:
            check_link(self.genesis, index, self.head, envelope)
        except TranscriptError as exc:
            raise Rejected(Violation(index, None, "chain.link", exc.reason)) from None
        return self.accept_linked(envelope)

    def private_value(self) -> list:
        """This seat's free choices as a canonical value ``[[game, {key: choice}], ...]``, for persisting."""
        return [[game, data] for game, data in sorted(self.private.items()) if data]

    def transcript(self) -> Transcript:
        """The accepted chain as a :class:`Transcript` (checked again as it is built)."""
        return Transcript(self.genesis, self.envelopes)

    def outgoing(self) -> tuple[str, Any] | None:
        """The ``(kind, body)`` this seat must send now, if its secrets dictate it; else None."""
        slot = self.slot
        if slot is None or slot.seat != self.seat or slot.produce is None:
            return None
        try:
            return slot.kind, slot.produce()
        except FairnessError as exc:
            self._record_input_violation(exc)
            return None

    def awaiting_decision(self) -> bool:
        """True when this seat must choose: a ``move`` (:meth:`move_body`), its hidden data
        (``hidden``, :meth:`hidden_body`) or a simultaneous choice (``choice``, :meth:`choice_body`)."""
        slot = self.slot
        return slot is not None and slot.seat == self.seat and slot.decision

    @property
    def pending(self) -> Any:
        """The game's pending request (what the due decision answers)."""
        return self.game.pending(self.state)

    def hidden_body(self, data: Mapping[str, Any]) -> tuple[str, Any]:
        """Commit this seat's hidden data, after the game's own check of it."""
        _, seat = self._expect_decision(HIDDEN)
        request = self.pending
        if not isinstance(data, Mapping) or any(not isinstance(values, (list, tuple)) for values in data.values()):
            raise Rejected(Violation(len(self.envelopes), seat, "session.malformed", "hidden data is {layer: [one integer per cell]}"))
        data = {layer: tuple(values) for layer, values in data.items()}
        self.game.check_hidden(self.state, seat, data)
        return HIDDEN, self.run.hidden_body(seat, request, data)

    def choice_body(self, choice: Any) -> tuple[str, Any]:
        """Commit this seat's simultaneous choice (revealed automatically once all have committed)."""
        _, seat = self._expect_decision(CHOICE)
        round_id = f"choice-{self.run.choice_rounds - 1}"
        return CHOICE, self.run.choice_body(seat, round_id, codec.decode(codec.encode(choice)))

    @property
    def decision_kind(self) -> str | None:
        """What this seat must decide now: ``move``, ``hidden`` (its hidden data) or ``choice``; else None."""
        slot = self.slot
        return slot.kind if slot is not None and self.awaiting_decision() else None

    def decide(self, decision: Any) -> tuple[str, Any]:
        """The ``(kind, body)`` for whatever decision is due: a move, hidden data or a choice."""
        kind = self.decision_kind
        if kind == HIDDEN:
            return self.hidden_body(decision)
        if kind == CHOICE:
            return self.choice_body(decision)
        return self.move_body(decision)

    def _expect_decision(self, kind: str) -> tuple[Slot, int]:
        """The due slot and this seat, if this seat must decide ``kind`` now."""
        slot, seat = self.slot, self.seat
        if slot is None or seat is None or not self.awaiting_decision() or slot.kind != kind:
            raise NotYourTurn(f"seat {self.seat} is not to send {kind!r} now")
        return slot, seat

    def move_body(self, move: Any) -> tuple[str, Any]:
        """The ``(kind, body)`` of a move by this seat, with the openings of the cards it shows.

        Raises :class:`Rejected` when the move is not legal, before anything is sent.
        """
        slot, seat = self._expect_decision(MOVE)
        move = codec.decode(codec.encode(move))
        body = codec.decode(codec.encode(self.run.move_body(seat, move, self.game.reveals(self.state, move))))
        try:
            slot.check(body)
        except (FairnessError, RuleError) as exc:
            raise Rejected(self._violation(len(self.envelopes), seat, exc, None)) from None
        return MOVE, body

    def resign_body(self) -> tuple[str, Any]:
        slot = self.slot
        if slot is None or slot.seat != self.seat or not slot.resignable:
            raise NotYourTurn("resigning is possible in your own turn during play")
        return RESIGN, {}

    def legal_moves(self) -> tuple[Any, ...]:
        if self.seat is None or not self.awaiting_decision():
            return ()
        return self.game.legal_moves(self.state, self.seat)

    def view(self, seat: int | None = None) -> dict:
        return self.game.view(self.state, self.seat if seat is None else seat)

    # ------------------------------------------------------------------ accepting envelopes

    def accept_linked(self, envelope: Envelope) -> tuple[Event, ...]:
        """:meth:`receive` for an envelope whose chain link was already checked (a loaded transcript)."""
        index = len(self.envelopes)
        slot = self.slot
        if slot is None:
            raise Rejected(Violation(index, envelope.seat, "session.over", "the table is finished; nothing more may be sent", envelope))
        if envelope.kind == ABSENT and envelope.seat != slot.seat:
            return self._absence_claim(index, envelope)
        if envelope.kind == DISPUTE and slot.kind != SEED:
            return self._dispute(index, envelope)
        if envelope.seat != slot.seat:
            raise Rejected(Violation(index, envelope.seat, "session.out-of-turn", f"seat {slot.seat} is to send {slot.kind!r}", envelope))
        resigning = envelope.kind == RESIGN and slot.resignable
        if not resigning and envelope.kind != slot.kind:
            raise Rejected(Violation(index, envelope.seat, "session.wrong-kind", f"expected {slot.kind!r}, got {envelope.kind!r}", envelope))
        self._events = []
        if resigning:
            if envelope.body != {}:
                raise Rejected(Violation(index, envelope.seat, "session.malformed", "a resignation has an empty body", envelope))
            self._append(envelope)
            self._advance(lambda: self._flow_gen.throw(_Resigned(envelope.seat)))
            return tuple(self._events)
        try:
            outcome = slot.check(envelope.body)
        except (FairnessError, RuleError) as exc:
            raise Rejected(self._violation(index, slot.seat, exc, envelope)) from None
        except (TypeError, KeyError, ValueError, IndexError) as exc:
            detail = f"the {slot.kind!r} body could not be read ({type(exc).__name__}: {exc})"
            raise Rejected(Violation(index, slot.seat, "session.malformed", detail, envelope)) from None
        if self.auditing and slot.mismatch_rule and slot.produce is not None and slot.seat in self.run.seeds:
            try:
                expected = codec.encode(slot.produce())
            except FairnessError as exc:
                self._record_input_violation(exc)
            else:
                if expected != codec.encode(envelope.body):
                    detail = f"the {slot.kind!r} message is not what the seat's seed dictates"
                    self.violations.append(Violation(index, slot.seat, slot.mismatch_rule, detail, envelope))
        self._append(envelope)
        self._advance(lambda: self._flow_gen.send(outcome))
        return tuple(self._events)

    def _absence_claim(self, index: int, envelope: Envelope) -> tuple[Event, ...]:
        """Another seat declares the due seat absent: the game ends, the absent seat loses."""
        due = self.slot.seat
        if envelope.body != {"seat": due}:
            detail = f"an absence claim is {{seat: {due}}}, naming the due seat"
            raise Rejected(Violation(index, envelope.seat, "session.malformed", detail, envelope))
        self._events = []
        self._append(envelope)
        self.absent.add(due)
        detail = f"declared absent by seat {envelope.seat} while due to send {self.slot.kind!r}"
        self.violations.append(Violation(index, due, "session.absent", detail, envelope))
        self._advance(lambda: self._flow_gen.throw(_Absent(due)))
        return tuple(self._events)

    def _dispute(self, index: int, envelope: Envelope) -> tuple[Event, ...]:
        """A seat proved that someone cheated without knowing who: the game stops, undecided,
        and every seed is revealed so the verifier names the culprit (or the false accuser)."""
        body = envelope.body
        if not (isinstance(body, dict) and set(body) == {"index", "rule"} and isinstance(body["rule"], str)
                and type(body["index"]) is int and 0 <= body["index"] < index):
            raise Rejected(Violation(index, envelope.seat, "session.malformed", "a dispute is {index, rule} naming an earlier envelope", envelope))
        self._events = []
        self._append(envelope)
        self.disputes.append((index, envelope.seat, body["rule"], body["index"]))
        self._advance(lambda: self._flow_gen.throw(_Disputed()))
        return tuple(self._events)

    def dispute_body(self, violation: Violation) -> tuple[str, Any]:
        """The ``(kind, body)`` stopping the table over ``violation`` (one this session found
        but could not pin on a seat, or could not continue past). Any seat may send it at any
        slot before the seed round."""
        if self.slot is None or self.slot.kind == SEED or self.seat is None:
            raise NotYourTurn("a dispute stops a game still in play")
        return DISPUTE, {"index": violation.index, "rule": violation.rule}

    def absence_claim_body(self) -> tuple[str, Any]:
        """The ``(kind, body)`` declaring the due seat absent (the node decides when: after its grace period)."""
        slot = self.slot
        if slot is None or self.seat is None or slot.seat == self.seat:
            raise NotYourTurn("only another seat can declare the due seat absent")
        return ABSENT, {"seat": slot.seat}

    def _record_input_violation(self, exc: FairnessError) -> None:
        """A message this seat must build on (the previous envelope) proved bad: e.g. a stage
        entry outside the group, found when the next stage multiplies it."""
        previous = self.envelopes[-1]
        evidence = previous if previous.seat == exc.seat else None
        violation = Violation(len(self.envelopes) - 1, exc.seat, exc.rule, exc.detail, evidence, exc.suspects)
        if violation not in self.violations:
            self.violations.append(violation)

    def _append(self, envelope: Envelope) -> None:
        self.envelopes.append(envelope)
        self.head = envelope.hash

    def _advance(self, step) -> None:
        try:
            self.slot = step()
        except StopIteration:
            self.slot = None

    def _violation(self, index: int, seat: int, exc: Exception, envelope: Envelope | None) -> Violation:
        if isinstance(exc, FairnessError):
            return Violation(index, exc.seat, exc.rule, exc.detail, envelope, exc.suspects)
        assert isinstance(exc, RuleError)
        return Violation(index, seat, exc.rule, str(exc), envelope)

    def _apply(self, event: Event) -> None:
        self.state = self.game.apply(self.state, event)
        self._events.append(event)

    # ------------------------------------------------------------------ the flow

    def _flow(self) -> Flow:
        index = 0
        while True:
            self.run = GameRun(GameRef(self.genesis.table_id, index), self.seat_count, self._known_seeds(index), self.envelopes, self.ops,
                                self.private.setdefault(index, {}))
            try:
                yield from self._commit_round(self.run)
                request = yield from self._play(self.run)
            except _Absent as absent:
                request = self._forfeit_absent(absent.seat)
            except _Disputed:
                request = Finished(Result((), "disputed"))
            if isinstance(request, Finished):
                self.result = request.result
            yield from self._seed_round(self.run)
            if isinstance(request, Finished):
                return
            self._apply(DealStarted())
            index += 1

    def _forfeit_absent(self, seat: int) -> Finished:
        """An absent seat can no longer open its cards or reveal its share: the table ends."""
        self._apply(Forfeit(seat, "absent"))
        request = self.game.pending(self.state)
        if isinstance(request, Finished):
            return request
        others = tuple(other for other in range(self.seat_count) if other not in self.absent)
        return Finished(Result(others, "absent"))

    def _known_seeds(self, game: int) -> dict[int, bytes]:
        if self.seat is not None and self._secret is not None:
            return {self.seat: game_seed(self._secret, game)}
        return {seat: seed for (g, seat), seed in self._given_seeds.items() if g == game}

    def _play(self, run: GameRun) -> Generator[Slot, Any, Finished | NextDeal]:
        while True:
            request = self.game.pending(self.state)
            if isinstance(request, (Finished, NextDeal)):
                return request
            try:
                yield from self._resolve(run, request)
            except _Resigned as resigned:
                self._apply(Forfeit(resigned.seat, "resigned"))

    def _resolve(self, run: GameRun, request: Any) -> Flow:
        if isinstance(request, Decide):
            yield from self._decide(run, request)
        elif isinstance(request, PublicRandom):
            yield from self._public_random(run, request)
        elif isinstance(request, Shuffle):
            yield from self._shuffle(run, request)
        elif isinstance(request, Deal):
            faces = yield from self._open_round(run, run.deal_needs(request), [h for _, hs in request.to for h in hs])
            self._apply(Dealt(faces))
        elif isinstance(request, Reveal):
            faces = yield from self._open_round(run, run.reveal_needs(request), list(request.handles))
            run.public_faces.update(faces)
            self._apply(Revealed(faces))
        elif isinstance(request, PrivateDraw):
            yield from self._private_draw(run, request)
        elif isinstance(request, CommitHidden):
            yield from self._commit_hidden(run, request)
        elif isinstance(request, OpenHidden):
            yield from self._open_hidden(run, request)
        elif isinstance(request, Simultaneous):
            yield from self._simultaneous(run, request)
        else:
            raise UsageError(f"the game asked for {request!r}, which is not a request")

    def _commit_round(self, run: GameRun) -> Flow:
        for seat in range(self.seat_count):
            produce = (lambda seat=seat: run.commit_body(seat)) if seat in run.seeds else None
            body = yield Slot(seat, COMMIT, partial(run.check_commit, seat), produce)
            run.adopt_commitment(seat, body)

    def seed_round_seats(self) -> tuple[int, ...]:
        """The seats that reveal a seed when this game ends: every seat that committed, except absent ones."""
        assert self.run is not None
        return tuple(seat for seat in range(self.seat_count) if seat not in self.absent and seat in self.run.commitments)

    def _seed_round(self, run: GameRun) -> Flow:
        for seat in range(self.seat_count):
            if seat not in self.seed_round_seats():
                continue
            # Only the seat's own node can produce its reveal: it opens the seat's free choices.
            produce = (lambda seat=seat: run.seed_body(seat)) if seat in run.seeds and not self.auditing else None
            try:
                seed = yield Slot(seat, SEED, partial(run.check_seed, seat), produce)
            except _Absent:
                continue
            self._record(self._audit_seed(run, seed))

    def _audit_seed(self, run: GameRun, seed: Seed) -> list[FairnessError]:
        """What the openings in a seed reveal prove wrong: against their commitments, and, for
        hidden data the game had not seen in full, against the game's rules."""
        findings, data = run.audit_seed(seed, self.envelopes[-1].body)
        if data is not None:
            try:
                self.game.judge_hidden(self.state, seed.seat, data)
            except RuleError as exc:
                findings.append(FairnessError(seed.seat, exc.rule, str(exc)))
        return findings

    def _public_random(self, run: GameRun, request: PublicRandom) -> Flow:
        run.random_index += 1
        index = run.random_index
        reveals: dict[int, bytes] = {}
        for seat in range(self.seat_count):
            produce = (lambda seat=seat: reveal_body(run.chains[seat], index)) if seat in run.chains else None
            check = lambda body, seat=seat: check_reveal(seat, index, body, run.last_reveal[seat])
            reveals[seat] = yield Slot(seat, RANDOM, check, produce, "public-random.mismatch", resignable=True)
            run.last_reveal[seat] = reveals[seat]
        self._apply(RandomValue(public_below(run.fair, index, reveals, request.bound)))

    def _shuffle(self, run: GameRun, request: Shuffle) -> Flow:
        record = run.new_deck(request)
        deck = record.deck
        entries = deck.initial()
        for stage in deck.stages:
            produce = None
            if stage.seat in run.seeds:
                produce = lambda stage=stage, entries=entries: stage_body(
                    deck, stage.index, run_stage(deck, stage.index, record.keys_of(stage.seat), entries, run.ops))
            check = lambda body, stage=stage: check_stage(deck, stage.index, body)
            entries = yield Slot(stage.seat, DECK, check, produce, "deck.stage-mismatch", resignable=True)
        record.entries = entries
        self._apply(Shuffled(run.open_all(record) if self.auditing else {}))

    def _open_round(self, run: GameRun, needs: Mapping[int, tuple[int, ...]], handles: list[int]) -> Generator[Slot, Any, dict[int, int]]:
        """Each seat in ``needs`` publishes its keys for its handles; then open what this session may see."""
        for seat in sorted(needs):
            wanted = needs[seat]
            produce = (lambda wanted=wanted, seat=seat: run.keys_body(seat, wanted)) if seat in run.seeds else None
            check = lambda body, seat=seat, wanted=wanted: run.check_keys(seat, wanted, body)
            published = yield Slot(seat, KEYS, check, produce, "deck.key-mismatch", resignable=True)
            run.store_keys(seat, published)
        faces, findings = run.open_visible(handles, self.seat)
        self._record(findings)
        return faces

    def _private_draw(self, run: GameRun, request: PrivateDraw) -> Flow:
        """No message, unless the drawer spoke freely since another seat last signed: then the
        next seat signs an empty ``draw`` message, whose signature the draw depends on."""
        source = run.draw_source(request.seat)
        if source is None:
            contributor = (request.seat + 1) % self.seat_count
            yield Slot(contributor, DRAW, partial(_check_empty, contributor, DRAW), lambda: {}, resignable=True)
            source = self.envelopes[-1]
        self._apply(PrivateDrawn(run.private_draw(request, self.seat, source)))

    def _commit_hidden(self, run: GameRun, request: CommitHidden) -> Flow:
        run.begin_hidden(request)
        for seat in request.seats:
            roots = yield Slot(seat, HIDDEN, partial(run.check_hidden, seat, request), decision=True, resignable=True)
            run.adopt_hidden(seat, roots)
        own = {seat: data for seat in request.seats if (data := run.own_hidden(seat)) is not None}
        self._apply(Committed(own))

    def _open_hidden(self, run: GameRun, request: OpenHidden) -> Flow:
        def check(body: Any) -> Any:
            cells = run.check_open_hidden(request, body)
            return self._ruled(Opened(request.seat, request.layer, cells)), cells

        produce = (lambda: run.open_hidden_body(request)) if run.own_hidden(request.seat) is not None else None
        ruled, cells = yield Slot(request.seat, OPEN, check, produce, resignable=True)
        self._adopt(ruled)
        self._record(run.adopt_opened(request, cells, self.envelopes[-1].body))

    def _simultaneous(self, run: GameRun, request: Simultaneous) -> Flow:
        round_id = run.begin_choice()
        for seat in request.seats:
            check = lambda body, seat=seat: simultaneous.check_commit(seat, round_id, body)
            run.adopt_choice(seat, round_id, (yield Slot(seat, CHOICE, check, decision=True, resignable=True)))
        choices: list[Any] = []
        for position, seat in enumerate(request.seats):
            produce = (lambda seat=seat: run.reveal_choice_body(seat, round_id)) if f"{round_id}-{seat}" in run.private else None

            def check(body: Any, seat: int = seat, last: bool = position == len(request.seats) - 1) -> Any:
                choice = run.check_choice_reveal(seat, round_id, body)
                legal = self.game.legal_moves(self.state, seat)
                if legal and choice not in legal:
                    raise RuleError(f"{self.game.id}.choice", f"seat {seat} chose {choice!r}, not one of its legal choices")
                return self._ruled(Chosen((*choices, choice))) if last else choice

            outcome = yield Slot(seat, REVEAL, check, produce, resignable=True)
            self._record(run.adopt_reveal(seat, round_id, self.envelopes[-1].body))
            if position < len(request.seats) - 1:
                choices.append(outcome)
            else:
                self._adopt(outcome)

    def _decide(self, run: GameRun, request: Decide) -> Flow:
        def check(body: Any) -> Any:
            move, faces, repeats = run.check_move(request.seat, body, lambda move: self.game.reveals(self.state, move))
            return self._ruled(Move(request.seat, move, faces)), repeats

        (event, state), repeats = yield Slot(request.seat, MOVE, check, decision=True, resignable=True)
        run.public_faces.update(event.faces)
        self._adopt((event, state))
        self._record(repeats)

    def _record(self, findings: list[FairnessError]) -> None:
        """Record what the envelope just accepted proved without being refused for it: a card
        that repeats one seen before (no seat named yet), or a check only the seat's revealed
        seed makes possible. The envelope is the evidence."""
        envelope = self.envelopes[-1]
        for finding in findings:
            evidence = envelope if finding.seat in (None, envelope.seat) else None
            self.violations.append(Violation(len(self.envelopes) - 1, finding.seat, finding.rule, finding.detail, evidence, finding.suspects))

    def _ruled(self, event: Event) -> tuple[Event, Any]:
        """The state after an event an envelope carries, computed while the envelope is checked,
        so a rule it breaks rejects the envelope (and names its seat) instead of surfacing later."""
        return event, self.game.apply(self.state, event)

    def _adopt(self, ruled: tuple[Event, Any]) -> None:
        event, self.state = ruled
        self._events.append(event)
