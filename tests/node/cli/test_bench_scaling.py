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


def test_bench_seats_reports_every_phase_of_a_proved_deck_against_its_work(capsys):
    figures = figures_of(capsys, "seats", "--cards", "16", "17", "--rounds", "1")
    assert figures["seats"] == [2, 4, 8, 16] and [d["cards"] for d in figures["decks"]] == [16, 17]
    quotients = []
    for deck in figures["decks"]:
        m = deck["cards"]
        for phase in ("shuffle_proof", "deal", "move", "verify"):
            ms, work = deck[f"{phase}_ms"], deck[f"{phase}_work"]
            assert len(ms) == len(work) == 4 and all(t > 0 for t in ms) and all(w > 0 for w in work)
            # each exponent is the slope of the printed figures (times rounded to the µs)
            assert deck[f"{phase}_exponent"] == pytest.approx(exponent((2, 4, 8, 16), ms), abs=0.01)
            assert deck[f"{phase}_work_exponent"] == pytest.approx(exponent((2, 4, 8, 16), work), abs=0.001)
            quotients.append(deck[f"{phase}_exponent"] / deck[f"{phase}_work_exponent"])
        sign, verify = figures["ed25519_sign_us"], figures["ed25519_verify_us"]
        assert deck["move_work"] == pytest.approx([sign + (n - 1) * verify for n in (2, 4, 8, 16)], abs=0.02)
        assert deck["deal_work"] == [n * n for n in (2, 4, 8, 16)]
        # the verifier proves every stage again: n shuffles (the last a shuffle-lock) and n - 1 locks, and commits
        shuffles = [n * (13 * m + 5) + 3 * m + (n - 1) * 3 * m + n * (1 + m) for n in (2, 4, 8, 16)]
        assert deck["verify_work"] == shuffles
    assert figures["ratio"] == pytest.approx(max(quotients), abs=0.001) and figures["goal"] == 1.1


def test_bench_memory_reports_tables_and_transcripts(capsys):
    figures = figures_of(capsys, "memory", "--tables", "2", "--envelopes", "60", "120")
    assert figures["tables"] == 2 and figures["tables_envelopes"] > 0
    assert figures["tables_peak_kb"] >= figures["tables_held_kb"] > 0
    assert [t["deals"] for t in figures["transcripts"]] == [1, 2]
    assert figures["transcripts"][0]["envelopes"] < figures["transcripts"][1]["envelopes"]
    assert all(t["stream_peak_kb"] > 0 and t["whole_peak_kb"] > 0 and t["bytes"] > 0 for t in figures["transcripts"])
    for way in ("stream", "whole"):  # slopes over a few envelopes are noise, of either sign
        assert isinstance(figures[f"{way}_per_envelope_bytes"], int) and isinstance(figures[f"{way}_envelopes_100k_mb"], float)


def test_bench_verify_reports_the_ratio_to_its_floor_and_both_process_counts(capsys):
    figures = figures_of(capsys, "verify", "--games", "2", "--jobs", "2", "--bundle", "4")
    assert figures["goal"] == 1.3
    counts, parts = figures["floor_counts"], figures["floor_seconds_by_part"]
    assert set(counts) == set(parts) and counts["signatures"] > figures["envelopes"] > 0
    # a proved towers deck: the replay re-proves every stage and opens its cards by the permutations
    assert counts["proof_multiplications"] > 0 and counts["proof_base_multiplications"] > 0 and counts["deck_multiplications"] == 0
    assert counts["entry_checks"] == 0 and counts["card_points"] > 0  # an honest replay checks nothing it computed
    assert all(parts[name] > 0 for name, count in counts.items() if count)
    # the figures are each other's quotients (timing itself is never asserted: it varies with load)
    assert figures["floor_seconds"] == pytest.approx(sum(parts.values()), abs=2e-3)
    assert figures["ratio"] == pytest.approx(figures["verify_cpu_seconds"] / figures["floor_seconds"], rel=5e-3)
    python = (figures["verify_cpu_seconds"] - figures["floor_seconds"]) / figures["envelopes"] * 1e6
    assert figures["python_us_per_envelope"] == pytest.approx(python, rel=0.02, abs=2)
    budget = (figures["goal"] - 1) * figures["floor_seconds"] / figures["envelopes"] * 1e6
    assert figures["goal_budget_us_per_envelope"] == pytest.approx(budget, rel=0.02, abs=2)
    assert figures["processes"] == 2 and figures["speedup_goal"] == 1.6
    assert figures["files_per_s_1_process"] > 0 and figures["files_per_s_n_processes"] > 0
    assert figures["speedup"] == pytest.approx(figures["files_per_s_n_processes"] / figures["files_per_s_1_process"], rel=0.01)
    assert figures["busy_cores"] > 0 and figures["decode_us_per_envelope"] > 0
    rounds = figures["bundle_tables_by_round"]
    assert figures["bundle_participants"] == 4 and sum(rounds) > 1 and figures["bundle_speedup_goal"] == 1.6
    assert figures["bundle_speedup_bound"] == pytest.approx(sum(rounds) / sum(-(-width // 2) for width in rounds), abs=1e-3)
    speedup = figures["bundle_seconds_1_process"] / figures["bundle_seconds_n_processes"]
    assert figures["bundle_speedup"] == pytest.approx(speedup, rel=0.01) and figures["bundle_busy_cores"] > 0


def test_bench_verify_refuses_a_bundle_the_tournament_format_does_not_take():
    with pytest.raises(SystemExit) as caught:
        main(["bench", "verify", "--bundle", "5"])
    assert "--bundle one of 0, 4, 8, 12, 16" in str(caught.value)


@pytest.mark.parametrize("args", [["seats", "--cards", "15"], ["seats", "--cards", "52", "15"], ["memory", "--tables", "0"], ["verify", "--games", "0"]])
def test_bad_arguments_are_refused_with_a_message(args):
    with pytest.raises(SystemExit) as caught:
        main(["bench", *args])
    assert "bench" in str(caught.value)
