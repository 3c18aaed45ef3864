"""What may come next: the session's flow over the games of a table, a round of slots per request.

The rounds themselves (one per request kind, :data:`~fairtable.protocol.session.rounds.FULFIL`)
are in ``rounds``; this module runs a game from its commit round through its requests to its
composition and seed rounds, and the next game of a match after that.

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

from collections.abc import Generator
from functools import partial
from typing import Any

from fairtable.games.contract import ABSENT as ABSENT_REASON
from fairtable.games.contract import (
    DealStarted,
    Finished,
    Forfeit,
    NextDeal,
    Result,
    RuleError,
)
from fairtable.protocol.errors import UsageError
from fairtable.protocol.fair.errors import FairnessError
from fairtable.protocol.fair.seeds import GameRef, Seed
from fairtable.protocol.session import owned
from fairtable.protocol.session.flow_types import Flow
from fairtable.protocol.session.rounds import FULFIL, Rounds
from fairtable.protocol.session.run import DeckRecord, GameRun
from fairtable.protocol.session.slots import (
    COMMIT,
    COMPOSITION,
    SEED,
    Slot,
)
from fairtable.protocol.session.state import _Absent, _Disputed, _Resigned, _Stalled, game_seed

WITHHELD_REASON = "forfeit: withheld"
"""The result's reason when a seat withheld its composition or seed after the game (spec/session.md §5)."""




class SessionFlow(Rounds):
    """The flow: every slot in the order every honest node computes from the transcript so far."""

    def _flow(self) -> Flow:
        index = 0
        while True:
            self._forget_past()
            self.run = GameRun(GameRef(self.genesis.table_id, index), self.seat_count, self._known_seeds(index), self.envelopes, self.ops,
                                self.private.setdefault(index, {}),
                                {name: cards for (g, name), cards in self._given_compositions.items() if g == index},
                                proved=self.genesis.genesis.version >= 3, proof_ops=self.proof_ops)
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
                played = request.result if isinstance(request, Finished) else Result((), "")
                self.result = Result.forfeit(self.teams, withheld, WITHHELD_REASON, played.scores, played.winners)
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




















