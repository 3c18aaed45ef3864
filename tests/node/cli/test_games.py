"""fairtable games: every registered game with its variants, seats and options, from its declarations."""

import json
import subprocess
import sys

from fairtable.games import registry
from tests.paths import ROOT


def fairtable(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "fairtable.node.cli", *args], capture_output=True, text=True, cwd=ROOT)


def test_games_json_gives_every_games_declarations():
    completed = fairtable("games", "--json")
    assert completed.returncode == 0, completed.stderr
    listed = [json.loads(line) for line in completed.stdout.splitlines()]
    assert [game["id"] for game in listed] == list(registry.ids())
    for game in listed:
        assert game == json.loads(json.dumps(registry.get(game["id"]).describe()))
        assert set(game["seats"]) == set(game["options"]) == set(game["variants"]) and game["bots"][0] == "random"
    towers = next(game for game in listed if game["id"] == "towers")
    timer = next(option for option in towers["options"]["normal"] if option["name"] == "turn_seconds")
    assert timer == {"default": 60, "highest": 3600, "lowest": 0, "name": "turn_seconds", "type": "integer"}


def test_games_text_names_ranges_and_defaults():
    completed = fairtable("games")
    assert completed.returncode == 0, completed.stderr
    lines = completed.stdout.splitlines()
    assert "towers  (bots: random, greedy)" in lines and "  duel: 2 to 8 seats" in lines and "  shared: 3 to 8 seats" in lines
    assert "    turn_seconds: integer 0..3600 (default 60)" in lines
    assert "    water_ring: true or false (default true)" in lines
    assert any(line.startswith("    fleet: one of classic, ten (default \"classic\")") for line in lines)
