"""``fairtable bench net``: two nodes over TCP against the same game in-process; with ``--path``, a libp2p path in the NAT world against direct TCP."""

import json

import pytest

from fairtable.node.cli.bench import paths
from fairtable.node.cli.main import main
from fairtable.node.natworld import unavailable


def test_bench_net_reports_round_trips_and_the_ratio_to_in_process_play(capsys):
    assert main(["bench", "net", "--json", "--games", "1"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["goal"] == 1.3 and figures["games"] == 1
    assert figures["round_trips"] > 5 and 0 < figures["round_trip_p50_ms"] <= figures["round_trip_p99_ms"]
    assert figures["tcp_game_s"] > 0 and figures["in_process_game_s"] > 0
    assert abs(figures["ratio"] - figures["tcp_game_s"] / figures["in_process_game_s"]) < 0.05
    assert figures["fsyncs_per_game"] > 0 and figures["fsync_s_per_game"] > 0
    in_process = figures["in_process_game_s"]
    assert abs(figures["fsync_floor_ratio"] - (in_process + figures["fsync_s_per_game"]) / in_process) < 0.05


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
