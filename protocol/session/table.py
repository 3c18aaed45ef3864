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
- ``PrivateDraw``: no message at all; the drawing seat derives its faces, the verifier later too;
- ``ShuffleOwned``: the owner's first ``deck`` stage is its decision (its composition), then
  the stages of a shuffle; the owner reveals the composition after play (``composition``);
- ``Show``: a ``blind`` from each recipient, then an ``unblind`` from each holder;
- ``CommitHidden`` / ``OpenHidden`` / ``Simultaneous``: ``hidden``, ``open``, ``choice`` + ``reveal``;
- ``OpenSums``: a ``pair`` key from each of its seats that has none out yet, then ``shares``.

A seat declared absent forfeits (the game decides whether it goes on); a game that then
still needs that seat ends with the default result over its teams.

A live session knows its own seat's seeds; the verifier knows every revealed seed. Where a
seed is known the session recomputes what that seat had to send and records a violation
when the envelope differs: the same code checks live and after the game.
"""

from __future__ import annotations

from collections.abc import Generator, Mapping
from functools import partial
from typing import Any

from fairtable.games import registry
from fairtable.games.contract import ABSENT as ABSENT_REASON
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
    OpenSums,
    PrivateDraw,
    PrivateDrawn,
    PublicRandom,
    RandomValue,
    Result,
    Reveal,
    Revealed,
    RuleError,
    Show,
    Shown,
    Shuffle,
    Shuffled,
    ShuffleOwned,
    Simultaneous,
    Summed,
)
from fairtable.protocol import codec
from fairtable.protocol.envelope import Envelope
from fairtable.protocol.errors import UsageError
from fairtable.protocol.fair import masked_sum, simultaneous
from fairtable.protocol.fair.errors import FairnessError
from fairtable.protocol.fair.group import Ops
from fairtable.protocol.fair.mental_deck import Stage, check_stage, run_stage, stage_body
from fairtable.protocol.fair.public_random import check_reveal, public_below, reveal_body
from fairtable.protocol.fair.seeds import GameRef, Seed
from fairtable.protocol.genesis import SignedGenesis
from fairtable.protocol.hashing import digest
from fairtable.protocol.session import owned
from fairtable.protocol.session.errors import NotYourTurn, Rejected, SetupError, Violation
from fairtable.protocol.session.recent import Recent
from fairtable.protocol.session.run import DeckRecord, GameRun
from fairtable.protocol.session.showing import ShowRound
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
    Slot,
)
from fairtable.protocol.session.summing import SumRound
from fairtable.protocol.transcript import Transcript, TranscriptError, check_link

Flow = Generator[Slot, Any, None]

WITHHELD_REASON = "forfeit: withheld"
"""The result's reason when a seat withheld its composition or seed after the game (spec/session.md §5)."""


class _Resigned(Exception):
    def __init__(self, seat: int) -> None:
        self.seat = seat


class _Absent(Exception):
    def __init__(self, seat: int) -> None:
        self.seat = seat


class _Disputed(Exception):
    pass


class _Stalled(Exception):
    """The game asked an absent seat for a message: it cannot go on."""


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
    revealed seed, so it knows every face from the first shuffle on, and ``compositions``,
    every owned deck's revealed composition by ``(game, deck name)``.

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
        self.private: dict[int, dict[str, Any]] = {game: dict(data) for game, data in (private or ())}
        self.run: GameRun  # set by the flow as it starts each game
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
        """This seat's free choices as a canonical value ``[[game, {key: choice}], ...]``, for persisting:
        a copy, so that a value taken before a choice compares unequal to one taken after it."""
        return [[game, dict(data)] for game, data in sorted(self.private.items()) if data]

    def transcript(self) -> Transcript:
        """The accepted chain as a :class:`Transcript`: its links checked again as it is built, not
        its signatures (every envelope's was checked before the session accepted it)."""
        return Transcript(self.genesis, self.envelopes, signed=False)

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
        (``hidden``, :meth:`hidden_body`), a simultaneous choice (``choice``, :meth:`choice_body`)
        or its owned deck's composition (``deck``, :meth:`composition_body`)."""
        slot = self.slot
        return slot is not None and slot.seat == self.seat and slot.decision

    @property
    def pending(self) -> Any:
        """The game's pending request (what the due decision answers)."""
        return self.game.pending(self.state)

    def hidden_body(self, data: Mapping[str, Any]) -> tuple[str, Any]:
        """Commit this seat's hidden data, after the game's own check of it."""
        seat, _ = self._expect_decision(HIDDEN)
        request = self.pending
        if not isinstance(data, Mapping) or any(not isinstance(values, (list, tuple)) for values in data.values()):
            raise Rejected(Violation(len(self.envelopes), seat, "session.malformed", "hidden data is {layer: [one integer per cell]}"))
        data = {layer: tuple(values) for layer, values in data.items()}
        self.game.check_hidden(self.state, seat, data)
        return HIDDEN, self.run.hidden_body(seat, request, data)

    def choice_body(self, choice: Any, default: bool = False) -> tuple[str, Any]:
        """Commit this seat's simultaneous choice (revealed automatically once all have committed);
        ``default``: the seat's timer ran out and ``choice`` is the rules' default."""
        seat, _ = self._expect_decision(CHOICE)
        round_id = f"choice-{self.run.choice_rounds - 1}"
        choice = codec.decode(codec.encode(choice))
        if not default:
            self.game.check_choice(self.state, seat, choice)
        body = self.run.choice_body(seat, round_id, choice)
        return CHOICE, {**body, "default": True} if default else body

    def default_choice_body(self) -> tuple[str, Any]:
        """What this seat's node sends when its timer runs out on a timed simultaneous choice:
        a commitment to the game's :meth:`~games.contract.Game.default_move`, marked as the default."""
        seat, _ = self._expect_decision(CHOICE)
        if not self.pending.timed:
            raise NotYourTurn("this simultaneous choice has no timer, so no default")
        return self.choice_body(self.game.default_move(self.state, seat), default=True)

    def composition_body(self, cards: Any) -> tuple[str, Any]:
        """The first stage of this seat's owned deck holding ``cards``, after the deck's and the
        game's checks of the composition (kept to reveal it after the game)."""
        seat, _ = self._expect_decision(DECK)
        if not isinstance(cards, (list, tuple)):
            raise Rejected(Violation(len(self.envelopes), seat, "session.malformed", "a composition is a list of card ids"))
        record = self.run.decks[-1]
        try:
            chosen = record.deck.check_composition(cards)
        except ValueError as exc:
            raise Rejected(Violation(len(self.envelopes), seat, "deck.bad-composition", str(exc))) from None
        self.game.check_composition(self.state, seat, chosen)
        return DECK, owned.choose(self.run, record, chosen)

    @property
    def decision_kind(self) -> str | None:
        """What this seat must decide now: ``move``, ``hidden`` (its hidden data), ``choice``
        or ``deck`` (its owned deck's composition); else None."""
        slot = self.slot
        return slot.kind if slot is not None and self.awaiting_decision() else None

    def decide(self, decision: Any) -> tuple[str, Any]:
        """The ``(kind, body)`` for whatever decision is due: a move, hidden data, a choice or a composition."""
        kind = self.decision_kind
        if kind == HIDDEN:
            return self.hidden_body(decision)
        if kind == CHOICE:
            return self.choice_body(decision)
        if kind == DECK:
            return self.composition_body(decision)
        return self.move_body(decision)

    def _expect_decision(self, kind: str) -> tuple[int, Slot]:
        """This seat and its due slot, if the slot is its decision of ``kind``."""
        slot = self.slot
        if self.seat is None or slot is None or not self.awaiting_decision() or slot.kind != kind:
            raise NotYourTurn(f"seat {self.seat} is not to send {kind!r} now")
        return self.seat, slot

    def move_body(self, move: Any) -> tuple[str, Any]:
        """The ``(kind, body)`` of a move by this seat, with the openings of the cards it shows.

        Raises :class:`Rejected` when the move is not legal, before anything is sent.
        """
        seat, slot = self._expect_decision(MOVE)
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
        if envelope.kind == DISPUTE and self.disputable:
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
        """Another seat declares the due seat absent: the due seat forfeits on the claimant's word.

        This is no finding against the absent seat: whether it was really silent is a matter of
        clocks, which a transcript does not hold. It is recorded in :attr:`claims`; the claim is
        void if the claimed seat's own envelope for the slot turns up (``replica.py``)."""
        assert self.slot is not None
        due = self.slot.seat
        if envelope.seat in self.absent:
            raise Rejected(Violation(index, envelope.seat, "session.out-of-turn", "an absent seat cannot declare others absent", envelope))
        if envelope.body != {"seat": due}:
            detail = f"an absence claim is {{seat: {due}}}, naming the due seat"
            raise Rejected(Violation(index, envelope.seat, "session.malformed", detail, envelope))
        self._events = []
        self._append(envelope)
        self.absent.add(due)
        self.claims.append((index, envelope.seat, due))
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
        slot while :attr:`disputable`."""
        if not self.disputable or self.seat is None:
            raise NotYourTurn("a dispute stops a game still in play")
        return DISPUTE, {"index": violation.index, "rule": violation.rule}

    @property
    def disputable(self) -> bool:
        """A dispute stops a game still in play: at any slot before its composition and seed
        rounds. After play the game has its result and every seed is revealed anyway."""
        return self.slot is not None and self.slot.kind not in (COMPOSITION, SEED)

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
        violation = Violation(len(self.envelopes) - 1, exc.seat, exc.rule, exc.detail, evidence, self._suspected(exc.suspects))
        if violation not in self.violations:
            self.violations.append(violation)

    def _append(self, envelope: Envelope) -> None:
        self.envelopes.append(envelope)
        self.head = envelope.hash

    def _advance(self, step) -> None:
        try:
            slot = step()
            while slot.seat in self.absent:
                slot = self._flow_gen.throw(_Stalled())
            self.slot = slot
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
            self._forget_past()
            self.run = GameRun(GameRef(self.genesis.table_id, index), self.seat_count, self._known_seeds(index), self.envelopes, self.ops,
                                self.private.setdefault(index, {}),
                                {name: cards for (g, name), cards in self._given_compositions.items() if g == index})
            try:
                yield from self._commit_round(self.run)
                request = yield from self._play(self.run)
            except _Disputed:
                request = Finished(Result((), "disputed"))
            deal = request.result if isinstance(request, NextDeal) else request.deal
            if deal is not None:
                self.deal_results.append(deal)
            if isinstance(request, Finished):
                self.result = request.result
            owing = set(self.seed_round_seats())
            yield from self._composition_round(self.run)
            yield from self._seed_round(self.run)
            self.unproven.extend((index, seat) for seat in self._unknown_seeds(self.run))
            # Declared absent in the composition or seed round: it withheld what the game
            # requires after its end, and forfeits the table whatever the result (spec §5).
            withheld = tuple(sorted(owing & self.absent))
            if withheld:
                scores = request.result.scores if isinstance(request, Finished) else ()
                self.result = Result.forfeit(self.teams, withheld, WITHHELD_REASON, scores)
                return
            if isinstance(request, Finished):
                return
            self._apply(DealStarted())
            index += 1

    def _forget_past(self) -> None:
        """As a game starts, forget what came before it, except what :meth:`GameRun.draw_source`
        may still read: the last envelope, the run of envelopes its seat sent before it, and the
        envelope before that run (a scan back stops there at the latest, whichever seat draws).
        Everything else a check reads belongs to the game being played."""
        held = self.envelopes.held()
        if not self.forgetting or not held:
            return
        start = len(held) - 1
        while start > 0 and held[start].seat == held[-1].seat:
            start -= 1
        self.envelopes.forget_before(self.envelopes.first + start)

    def _forfeit(self, seat: int, reason: str) -> None:
        """Tell the game ``seat`` left, unless it is over or refuses (the seat had left already)."""
        if isinstance(self.game.pending(self.state), Finished):
            return
        try:
            self._apply(Forfeit(seat, reason))
        except RuleError:
            return

    def _unknown_seeds(self, run: GameRun) -> tuple[int, ...]:
        """The verifier's view: seats that committed a seed in ``run``'s game it does not know
        (none for a live session, which knows only its own seed and judges nothing by it)."""
        if not self.auditing:
            return ()
        return tuple(seat for seat in sorted(run.commitments) if seat not in run.seeds)

    def _suspected(self, suspects: tuple[int, ...]) -> tuple[int, ...]:
        """The suspects of a finding no envelope pins on a seat, as the verifier narrows them: it
        recomputed every message of the seats whose seeds it knows, so when some seeds are missing
        the culprit is among their seats, and an honest seat that revealed its seed is no suspect."""
        unknown = self._unknown_seeds(self.run)
        return tuple(seat for seat in suspects if seat in unknown) or suspects

    def _known_seeds(self, game: int) -> dict[int, bytes]:
        if self.seat is not None and self._secret is not None:
            return {self.seat: game_seed(self._secret, game)}
        return {seat: seed for (g, seat), seed in self._given_seeds.items() if g == game}

    def _play(self, run: GameRun) -> Generator[Slot, Any, Finished | NextDeal]:
        """The game's requests until a deal or the game ends. A round interrupted by a
        resignation or an absence is dropped (its messages stay, without effect) and the game,
        told the forfeit, says what comes next; a request only an absent seat can answer ends
        the game with the default result over the teams."""
        while True:
            request = self.game.pending(self.state)
            if isinstance(request, (Finished, NextDeal)):
                return request
            try:
                yield from self._resolve(run, request)
            except _Resigned as resigned:
                self._apply(Forfeit(resigned.seat, "resigned"))
            except _Absent as absent:
                self._forfeit(absent.seat, ABSENT_REASON)
            except _Stalled:
                return Finished(Result.forfeit(self.teams, tuple(sorted(self.absent)), ABSENT_REASON))

    def _resolve(self, run: GameRun, request: Any) -> Flow:
        if isinstance(request, Decide):
            yield from self._decide(run, request)
        elif isinstance(request, PublicRandom):
            yield from self._public_random(run, request)
        elif isinstance(request, (Shuffle, ShuffleOwned)):
            yield from self._shuffle(run, request)
        elif isinstance(request, Deal):
            faces = yield from self._open_round(run, run.deal_needs(request), [h for _, hs in request.to for h in hs])
            self._apply(Dealt(faces))
        elif isinstance(request, Reveal):
            faces = yield from self._open_round(run, run.reveal_needs(request), list(request.handles), public=True)
            run.public_faces.update(faces)
            self._apply(Revealed(faces))
        elif isinstance(request, Show):
            yield from self._show(run, request)
        elif isinstance(request, PrivateDraw):
            yield from self._private_draw(run, request)
        elif isinstance(request, CommitHidden):
            yield from self._commit_hidden(run, request)
        elif isinstance(request, OpenHidden):
            yield from self._open_hidden(run, request)
        elif isinstance(request, OpenSums):
            yield from self._open_sums(run, request)
        elif isinstance(request, Simultaneous):
            yield from self._simultaneous(run, request)
        else:
            raise UsageError(f"the game asked for {request!r}, which is not a request")

    def _commit_round(self, run: GameRun) -> Flow:
        """Every present seat commits; a seat declared absent here forfeits and is skipped."""
        for seat in range(self.seat_count):
            if seat in self.absent:
                continue
            produce = (lambda seat=seat: run.commit_body(seat)) if seat in run.seeds else None
            try:
                body = yield Slot(seat, COMMIT, partial(run.check_commit, seat), produce)
            except _Absent:
                self._forfeit(seat, ABSENT_REASON)
                continue
            run.adopt_commitment(seat, body)

    def _composition_round(self, run: GameRun) -> Flow:
        """After play: each owned deck's owner (unless absent) reveals its composition, deck by deck."""
        for record in run.decks:
            owner = record.deck.owner
            if owner is None or record.commitment is None or owner in self.absent:
                continue
            produce = (lambda record=record: owned.reveal_body(run, record)) if owned.known_composition(run, record) is not None else None
            try:
                yield Slot(owner, COMPOSITION, partial(self._check_composition, run, record), produce)
            except _Absent:
                continue

    def _check_composition(self, run: GameRun, record: DeckRecord, body: Any) -> None:
        """A revealed composition: well formed, in the catalogue, holding every card seen from
        the deck, and a deck the game allows; where the owner's seed is known, opening the commitment."""
        cards = owned.check_reveal(record, body)
        assert record.deck.owner is not None
        self.game.check_composition(self.state, record.deck.owner, cards)
        problem = owned.commitment_violation(run, record, cards)
        if problem is not None:
            raise problem

    def seed_round_seats(self) -> tuple[int, ...]:
        """The seats that reveal a seed when this game ends: every seat that committed, except absent ones."""
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
        hidden data the game had not seen in full, against the game's rules and the seat's
        masked-sum shares."""
        findings, data = run.audit_seed(seed, self.envelopes[-1].body)
        if data is not None:
            try:
                self.game.judge_hidden(self.state, seed.seat, data)
            except RuleError as exc:
                findings.append(FairnessError(seed.seat, exc.rule, str(exc)))
            for layer, values in data.items():
                self._check_terms(seed.seat, layer, dict(enumerate(values)))
        return findings

    def _public_random(self, run: GameRun, request: PublicRandom) -> Flow:
        """Every present seat reveals; one declared absent meanwhile is left out of the value
        (it cannot be waited for) and forfeits once the value is known. Not resignable: a
        round restarted after some reveals would leave the seats' chains out of step."""
        run.random_index += 1
        index = run.random_index
        reveals: dict[int, bytes] = {}
        left = []
        for seat in range(self.seat_count):
            if seat in self.absent:
                continue
            produce = (lambda seat=seat: reveal_body(run.chains[seat], index)) if seat in run.chains else None
            check = lambda body, seat=seat: check_reveal(seat, index, body, run.last_reveal[seat])
            try:
                reveals[seat] = yield Slot(seat, RANDOM, check, produce, "public-random.mismatch")
            except _Absent:
                left.append(seat)
                continue
            run.last_reveal[seat] = reveals[seat]
        self._apply(RandomValue(public_below(run.fair, index, reveals, request.bound)))
        for seat in left:
            self._forfeit(seat, ABSENT_REASON)

    def _shuffle(self, run: GameRun, request: Shuffle | ShuffleOwned) -> Flow:
        record = run.new_deck(request)
        deck = record.deck
        entries = deck.initial() if deck.owner is None else ()
        # Stage outputs this process computed: a received stage equal to one is made of points it
        # multiplied itself, so the next multiplication (or the opening) need not check them again.
        ours: dict[int, tuple[bytes, ...]] = {}

        def computed(stage: Stage, entries: tuple[bytes, ...], own: bool) -> dict:
            ours[stage.index] = run_stage(deck, stage.index, record.keys_of(stage.seat), entries, run.ops, recomputed=own)
            return stage_body(deck, stage.index, ours[stage.index])

        own = deck.owner is None
        for stage in deck.stages:
            if stage.index == 0 and deck.owner is not None:
                entries = yield from self._owned_first_stage(run, record)
                continue
            produce = partial(computed, stage, entries, own) if stage.seat in run.seeds else None
            check = lambda body, stage=stage: check_stage(deck, stage.index, body)
            entries = yield Slot(stage.seat, DECK, check, produce, "deck.stage-mismatch", resignable=True)
            own = ours.get(stage.index) == entries
        record.entries = entries
        faces = run.open_all(record, checked=not own) if self.auditing else {}
        composition: tuple[int, ...] = ()
        if deck.owner is not None and (self.auditing or deck.owner == self.seat):
            composition = tuple(sorted(faces.values())) if self.auditing else owned.known_composition(run, record) or ()
        self._apply(Shuffled(faces, composition))

    def _owned_first_stage(self, run: GameRun, record: DeckRecord) -> Generator[Slot, Any, tuple[bytes, ...]]:
        """The owner's first stage: its decision (the composition), recomputed by the verifier
        from the revealed composition."""
        owner = record.deck.owner
        assert owner is not None
        composition = owned.known_composition(run, record)
        produce = (lambda: owned.first_stage(run, record, composition)) if composition is not None and owner in run.seeds else None
        entries, record.commitment = yield Slot(owner, DECK, lambda body: owned.check_first_stage(record, body), produce,
                                                "deck.stage-mismatch", decision=produce is None, resignable=True)
        return entries

    def _show(self, run: GameRun, request: Show) -> Flow:
        plan = ShowRound.plan(run, request)
        for recipient in sorted(plan.wanted):
            produce = (lambda recipient=recipient: plan.blind_body(recipient)) if recipient in run.seeds else None
            check = partial(plan.check_blind, recipient)
            plan.adopt_blind(recipient, (yield Slot(recipient, BLIND, check, produce, "deck.blind-mismatch", resignable=True)))
        for holder in sorted(plan.holders):
            produce = (lambda holder=holder: plan.unblind_body(holder)) if holder in run.seeds else None
            plan.adopt_unblind((yield Slot(holder, UNBLIND, partial(plan.check_unblind, holder), produce, "deck.unblind-mismatch", resignable=True)))
        faces, dispute = plan.open(self.seat)
        self._record([] if dispute is None else [dispute])
        self._apply(Shown(faces))

    def _open_round(self, run: GameRun, needs: Mapping[int, tuple[int, ...]], handles: list[int],
                    public: bool = False) -> Generator[Slot, Any, dict[int, int]]:
        """Each seat in ``needs`` publishes its keys for its handles; then open what this session may see."""
        for seat in sorted(needs):
            wanted = needs[seat]
            produce = (lambda wanted=wanted, seat=seat: run.keys_body(seat, wanted)) if seat in run.seeds else None
            check = lambda body, seat=seat, wanted=wanted: run.check_keys(seat, wanted, body)
            published = yield Slot(seat, KEYS, check, produce, "deck.key-mismatch", resignable=True)
            run.store_keys(seat, published)
        faces, findings = run.open_visible(handles, self.seat, public)
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

    def _open_hidden(self, run: GameRun, request: OpenHidden) -> Flow:
        def check(body: Any) -> Any:
            cells = run.check_open_hidden(request, body)
            return self._ruled(Opened(request.seat, request.layer, cells)), cells

        produce = (lambda: run.open_hidden_body(request)) if run.own_hidden(request.seat) is not None else None
        ruled, cells = yield Slot(request.seat, OPEN, check, produce, resignable=True)
        self._adopt(ruled)
        self._record(run.adopt_opened(request, cells, self.envelopes[-1].body))
        self._check_terms(request.seat, request.layer, cells)

    def _open_sums(self, run: GameRun, request: OpenSums) -> Flow:
        """Pair keys from the round's seats that have published none yet in this game, then each
        seat's shares; a share this session can decode to a value out of range is recorded
        against its seat (the other seat of a two-seat sum sees it live, the verifier always)."""
        plan = SumRound.plan(run.sums, request)
        for seat in plan.seats:
            if seat in run.sums.keys:
                continue
            produce = (lambda seat=seat: masked_sum.pair_key_body(run.seeds[seat])) if seat in run.seeds else None
            key = yield Slot(seat, PAIR, partial(masked_sum.check_pair_key, seat), produce, "sum.key-mismatch", resignable=True)
            run.sums.keys[seat] = key
        for seat in plan.seats:
            produce = (lambda seat=seat: plan.shares_body(seat)) if plan.can_share(seat) else None
            shares = yield Slot(seat, SHARES, partial(plan.check, seat), produce, resignable=True)
            self._record(plan.adopt(seat, shares, len(self.envelopes) - 1, self.seat))
        self._apply(Summed(plan.totals()))

    def _check_terms(self, seat: int, layer: str, cells: Mapping[int, int]) -> None:
        """Cells opened (or revealed with the seed) that took part in masked sums: each share
        must have claimed the value now proven (``summing``), named at the share's envelope."""
        for index, found in self.run.sums.opened(seat, layer, dict(cells)):
            self._record([found], index)

    def _commit_hidden(self, run: GameRun, request: CommitHidden) -> Flow:
        run.begin_hidden(request)
        for seat in request.seats:
            roots = yield Slot(seat, HIDDEN, partial(run.check_hidden, seat, request), decision=True, resignable=True)
            run.adopt_hidden(seat, roots)
        own = {seat: {layer: data[layer] for layer in request.layers} for seat in request.seats if (data := run.own_hidden(seat)) is not None}
        self._apply(Committed(own))

    def _simultaneous(self, run: GameRun, request: Simultaneous) -> Flow:
        """Commit round, then reveal round. A commitment marked ``default`` binds the seat to the
        rules' default, checked at its reveal. A seat declared absent before its reveal is left
        out (None): the choices already revealed stand, and the seat forfeits after them."""
        round_id = run.begin_choice()
        commitments: dict[int, bytes] = {}
        defaults: list[int] = []
        for seat in request.seats:
            check = lambda body, seat=seat: self._check_choice_commit(seat, round_id, request, body)
            commitments[seat], default = yield Slot(seat, CHOICE, check, decision=True, resignable=True)
            run.adopt_choice(seat, round_id, commitments[seat])
            if default:
                defaults.append(seat)
        choices: list[Any] = []
        absent: list[int] = []
        for position, seat in enumerate(request.seats):
            last = position == len(request.seats) - 1
            produce = (lambda seat=seat: run.reveal_choice_body(seat, round_id)) if f"{round_id}-{seat}" in run.private else None

            def check(body: Any, seat: int = seat, last: bool = last) -> Any:
                choice = run.check_choice_reveal(seat, round_id, body)
                self._check_choice(seat, choice, seat in defaults)
                return self._ruled(Chosen((*choices, choice), tuple(defaults), tuple(absent))) if last else choice

            try:
                outcome = yield Slot(seat, REVEAL, check, produce)
            except _Absent:
                choices.append(None)
                absent.append(seat)
                if last:
                    self._apply(Chosen(tuple(choices), tuple(defaults), tuple(absent)))
                continue
            self._record(run.adopt_reveal(seat, round_id, self.envelopes[-1].body))
            if last:
                self._adopt(outcome)
            else:
                choices.append(outcome)
        for seat in absent:
            self._forfeit(seat, ABSENT_REASON)

    def _check_choice_commit(self, seat: int, round_id: str, request: Simultaneous, body: Any) -> tuple[bytes, bool]:
        """The commitment, and whether it is marked as the timer's default."""
        default = isinstance(body, dict) and "default" in body
        if default:
            if body["default"] is not True or not request.timed:
                raise FairnessError(seat, "choice.malformed", "only a timed choice may be marked, with default: true")
            body = {key: value for key, value in body.items() if key != "default"}
        return simultaneous.check_commit(seat, round_id, body), default

    def _check_choice(self, seat: int, choice: Any, default: bool) -> None:
        """A free choice must be legal; a default must be the rules' default, where this state
        can tell (the verifier always can)."""
        if not default:
            self.game.check_choice(self.state, seat, choice)
            return
        try:
            expected = codec.decode(codec.encode(self.game.default_move(self.state, seat)))
        except GameError:
            return
        if codec.encode(choice) != codec.encode(expected):
            raise FairnessError(seat, "choice.not-default", f"seat {seat} marked {choice!r} as its default, which is {expected!r}")

    def _decide(self, run: GameRun, request: Decide) -> Flow:
        def check(body: Any) -> Any:
            move, faces, repeats = run.check_move(request.seat, body, lambda move: self.game.reveals(self.state, move))
            return self._ruled(Move(request.seat, move, faces)), repeats

        (event, state), repeats = yield Slot(request.seat, MOVE, check, decision=True, resignable=True)
        run.public_faces.update(event.faces)
        self._adopt((event, state))
        self._record(repeats)

    def _record(self, findings: list[FairnessError], index: int | None = None) -> None:
        """Record what envelope ``index`` (default: the one just accepted) proved without being
        refused for it: a card that repeats one seen before (no seat named yet), a check only the
        seat's revealed seed makes possible, a share a later opening shows false. The envelope is
        the evidence."""
        index = len(self.envelopes) - 1 if index is None else index
        envelope = self.envelopes[index]
        for finding in findings:
            evidence = envelope if finding.seat in (None, envelope.seat) else None
            violation = Violation(index, finding.seat, finding.rule, finding.detail, evidence, self._suspected(finding.suspects))
            if violation not in self.violations:
                self.violations.append(violation)

    def _ruled(self, event: Event) -> tuple[Event, Any]:
        """The state after an event an envelope carries, computed while the envelope is checked,
        so a rule it breaks rejects the envelope (and names its seat) instead of surfacing later."""
        return event, self.game.apply(self.state, event)

    def _adopt(self, ruled: tuple[Event, Any]) -> None:
        event, self.state = ruled
        self._events.append(event)
