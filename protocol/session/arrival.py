"""Checking an arriving envelope: in turn, of the expected kind, its body valid, or a claim or dispute."""

from __future__ import annotations

from fairtable.games.contract import (
    Event,
    RuleError,
)
from fairtable.protocol import codec
from fairtable.protocol.envelope import Envelope
from fairtable.protocol.fair.errors import FairnessError
from fairtable.protocol.session.errors import Rejected, Violation
from fairtable.protocol.session.slots import (
    ABSENT,
    DISPUTE,
    RESIGN,
)
from fairtable.protocol.session.state import SessionState, _Absent, _Disputed, _Resigned, _Stalled
from fairtable.protocol.transcript import TranscriptError, check_link


class Arrivals(SessionState):
    """Takes the next envelope of the chain, or refuses it naming the rule and changing nothing."""

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
                expected = slot.produce_encoded() if slot.produce_encoded is not None else codec.encode(slot.produce())
            except FairnessError as exc:
                self._record_input_violation(exc)
            else:
                if not envelope.has_body(expected):
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
