"""``fairtable bench net``: two nodes over TCP against the same game in-process."""

import json

from fairtable.node.cli.main import main


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
