"""What the session reports when a seat breaks the protocol or the rules."""

from __future__ import annotations

from dataclasses import dataclass

from fairtable.games.contract import OptionsError
from fairtable.protocol.envelope import Envelope
from fairtable.protocol.errors import ProtocolError
from fairtable.protocol.fair.errors import FairnessError


@dataclass(frozen=True)
class Violation:
    """``seat`` broke ``rule`` at envelope ``index``; ``evidence`` is that seat's signed envelope.

    ``seat`` is None when a check proves that *some* seat cheated but not which one (a
    deal that opens to no card, seen live); ``suspects`` then lists the candidates, and the
    verifier, fed every seed, names the culprit.
    """

    index: int
    seat: int | None
    rule: str
    detail: str
    evidence: Envelope | None = None
    suspects: tuple[int, ...] = ()

    def to_value(self) -> dict:
        """As a canonical value (sorted keys, no floats): what reports, clients and test vectors carry."""
        value = {"detail": self.detail, "index": self.index, "rule": self.rule, "seat": self.seat, "suspects": list(self.suspects)}
        if self.evidence is not None:
            value["evidence"] = self.evidence.to_value()
        return value


class Rejected(ProtocolError):
    """An envelope the session refuses; nothing changed. ``violation`` says who and why."""

    def __init__(self, violation: Violation) -> None:
        self.violation = violation
        who = "unknown seat" if violation.seat is None else f"seat {violation.seat}"
        super().__init__(f"envelope {violation.index} ({who}) breaks {violation.rule}: {violation.detail}")


class NotYourTurn(ProtocolError):
    """This seat was asked to send while the session expects another seat or kind."""


class SetupError(ProtocolError, OptionsError):
    """A genesis naming a game, variant, seat count or options this implementation cannot set up.

    An :class:`~games.contract.OptionsError` too, since that is what the game said; a
    :class:`ProtocolError` because it is the session that refuses the table.
    """


def malformed(seat: int, what: str) -> FairnessError:
    """A body that is not what its kind must be (``session.malformed``), named against its seat:
    no secret is needed to tell, so it is refused live and by the verifier alike."""
    return FairnessError(seat, "session.malformed", what)
