"""``fairtable bench rules``: runs on a tiny budget and reports its figures."""

from __future__ import annotations

import json

import pytest

from fairtable.node.cli.main import main


def test_bench_rules_reports_rates_and_the_heuristic_win_rate(capsys):
    assert main(["bench", "rules", "towers", "--json", "--seconds", "0.05", "--duel-games", "6"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["game"] == "towers" and figures["variant"] == "normal"
    assert figures["games"] >= 1 and figures["games_per_s"] > 0 and figures["moves_per_s"] > 0
    assert figures["moves_per_game"] > 10 and figures["lockstep_games_per_s"] > 0
    assert figures["heuristic_bot"] == "GreedyBot" and 0 <= figures["heuristic_win_rate"] <= 1


def test_bench_rules_takes_a_variant_and_can_skip_the_duel(capsys):
    assert main(["bench", "rules", "towers", "--variant", "infinite", "--json", "--seconds", "0.02", "--duel-games", "0"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["variant"] == "infinite" and "heuristic_win_rate" not in figures


def test_bench_rules_plays_a_game_with_hidden_data(capsys):
    assert main(["bench", "rules", "zeeslag", "--json", "--seconds", "0.05", "--duel-games", "4"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["game"] == "zeeslag" and figures["variant"] == "duel"
    assert figures["moves_per_game"] > 30 and figures["lockstep_games_per_s"] > 0
    assert figures["heuristic_bot"] == "GreedyBot" and figures["heuristic_win_rate"] >= 0.75


def test_bench_rules_takes_seats_and_options_and_refuses_bad_ones(capsys):
    options = '{"salvo": "focus"}'
    assert main(["bench", "rules", "zeeslag", "--variant", "shared", "--seats", "3", "--options", options, "--json",
                 "--seconds", "0.02", "--duel-games", "3"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert (figures["variant"], figures["seats"], figures["options"]) == ("shared", 3, {"salvo": "focus"})
    for bad, words in ((["--seats", "9"], "2 to 8 seats"), (["--options", '{"salvo": 1}'], "option 'salvo'"), (["--options", "{"], "not JSON")):
        with pytest.raises(SystemExit, match=words):
            main(["bench", "rules", "zeeslag", "--seconds", "0.01", *bad])


def test_bench_rules_seats_a_variant_with_its_own_fewest_seats(capsys):
    assert main(["bench", "rules", "duel", "--variant", "ffa", "--json", "--seconds", "0.05", "--duel-games", "6"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["variant"] == "ffa" and figures["moves_per_game"] == 18  # 3 seats, 3 cycles, 2 moves a duel


def test_bench_rules_seats_the_heuristic_as_a_whole_team_and_takes_options(capsys):
    assert main(["bench", "rules", "shengji", "--options", '{"deals": 1}', "--json", "--seconds", "0.05", "--duel-games", "8"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["game"] == "shengji" and figures["options"] == {"deals": 1}
    assert figures["heuristic_bot"] == "GreedyBot" and figures["heuristic_win_rate"] >= 0.75


def test_bench_rules_refuses_bad_options_plainly():
    for options, words in (('{"deals": -1}', "option 'deals'"), ("{x", "not JSON")):
        with pytest.raises(SystemExit, match=words):
            main(["bench", "rules", "shengji", "--options", options])
