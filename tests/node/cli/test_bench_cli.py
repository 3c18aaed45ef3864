import json
import subprocess
import sys


def test_bench_wire_prints_figures_against_a_same_run_baseline():
    completed = subprocess.run(
        [sys.executable, "-m", "fairtable.node.cli", "bench", "wire", "--json", "--seconds", "0.05"],
        capture_output=True, text=True, check=True,
    )
    figures = json.loads(completed.stdout)
    assert figures["goal"] == 1.3
    assert figures["envelope_bytes"] > 150
    for key in ("sign_encode_per_s", "decode_verify_per_s", "raw_ed25519_sign_per_s", "raw_ed25519_verify_per_s"):
        assert figures[key] > 0
    # the ratio is the figures' own quotient (timing itself is never asserted: it varies with load)
    expected = figures["raw_ed25519_verify_per_s"] / figures["decode_verify_per_s"]
    assert abs(figures["ratio"] - expected) <= 0.01 * expected + 0.002
    assert abs(figures["ratio"] - figures["decode_verify_us"] / figures["floor_us"]) <= 0.001 * figures["ratio"] + 0.0005
    low, high = figures["ratio_spread"]
    assert 0 < low <= high and figures["rounds"] >= 3


def _wire(*extra: str) -> dict:
    completed = subprocess.run(
        [sys.executable, "-m", "fairtable.node.cli", "bench", "wire", "--json", "--seconds", "0.05", *extra],
        capture_output=True, text=True, check=True,
    )
    return json.loads(completed.stdout)


def test_every_bench_reports_the_load_beside_its_figures_and_busy_makes_the_machine_loaded():
    quiet, loaded = _wire(), _wire("--busy", "1")
    assert quiet["load"]["busy_processes"] == 0 and loaded["load"]["busy_processes"] == 1
    for load in (quiet["load"], loaded["load"]):
        assert load["cores"] >= 1 and load["load_1min"] >= 0
        assert 0 <= load["others_cpu_share"] <= 1
    assert loaded["load"]["others_cpu_share"] > 0  # the spinner ran the whole time and is not this benchmark


def test_busy_must_not_be_negative():
    completed = subprocess.run(
        [sys.executable, "-m", "fairtable.node.cli", "bench", "wire", "--busy", "-1"], capture_output=True, text=True,
    )
    assert completed.returncode != 0 and "--busy must not be negative" in completed.stderr
    assert "Traceback" not in completed.stderr
