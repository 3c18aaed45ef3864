"""People, not seats: every board of every golden transcript, as every seat and a spectator see it,
and its export name the players by the genesis's names; no seat number reaches a person."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from fairtable.games import registry, seated
from fairtable.node.cli.commands.export import text
from fairtable.node.replay import replay_chunks
from tests import export_golden

TRANSCRIPTS = export_golden.transcripts()
SEAT_NUMBER = re.compile(r"\bseats? \d+\b|\bteams? \d|\b\d\+\d\b|(?<![\w-])s\d+\*?(?= )")
"""How a seat number shows: ``seat 1``, ``teams 0+2``, a sea labelled ``s1 bob`` or counted ``s2* 5``."""
SEAT_LIST = re.compile(r"seat \d+: ")
"""The export's list of who sat where (``seat 1: bob (fingerprint)``, spec/export.md): the one place
a seat's number is printed, beside its name, since the transcript counts seats by it."""


@pytest.mark.parametrize("transcript", TRANSCRIPTS, ids=[path.stem for path in TRANSCRIPTS])
def test_no_board_or_export_shows_a_seat_number(transcript: Path):
    record = replay_chunks([transcript.read_bytes()])
    renderer = registry.get(record.report.game).renderer
    assert renderer is not None
    with seated(record.names):
        shown = [text(record), *(renderer.render(view) for step in record.steps for view in (step.spectator, *step.views))]
    lines = [line for board in shown for line in board.splitlines() if not SEAT_LIST.match(line)]
    found = sorted({match.group(0) for line in lines for match in SEAT_NUMBER.finditer(line)})
    assert not found, f"{transcript.stem} shows seat numbers: {found}"
