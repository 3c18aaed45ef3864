"""examples/bot_client.py, a third-party client, plays whole tables through the API alone."""

from __future__ import annotations

import importlib.util
import random
import sys

import pytest
import trio

from fairtable.node.api.server import serve_api
from tests.node.fake_node import PEER, FakeNode
from tests.paths import EXAMPLES

BOT_FILE = EXAMPLES / "bot_client.py"
TOKEN = "ab" * 32


def load_bot():
    spec = importlib.util.spec_from_file_location("bot_client", BOT_FILE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


async def serve(nursery: trio.Nursery, fake: FakeNode, token: str | None = None) -> str:
    port = await nursery.start(serve_api, fake, 0, token)
    return f"ws://127.0.0.1:{port}"


def test_the_bot_imports_nothing_of_fairtable():
    source = BOT_FILE.read_text()
    assert not any(f"import {name}" in source or f"from {name}" in source for name in ("protocol", "node", "games"))


@pytest.mark.parametrize("seed", [1, 2])
async def test_the_bot_hosts_starts_and_plays_to_a_result(nursery, seed):
    fake = FakeNode(seed)
    bot = load_bot()
    with trio.fail_after(30):
        result, seat = await bot.play(await serve(nursery, fake), None, host="towers", start=True, rng=random.Random(seed))
    assert seat == 0 and result == fake.tables["lobby1"].state.result.to_value()
    assert [call[0] for call in fake.calls[:3]] == ["host", "list_tables", "start"]
    assert sum(call[0] == "move" for call in fake.calls) >= 3


async def test_the_bot_joins_a_table_at_a_peer(nursery):
    fake = FakeNode(3)
    with trio.fail_after(30):
        result, seat = await load_bot().play(await serve(nursery, fake), None, join=(PEER, "far1"), rng=random.Random(3))
    assert seat == 1 and result["reason"] and fake.calls[0] == ("join", (PEER, "far1", None))


async def test_the_bot_command_with_a_token_file(nursery, tmp_path):
    fake = FakeNode(4)
    url = await serve(nursery, fake, TOKEN)
    (tmp_path / "api-token").write_text(TOKEN + "\n")
    with trio.fail_after(30):
        done = await trio.run_process(
            [sys.executable, str(BOT_FILE), "--api", url, "--token-file", str(tmp_path / "api-token"),
             "--host", "towers", "--start", "--seed", "4"],
            capture_stdout=True, capture_stderr=True, check=False,
        )
    out = done.stdout.decode()
    assert done.returncode == 0, done.stderr.decode()
    assert "hosting towers table lobby1" in out and "game over (" in out and "the bot in seat 0" in out


async def test_the_bot_reports_a_wrong_token(nursery, tmp_path):
    url = await serve(nursery, FakeNode(), TOKEN)
    (tmp_path / "api-token").write_text("cd" * 32)
    done = await trio.run_process(
        [sys.executable, str(BOT_FILE), "--api", url, "--token-file", str(tmp_path / "api-token"), "--host", "towers"],
        capture_stdout=True, capture_stderr=True, check=False,
    )
    assert done.returncode == 1 and "wrong API token (unauthorized)" in done.stderr.decode()
