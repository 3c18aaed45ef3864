"""Helpers for session tests: self-played towers tables, and transcripts forced past live checks."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fairtable.protocol import codec
from fairtable.protocol import transcript_file as tf
from fairtable.protocol.envelope import Envelope
from fairtable.protocol.session.table import game_seed
from fairtable.protocol.session.verify import Report, verify_chunks, verify_stream
from fairtable.protocol.testing import SelfPlay, Tamper, derive


def towers(seed: bytes = b"seed", options: dict | None = None, variant: str = "normal", version: int | None = None) -> SelfPlay:
    """A self-played towers table; ``version=2`` for a test of what version 2 tables do without proofs."""
    return SelfPlay.create("towers", variant, options or {}, 2, seed, version=version)


def play_until(table: SelfPlay, condition: Callable[[SelfPlay], bool], limit: int = 5000, tamper: Tamper | None = None) -> None:
    """Step the table (each message through ``tamper``, if given) until ``condition`` holds before the next message."""
    for _ in range(limit):
        if condition(table):
            return
        table.step(tamper)
    raise AssertionError("condition never held")


def slot_is(kind: str, seat: int | None = None) -> Callable[[SelfPlay], bool]:
    def condition(table: SelfPlay) -> bool:
        slot = table.sessions[0].slot
        return slot is not None and slot.kind == kind and (seat is None or slot.seat == seat)
    return condition


def all_seeds(table: SelfPlay, seed: bytes = b"seed", games: int = 1) -> tuple[tf.RevealedSeed, ...]:
    """Every seat's seeds, as a dispute would reveal them (the selfplay secrets are derived from ``seed``)."""
    return tuple(tf.RevealedSeed(game, seat, game_seed(derive(seed, "secret", seat), game))
                 for game in range(games) for seat in range(len(table.sessions)))


def file_bytes(table: SelfPlay, extra: list[Envelope] = (), seeds: tuple = ()) -> bytes:
    """A transcript of the table's accepted envelopes plus ``extra`` ones no honest node accepted,
    and the evidence the table keeps (other seats' absence claims)."""
    records = [tf.header_bytes(), tf.record_bytes("genesis", table.genesis.to_value())]
    envelopes = [*table.sessions[0].envelopes, *extra]
    records += [tf.record_bytes("envelope", envelope.to_value()) for envelope in envelopes]
    records += [tf.record_bytes("evidence", envelope.to_value()) for envelope in table.evidence]
    if seeds:
        records.append(tf.record_bytes("seeds", [seed.to_value() for seed in sorted(seeds)]))
    head = envelopes[-1].hash if envelopes else table.genesis.table_id
    records.append(tf.record_bytes("end", {"count": len(envelopes), "head": head}))
    return b"".join(records)


def verify_bytes(data: bytes) -> Report:
    """The report on ``data``, which the streaming verifier must give too."""
    report = verify_chunks([data])
    streamed = verify_stream(lambda: iter([data])).report
    assert streamed.to_value() == report.to_value()
    return report


def with_body(table: SelfPlay, change: Callable[[Any], Any]) -> Envelope:
    """The next envelope, its body changed, signed by the seat that is due."""
    seat, kind, body = table.next_message()
    return table.seal(seat, kind, change(codec.decode(codec.encode(body))))
