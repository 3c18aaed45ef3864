"""What may come next: the session's flow, one round of slots per game request.

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

from collections.abc import Callable, Generator, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

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
from fairtable.games.requests import check_covers
from fairtable.protocol import codec
from fairtable.protocol.errors import UsageError
from fairtable.protocol.fair import masked_sum, simultaneous
from fairtable.protocol.fair.errors import FairnessError
from fairtable.protocol.fair.mental_deck import Stage, check_stage, run_stage, stage_body
from fairtable.protocol.fair.public_random import check_reveal, public_below, reveal_body
from fairtable.protocol.fair.seeds import GameRef, Seed
from fairtable.protocol.session import owned
from fairtable.protocol.session.errors import Violation
from fairtable.protocol.session.flow_types import Flow
from fairtable.protocol.session.run import DeckRecord, GameRun
from fairtable.protocol.session.showing import ShowRound
from fairtable.protocol.session.slots import (
    BLIND,
    CHOICE,
    COMMIT,
    COMPOSITION,
    DECK,
    DRAW,
    HIDDEN,
    KEYS,
    MOVE,
    OPEN,
    PAIR,
    RANDOM,
    REVEAL,
    SEED,
    SHARES,
    UNBLIND,
    Slot,
)
from fairtable.protocol.session.state import SessionState, _Absent, _Disputed, _Resigned, _Stalled, game_seed
from fairtable.protocol.session.summing import SumRound

WITHHELD_REASON = "forfeit: withheld"
"""The result's reason when a seat withheld its composition or seed after the game (spec/session.md §5)."""


def _check_empty(seat: int, kind: str, body: Any) -> None:
    if body != {}:
        raise FairnessError(seat, "session.malformed", f"a {kind!r} message has an empty body")


class SessionFlow(SessionState):
    """The flow: every slot in the order every honest node computes from the transcript so far."""

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
        """The round that fulfils ``request``, as :data:`FULFIL` says."""
        fulfilment = FULFIL.get(type(request))
        if fulfilment is None:
            raise UsageError(f"the game asked for {request!r}, which is not a request")
        yield from fulfilment.round(self, run, request)

    def _deal(self, run: GameRun, request: Deal) -> Flow:
        faces = yield from self._open_round(run, run.deal_needs(request), [h for _, hs in request.to for h in hs])
        self._apply(Dealt(faces))

    def _reveal(self, run: GameRun, request: Reveal) -> Flow:
        faces = yield from self._open_round(run, run.reveal_needs(request), list(request.handles), public=True)
        run.public_faces.update(faces)
        self._apply(Revealed(faces))

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
            move, faces, repeats = run.check_move(request.seat, body, partial(self.game.reveals, self.state))
            return self._ruled(Move(request.seat, move, faces)), repeats

        (event, state), repeats = yield Slot(request.seat, MOVE, check, decision=True, resignable=True)
        run.public_faces.update(event.faces)
        self._adopt((event, state))
        self._record(repeats)

    def _forfeit(self, seat: int, reason: str) -> None:
        """Tell the game ``seat`` left, unless it is over or refuses (the seat had left already)."""
        if isinstance(self.game.pending(self.state), Finished):
            return
        try:
            self._apply(Forfeit(seat, reason))
        except RuleError:
            return

    def _apply(self, event: Event) -> None:
        self.state = self.game.apply(self.state, event)
        self._events.append(event)

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


@dataclass(frozen=True)
class Fulfilment:
    """How the session fulfils one request kind of ``games.requests.REQUESTS``: the round of
    slots that answers it (``round(flow, run, request)``, which applies the answering event)
    and the message kinds that round's envelopes carry, in order (``spec/session.md``)."""

    round: Callable[[Any, GameRun, Any], Flow]
    messages: tuple[str, ...]


FULFIL: Mapping[type, Fulfilment] = {
    Decide: Fulfilment(SessionFlow._decide, (MOVE,)),
    Shuffle: Fulfilment(SessionFlow._shuffle, (DECK,)),
    ShuffleOwned: Fulfilment(SessionFlow._shuffle, (DECK,)),
    Deal: Fulfilment(SessionFlow._deal, (KEYS,)),
    Show: Fulfilment(SessionFlow._show, (BLIND, UNBLIND)),
    Reveal: Fulfilment(SessionFlow._reveal, (KEYS,)),
    PublicRandom: Fulfilment(SessionFlow._public_random, (RANDOM,)),
    PrivateDraw: Fulfilment(SessionFlow._private_draw, (DRAW,)),
    CommitHidden: Fulfilment(SessionFlow._commit_hidden, (HIDDEN,)),
    OpenHidden: Fulfilment(SessionFlow._open_hidden, (OPEN,)),
    OpenSums: Fulfilment(SessionFlow._open_sums, (PAIR, SHARES)),
    Simultaneous: Fulfilment(SessionFlow._simultaneous, (CHOICE, REVEAL)),
}
"""The session's column of the request table: how each request kind becomes envelopes. A
``NextDeal`` is no round: it ends a game of a match (seeds are revealed) and the next starts."""
check_covers("the table session", [*FULFIL, NextDeal])
