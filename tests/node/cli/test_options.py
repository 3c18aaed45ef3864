"""The one --options parser: JSON or key=value, each value read as the game declares it."""

from __future__ import annotations

import pytest

from fairtable.games import registry
from fairtable.node.cli.main import main
from fairtable.node.cli.options import parse_options

ZEESLAG = registry.get("zeeslag").options_for("duel")


def test_key_value_pairs_are_typed_by_the_games_declarations():
    assert parse_options(["fleet=ten,water_ring=off", "turn_seconds=30"], ZEESLAG) == {"fleet": "ten", "water_ring": False, "turn_seconds": 30}
    assert parse_options(['{"turn_seconds": 5}', "fleet=ten"], ZEESLAG) == {"turn_seconds": 5, "fleet": "ten"}
    assert parse_options([], ZEESLAG) == {}


@pytest.mark.parametrize("text, words", [
    ("turn_seconds=soon", "turn_seconds is an integer 0..3600"),
    ("water_ring=maybe", "true or false"),
    ("colour=red", "no option 'colour'"),
    ("fleet", "write key=value"),
    ("{turn", "--options is not JSON"),
    ("[1]", "must be a JSON object or key=value"),
])
def test_bad_options_say_what_is_wrong(text, words):
    with pytest.raises(ValueError, match=words.replace("(", r"\(").replace("[", r"\[")):
        parse_options([text], ZEESLAG)


def test_a_command_refuses_bad_options_in_one_line(capsys):
    with pytest.raises(SystemExit, match="fairtable bench rules: --options turn_seconds=soon"):
        main(["bench", "rules", "towers", "--options", "turn_seconds=soon"])
