"""One public deck through the session's own deck code, node by node: what ``fairtable bench deck`` times.

Each seat has its own :class:`~protocol.session.run.GameRun`, knowing only its own seed, as a
live node does. The author of each stage builds its body (version 3: proved, with
:meth:`DeckRecord.proven_body`; version 2: the stage as the session computes it), the body goes
through the codec, and every seat checks it as its session does on receipt (version 3:
:meth:`DeckRecord.check_proven`, every proof verified except its own). Then every seat
publishes its key for every position and every other seat checks it (``GameRun.check_keys``:
at version 3 against the commitments). No clock here: ``timed(seat, work)`` runs each piece of
work on behalf of ``seat``, so the caller can count each node's CPU.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from fairtable.games.contract import Shuffle
from fairtable.protocol import codec
from fairtable.protocol.envelope import Envelope
from fairtable.protocol.fair.group import Ops
from fairtable.protocol.fair.mental_deck import check_stage, run_stage, stage_body
from fairtable.protocol.fair.seeds import GameRef
from fairtable.protocol.session.recent import Recent
from fairtable.protocol.session.run import DeckRecord, GameRun

Timed = Callable[[int, Callable[[], Any]], Any]
"""``timed(seat, work)``: run ``work`` on behalf of ``seat`` and return its result."""


def _built(record: DeckRecord, index: int, inputs: tuple[bytes, ...]) -> bytes:
    """Stage ``index`` as its author's node sends it, encoded."""
    deck, seat = record.deck, record.deck.stages[index].seat
    if deck.proved:
        return codec.encode(record.proven_body(index, inputs))
    return codec.encode(stage_body(deck, index, run_stage(deck, index, record.keys_of(seat), inputs)))


def _received(record: DeckRecord, index: int, inputs: tuple[bytes, ...], data: bytes) -> tuple[bytes, ...]:
    """Stage ``index`` decoded and checked as a node's session checks it on receipt."""
    if record.deck.proved:
        return record.check_proven(index, inputs, codec.decode(data))
    return check_stage(record.deck, index, codec.decode(data))


def _keys_built(run: GameRun, seat: int, handles: tuple[int, ...]) -> bytes:
    return codec.encode(run.keys_body(seat, handles))


def _keys_received(run: GameRun, publisher: int, handles: tuple[int, ...], data: bytes) -> dict[int, bytes]:
    """A ``keys`` message decoded and checked as a node's session checks it (against the commitments, at version 3)."""
    return run.check_keys(publisher, handles, codec.decode(data))


def walk_deck(seats: int, cards: int, version: int, timed: Timed) -> tuple[bytes, ...]:
    """Shuffle a deck of ``cards`` over ``seats`` at protocol ``version`` and check every key; the final entries."""
    fair = GameRef(bytes(32), 0)
    runs = [GameRun(fair, seats, {seat: bytes([seat + 1]) * 32}, Recent[Envelope](), Ops(), {}, proved=version >= 3)
            for seat in range(seats)]
    records = [run.new_deck(Shuffle(tuple(range(cards)), 0)) for run in runs]
    entries = [records[0].deck.initial() for _ in range(seats)]
    for stage in records[0].deck.stages:
        data = timed(stage.seat, partial(_built, records[stage.seat], stage.index, entries[stage.seat]))
        for seat in range(seats):
            entries[seat] = timed(seat, partial(_received, records[seat], stage.index, entries[seat], data))
    handles = tuple(range(cards))
    for publisher in range(seats):
        data = timed(publisher, partial(_keys_built, runs[publisher], publisher, handles))
        for seat in range(seats):
            if seat != publisher:
                timed(seat, partial(_keys_received, runs[seat], publisher, handles, data))
    return entries[0]
