"""Helpers for tests that run whole nodes: in-process over loopback TCP, or as processes."""

from __future__ import annotations

import socket
import subprocess
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import trio

from fairtable.node.keystore import write_secret_key
from fairtable.node.node import Node, NodeConfig
from fairtable.node.peer.server import PeerLimits
from fairtable.protocol.identity import SecretKey

FAST = dict(heartbeat=0.2, handshake_timeout=1.0, peer_limits=PeerLimits(handshake_seconds=1.0, first_message_seconds=1.0))


@asynccontextmanager
async def running(tmp_path: Path, count: int, keys: tuple[SecretKey, ...] = (), **config) -> AsyncIterator[list[Node]]:
    """``count`` nodes (``keys`` for the first ones, if given), each with its own data directory."""
    settings = {**FAST, "bot": "random", **config}
    async with trio.open_nursery() as nursery:
        nodes = []
        for index in range(count):
            data = tmp_path / f"node-{index}"
            if index < len(keys):
                data.mkdir(parents=True, exist_ok=True)
                write_secret_key(data / "identity.pem", keys[index])
            nodes.append(await nursery.start(Node(NodeConfig(data=data, name=f"node-{index}", **settings)).run))
        yield nodes
        nursery.cancel_scope.cancel()


async def eventually(condition: Callable[[], bool], seconds: float = 30) -> None:
    """Wait until ``condition()`` holds (a guard against hanging, not a timing assertion)."""
    with trio.fail_after(seconds):
        while not condition():
            await trio.sleep(0.01)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def node_process(data: Path, name: str, *flags: str, log: Path | None = None) -> subprocess.Popen:
    """A ``fairtable node`` process; its stdout is a pipe, its log goes to ``log`` (default DATA.log)."""
    log = log or data.with_suffix(".log")
    with open(log, "ab") as stderr:
        return subprocess.Popen(
            [sys.executable, "-m", "fairtable.node.cli", "node", "--data", str(data), "--name", name, "--heartbeat", "0.3", *flags],
            stdout=subprocess.PIPE, stderr=stderr, text=True,
        )


def listening_address(process: subprocess.Popen) -> str:
    line = process.stdout.readline()
    assert " listening on " in line, line
    return line.rsplit(" ", 1)[1].strip()
