"""fairtable export: the readable record of each game (golden files), a cheat shown at its move,
--json for tools, and unreadable files without a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from fairtable.node.replay import replay_chunks
from tests import export_golden
from tests.node.cheated import unaffordable_play
from tests.node.cli.test_verify import seed_round_file
from tests.paths import ROOT

TRANSCRIPTS = export_golden.transcripts()


def fairtable(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "fairtable.node.cli", *args], capture_output=True, text=True, cwd=ROOT,
                          encoding="utf-8")


def test_every_golden_transcript_has_a_record_and_no_record_is_stale():
    assert {path.stem for path in TRANSCRIPTS} == {path.stem for path in export_golden.RECORDS.glob("*.txt")}


@pytest.mark.parametrize("transcript", TRANSCRIPTS, ids=[path.stem for path in TRANSCRIPTS])
def test_the_record_of_each_game_is_its_golden_file(transcript: Path):
    golden = (export_golden.RECORDS / f"{transcript.stem}.txt").read_text(encoding="utf-8")
    assert export_golden.record(transcript) == golden, "regenerate with python -m tests.export_golden and review the diff"


def test_lang_writes_the_record_in_english_by_default_or_in_the_original():
    transcript = export_golden.TRANSCRIPTS / "towers-normal.ftt"
    english, original = fairtable("export", str(transcript)), fairtable("export", "--lang", "orig", str(transcript))
    assert english.stdout == (export_golden.RECORDS / "towers-normal.txt").read_text(encoding="utf-8")
    assert "play Apprentice" in english.stdout and "Prelūdija" not in english.stdout
    assert "play Prelūdija" in original.stdout and "Apprentice" not in original.stdout
    refused = fairtable("export", "--lang", "lv", str(transcript))
    assert refused.returncode == 2 and "invalid choice: 'lv'" in refused.stderr and "Traceback" not in refused.stderr


def test_the_command_writes_the_record_and_exits_0_for_a_verified_transcript():
    transcript = export_golden.TRANSCRIPTS / "towers-normal.ftt"
    completed = fairtable("export", str(transcript))
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout == (export_golden.RECORDS / "towers-normal.txt").read_text(encoding="utf-8")


def test_each_game_speaks_its_own_notation():
    records = {path.stem: (export_golden.RECORDS / f"{path.stem}.txt").read_text(encoding="utf-8") for path in TRANSCRIPTS}
    towers, zeeslag, shengji = records["towers-normal"], records["zeeslag-duel"], records["shengji-standard"]
    assert "\n1. bot-0: " in towers and ": play " in towers and "seat 0" not in towers.split("moves:")[1]  # names, no seat numbers
    assert any(line.endswith((": hit", ": miss")) for line in zeeslag.splitlines())
    assert ": sunk: " in zeeslag and ": not sunk" in zeeslag and "commits its hidden data" in zeeslag
    assert ": lead " in shengji and ": declare (" in shengji
    drachenherz = records["drachenherz-standard"]
    assert ": play Fire dragon " in drachenherz and not any(line.endswith(("/ch", "/pd")) for line in drachenherz.splitlines())
    for record in records.values():
        header = record.split("\n\n")[0].splitlines()
        assert header[0] == "fairtable-export 1" and header[-2] == "verified: yes"
        assert record.split("\n\n")[-1].startswith("result: ") and "no result" not in record


def test_a_tampered_transcript_is_exported_as_not_verified_with_the_violation_at_its_move(tmp_path):
    cheat = unaffordable_play()
    path = tmp_path / "cheat.ftt"
    path.write_bytes(cheat.transcript)
    completed = fairtable("export", str(path))
    assert completed.returncode == 1, completed.stderr
    lines = completed.stdout.splitlines()
    assert "verified: NO: 1 violation found, listed at the end" in lines
    marker = f"   VIOLATION at envelope {cheat.index}: bot-{cheat.seat} broke {cheat.rule}"
    position = lines.index(marker)
    assert lines[position - 1].startswith(f"{cheat.moves}. bot-"), "the finding follows the last accepted move"
    assert any(line.startswith(f"envelope {cheat.index}: bot-{cheat.seat} broke {cheat.rule}: ") for line in lines)


def test_json_is_one_object_with_the_header_moves_and_verdict(tmp_path):
    cheat = unaffordable_play()
    path = tmp_path / "cheat.ftt"
    path.write_bytes(cheat.transcript)
    completed = fairtable("export", "--json", str(path))
    assert completed.returncode == 1
    record = json.loads(completed.stdout)
    assert (record["format"], record["version"], record["game"], record["valid"]) == ("fairtable-export", 1, "towers", False)
    assert [seat["name"] for seat in record["seats"]] == ["bot-0", "bot-1"]
    assert all("-" in seat["fingerprint"] for seat in record["seats"])
    numbered = [step["number"] for step in record["steps"] if step["number"] is not None]
    assert numbered == list(range(1, cheat.moves + 1))
    finding = next(step for step in record["steps"] if step["violations"])
    assert (finding["index"], finding["seat"]) == (cheat.index, cheat.seat)
    assert record["violations"][finding["violations"][0]]["rule"] == cheat.rule
    assert "spectator" not in finding, "views are for the viewer only"


def test_a_cheat_gets_its_own_step_with_the_views_before_it():
    cheat = unaffordable_play()
    record = replay_chunks([cheat.transcript])
    finding = record.steps[-1]
    assert (finding.kind, finding.index, finding.violations) == ("finding", cheat.index, [0])
    assert finding.spectator["hand"] is None and all(view["hand"] for view in finding.views)


@pytest.mark.parametrize("content", [b"", b"garbage"])
def test_unreadable_files_exit_2_without_a_traceback(tmp_path, content):
    path = tmp_path / "bad.ftt"
    path.write_bytes(content)
    for target in (path, tmp_path / "missing.ftt"):
        completed = fairtable("export", str(target))
        assert completed.returncode == 2 and completed.stdout == ""
        assert "Traceback" not in completed.stderr
        assert ("malformed transcript" if target.exists() else "cannot read") in completed.stderr


def test_a_game_without_notation_lists_its_moves_as_json(counting_game):
    from fairtable.protocol.testing import SelfPlay
    from fairtable.protocol.transcript_file import dump

    table = SelfPlay.create(counting_game.id, "normal", {}, 2, b"generic")
    record = replay_chunks([dump(table.play())])
    moves = [step for step in record.steps if step.number is not None]
    assert moves and all(step.text.split(": ", 1)[1] in ("1", "2", "3") for step in moves)
    assert record.report.valid and record.steps[-1].text.startswith("game over: bot-")


def test_an_unfinished_transcript_is_exported_as_incomplete_exit_3(tmp_path):
    path, index = seed_round_file(tmp_path, "unfinished.ftt")
    completed = fairtable("export", str(path))
    assert completed.returncode == 3, completed.stderr
    assert f"verified: NO: INCOMPLETE: the transcript ends while seat 1 was due to send 'seed' (envelope {index})" in completed.stdout
    assert "VIOLATION" not in completed.stdout
    assert completed.stderr.startswith(f"fairtable export: {path}: not verified: INCOMPLETE: the transcript ends while seat 1")


@pytest.mark.parametrize("harm", ["cut", "flipped"])
def test_a_damaged_transcript_is_exported_as_damaged_not_as_cheating(tmp_path, harm):
    whole = bytearray((export_golden.TRANSCRIPTS / "towers-normal.ftt").read_bytes())
    if harm == "cut":
        whole = whole[: len(whole) // 2]
    else:
        whole[len(whole) // 2] ^= 0xFF
    path = tmp_path / f"{harm}.ftt"
    path.write_bytes(bytes(whole))
    completed = fairtable("export", str(path))
    assert completed.returncode == 3, completed.stdout + completed.stderr
    verdict = next(line for line in completed.stdout.splitlines() if line.startswith("verified: "))
    assert verdict.startswith("verified: NO: DAMAGED after the first ") and "VIOLATION" not in completed.stdout
    assert completed.stderr == f"fairtable export: {path}: not verified: {verdict[len('verified: NO: '):]}\n"  # said first, on its own


def test_a_verified_record_says_nothing_on_stderr(tmp_path):
    completed = fairtable("export", str(export_golden.TRANSCRIPTS / "towers-normal.ftt"))
    assert completed.returncode == 0 and completed.stderr == ""


def test_duel_tells_each_duel_played_or_turned_over():
    one, blind = (export_golden.record(export_golden.TRANSCRIPTS / f"duel-{variant}.ftt") for variant in ("1v1", "blind"))
    assert "1. bot-1: attack with " in one and ": defend with " in one and " against " in one
    assert all(": attack with " not in line for line in blind.splitlines())
    duels = [line for line in blind.splitlines() if line.startswith("   r")]
    assert len(duels) == 18 and all(" vs bot-" in line for line in duels)
