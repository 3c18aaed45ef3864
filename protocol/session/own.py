"""Building this seat's own envelopes: its decisions, what its secrets dictate, resignations, claims, disputes."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from fairtable.games.contract import Refusal, Rng, RuleError
from fairtable.protocol import codec
from fairtable.protocol.errors import UsageError
from fairtable.protocol.fair.errors import FairnessError
from fairtable.protocol.session import owned
from fairtable.protocol.session.errors import NotYourTurn, Rejected, Violation
from fairtable.protocol.session.slots import (
    ABSENT,
    CHOICE,
    DECK,
    DISPUTE,
    HIDDEN,
    MOVE,
    RESIGN,
    Slot,
)
from fairtable.protocol.session.state import SessionState


class OwnEnvelopes(SessionState):
    """What this seat sends: checked here as a peer would check it, so nothing refused leaves the node."""

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
    def decision_kind(self) -> str | None:
        """What this seat must decide now: ``move``, ``hidden`` (its hidden data), ``choice``
        or ``deck`` (its owned deck's composition); else None."""
        slot = self.slot
        return slot.kind if slot is not None and self.awaiting_decision() else None

    def decide(self, decision: Any, rng: Rng | None = None) -> tuple[str, Any]:
        """The ``(kind, body)`` for whatever decision is due (a move, hidden data, a choice or a
        composition), built as :data:`DECISIONS` says for its kind. :data:`RANDOM_PLACEMENT` in
        place of hidden data or a composition draws a random legal one from ``rng`` (the node's)."""
        kind = self.decision_kind or MOVE
        row = DECISIONS[kind]
        if row.placement and decision == RANDOM_PLACEMENT:
            seat, _ = self._expect_decision(kind)
            if rng is None:
                raise UsageError("a random placement needs a source of randomness")
            decision = self.game.random_hidden(self.state, seat, self.pending, rng)
        return row.body(self, decision)

    def unlisted(self, decision: Any) -> bool:
        """Whether ``decision`` is missing from the legal moves this seat's open decision lists, so a
        node refuses it before building anything: a move must be listed, a simultaneous choice when
        the game lists any (a salvo it does not list is built as the game describes and judged by it)."""
        kind = self.decision_kind
        if kind is None or not DECISIONS[kind].listed:
            return False
        listed = self.legal_moves()
        if not listed and DECISIONS[kind].listed == WHEN_ANY:
            return False
        return codec.encode(decision) not in {codec.encode(move) for move in listed}

    def default_body(self, rng: Rng) -> tuple[str, Any]:
        """The ``(kind, body)`` this seat sends when its turn timer runs out on its open decision:
        the rules' default, as :data:`DECISIONS` says for its kind. Raises :class:`NotYourTurn`
        when no decision of this seat is open."""
        kind = self.decision_kind
        if kind is None:
            raise NotYourTurn(f"seat {self.seat} has no decision open")
        return DECISIONS[kind].default(self, rng)

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

    def hidden_body(self, data: Mapping[str, Any]) -> tuple[str, Any]:
        """Commit this seat's hidden data, after the game's own check of it."""
        seat, _ = self._expect_decision(HIDDEN)
        request = self.pending
        if not isinstance(data, Mapping) or any(not isinstance(values, (list, tuple)) for values in data.values()):
            raise Rejected(Violation(len(self.envelopes), seat, "session.malformed", "hidden data is {layer: [one integer per cell]}"))
        data = {layer: tuple(values) for layer, values in data.items()}
        self.game.check_hidden(self.state, seat, data)
        return HIDDEN, self.run.hidden.commit_body(seat, request, data)

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

    def resign_body(self) -> tuple[str, Any]:
        """The ``(kind, body)`` resigning this seat: allowed at its own resignable slot during play, so
        a resignation takes a slot like any envelope."""
        slot = self.slot
        if slot is None or slot.seat != self.seat or not slot.resignable:
            raise NotYourTurn("resigning is possible in your own turn during play")
        return RESIGN, {}

    def explain(self, move: Any) -> Refusal | None:
        """Why this seat may not send ``move`` (or simultaneous choice, or a draft of the hidden
        data due, such as the space battle's purchase) now, in the game's words, or None when it
        may as far as this seat knows: the game's ``explain``, or its rule ``<game>.turn`` while
        none of these is open. Raises :class:`CodecError` for a value the wire cannot carry."""
        if self.seat is None or self.decision_kind not in (MOVE, CHOICE, HIDDEN):
            return Refusal(f"{self.game.id}.turn", "turn")
        return self.game.explain(self.state, self.seat, codec.decode(codec.encode(move)))

    def legal_moves(self) -> tuple[Any, ...]:
        """This seat's legal moves when its decision is due (else none): what a client may offer, as far as this seat's knowledge allows."""
        if self.seat is None or not self.awaiting_decision():
            return ()
        return self.game.legal_moves(self.state, self.seat)

    def dispute_body(self, violation: Violation) -> tuple[str, Any]:
        """The ``(kind, body)`` stopping the table over ``violation`` (one this session found
        but could not pin on a seat, or could not continue past). Any seat may send it at any
        slot while :attr:`disputable`."""
        if not self.disputable or self.seat is None:
            raise NotYourTurn("a dispute stops a game still in play")
        return DISPUTE, {"index": violation.index, "rule": violation.rule}

    def absence_claim_body(self) -> tuple[str, Any]:
        """The ``(kind, body)`` declaring the due seat absent (the node decides when: after its grace period)."""
        slot = self.slot
        if slot is None or self.seat is None or slot.seat == self.seat:
            raise NotYourTurn("only another seat can declare the due seat absent")
        return ABSENT, {"seat": slot.seat}


RANDOM_PLACEMENT = {"random": True}
"""What a client sends instead of hidden data or a composition to have its node draw a random legal one."""


def _random_decision(own: OwnEnvelopes, rng: Rng) -> tuple[str, Any]:
    return own.decide(RANDOM_PLACEMENT, rng)


def _default_move(own: OwnEnvelopes, rng: Rng) -> tuple[str, Any]:
    seat, _ = own._expect_decision(MOVE)
    return own.move_body(own.game.default_move(own.state, seat))


@dataclass(frozen=True)
class DecisionKind:
    """How this seat's node turns one kind of decision into an envelope: ``body`` from the
    seat's own decision, ``default`` when its turn timer runs out (``default(own, rng)``), and
    whether a random legal one may stand in for it (:data:`RANDOM_PLACEMENT`), and whether it
    is one of the legal moves the seat is shown (``listed``)."""

    body: Callable[[OwnEnvelopes, Any], tuple[str, Any]]
    default: Callable[[OwnEnvelopes, Rng], tuple[str, Any]]
    placement: bool = False
    listed: str = ""
    """:data:`ALWAYS`: the decision is one of the seat's legal moves; :data:`WHEN_ANY`: when the game lists any."""


ALWAYS = "always"
WHEN_ANY = "when-any"

DECISIONS: Mapping[str, DecisionKind] = {
    MOVE: DecisionKind(OwnEnvelopes.move_body, _default_move, listed=ALWAYS),
    HIDDEN: DecisionKind(OwnEnvelopes.hidden_body, _random_decision, placement=True),
    CHOICE: DecisionKind(OwnEnvelopes.choice_body, lambda own, rng: own.default_choice_body(), listed=WHEN_ANY),
    DECK: DecisionKind(OwnEnvelopes.composition_body, _random_decision, placement=True),
}
"""Each kind of decision a seat makes (a ``decision`` slot's message kind): the one place that
branches on it. A timed move defaults to the game's ``default_move``; hidden data and an owned
deck's composition not chosen in time to a random legal one; a simultaneous choice to a
commitment to the default, marked as such (``spec/session.md``)."""
