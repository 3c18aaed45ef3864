"""A live table's history: every move so far in the export's notation (``spec/export.md``).

The words are the record's own: the export's story (:class:`~fairtable.node.replay.Story`)
told over this node's chain with this seat's knowledge, the faces each move showed included,
so another seat's card is named as the verifier names it (a card still hidden from this seat,
such as another's buried kitty, stays hidden: ``bury ??``); once the table is finished and its
transcript written, the verifier's replay of it tells it, every seed revealed. The story is told once per envelope
as the chain grows, and again from the start when a fork replaces the chain's tail. Each entry
is marked where the table's log says a hand other than the player's made the move: the timer's
default (``default``) or the node's only legal move (``forced``). A finished table is stepped
through from any entry with the verifier's replay of its transcript, every seed revealed: what
``POST /replay`` gives the replay viewer.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import trio

from fairtable.games import registry, seated
from fairtable.node.replay import LEFT_OUT, Replay, Step, Story, replay_chunks
from fairtable.node.table.notices import ON_BOARD, Notice
from fairtable.protocol import Envelope
from fairtable.protocol.session import TableSession


class History:
    """The story of one table's chain as far as it goes, kept between requests."""

    def __init__(self, new_session: Callable[[], TableSession], names: tuple[str, ...]) -> None:
        self._new_session = new_session
        self.names = names
        self._story: Story | None = None
        self._told: list[bytes] = []
        """The hashes of the envelopes the story has taken, in chain order."""
        self._replayed: tuple[bytes, Replay] | None = None

    def steps(self, chain: Sequence[Envelope]) -> list[Step]:
        """The record's lines for ``chain`` (the steps a move list shows), oldest first."""
        if self._story is None or not self._continues(chain):
            self._story, self._told = Story(self._new_session(), self.names, set(), views=False), []
        with seated(self.names):
            for envelope in chain[len(self._told):]:
                if not self._story.add(envelope):
                    break
                self._told.append(envelope.hash)
            return listed(self._story.told())

    async def replayed(self, transcript: bytes) -> Replay:
        """The finished table's transcript replayed by the verifier, once per file, off the event loop."""
        if self._replayed is None or self._replayed[0] != transcript:
            record = await trio.to_thread.run_sync(replay_chunks, [transcript], abandon_on_cancel=True)
            self._replayed = (transcript, record)
        return self._replayed[1]

    def _continues(self, chain: Sequence[Envelope]) -> bool:
        told = len(self._told)
        return len(chain) >= told and (told == 0 or chain[told - 1].hash == self._told[-1])


def listed(steps: Iterable[Step]) -> list[Step]:
    """The steps the record's move list shows."""
    return [step for step in steps if step.kind not in LEFT_OUT]


def told(record: Replay) -> list[Step]:
    """The move list of a finished table's replay: the export's own."""
    return listed(record.steps)


def entries(steps: Iterable[Step], notices: Iterable[Notice], since: int = 0) -> list[dict[str, Any]]:
    """The ``history`` op's entries (``spec/client-api.md``) of the steps from envelope ``since`` on."""
    marks = {notice.index: notice.kind for notice in notices if notice.kind in ON_BOARD and notice.index is not None}
    return [{"index": step.index, "mark": marks.get(step.index), "n": step.number, "seat": step.seat, "text": step.text}
            for step in steps if step.index >= since]


def replay_step(record: Replay, index: int, seat: int) -> dict[str, Any] | None:
    """The ``replay_step`` answer: the replay's step at envelope ``index`` with ``seat``'s view
    then and the game's text rendering of it; None when no step is at ``index``."""
    step = next((step for step in record.steps if step.index == index), None)
    if step is None:
        return None
    view = step.views[seat]
    renderer = registry.get(record.report.game).renderer
    with seated(record.names):
        board = None if renderer is None else renderer.render(view)
    return {"board": board, "index": step.index, "n": step.number, "seat": step.seat, "text": step.text, "view": view}
