"""fairtable selfplay and fairtable verify as a user runs them: files, output, exit codes."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.paths import ROOT, VECTORS
from tests.protocol.session.tables import file_bytes, play_until, slot_is, towers, with_body


def fairtable(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "fairtable.node.cli", *args], capture_output=True, text=True, cwd=ROOT)


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> list[Path]:
    out = tmp_path_factory.mktemp("selfplay")
    completed = fairtable("selfplay", "towers", "--out", str(out), "--games", "2", "--seed", "cli")
    assert completed.returncode == 0, completed.stderr
    files = sorted(out.glob("*.ftt"))
    assert len(files) == 2 and all(str(f) in completed.stdout for f in files)
    return files


def test_selfplay_is_reproducible_with_a_seed(played, tmp_path):
    assert fairtable("selfplay", "towers", "--out", str(tmp_path), "--games", "2", "--seed", "cli").returncode == 0
    assert sorted(p.read_bytes() for p in tmp_path.glob("*.ftt")) == sorted(p.read_bytes() for p in played)


def test_valid_files_exit_0_with_a_summary(played):
    completed = fairtable("verify", *map(str, played))
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert completed.stdout.count("VALID") == 2
    for needle in ("towers (normal)", "seat 0", "seat 1", "result", "envelopes", "time"):
        assert needle in completed.stdout
    assert completed.stdout.count("protocol  version 3: every deck stage, position key and unblinding was proved") == 2


def test_json_output_is_one_object_per_file(played):
    completed = fairtable("verify", "--json", *map(str, played))
    objects = [json.loads(line) for line in completed.stdout.splitlines()]
    assert [o["valid"] for o in objects] == [True, True]
    assert all(o["game"] == "towers" and o["envelopes"] > 0 and len(o["seats"]) == 2 and o["result"]["winners"] is not None for o in objects)
    assert all(o["version"] == 3 and "proved" in o["guarantees"] for o in objects)


def seed_round_file(tmp_path: Path, name: str, extra=()) -> tuple[Path, int]:
    """A towers transcript that stops before seat 1's seed reveal (plus ``extra`` envelopes)."""
    table = towers()
    play_until(table, slot_is("seed", seat=1))
    path = tmp_path / name
    envelopes = [envelope(table) for envelope in extra]
    path.write_bytes(file_bytes(table, envelopes))
    return path, len(table.sessions[0].envelopes)


def test_a_violation_exits_1_and_names_index_seat_and_rule(tmp_path):
    path, index = seed_round_file(tmp_path, "lie.ftt", [lambda table: with_body(table, lambda body: dict(body, seed=bytes(32)))])
    completed = fairtable("verify", str(path))
    assert completed.returncode == 1
    assert f"VIOLATION at envelope {index}: seat 1 broke seed.mismatch" in completed.stdout


def test_an_unfinished_transcript_exits_3_and_says_who_was_due(tmp_path):
    path, index = seed_round_file(tmp_path, "unfinished.ftt")
    completed = fairtable("verify", str(path))
    assert completed.returncode == 3, completed.stdout
    assert "INCOMPLETE" in completed.stdout and "VIOLATION" not in completed.stdout
    assert f"seat 1 was due to send 'seed' (envelope {index})" in completed.stdout
    objects = [json.loads(line) for line in fairtable("verify", "--json", str(path)).stdout.splitlines()]
    assert objects[0]["status"] == "incomplete" and objects[0]["owed"] == [{"index": index, "kind": "seed", "seat": 1}]


def test_a_withheld_seed_forfeits_and_the_report_says_what_it_leaves_unproven(tmp_path):
    table = towers()
    play_until(table, slot_is("seed", seat=1))
    table.deliver(table.seal(0, *table.sessions[0].absence_claim_body()))
    path = tmp_path / "withheld.ftt"
    path.write_bytes(file_bytes(table))
    completed = fairtable("verify", str(path))
    assert completed.returncode == 0, completed.stdout
    assert "won: a player withheld a seed or deck after the game" in completed.stdout and "seat 0" in completed.stdout
    assert "UNPROVEN: seat 1 never revealed its seed of game 0: deviations only that seed would show cannot be ruled out" in completed.stdout
    (found,) = [json.loads(line) for line in fairtable("verify", "--json", str(path)).stdout.splitlines()]
    assert found["result"]["reason"] == "forfeit: withheld" and found["result"]["winners"] == [0]
    assert [(u["game"], u["seat"]) for u in found["unproven"]] == [(0, 1)] and found["unjudged"] == []


def test_a_damaged_transcript_exits_3_and_verifies_its_prefix(played, tmp_path):
    data = played[0].read_bytes()
    path = tmp_path / "cut.ftt"
    path.write_bytes(data[: len(data) // 2])
    completed = fairtable("verify", "--json", str(path))
    assert completed.returncode == 3, completed.stdout
    report = json.loads(completed.stdout)
    assert report["status"] == "damaged" and report["violations"] == [] and report["envelopes"] > 0
    assert "ends inside a record" in report["damage"]


def test_the_most_severe_file_decides_the_exit_status(played, tmp_path):
    garbage = tmp_path / "garbage.ftt"
    garbage.write_bytes(b"garbage")
    unfinished, _ = seed_round_file(tmp_path, "unfinished.ftt")
    lie, _ = seed_round_file(tmp_path, "lie.ftt", [lambda table: with_body(table, lambda body: dict(body, seed=bytes(32)))])
    for files, status in (([played[0]], 0), ([played[0], unfinished], 3), ([unfinished, garbage], 2), ([garbage, lie, unfinished], 1)):
        assert fairtable("verify", *map(str, files)).returncode == status


def test_the_spec_transcript_vector_verifies(tmp_path):
    path = tmp_path / "vector.ftt"
    path.write_bytes(bytes.fromhex(json.loads((VECTORS / "transcript.json").read_text())["file"]))
    completed = fairtable("verify", str(path))
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert f"{path}: VALID" in completed.stdout
    assert "protocol  version 2: deck stages and position keys were checked only after the seed reveal" in completed.stdout


def test_help_documents_statuses_and_exit_codes():
    completed = fairtable("verify", "--help")
    for needle in ("INCOMPLETE", "DAMAGED", "VIOLATIONS FOUND", "0  every file is valid", "3  a file is incomplete or damaged"):
        assert needle in completed.stdout


@pytest.mark.parametrize("content", [b"", b"garbage", b"\x81\xa6format\xa3bad"])
def test_unreadable_files_exit_2_without_a_traceback(tmp_path, content):
    path = tmp_path / "bad.ftt"
    path.write_bytes(content)
    completed = fairtable("verify", str(path), str(tmp_path / "missing.ftt"))
    assert completed.returncode == 2
    assert "Traceback" not in completed.stderr
    assert "malformed transcript" in completed.stderr and "cannot read" in completed.stderr


def test_equivocation_across_files_exits_1(tmp_path):
    table = towers()
    play_until(table, slot_is("move"))
    seat = table.sessions[0].slot.seat
    legal = table.sessions[seat].legal_moves()
    paths = []
    for number, move in enumerate((legal[0], legal[-1])):
        path = tmp_path / f"{number}.ftt"
        path.write_bytes(file_bytes(table, [table.seal(seat, *table.sessions[seat].move_body(move))]))
        paths.append(str(path))
    completed = fairtable("verify", *paths)
    assert completed.returncode == 1
    assert f"{paths[0]} + {paths[1]} (together): VIOLATIONS FOUND" in completed.stdout
    assert f"seat {seat} broke chain.equivocation: seat {seat} signed two different envelopes for slot" in completed.stdout


def test_files_that_fork_are_verified_together_not_an_internal_error(tmp_path):
    """One file with the due seat's move, one with another seat's absence claim in its slot and
    the game ended after it: each seat signed after different envelopes, which is a fork, not an
    equivocation. The files are reported each, then together on the chain with the move."""
    honest, claimed = towers(b"fork"), towers(b"fork")
    for table in (honest, claimed):
        play_until(table, slot_is("move", 0))
    fork = len(honest.sessions[0].envelopes)
    honest.play()
    claimed.deliver(claimed.seal(1, *claimed.sessions[1].absence_claim_body()))
    claimed.play()
    paths = [tmp_path / "honest.ftt", tmp_path / "forked.ftt"]
    for path, table in zip(paths, (honest, claimed)):
        path.write_bytes(file_bytes(table))
    completed = fairtable("verify", "--jobs", "1", *map(str, paths))
    assert completed.returncode in (0, 1) and "internal error" not in completed.stderr, completed.stderr
    together = completed.stdout.split(f"{paths[0]} + {paths[1]} (together): ")[1]
    assert f"envelopes {len(honest.sessions[0].envelopes)}" in together and "chain.equivocation" not in together
    assert "seat 0 broke" not in together
    assert f"{paths[0]}: follows this chain" in together and f"{paths[1]}: leaves this chain at envelope {fork} " in together


def test_parallel_verification_prints_what_one_process_prints_in_input_order(played, tmp_path):
    """Workers finish in any order; the output is in the order of the files given, and the same
    (bar the times) as with one process: reports, an unreadable file, an equivocation, the status."""
    table = towers()
    play_until(table, slot_is("move"))
    seat = table.sessions[0].slot.seat
    legal = table.sessions[seat].legal_moves()
    rivals = []
    for number, move in enumerate((legal[0], legal[-1])):
        path = tmp_path / f"rival-{number}.ftt"
        path.write_bytes(file_bytes(table, [table.seal(seat, *table.sessions[seat].move_body(move))]))
        rivals.append(str(path))
    bad = tmp_path / "bad.ftt"
    bad.write_bytes(b"garbage")
    files = [rivals[0], *map(str, played), str(bad), rivals[1], *map(str, played)]

    def without_times(text: str) -> list[str]:
        return [line for line in text.splitlines() if not line.startswith("  time ")]

    one = fairtable("verify", "--jobs", "1", *files)
    many = fairtable("verify", "--jobs", "3", *files)
    assert one.returncode == many.returncode == 1
    assert without_times(one.stdout) == without_times(many.stdout) and one.stderr == many.stderr
    headlines = [line.split(":")[0] for line in many.stdout.splitlines() if line.endswith(("VALID", "INCOMPLETE"))]
    assert headlines == [f for f in files if f != str(bad)]
    slot = table.sessions[0].envelopes[-1].seq + 1
    joint = many.stdout.split(f"{rivals[0]} + {rivals[1]} (together): VIOLATIONS FOUND\n")[1]
    assert f"seat {seat} broke chain.equivocation: seat {seat} signed two different envelopes for slot {slot}" in joint
    json_one = [json.loads(line) for line in fairtable("verify", "--json", "--jobs", "1", *files).stdout.splitlines()]
    json_many = [json.loads(line) for line in fairtable("verify", "--json", *files).stdout.splitlines()]
    for record in json_one + json_many:
        record.pop("seconds", None)
    assert json_one == json_many and [r.get("file") for r in json_many[:-1]] == files


@pytest.mark.parametrize("jobs", ["-1", "two"])
def test_a_bad_jobs_option_is_refused_clearly(played, jobs):
    completed = fairtable("verify", "--jobs", jobs, str(played[0]))
    assert completed.returncode == 2 and "--jobs takes a number of processes" in completed.stderr
    assert "Traceback" not in completed.stderr


def example(*paths) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "examples" / "verify_transcript.py"), *map(str, paths)],
                          capture_output=True, text=True, cwd=ROOT)


def test_the_library_example(played, tmp_path):
    completed = example(*played)
    assert completed.returncode == 0
    assert completed.stdout.count("valid towers game") == 2


def test_the_library_example_never_prints_a_traceback(played, tmp_path):
    data = played[0].read_bytes()
    middle = len(data) // 2  # inside an envelope, well after the genesis
    flipped = data[:middle] + bytes([data[middle] ^ 1]) + data[middle + 1 :]
    cases = {"garbage": (b"\x93garbage", 2), "empty": (b"", 2), "truncated": (data[:-7], 3), "flipped": (flipped, 3)}
    lie, _ = seed_round_file(tmp_path, "lie.ftt", [lambda table: with_body(table, lambda body: dict(body, seed=bytes(32)))])
    for name, (content, status) in cases.items():
        path = tmp_path / f"{name}.ftt"
        path.write_bytes(content)
        completed = example(path)
        assert completed.returncode == status, (name, completed.stdout, completed.stderr)
        assert completed.stderr == "" and "Traceback" not in completed.stdout
    completed = example(lie)
    assert completed.returncode == 1 and "seat 1" in completed.stdout and "seed.mismatch" in completed.stdout


def test_selfplay_refuses_bad_arguments_clearly(tmp_path):
    for args, message in ((["nosuchgame"], "unknown game"), (["towers", "--options", "[1]"], "JSON object"),
                          (["towers", "--options", '{"battlefield": "moon"}'], "battlefield")):
        completed = fairtable("selfplay", *args, "--out", str(tmp_path))
        assert completed.returncode != 0 and message in completed.stderr and "Traceback" not in completed.stderr


def test_the_result_reads_the_right_way_round_with_player_names(played):
    completed = fairtable("verify", str(played[0]))
    result = next(line for line in completed.stdout.splitlines() if line.strip().startswith("result"))
    assert " won: " in result or "a draw" in result
    assert "bot-0 won" in result or "bot-1 won" in result or "a draw" in result


def test_damaged_and_cut_files_are_reported_as_damage_not_cheating(played, tmp_path):
    whole = played[0].read_bytes()
    cut, flipped = tmp_path / "cut.ftt", tmp_path / "flipped.ftt"
    cut.write_bytes(whole[: len(whole) // 2])
    damaged = bytearray(whole)
    damaged[len(whole) // 2] ^= 0xFF
    flipped.write_bytes(bytes(damaged))
    for path, words in ((cut, "file ends inside a record"), (flipped, "DAMAGED")):
        completed = fairtable("verify", str(path))
        said = completed.stdout + completed.stderr
        assert completed.returncode == 3, said
        assert words in said and "VIOLATION" not in said and "Traceback" not in said
