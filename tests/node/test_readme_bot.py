"""The README's commands for playing a bot on one machine, run as written: the player's node
lists the bot node's table under the tables nearby, with the discovery settings the README gives."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import trio

from fairtable.node.clients.apiclient import ApiError, connect
from tests.node.nodes import free_port
from tests.paths import ROOT


def readme_command(pattern: str) -> list[str]:
    """The words after ``.venv/bin/fairtable`` of the README's first command line matching ``pattern``."""
    line, *_ = [line for line in (ROOT / "README.md").read_text().splitlines()
               if line.startswith(".venv/bin/fairtable node ") and re.search(pattern, line)]
    return shlex.split(line)[1:]


def as_here(words: list[str], tmp_path: Path, ports: dict[str, str]) -> list[str]:
    """``words`` with this test's data folders (in ``tmp_path``) and free ports for the README's."""
    return [str(tmp_path / Path(word).name) if word.startswith("~/") else ports.get(word, word) for word in words]


def started(words: list[str], log: Path) -> subprocess.Popen:
    """``fairtable WORDS`` as a user starts it: without the suite's FAIRTABLE_DISCOVERY=off, which the README sets nowhere."""
    env = {name: value for name, value in os.environ.items() if name != "FAIRTABLE_DISCOVERY"}
    with open(log, "wb") as stderr:
        return subprocess.Popen([sys.executable, "-m", "fairtable.node.cli", *words], env=env, stdout=subprocess.DEVNULL, stderr=stderr)


async def test_the_readme_own_node_lists_the_readme_bot_nodes_table_nearby(tmp_path):
    mine, bot = readme_command(r"--name alice .*--api-port"), readme_command(r"--bot greedy --host-table towers")
    api = free_port()
    ports = {"7400": str(free_port()), "7401": str(free_port()), "7467": str(api)}
    processes = [started(as_here(words, tmp_path, ports), tmp_path / f"{index}.log") for index, words in enumerate((mine, bot))]
    try:
        token = tmp_path / "me" / "api-token"
        with trio.fail_after(60):
            while not token.exists():
                await trio.sleep(0.1)
            found: list = []
            while not found:
                await trio.sleep(0.2)
                try:
                    async with connect(f"ws://127.0.0.1:{api}/", token.read_text().strip()) as client:
                        tables = (await client.request("discovered"))["tables"]
                except ApiError:  # not serving yet
                    continue
                found = [table for table in tables if table["game"] == "towers" and table["host"] == "bot"]
    finally:
        for process in processes:
            process.terminate()
            process.wait(timeout=30)
