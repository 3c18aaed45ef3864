"""``fairtable play``: the terminal client, with scripted input, against the fake node over the API."""

from __future__ import annotations

import io
import sys

import pytest
import trio
import trio.lowlevel

from fairtable.node.api.server import serve_api
from fairtable.node.cli.main import main
from fairtable.node.clients.apiclient import connect
from fairtable.node.clients.terminal import LEGAL_MOVES, HostSettings, Terminal, describe_move, outcome, pick, render_view
from tests.node.fake_node import PEER, FakeNode


async def serve(nursery: trio.Nursery, fake: FakeNode, token: str | None = None) -> str:
    port = await nursery.start(serve_api, fake, 0, token)
    return f"ws://127.0.0.1:{port}"


async def play(nursery: trio.Nursery, fake: FakeNode, lines: list[str], **how) -> tuple[int, str, list[str]]:
    """Run the terminal with ``lines`` as its input; return its status, output and unread lines."""
    script = list(lines)
    out = io.StringIO()

    async def read_line() -> str | None:
        await trio.lowlevel.checkpoint()
        return script.pop(0) + "\n" if script else None

    with trio.fail_after(30):
        async with connect(await serve(nursery, fake), None) as client:
            status = await Terminal(client, read_line, out).run(**how)
    return status, out.getvalue(), script


def moves_sent(fake: FakeNode) -> list:
    return [call[1][1] for call in fake.calls if call[0] == "move"]


async def test_renders_rejects_bad_input_and_sends_the_chosen_legal_move(nursery):
    fake = FakeNode(5)
    status, out, unread = await play(nursery, fake, ["abc", "0", "99", "", "2", "r"], host=HostSettings("towers"), start=True)
    assert status == 0 and unread == []
    assert "Hosting towers (normal, 2 seats) as lobby lobby1." in out
    assert "Arhimāga citadele (Archmage's Citadel)" in out and "Your hand:" in out
    assert LEGAL_MOVES + "\n   1) play [" in out or LEGAL_MOVES + "\n   1) discard [" in out
    assert out.count("Please enter a move number from 1 to ") == 4
    assert "59 s left; then the rules play for you." in out or "60 s left" in out
    first_offer = out.split(LEGAL_MOVES + "\n")[1]
    chosen = first_offer.splitlines()[1].split(") ", 1)[1]
    assert moves_sent(fake) == [fake_move_from(chosen)]
    assert "enemy played" in out or "enemy discarded" in out
    assert out.rstrip().endswith("Result: you lost (forfeit: resigned).")


def fake_move_from(line: str) -> dict:
    """``play [12] ...`` back to ``{"play": 12}``."""
    kind, rest = line.split(" [", 1)
    return {kind: int(rest.split("]", 1)[0])}


async def test_plays_a_whole_game_to_its_result(nursery):
    fake = FakeNode(6)
    status, out, unread = await play(nursery, fake, ["1"] * 400, host=HostSettings("towers", "infinite", {"turn_seconds": 0}), start=True)
    result = fake.tables["lobby1"].state.result
    assert status == 0 and result is not None and len(moves_sent(fake)) == 400 - len(unread)
    said = "a draw" if not result.winners else "you won" if 0 in result.winners else "you lost"
    assert out.rstrip().endswith(f"Result: {said} ({result.reason}).")
    assert "s left" not in out and "infinite deck" in out


async def test_joins_by_flag_and_leaves_with_q(nursery):
    fake = FakeNode(7)
    status, out, unread = await play(nursery, fake, ["q", "1"], join=(PEER, "far1"))
    assert status == 0 and unread == ["1"] and moves_sent(fake) == []
    assert "Joined towers (normal) lobby far1 at peer.test:7000" in out and "you are seat 1" in out
    assert "Leaving; the node keeps your seat" in out


async def test_end_of_input_leaves_quietly(nursery):
    status, out, _ = await play(nursery, FakeNode(8), [], join=(PEER, "far1"))
    assert status == 0 and "End of input" in out


async def test_prompts_list_host_and_start(nursery):
    fake = FakeNode(9)
    lines = ["x", "l", PEER, "l", "", "h", "chess", "towers", "", "{bad", "[]", '{"turn_seconds": 0}', "", "1", "q"]
    status, out, unread = await play(nursery, fake, lines)
    assert status == 0 and unread == []
    assert "Please answer h, j, l or q." in out
    assert "far1  towers (normal)  1/2 seats  host bot" in out and "No tables." in out
    assert "Unknown game 'chess'." in out and out.count("Please enter a JSON object") == 2
    assert fake.calls[2] == ("host", ("towers", "normal", {"turn_seconds": 0}, 2))
    assert len(moves_sent(fake)) == 1


async def test_a_refused_start_is_shown_and_asked_again(nursery):
    fake = FakeNode(10)
    fake.opponent_joins = False
    status, out, unread = await play(nursery, fake, ["", "q"], host=HostSettings("towers"))
    assert status == 0 and unread == []
    assert "Not started: waiting for 1 more player(s)" in out and "Others join with" in out


async def test_a_refused_host_or_join_ends_with_status_1(nursery):
    status, out, _ = await play(nursery, FakeNode(), [], host=HostSettings("towers", seats=3))
    assert status == 1 and "Refused: towers is played by exactly 2 seats" in out
    status, out, _ = await play(nursery, FakeNode(), [], join=(PEER, "nope"))
    assert status == 1 and "Refused: no lobby 'nope'" in out


def test_the_outcome_is_told_from_the_seat_s_side():
    assert outcome({"winners": [1], "reason": "tower", "scores": []}, 1) == "Result: you won (tower)."
    assert outcome({"winners": [], "reason": "simultaneous", "scores": []}, 0) == "Result: a draw (simultaneous)."
    assert outcome({"winners": [0, 2], "reason": "points", "scores": []}, None) == "Result: won by seat 0, 2 (points)."


def test_other_games_fall_back_to_a_generic_rendering():
    view = {"board": {"a1": "rook", "b1": None}, "turn": 0, "captured": []}
    assert render_view("chess", view) == 'board:\n  a1: "rook"\n  b1: null\nturn: 0\ncaptured: []'
    assert describe_move("chess", view, {"to": "a3", "from": "a1"}) == '{"from": "a1", "to": "a3"}'


def test_help_names_every_flag(capsys):
    with pytest.raises(SystemExit) as done:
        main(["play", "--help"])
    assert done.value.code == 0
    text = capsys.readouterr().out
    for flag in ("--api", "--token-file", "--host", "--join", "--start", "--variant", "--options", "--seats"):
        assert flag in text


@pytest.mark.parametrize("argv, message", [
    (["play", "--start"], "--start goes with --host"),
    (["play", "--seats", "2"], "--seats goes with --host"),
    (["play", "--host", "towers", "--options", "[1]"], "--options must be a JSON object"),
    (["play", "--host", "towers", "--join", "a:1", "b"], "not allowed with argument"),
])
def test_bad_flags_are_usage_errors(capsys, argv, message):
    with pytest.raises(SystemExit) as done:
        main(argv)
    assert done.value.code == 2 and message in capsys.readouterr().err


async def test_the_command_with_piped_stdin_and_a_token(nursery, tmp_path):
    fake = FakeNode(11)
    token = "5e" * 32
    url = await serve(nursery, fake, token)
    (tmp_path / "api-token").write_text(token + "\n")
    with trio.fail_after(30):
        done = await trio.run_process(
            [sys.executable, "-m", "fairtable.node.cli", "play", "--api", url, "--token-file", str(tmp_path / "api-token"),
             "--host", "towers", "--start"],
            stdin=b"nonsense\n1\nq\n", capture_stdout=True, capture_stderr=True, check=False,
        )
    out = done.stdout.decode()
    assert done.returncode == 0, done.stderr.decode()
    assert LEGAL_MOVES in out and "Please enter a move number" in out and len(moves_sent(fake)) == 1
    assert "Leaving; the node keeps your seat" in out
    done = await trio.run_process([sys.executable, "-m", "fairtable.node.cli", "play", "--api", url, "--host", "towers"],
                                  stdin=b"", capture_stdout=True, capture_stderr=True, check=False)
    assert done.returncode == 1 and "requires its API token" in done.stderr.decode()


def test_a_move_can_be_typed_by_its_last_word():
    update = {"game": "zeeslag", "view": {}}
    moves = [{"shoot": 0}, {"shoot": 14}, {"shoot": 99}]
    assert pick(update, moves, "b5") == {"shoot": 14}
    assert pick(update, moves, "2") == {"shoot": 14}
    assert pick(update, moves, "j10") == {"shoot": 99}
    assert pick(update, moves, "k1") is None and pick(update, moves, "4") is None and pick(update, moves, "0") is None
    ambiguous = [{"sunk": []}, {"sunk": []}]
    assert pick(update, ambiguous, "none") is None


def test_hidden_data_is_offered_as_a_random_placement():
    from fairtable.node.clients.terminal import RANDOM_PLACEMENT, offered

    assert offered({"decision": "hidden", "legal_moves": []}) == [RANDOM_PLACEMENT]
    assert offered({"decision": "move", "legal_moves": [{"shoot": 3}]}) == [{"shoot": 3}]
    assert "random" in describe_move("zeeslag", {}, RANDOM_PLACEMENT)


def test_a_salvo_is_typed_as_the_game_reads_it():
    from fairtable.node.clients.terminal import parse_typed, typed_hint
    from tests.games.zeeslag.positions import CLASSIC_0, CLASSIC_1, CLASSIC_2, GAME, Table

    table = Table(fleets=(CLASSIC_0, CLASSIC_1, CLASSIC_2))
    update = {"game": "zeeslag", "view": GAME.view(table.states[0], 0), "your_turn": True, "legal_moves": []}
    assert typed_hint(update) == "Type 1 shots at each of seats 1, 2, e.g. '1: B7 C3'"
    assert parse_typed(update, "1:b7 2:j10") == {"salvo": [[1, 16], [2, 99]]}
    assert parse_typed(update, "b7") is None  # own seas: whose sea must be said
    assert typed_hint({**update, "your_turn": False}) is None
    assert typed_hint({**update, "legal_moves": [{"shoot": 3}]}) is None  # listed moves are picked by number
    assert typed_hint({**update, "game": "towers"}) is None  # a renderer without typed moves
