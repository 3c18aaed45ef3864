"""Whole tournaments between node processes over loopback TCP: the 8-node demo end to end, and a
participant killed (kill -9) in the middle of its group table that restarts and finishes."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from fairtable.node.tournament.files import TournamentFiles
from fairtable.protocol.tournament.bundle import COUNTED, verify_bundle
from tests.node.nodes import free_port, listening_address, node_process
from tests.node.test_processes import journal_length
from tests.protocol.tournament.helpers import SHORT

DONE = ("--bot", "random", "--bot-delay", "0.01", "--until-done")


def test_the_demo_runs_eight_node_processes_through_a_tournament_and_verifies_its_bundle(tmp_path):
    completed = subprocess.run([sys.executable, "-m", "fairtable.node.cli", "demo", "--tournament", "8", "--out", str(tmp_path)],
                               capture_output=True, text=True, timeout=600)
    assert completed.returncode == 0, completed.stdout + completed.stderr
    out = completed.stdout
    assert "identical     yes" in out
    assert "champion" in out and "best defender" in out and "top attacker" in out
    files = TournamentFiles(tmp_path / "bundle")
    report = verify_bundle(files.tournament(), files.table)
    tables = len(report.checks)
    assert report.complete and f"COMPLETE: {tables} of {tables} tables counted" in out
    stages = [c.table.spec.stage for c in report.checks]
    playoffs = stages.count("playoff")  # bots' group points may tie across a qualifying line
    assert stages == ["group", "group", *["playoff"] * playoffs, "knockout", "knockout", "final"]
    assert len({s.participant for s in report.progress.standings}) == 8


def bundle_of(data: Path) -> dict[str, bytes]:
    (folder,) = (data / "tournaments").iterdir()
    return {path.name: path.read_bytes() for path in folder.iterdir() if path.name != "peers"}


def test_a_participant_killed_mid_tournament_restarts_from_disk_and_the_tournament_finishes(tmp_path):
    names = [f"p{n}" for n in range(4)]
    ports = [free_port() for _ in names]
    host = node_process(tmp_path / names[0], names[0], "--port", str(ports[0]), "--host-tournament", "4",
                        "--tournament-options", json.dumps(SHORT), *DONE)
    address = listening_address(host)
    processes = [host] + [node_process(tmp_path / name, name, "--port", str(port), "--join-tournament", address, *DONE)
                          for name, port in zip(names[1:], ports[1:])]
    victim = 2
    try:
        deadline = time.monotonic() + 120
        while journal_length(tmp_path / names[victim]) < 8 and time.monotonic() < deadline:
            time.sleep(0.005)
        processes[victim].kill()
        processes[victim].communicate()
        assert journal_length(tmp_path / names[victim]) >= 8  # killed inside its first table
        processes[victim] = node_process(tmp_path / names[victim], names[victim], "--port", str(ports[victim]), *DONE,
                                         log=tmp_path / f"{names[victim]}-restarted.log")
        for process in processes:
            process.communicate(timeout=240)
            assert process.returncode == 0
    finally:
        for process in processes:
            process.kill()
    bundles = [bundle_of(tmp_path / name) for name in names]
    assert all(bundle == bundles[0] for bundle in bundles)
    files = TournamentFiles(next((tmp_path / names[victim] / "tournaments").iterdir()))
    report = verify_bundle(files.tournament(), files.table)
    assert report.complete and all(check.status == COUNTED for check in report.checks)
    restarted = (tmp_path / f"{names[victim]}-restarted.log").read_text()
    assert "envelopes from the journal" in restarted and "tournament" in restarted  # it carried on from disk
