"""The one result formatter: the winner named the right way round, with its name, and the reason in words."""

import ast
from pathlib import Path

import pytest

from fairtable.games import final_standing, player, registry, seated
from fairtable.games.contract import Result
from fairtable.games.results import COMMON_REASONS, describe, reason_words

GAMES = Path(registry.__file__).parent


def test_a_win_names_the_winning_player_by_name_and_the_reason_in_words():
    assert describe(Result((0,), "destroyed"), ["alice", "bob"]) == "alice won: enemy tower destroyed"
    assert describe(Result((1,), "forfeit: resigned"), ["alice", "bob"]) == "bob won: a player resigned"
    assert describe(Result((0, 2), "past A"), ["a", "b", "c", "d"]) == "a and c won: past A"


def test_players_with_one_name_are_told_apart_and_the_names_of_the_table_are_used_when_none_are_given():
    assert describe(Result((1,), "destroyed"), ["bot", "bot"]) == "bot #2 won: enemy tower destroyed"
    with seated(["ann", "bob"]):
        assert describe(Result((1,), "destroyed")) == "bob won: enemy tower destroyed"
        assert player(0) == "ann" and player(0, me=0) == "you" and player(5) == "seat 5"
    assert player(1) == "seat 1"  # outside the block nobody is named


def test_draws_disputes_and_unfinished_tables():
    assert describe(Result((), "simultaneous")) == "a draw (both reached a goal at once)"
    assert describe(Result((), "disputed")) == "no winner: the game was disputed"
    assert describe(None) == "no result"
    assert describe(Result((1,), "sunk")) == "seat 1 won: every enemy ship sunk"


def test_a_result_in_words_names_the_winners_and_their_team():
    names = ["ann", "bob", "cy", "dan"]
    assert describe(Result((0,), "tower"), names) == "ann won: own tower built to the goal"
    assert describe(Result((1, 3), "sunk", teams=((0, 2), (1, 3))), names) == "bob and dan won: every enemy ship sunk"
    assert describe(Result((), "sunk"), names) == "a draw (every enemy ship sunk)" and describe(None) == "no result"


REASON_ARGUMENT = {"Result": 1, "forfeit": 2, "result": 2, "leave": 2, "_leave": 2, "_lose": 2, "_ffa_result": 1}
"""Calls that put a reason into a game's ``Result`` and the position of the reason (``Result(winners, reason)``,
``Result.forfeit(teams, seats, reason)``, and the games' helpers that pass a reason on)."""


def _strings(node: ast.AST) -> set[str]:
    """The string constants ``node`` may evaluate to (both sides of a conditional; a call's arguments)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, ast.IfExp):
        return _strings(node.body) | _strings(node.orelse)
    if isinstance(node, ast.Call):
        return set().union(*map(_strings, node.args))
    return set()


def reason_codes(package: Path) -> set[str]:
    """Every constant reason code a game package can put in a ``Result``: a reason argument of a
    call above, a value assigned or appended to a ``reason`` name, a ``reason`` parameter's default,
    and what a ``for reason, ...`` loop takes (f-string reasons are built from words)."""
    found: set[str] = set()
    for path in sorted(package.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call):
                name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
                position = REASON_ARGUMENT.get(name)
                argument = node.args[position] if position is not None and len(node.args) > position else None
                argument = next((k.value for k in node.keywords if k.arg == "reason"), argument)
                if argument is not None:
                    found |= _strings(argument)
                if name == "append" and "reason" in ast.unparse(node.func):
                    found |= _strings(node)
            elif isinstance(node, ast.Assign) and any("reason" in ast.unparse(target) for target in node.targets):
                found |= _strings(node.value)
            elif isinstance(node, ast.For) and isinstance(node.target, ast.Tuple) and ast.unparse(node.target.elts[0]) == "reason":
                found |= {ast.literal_eval(item.elts[0]) for item in node.iter.elts}  # type: ignore[attr-defined]
            elif isinstance(node, ast.FunctionDef):
                arguments = node.args.args[len(node.args.args) - len(node.args.defaults):]
                found |= {d.value for a, d in zip(arguments, node.args.defaults) if a.arg == "reason" and isinstance(d, ast.Constant)}
    return found


def test_the_scan_finds_the_reasons_of_every_game():
    assert {"tower", "destroyed", "timeouts"} <= reason_codes(GAMES / "towers")
    assert {"points", "dragon", "draw", "match", "sumof"} <= reason_codes(GAMES / "drachenherz")
    assert {"points", "rounds", "playoff", "rematch", "draw", "tie"} <= reason_codes(GAMES / "duel")
    assert {"sunk", "no targets", "timeouts"} <= reason_codes(GAMES / "zeeslag")
    assert {"deal limit reached", "timeouts"} <= reason_codes(GAMES / "shengji")


@pytest.mark.parametrize("game_id", registry.ids())
def test_every_reason_a_game_can_give_has_words(game_id):
    game = registry.get(game_id)
    package = GAMES / type(game).__module__.split(".")[2]
    missing = {code for code in reason_codes(package) if code not in game.reasons and code not in COMMON_REASONS}
    assert not missing, f"{game_id} gives results these reasons without words (declare them in its reasons): {sorted(missing)}"
    assert reason_words("timeouts", game_id) == COMMON_REASONS["timeouts"]


def test_a_reason_two_games_share_has_the_same_words_so_a_result_reads_alike_without_its_game():
    words: dict[str, set[str]] = {}
    for game_id in registry.ids():
        for code, text in registry.get(game_id).reasons.items():
            words.setdefault(code, set()).add(text)
    assert {code: texts for code, texts in words.items() if len(texts) > 1} == {}
    assert describe(Result((1,), "rounds"), ["ann", "bob"]) == "bob won: equal points, more rounds won"
    assert describe(Result((0,), "points"), ["ann", "bob"], game="drachenherz") == "ann won: more points"


@pytest.mark.parametrize("teams, leaving, standing, winners", [
    (((0,), (1,)), (1,), (), (0,)),                       # one seat left: it wins
    (((0,), (1,), (2,)), (1,), (), ()),                   # two left, no game result: nobody wins
    (((0,), (1,), (2,)), (1,), (0,), (0,)),               # the winner stays: it keeps its win
    (((0,), (1,), (2,)), (1,), (1,), ()),                 # the winner left: nobody of two wins
    (((0, 2), (1, 3)), (3,), (0, 2), (0, 2)),             # teams: the other team wins either way
    (((0, 2), (1, 3)), (3,), (1, 3), (0, 2)),
])
def test_a_forfeit_keeps_the_win_of_a_team_left_that_had_won(teams, leaving, standing, winners):
    result = Result.forfeit(teams, leaving, "forfeit: withheld", standing=standing)
    assert result.winners == winners
    assert not set(result.winners) & set(leaving)


def test_the_final_standing_is_the_games_own_words_else_the_scores_by_name():
    with seated(["ann", "bob"]):
        assert final_standing(None, {"seat": 0}, Result((1,), "destroyed", (3, 5))) == "score: you 3, bob 5"
        assert final_standing(None, {"seat": None}, Result((1,), "destroyed", (3, 5))) == "score: ann 3, bob 5"
        assert final_standing(None, {"seat": 0}, Result((1,), "destroyed")) is None
        dragon = registry.get("drachenherz").renderer
        view = {"seat": 1, "match": {"mode": "match", "wins": [2, 1], "totals": [40, 35]}, "players": [{"points": 9}, {"points": 4}]}
        assert final_standing(dragon, view, Result((0,), "points", (2, 1))) == "games won: ann 2, you 1"
        summed = {**view, "match": {**view["match"], "mode": "sumof"}}
        assert final_standing(dragon, summed, Result((0,), "points", (40, 35))) == "points: ann 40, you 35"
        single = {**view, "match": {**view["match"], "mode": "single"}}
        assert final_standing(dragon, single, Result((0,), "points", (9, 4))) == "points: ann 9, you 4"
        sea = registry.get("zeeslag").renderer
        assert final_standing(sea, {"seat": 0, "sank": [0, 2]}, Result((1,), "sunk", (0, 2))) == "enemy ships sunk: you 0, bob 2"
    with seated(["ann", "bob", "cy", "dan"]):
        tractor = registry.get("shengji").renderer
        view = {"seat": 1, "teams": [[0, 2], [1, 3]], "levels": [14, 9]}
        assert final_standing(tractor, view, Result((0, 2), "past A", (14, 9, 14, 9))) == "levels: ann and cy A, you and dan 9"
