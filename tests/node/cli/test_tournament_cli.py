"""fairtable tournament as a user runs it against a running node: host, list, status (with the
bracket, standings and who plays whom), and refusals in one line; its options parser."""

from __future__ import annotations

import sys

import pytest
import trio

from fairtable.node.api.server import serve_api
from fairtable.node.cli.main import main
from fairtable.node.cli.options import parse_tournament_options
from fairtable.node.cli.tournament_text import render
from fairtable.protocol.tournament.progress import progress
from fairtable.protocol.tournament.structure import stage_options
from tests.node.nodes import eventually, running
from tests.paths import ROOT
from tests.protocol.tournament.helpers import play_out, seed_of, signed_record


def test_tournament_options_are_typed_by_each_stages_table():
    stages = stage_options()
    assert parse_tournament_options(["advance=1,group.cycles=2", "final.tie=accept"], stages) == {
        "advance": 1, "group": {"cycles": 2}, "final": {"tie": "accept"}}
    assert parse_tournament_options(['{"knockout": {"duels": 3}}'], stages) == {"knockout": {"duels": 3}}


@pytest.mark.parametrize("text, words", [
    ("advance=x", "advance is an integer 1..2"),
    ("semi.duels=3", "no stage 'semi'"),
    ("group.duels=3", "no option 'duels'"),
    ("group", "write advance=1 or STAGE.OPTION=value"),
])
def test_bad_tournament_options_say_what_is_wrong(text, words):
    with pytest.raises(ValueError, match=words):
        parse_tournament_options([text], stage_options())


@pytest.mark.parametrize("args, words", [
    (["host", "6"], "4, 8, 12 or 16 participants"),
    (["host", "4", "--options", "advance=1"], "with 4 participants option 'advance' must be 2"),
    (["status", "--api", "ws://127.0.0.1:1"], "fairtable tournament status: "),
    (["join", "127.0.0.1:1", "abc", "--api", "not-a-url"], "fairtable tournament join: "),
])
def test_refusals_are_one_line_without_a_traceback(args, words, capsys):
    with pytest.raises(SystemExit) as exited:
        main(["tournament", *args])
    assert words in str(exited.value) and "\n" not in str(exited.value)


async def fairtable(*args: str) -> str:
    completed = await trio.run_process([sys.executable, "-m", "fairtable.node.cli", *args], capture_stdout=True,
                                       capture_stderr=True, cwd=ROOT, check=False)
    assert completed.returncode == 0, completed.stderr.decode()
    assert b"Traceback" not in completed.stderr
    return completed.stdout.decode()


async def test_host_list_and_status_through_a_running_node(tmp_path, nursery):
    async with running(tmp_path, 4) as nodes:
        port = await nursery.start(serve_api, nodes[0], 0, None)
        api = f"ws://127.0.0.1:{port}"
        hosted = await fairtable("tournament", "host", "4", "--api", api, "--options",
                                 "group.cycles=1,playoff.duels=3,final.rounds=1,final.duels=3")
        lobby_id = hosted.split()[1]
        assert f"fairtable tournament join {nodes[0].address} {lobby_id}" in hosted
        listed = await fairtable("tournament", "list", "--api", api)
        assert lobby_id in listed and "1/4 joined" in listed
        assert "takes part in no tournament" in await fairtable("tournament", "status", "--api", api)
        for node in nodes[1:]:
            await node.join_tournament(nodes[0].address, lobby_id)
        await eventually(lambda: all(node.tournaments.settled for node in nodes), 240)
        status = await fairtable("tournament", "status", "--api", api)
        assert "(finished), you are node-0" in status
        for needle in ("round 0", "group A", "standings", "champion", "best defender", "top attacker"):
            assert needle in status
        assert "COMPLETE" in await fairtable("verify", status.split("bundle ")[1].split()[0])


def test_status_of_a_running_tournament_says_who_plays_whom_now():
    signed = signed_record(8)
    names = [p.name for p in signed.record.participants]
    done, outcomes = play_out(signed)
    group_a = done.rounds[0][0]
    partial = progress(signed, seed_of(signed), {group_a.table_id: outcomes[group_a.table_id]})
    me = partial.rounds[0][1].spec.seats[0]
    lines = render(partial.to_value(), names, me)
    now = lines[lines.index("now playing") + 1]
    assert now == f"  group B: {' v '.join(names[p] for p in partial.rounds[0][1].spec.seats)}  (you)"
    assert any("group A" in line and "won by" in line for line in lines)
    assert not any(line.startswith("champion") for line in lines)
