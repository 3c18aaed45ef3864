"""Every registered game and variant has a golden playthrough, and replaying it from its seed
through real sessions gives exactly the recorded steps and transcript (regenerate with
``python -m tests.golden`` when a change is meant, and review the diff)."""

from __future__ import annotations

import hashlib
import json

import pytest

from fairtable.protocol.session.verify import verify
from fairtable.protocol.transcript_file import load
from tests import golden

CASES = golden.cases()


def stored(case: golden.Case) -> tuple[dict, bytes]:
    path = golden.DIRECTORY / f"{case.name}.json"
    recording = json.loads(path.read_text())
    return recording, (golden.DIRECTORY / recording["transcript"]).read_bytes()


def test_every_registered_game_and_variant_has_a_recording_and_no_recording_is_stale():
    recorded = {path.stem for path in golden.DIRECTORY.glob("*.json")}
    expected = {case.name for case in CASES}
    assert expected - recorded == set(), "missing golden playthroughs: run python -m tests.golden"
    assert recorded - expected == set(), "golden playthroughs of games or variants no longer registered"
    assert {path.name for path in golden.DIRECTORY.glob("*.ftt")} == {f"{name}.ftt" for name in expected}


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_a_replay_from_the_seed_gives_the_recorded_steps_and_transcript(case):
    recording, transcript = stored(case)
    again, replayed = golden.record(case)
    steps, fresh = recording.pop("steps"), again.pop("steps")
    drift = next((index for index, (old, new) in enumerate(zip(steps, fresh)) if old != new), min(len(steps), len(fresh)))
    assert steps == fresh, f"step {drift} drifted: recorded {steps[drift:drift + 1]}, now {fresh[drift:drift + 1]}"
    assert recording == again
    assert replayed == transcript and hashlib.sha256(transcript).hexdigest() == recording["transcript_sha256"]


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_the_recorded_transcript_verifies_with_the_recorded_result(case):
    recording, transcript = stored(case)
    report = verify(load(transcript))
    assert report.valid, report.violations
    assert report.result.to_value() == recording["result"] and report.envelopes == recording["envelopes"]
    assert [deal.to_value() for deal in report.deals] == recording["deals"]
    assert (report.game, report.variant) == (case.game, case.variant)
