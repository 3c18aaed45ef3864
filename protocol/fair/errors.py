"""The one error a fairness check raises when a seat broke a rule, naming that seat.

Named apart from the session's :class:`~protocol.session.errors.Violation` (the record of a
finding in a transcript, with its envelope): this is the exception a check raises, which
the session turns into such a record.
"""

from __future__ import annotations

from fairtable.protocol.errors import ProtocolError


class FairnessError(ProtocolError):
    """``seat`` broke ``rule``; ``seat`` is None when the evidence does not yet say who.

    ``suspects`` lists the seats that may be responsible when ``seat`` is None: the table
    then asks for every seed, and the recomputation names the culprit.
    """

    def __init__(self, seat: int | None, rule: str, detail: str, suspects: tuple[int, ...] = ()) -> None:
        self.seat = seat
        self.rule = rule
        self.detail = detail
        self.suspects = suspects if seat is None else (seat,)
        who = f"seat {seat}" if seat is not None else "an unidentified seat"
        super().__init__(f"{who} broke {rule}: {detail}")
