"""``fairtable bench seats``, ``memory`` and ``verify``: they run and report their figures (never timed here)."""

import json

import pytest

from fairtable.node.cli.bench.seats import exponent
from fairtable.node.cli.main import main


def figures_of(capsys, *args: str) -> dict:
    assert main(["bench", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_exponent_is_the_slope_on_log_scales():
    assert exponent((2, 4, 8, 16), [3.0, 6.0, 12.0, 24.0]) == pytest.approx(1.0)
    assert exponent((2, 4, 8, 16), [1.0, 4.0, 16.0, 64.0]) == pytest.approx(2.0)


def test_bench_seats_reports_every_phase_for_2_to_16_seats(capsys):
    figures = figures_of(capsys, "seats", "--cards", "16", "--rounds", "1")
    assert figures["seats"] == [2, 4, 8, 16] and figures["cards"] == 16
    for phase in ("shuffle", "deal", "move", "verify"):
        assert len(figures[f"{phase}_ms"]) == 4 and all(ms > 0 for ms in figures[f"{phase}_ms"])
        assert isinstance(figures[f"{phase}_exponent"], float)
    assert figures["ratio"] == figures["shuffle_exponent"]
    assert figures["goal"] == pytest.approx(exponent((2, 4, 8, 16), [3, 7, 15, 31]) + 0.05, abs=1e-3)
    assert len(figures["per_seat_card_us"]) == 4


def test_bench_memory_reports_tables_and_transcripts(capsys):
    figures = figures_of(capsys, "memory", "--tables", "2", "--envelopes", "60", "120")
    assert figures["tables"] == 2 and figures["tables_envelopes"] > 0
    assert figures["tables_peak_kb"] >= figures["tables_held_kb"] > 0
    assert [t["deals"] for t in figures["transcripts"]] == [1, 2]
    assert figures["transcripts"][0]["envelopes"] < figures["transcripts"][1]["envelopes"]
    assert all(t["stream_peak_kb"] > 0 and t["whole_peak_kb"] > 0 and t["bytes"] > 0 for t in figures["transcripts"])
    for way in ("stream", "whole"):  # slopes over a few envelopes are noise, of either sign
        assert isinstance(figures[f"{way}_per_envelope_bytes"], int) and isinstance(figures[f"{way}_envelopes_100k_mb"], float)


def test_bench_verify_reports_the_ratio_and_both_process_counts(capsys):
    figures = figures_of(capsys, "verify", "--games", "2", "--jobs", "2")
    assert figures["goal"] == 1.3 and figures["ratio"] > 0
    assert figures["signature_verifications"] > figures["envelopes"] > 0 and figures["scalar_multiplications"] > 0
    assert figures["processes"] == 2 and figures["speedup_goal"] == 1.6
    assert figures["files_per_s_1_process"] > 0 and figures["files_per_s_n_processes"] > 0 and figures["speedup"] > 0
    other = figures["other_crypto_seconds"]
    assert set(other) == {"entry_checks", "card_points", "derived_scalars", "envelope_hashes", "chain_hashes"}
    assert other["entry_checks"] == 0 and other["card_points"] > 0  # an honest replay checks nothing it computed
    assert 0 < figures["ratio_to_all_crypto"] <= figures["ratio"]
    assert 0 < figures["decode_us_per_envelope"] and "goal_budget_us_per_envelope" in figures


@pytest.mark.parametrize("args", [["seats", "--cards", "15"], ["memory", "--tables", "0"], ["verify", "--games", "0"]])
def test_bad_arguments_are_refused_with_a_message(args):
    with pytest.raises(SystemExit) as caught:
        main(["bench", *args])
    assert "bench" in str(caught.value)
