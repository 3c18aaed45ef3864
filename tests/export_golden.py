"""Golden readable records: ``fairtable export`` of each game's golden transcript
(``spec/vectors/games/*.ftt``), stored as ``spec/vectors/export/<game>-<variant>.txt``.

``tests/node/cli/test_export.py`` fails when a record differs. When the change is meant (the
notation, the format, or a re-recorded golden transcript), rewrite them and review the diff:

    python -m tests.export_golden
"""

from __future__ import annotations

from pathlib import Path

from fairtable.node.cli.commands.export import text
from fairtable.node.replay import replay_chunks
from tests.paths import VECTORS

TRANSCRIPTS = VECTORS / "games"
RECORDS = VECTORS / "export"


def transcripts() -> list[Path]:
    return sorted(TRANSCRIPTS.glob("*.ftt"))


def record(transcript: Path) -> str:
    return text(replay_chunks([transcript.read_bytes()]))


def main() -> None:
    RECORDS.mkdir(exist_ok=True)
    for transcript in transcripts():
        (RECORDS / f"{transcript.stem}.txt").write_text(record(transcript), encoding="utf-8")
        print(f"wrote {RECORDS / transcript.stem}.txt")


if __name__ == "__main__":
    main()
