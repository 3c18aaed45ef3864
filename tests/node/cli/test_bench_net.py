"""``fairtable bench net``: two nodes over TCP against the same game in-process; with ``--path``, a libp2p path in the NAT world against direct TCP."""

import json
from types import SimpleNamespace

import pytest

from fairtable.node.cli.bench import net, paths
from fairtable.node.cli.main import main
from fairtable.node.natworld import unavailable


def test_bench_net_reports_the_game_against_its_floor_and_move_round_trips_apart_from_deck_stages(capsys):
    assert main(["bench", "net", "--json", "--games", "1"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["goal"] == net.GOAL == 1.1 and figures["move_round_trip_goal"] == 3 and figures["games"] == 1
    tcp, in_process, floor = figures["tcp_game_s"], figures["in_process_game_s"], figures["floor_s"]
    assert abs(figures["ratio"] - tcp / floor) < 0.01 and abs(figures["ratio_to_in_process"] - tcp / in_process) < 0.01
    fsyncs, journal, least, files = (figures[f"{name}fsyncs_per_game"] for name in ("", "journal_", "least_journal_", "file_"))
    assert fsyncs == journal + files and journal >= least > 0 and files > 0
    floor_fsyncs = figures["fsync_s_per_game"] / fsyncs * (least + files)
    assert abs(floor - (in_process + floor_fsyncs)) < 0.001 + 0.01 * floor
    p50, p99 = figures["move_round_trip_p50_ms"], figures["move_round_trip_p99_ms"]
    assert figures["move_round_trips"] > 5 and 0 < p50 <= p99 and abs(figures["move_round_trip_ratio"] - p99 / p50) < 0.01
    stages = figures["stage_round_trips"]
    assert "move" not in stages and "deck" in stages
    assert all(stage["count"] > 0 and 0 <= stage["p50_ms"] <= stage["max_ms"] for stage in stages.values())
    assert "others_cpu_share" in figures["load"]


def test_the_least_journal_batches_are_one_per_run_of_the_other_seats_envelopes_and_the_opening_one():
    chain = [SimpleNamespace(seat=seat) for seat in (0, 0, 1, 0, 1, 1, 0)]
    assert net.least_batches(chain, 0) == 1 + 2 and net.least_batches(chain, 1) == 3
    assert net.least_batches([], 0) == 0


def test_bench_net_on_a_libp2p_path_says_it_needs_root_when_it_cannot_build_its_world(monkeypatch):
    monkeypatch.setattr(paths, "unavailable", lambda: "the NAT world needs root (network namespaces, nftables)")
    with pytest.raises(SystemExit, match=r"^fairtable bench net --path: the NAT world needs root .*run it as root"):
        main(["bench", "net", "--path", "relay"])


@pytest.mark.skipif(bool(unavailable()), reason=unavailable() or "")
def test_bench_net_through_the_relay_reports_its_figures_against_direct_tcp(capsys):
    assert main(["bench", "net", "--json", "--path", "relay", "--round-trips", "20"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["path"] == "relay" and figures["goal"] == paths.GOALS["relay"] and figures["ratio"] == figures["rtt_p50_ratio"]
    for name in ("setup", "rtt_p50", "rtt_p99"):
        assert figures[f"{name}_ms"] > 0 and figures[f"tcp_{name}_ms"] > 0
        assert abs(figures[f"{name}_ratio"] - figures[f"{name}_ms"] / figures[f"tcp_{name}_ms"]) < 0.01 * figures[f"{name}_ratio"] + 0.01
    assert figures["relay_cpu_s_per_mb"] > 0


def test_a_round_trip_that_waits_for_a_deck_stage_on_either_side_is_a_deck_trip():
    chain = [SimpleNamespace(seat=seat, kind=kind) for seat, kind in
             ((0, "deck"), (0, "move"), (1, "keys"), (1, "move"), (0, "keys"), (0, "move"), (1, "keys"), (0, "deck"))]
    assert net.trip_kind(chain, 1) == "deck"  # the guest checked our stage before it answered
    assert net.trip_kind(chain, 5) == "deck"  # our stage, made on the answer in the batch that holds it
    assert net.trip_kind(chain[:7], 5) == "move"
