"""The table's log: what happened to a player without their hand on it, as lines a person reads.

Nothing happens to a player unannounced (``spec/client-api.md``, the ``log`` field): a move the
timer made (the rules' default), a move made for a seat because it was the only legal one (a
forced follow, zeeslag's sink answer), a resignation, an absence claim, a journal repaired when
the node started. Most are read off the chain, so every seat's node says them alike and a
restart keeps them: a resignation and a claim are envelope kinds, and a timer's move carries
the rules' marker. The rest only this node knows (what it played for its own seat); it keeps
them in the order they happened.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from fairtable.games import YOU, player
from fairtable.protocol import Envelope
from fairtable.protocol.session import ABSENT, CHOICE, MOVE, RESIGN

DEFAULT = "default"
FORCED = "forced"
RESIGNED = "resigned"
RESIGNING = "resigning"
CLAIMED = "absent"
REPAIRED = "repaired"
"""The kinds of a notice (``spec/client-api.md``)."""

TIMER_MARK = "timeout"
"""The key a timer's move carries (``"timeout": true``, the rules' marker)."""


@dataclass(frozen=True)
class Notice:
    """One line of the table's log: ``kind`` (above), the ``seat`` it happened to (None: the
    node's own), the ``index`` of the envelope it is about (None when none is), and its words."""

    kind: str
    seat: int | None
    index: int | None
    text: str

    def to_value(self, latest: Mapping[int, int]) -> dict[str, Any]:
        """The entry as the client API sends it; ``latest`` (a seat's latest move or choice, by
        :func:`latest_decisions`) says whether the move it is about is still that seat's latest,
        which a board marks where it draws it."""
        current = self.kind in ON_BOARD and self.seat is not None and latest.get(self.seat) == self.index
        return {"index": self.index, "kind": self.kind, "latest": current, "seat": self.seat, "text": self.text}


ON_BOARD = (DEFAULT, FORCED)
"""The kinds a board marks on the move itself (where it costs the player), besides the log line."""


def latest_decisions(envelopes: Iterable[Envelope]) -> dict[int, int]:
    """Each seat's latest move or simultaneous choice on the chain: seat -> envelope index."""
    return {envelope.seat: envelope.seq for envelope in envelopes if envelope.kind in (MOVE, CHOICE)}


def _by_timer(envelope: Envelope) -> bool:
    body = envelope.body
    if not isinstance(body, Mapping):
        return False
    if envelope.kind == MOVE:
        move = body.get("move")
        return isinstance(move, Mapping) and move.get(TIMER_MARK) is True
    return envelope.kind == CHOICE and body.get("default") is True


def _opening(who: str) -> str:
    """``who`` at the start of a sentence: ``You``, or a name as its player wrote it."""
    return "You" if who == YOU else who


def from_chain(envelopes: Iterable[Envelope], me: int | None, names: Sequence[str]) -> list[Notice]:
    """The notices the chain itself holds, in chain order, in words for seat ``me``."""
    notices = []
    for envelope in envelopes:
        seat, index = envelope.seat, envelope.seq
        who = player(seat, me, names)
        if envelope.kind == RESIGN:
            notices.append(Notice(RESIGNED, seat, index, f"{_opening(who)} resigned."))
        elif envelope.kind == ABSENT and isinstance(envelope.body, Mapping) and isinstance(envelope.body.get("seat"), int):
            absent = envelope.body["seat"]
            notices.append(Notice(CLAIMED, absent, index, f"{_opening(player(absent, me, names))} stopped answering: "
                                                          f"{who} declared {'you' if absent == me else 'them'} absent."))
        elif _by_timer(envelope):
            whose = "Your" if seat == me else f"{who}'s"
            notices.append(Notice(DEFAULT, seat, index, f"{whose} timer ran out: the rules' default was played for "
                                                        f"{'you' if seat == me else 'them'}."))
    return notices
