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
