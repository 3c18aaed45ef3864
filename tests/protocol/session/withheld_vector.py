"""Builds ``spec/vectors/withheld.json``: the transcript vector's game, in which seat 1 withholds its
seed (spec/session.md §5), with what the verifier reports.

The game of ``transcript_vector`` up to seat 1's seed reveal; seat 0 declares seat 1 absent
there. A compatible verifier must report the withholding result (seat 1 forfeits, seat 0 wins,
whatever the game's result), the absence on seat 0's word, and seat 1's seed as unproven.
``python -m tests.protocol.session.withheld_vector`` rewrites the file; ``test_withheld_reveals.py``
checks that it equals what the code builds now.
"""

from __future__ import annotations

import json

from fairtable.protocol import transcript_file as tf
from fairtable.protocol.session.slots import SEED
from fairtable.protocol.session.verify import verify
from tests.paths import VECTORS
from tests.protocol.transcript_vector import Table

PATH = VECTORS / "withheld.json"
REPORTED = ("absences", "result", "status", "unjudged", "unproven", "violations")


def build() -> dict:
    table = Table.create()
    table.play(stop=lambda session: session.slot.kind == SEED and session.slot.seat == 1)
    played = table.sessions[0].result
    table.send(0, *table.sessions[0].absence_claim_body())
    file = tf.TranscriptFile(table.sessions[0].transcript())
    report = verify(file).to_value()
    return {
        "description": "The transcript vector's towers game, in which seat 1 never reveals its seed: seat 0 declares it absent "
                       "in the seed round. The game's result (played) gives way to seat 1's forfeit; the report lists the "
                       "absence and seat 1's unproven seed.",
        "played": played.to_value(),
        "file": tf.dump(file).hex(),
        "report": {key: report[key] for key in REPORTED},
    }


def render() -> str:
    return json.dumps(build(), indent=1) + "\n"


if __name__ == "__main__":
    PATH.write_text(render())
