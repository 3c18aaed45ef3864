"""The rounds: how the session fulfils each kind of game request with envelopes.

Each round yields one :class:`~fairtable.protocol.session.slots.Slot` per envelope it expects,
checks each body (the cryptography in ``run`` and the primitives of ``fair``) and applies the
answering event to the game. :data:`FULFIL` maps every request kind of ``games.requests`` to
its round and message kinds; ``flow`` walks the game's requests through it.
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
from fairtable.protocol.fair import masked_sum, simultaneous
from fairtable.protocol.fair.errors import FairnessError
from fairtable.protocol.fair.mental_deck import Stage, check_stage, run_stage, stage_body
from fairtable.protocol.fair.public_random import check_reveal, public_below, reveal_body
from fairtable.protocol.session import owned
from fairtable.protocol.session.errors import Violation
from fairtable.protocol.session.flow_types import Flow
from fairtable.protocol.session.run import DeckRecord, GameRun
from fairtable.protocol.session.showing import ShowRound
from fairtable.protocol.session.slots import (
    BLIND,
    CHOICE,
    DECK,
    DRAW,
    HIDDEN,
    KEYS,
    MOVE,
    OPEN,
    PAIR,
    RANDOM,
    REVEAL,
    SHARES,
    UNBLIND,
    Slot,
)
from fairtable.protocol.session.state import SessionState, _Absent
from fairtable.protocol.session.summing import SumRound


def _check_empty(seat: int, kind: str, body: Any) -> None:
    if body != {}:
        raise FairnessError(seat, "session.malformed", f"a {kind!r} message has an empty body")


class Rounds(SessionState):
    """One round per request kind, and the helpers that apply events and record findings."""

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

    def _forfeit(self, seat: int, reason: str) -> None:
        """Tell the game ``seat`` left, unless it is over or refuses (the seat had left already)."""
        if isinstance(self.game.pending(self.state), Finished):
            return
        try:
            self._apply(Forfeit(seat, reason))
        except RuleError:
            return

    def _check_terms(self, seat: int, layer: str, cells: Mapping[int, int]) -> None:
        """Cells opened (or revealed with the seed) that took part in masked sums: each share
        must have claimed the value now proven (``summing``), named at the share's envelope."""
        for index, found in self.run.sums.opened(seat, layer, dict(cells)):
            self._record([found], index)

    def _decide(self, run: GameRun, request: Decide) -> Flow:
        def check(body: Any) -> Any:
            move, faces, repeats = run.check_move(request.seat, body, partial(self.game.reveals, self.state))
            return self._ruled(Move(request.seat, move, faces)), repeats

        (event, state), repeats = yield Slot(request.seat, MOVE, check, decision=True, resignable=True)
        run.public_faces.update(event.faces)
        self._adopt((event, state))
        self._record(repeats)

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
            produce: Callable[[], dict] | None
            check: Callable[[Any], tuple[bytes, ...]]
            encoded: Callable[[], bytes] | None = None
            if deck.proved:
                produce = partial(record.proven_body, stage.index, entries) if stage.seat in run.seeds else None
                encoded = partial(record.proven_encoding, stage.index, entries) if stage.seat in run.seeds else None
                check = partial(record.check_proven, stage.index, entries)
            else:
                produce = partial(computed, stage, entries, own) if stage.seat in run.seeds else None
                check = partial(check_stage, deck, stage.index)
            entries = yield Slot(stage.seat, DECK, check, produce, "deck.stage-mismatch", resignable=True, produce_encoded=encoded)
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

    def _deal(self, run: GameRun, request: Deal) -> Flow:
        faces = yield from self._open_round(run, run.deal_needs(request), [h for _, hs in request.to for h in hs])
        self._apply(Dealt(faces))

    def _reveal(self, run: GameRun, request: Reveal) -> Flow:
        faces = yield from self._open_round(run, run.reveal_needs(request), list(request.handles), public=True)
        run.public_faces.update(faces)
        self._apply(Revealed(faces))

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
            cells = run.hidden.check_open(request, body)
            return self._ruled(Opened(request.seat, request.layer, cells)), cells

        produce = (lambda: run.hidden.open_body(request)) if run.hidden.own(request.seat) is not None else None
        ruled, cells = yield Slot(request.seat, OPEN, check, produce, resignable=True)
        self._adopt(ruled)
        self._record(run.hidden.adopt_opened(request, cells, self.envelopes[-1].body))
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

    def _commit_hidden(self, run: GameRun, request: CommitHidden) -> Flow:
        run.hidden.begin(request)
        for seat in request.seats:
            roots = yield Slot(seat, HIDDEN, partial(run.hidden.check_commit, seat, request), decision=True, resignable=True)
            run.hidden.adopt(seat, roots)
        own = {seat: {layer: data[layer] for layer in request.layers} for seat in request.seats if (data := run.hidden.own(seat)) is not None}
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


@dataclass(frozen=True)
class Fulfilment:
    """How the session fulfils one request kind of ``games.requests.REQUESTS``: the round of
    slots that answers it (``round(flow, run, request)``, which applies the answering event)
    and the message kinds that round's envelopes carry, in order (``spec/session.md``)."""

    round: Callable[[Any, GameRun, Any], Flow]
    messages: tuple[str, ...]


FULFIL: Mapping[type, Fulfilment] = {
    Decide: Fulfilment(Rounds._decide, (MOVE,)),
    Shuffle: Fulfilment(Rounds._shuffle, (DECK,)),
    ShuffleOwned: Fulfilment(Rounds._shuffle, (DECK,)),
    Deal: Fulfilment(Rounds._deal, (KEYS,)),
    Show: Fulfilment(Rounds._show, (BLIND, UNBLIND)),
    Reveal: Fulfilment(Rounds._reveal, (KEYS,)),
    PublicRandom: Fulfilment(Rounds._public_random, (RANDOM,)),
    PrivateDraw: Fulfilment(Rounds._private_draw, (DRAW,)),
    CommitHidden: Fulfilment(Rounds._commit_hidden, (HIDDEN,)),
    OpenHidden: Fulfilment(Rounds._open_hidden, (OPEN,)),
    OpenSums: Fulfilment(Rounds._open_sums, (PAIR, SHARES)),
    Simultaneous: Fulfilment(Rounds._simultaneous, (CHOICE, REVEAL)),
}
"""The session's column of the request table: how each request kind becomes envelopes. A
``NextDeal`` is no round: it ends a game of a match (seeds are revealed) and the next starts."""
check_covers("the table session", [*FULFIL, NextDeal])

