"""Whatever a seat signs, the verifier answers with a report that names that seat or nobody:
never an exception other than :class:`ProtocolError` for an unreadable file, never an honest seat.

A seat changes one leaf of one envelope's body (or the whole body), signs it with its own key,
and the transcript ends there; every seed is in the file, so the verifier knows everything.
"""

from __future__ import annotations

import functools
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fairtable.protocol import transcript_file as tf
from fairtable.protocol.envelope import Envelope
from fairtable.protocol.session.verify import verify_chunks
from fairtable.protocol.testing import SelfPlay
from tests.protocol.session.tables import all_seeds, towers
from tests.protocol.session.test_hidden_and_choices import probe
from tests.protocol.session.test_zeeslag_session import zeeslag

pytestmark = pytest.mark.usefixtures("probe_game", "tricks_game")

leaves = st.one_of(st.none(), st.booleans(), st.integers(-3, 300), st.binary(max_size=33), st.text(max_size=5))
values = st.recursive(leaves, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3), max_leaves=6)

GAMES = {
    "towers": (lambda: towers(b"fuzz"), b"fuzz"),
    "towers-infinite": (lambda: towers(b"fuzz-inf", variant="infinite"), b"fuzz-inf"),
    "zeeslag": (lambda: zeeslag(b"fuzz"), b"fuzz"),
    "probe": (probe, b"probe"),
    "tricks-deck-3": (lambda: SelfPlay.create("tricks", "deck", {}, 3, b"fuzz-3"), b"fuzz-3"),
}


@functools.cache
def played(name: str) -> SelfPlay:
    table = GAMES[name][0]()
    table.play()
    return table


def leaf_paths(value: Any, path: tuple = ()) -> list[tuple]:
    if isinstance(value, dict):
        return [path] + [p for key in sorted(value) for p in leaf_paths(value[key], (*path, key))]
    if isinstance(value, (list, tuple)):
        return [path] + [p for index, item in enumerate(value) for p in leaf_paths(item, (*path, index))]
    return [path]


def replaced(value: Any, path: tuple, new: Any) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, head: replaced(value[head], rest, new)}
    items = list(value)
    items[head] = replaced(items[head], rest, new)
    return items


def forged_file(name: str, index: int, forged: Envelope) -> bytes:
    """The chain up to ``forged`` (which replaces envelope ``index``), with every seat's seeds."""
    table = played(name)
    chain = [*table.sessions[0].envelopes[:index], forged]
    seeds = all_seeds(table, GAMES[name][1], games=2)
    parts = [tf.header_bytes(), tf.record_bytes("genesis", table.genesis.to_value())]
    parts += [tf.record_bytes("envelope", envelope.to_value()) for envelope in chain]
    parts.append(tf.record_bytes("seeds", [seed.to_value() for seed in seeds]))
    parts.append(tf.record_bytes("end", {"count": len(chain), "head": forged.hash}))
    return b"".join(parts)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(GAMES)), data=st.data())
def test_a_seat_that_signs_anything_is_the_only_seat_named(name, data):
    table = played(name)
    envelopes = table.sessions[0].envelopes
    index = data.draw(st.integers(0, len(envelopes) - 1), label="index")
    original = envelopes[index]
    path = data.draw(st.sampled_from(leaf_paths(original.body)), label="path")
    body = replaced(original.body, path, data.draw(values, label="value"))
    forged = Envelope.seal(table.keys[original.seat], original.table, original.seq, original.prev, original.seat, original.kind, body)
    report = verify_chunks([forged_file(name, index, forged)])
    assert report.status in ("valid", "violation", "incomplete")
    assert {v.seat for v in report.violations} <= {original.seat, None}
    assert all(v.index == index for v in report.violations if v.seat is not None)
