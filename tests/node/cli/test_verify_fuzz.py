"""``fairtable verify`` never crashes: files of one table forked at any point, and transcripts
with bytes changed anywhere, all get a report and an exit status 0..3, never a traceback.

Forks are signed with the keys the golden playthroughs (``tests/golden.py``) derive from their
seeds, so every envelope of a fork is a real signature of its seat: the verifier must settle
the forks as a replica would, and name an equivocation only where one seat signed two
envelopes after the same previous one. The command runs in-process (``main``), one call per case.
"""

from __future__ import annotations

import functools
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fairtable.node.cli.main import main
from fairtable.protocol import codec
from fairtable.protocol import transcript_file as tf
from fairtable.protocol.envelope import Envelope
from fairtable.protocol.identity import SecretKey
from fairtable.protocol.session.slots import ABSENT
from fairtable.protocol.testing import derive
from fairtable.protocol.transcript import Transcript
from tests.golden import DIRECTORY, Case, cases

CASES = {case.name: case for case in cases()}


@functools.cache
def golden(name: str) -> tuple[bytes, tf.TranscriptFile, tuple[SecretKey, ...]]:
    """A golden transcript: its bytes, the file, and its seats' keys (as ``tests/golden.py`` derives them)."""
    case: Case = CASES[name]
    data = (DIRECTORY / f"{name}.ftt").read_bytes()
    seed = "/".join(("golden", case.game, case.variant, *((case.mode,) if case.mode else ()))).encode()
    return data, tf.load(data), tuple(SecretKey.from_seed(derive(seed, "key", seat)) for seat in range(case.seats))


def resealed(keys: tuple[SecretKey, ...], table: bytes, head: bytes, envelopes: list[Envelope], start: int) -> list[Envelope]:
    """``envelopes`` signed again by their seats from ``start`` on, each linked to the one before."""
    out = []
    for seq, envelope in enumerate(envelopes, start):
        envelope = Envelope.seal(keys[envelope.seat], table, seq, head, envelope.seat, envelope.kind, envelope.body)
        out.append(envelope)
        head = envelope.hash
    return out


def fork(name: str, point: int, how: str, rng: random.Random) -> bytes:
    """The golden chain forked at ``point`` (``how``): ``claim``, another seat's absence claim
    there; ``twin``, the due seat's second envelope (a changed body); ``drop``, envelope ``point``
    left out. The rest of the chain is signed again on top, cut at random."""
    _, file, keys = golden(name)
    chain = list(file.transcript.envelopes)
    genesis = file.transcript.genesis
    table = genesis.table_id
    original = chain[point]
    head = table if point == 0 else chain[point - 1].hash
    start: list[Envelope] = []
    if how == "claim":
        claimant = rng.choice([seat for seat in range(len(keys)) if seat != original.seat])
        start.append(Envelope.seal(keys[claimant], table, point, head, claimant, ABSENT, {"seat": original.seat}))
    elif how == "twin":
        body = _changed(codec.decode(codec.encode(original.body)), rng)
        start.append(Envelope.seal(keys[original.seat], table, point, head, original.seat, original.kind, body))
    after = start[0].hash if start else head
    rest = chain[point + 1:]
    rest = resealed(keys, table, after, rest[: rng.randrange(len(rest) + 1)], point + len(start))
    return tf.dump(tf.TranscriptFile(Transcript(genesis, [*chain[:point], *start, *rest]), file.seeds))


def _changed(body: object, rng: random.Random) -> object:
    """``body`` with one leaf changed (or replaced whole)."""
    if isinstance(body, dict) and body and rng.random() < 0.8:
        key = rng.choice(sorted(body))
        return {**body, key: _changed(body[key], rng)}
    if isinstance(body, (list, tuple)) and body and rng.random() < 0.8:
        items = list(body)
        index = rng.randrange(len(items))
        items[index] = _changed(items[index], rng)
        return items
    return rng.choice([None, 0, 7, -1, b"\x00" * 32, "x", [], {}, True, 1 << 40])


def mutated(data: bytes, rng: random.Random) -> bytes:
    """``data`` with a few bytes flipped, inserted, deleted, or cut short."""
    data = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        where = rng.randrange(len(data)) if data else 0
        what = rng.randrange(4)
        if what == 0 and data:
            data[where] ^= 1 << rng.randrange(8)
        elif what == 1:
            data[where:where] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
        elif what == 2:
            del data[where:where + rng.randint(1, 16)]
        else:
            del data[where:]
    return bytes(data)


def verify_in_process(paths: list[Path], capsys) -> int:
    status = main(["verify", "--jobs", "1", *map(str, paths)])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err and "internal error" not in err, err
    assert 0 <= status <= 3, (status, err)
    return status


@pytest.mark.parametrize("how", ["claim", "twin", "drop"])
@settings(max_examples=12, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(name=st.sampled_from(sorted(CASES)), data=st.data())
def test_files_of_one_table_forked_anywhere_get_a_report(tmp_path, capsys, how, name, data):
    chain = golden(name)[1].transcript
    point = data.draw(st.integers(0, len(chain) - 1), label="point")
    rng = random.Random(data.draw(st.integers(0, 1 << 30), label="rng"))
    honest, forked = tmp_path / "honest.ftt", tmp_path / "forked.ftt"
    honest.write_bytes(golden(name)[0])
    forked.write_bytes(fork(name, point, how, rng))
    assert verify_in_process([honest, forked], capsys) in (0, 1, 3)


@settings(max_examples=30, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(name=st.sampled_from(sorted(CASES)), seed=st.integers(0, 1 << 30), forked=st.booleans())
def test_transcripts_with_bytes_changed_anywhere_get_a_report(tmp_path, capsys, name, seed, forked):
    rng = random.Random(seed)
    data = golden(name)[0]
    if forked:
        data = fork(name, rng.randrange(len(golden(name)[1].transcript)), rng.choice(["claim", "twin"]), rng)
    changed = tmp_path / "changed.ftt"
    changed.write_bytes(mutated(data, rng))
    honest = tmp_path / "honest.ftt"
    honest.write_bytes(golden(name)[0])
    verify_in_process([changed], capsys)
    verify_in_process([honest, changed], capsys)
