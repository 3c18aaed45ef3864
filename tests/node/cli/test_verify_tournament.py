"""fairtable verify (and fairtable tournament verify) on a tournament bundle: every table checked
and shown as it is, standings from verified tables only, the bad table named, exit statuses."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fairtable.node.cli.main import main
from fairtable.protocol.tournament.bundle import FILE_NAME, verify_bundle
from tests.protocol.tournament.helpers import SHORT, cheating_at, play_tables, signed_record, tournament_file, write_bundle

SIGNED = signed_record(4, SHORT)


@pytest.fixture(scope="module")
def tables() -> dict[bytes, bytes]:
    return play_tables(SIGNED)


@pytest.fixture(scope="module")
def calls(tables):
    """The tables in the order the tournament calls for them: the labels and ids."""
    report = verify_bundle(tournament_file(SIGNED), tables.get)
    return [(check.table.spec.label, check.table.table_id) for check in report.checks]


def verify(capsys, *args: str) -> tuple[int, str]:
    status = main(["verify", *args])
    captured = capsys.readouterr()
    assert "Traceback" not in captured.out + captured.err
    return status, captured.out + captured.err


def test_a_whole_bundle_is_valid_table_by_table_with_standings_and_prizes(tmp_path, capsys, tables, calls):
    bundle = write_bundle(tmp_path / "bundle", SIGNED, tables)
    status, out = verify(capsys, str(bundle))
    assert status == 0, out
    lines = out.splitlines()
    checked = [line for line in lines if line.strip().startswith("VALID")]
    assert [line.split()[3] for line in checked] == [label.split()[0] for label, _ in calls]
    assert f"COMPLETE: {len(calls)} of {len(calls)} tables counted" in out
    for needle in ("standings", "bracket", "champion", "best defender", "top attacker", SIGNED.record_id.hex()):
        assert needle in out
    assert main(["verify", str(bundle / FILE_NAME)]) == 0  # the tournament file names its bundle too
    assert main(["tournament", "verify", str(bundle)]) == 0


def test_a_missing_table_is_named_and_exits_3(tmp_path, capsys, tables, calls):
    label, final = calls[-1]
    bundle = write_bundle(tmp_path / "bundle", SIGNED, {k: v for k, v in tables.items() if k != final})
    status, out = verify(capsys, str(bundle))
    assert status == 3
    assert any(line.strip().startswith("MISSING") and label in line for line in out.splitlines())
    assert "INCOMPLETE" in out and "champion" not in out


def test_a_forged_table_is_named_and_exits_2_and_counts_for_nothing(tmp_path, capsys, tables, calls):
    """The group's transcript replaced by the final's: a valid table, but not the one the record calls for."""
    label, group = calls[0]
    bundle = write_bundle(tmp_path / "bundle", SIGNED, {**tables, group: tables[calls[-1][1]]})
    status, out = verify(capsys, "--json", str(bundle))
    assert status == 2
    (report,) = [json.loads(line) for line in out.splitlines()]
    assert [(t["label"], t["status"], t["verdict"]) for t in report["tables"]] == [(label, "invalid", "foreign")]
    assert not report["complete"] and all(s["tables"] == 0 for s in report["progress"]["standings"])


def test_a_cheating_finalist_is_named_exits_1_and_the_other_is_champion(tmp_path, capsys, tables, calls):
    label, final = calls[-1]
    report = verify_bundle(tournament_file(SIGNED), tables.get)
    table = report.checks[-1].table
    bundle = write_bundle(tmp_path / "bundle", SIGNED, {**tables, final: cheating_at(table)})
    status, out = verify(capsys, str(bundle))
    assert status == 1
    line = next(line for line in out.splitlines() if label in line and "round" in line)
    assert line.strip().startswith("VIOLATIONS FOUND") and "cheating: seat 0" in line
    assert f"champion       p{table.spec.seats[1]}" in out


def test_a_damaged_table_is_named_and_a_bad_tournament_file_exits_2_in_words(tmp_path, capsys, tables, calls):
    label, group = calls[0]
    cut = tables[group][: len(tables[group]) // 2]
    bundle = write_bundle(tmp_path / "bundle", SIGNED, {**tables, group: cut})
    status, out = verify(capsys, str(bundle))
    assert status in (2, 3) and label in out and "0 of 1 tables counted" in out
    (bundle / FILE_NAME).write_bytes(b"not a tournament")
    status, out = verify(capsys, str(bundle))
    assert status == 2 and "not a tournament bundle" in out
    status, out = verify(capsys, str(Path(tmp_path / "nowhere") / FILE_NAME))
    assert status == 2 and "cannot read the tournament file" in out


def test_a_bundle_checked_on_two_processes_reports_what_one_process_does(tmp_path, capsys, tables, calls):
    """A round's tables are checked together on every core; the report (the order too) does not change."""
    final = calls[-1][1]
    report = verify_bundle(tournament_file(SIGNED), tables.get)
    bundle = write_bundle(tmp_path / "bundle", SIGNED, {**tables, final: cheating_at(report.checks[-1].table)})
    reports = []
    for jobs in ("1", "2"):
        status, out = verify(capsys, "--json", "--jobs", jobs, str(bundle))
        (value,) = [json.loads(line) for line in out.splitlines()]
        reports.append((status, {key: item for key, item in value.items() if key != "seconds"}))
    assert reports[0] == reports[1] and reports[0][0] == 1
