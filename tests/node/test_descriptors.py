"""A node process out of file descriptors keeps serving: connections that can give way make room."""

from __future__ import annotations

import resource
import socket
import subprocess
import sys

import trio

from fairtable.node.clients.apiclient import connect
from fairtable.node.peer.channel import open_channel
from fairtable.node.peer.messages import PEER_VERSION, message, parse
from fairtable.protocol.identity import SecretKey
from tests.node.nodes import listening_address

DESCRIPTORS = 48


def _few_descriptors() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (DESCRIPTORS, DESCRIPTORS))


async def _list_tables(address: str) -> list:
    host, port = address.rsplit(":", 1)
    with trio.fail_after(30):  # a guard, not a timing assertion
            channel = await open_channel(await trio.open_tcp_stream(host, int(port)), SecretKey.generate())
    async with channel:
        await channel.send(message("list", v=PEER_VERSION, kind="table"))
        return parse(await channel.receive(timeout=10), "offers")["offers"]


async def _games(url: str) -> int:
    with trio.fail_after(30):
        async with connect(url, None) as client:
            return len((await client.request("games"))["games"])


def test_a_node_without_descriptors_to_spare_still_lets_peers_and_its_client_in(tmp_path):
    log = tmp_path / "node.log"
    with open(log, "wb") as stderr:
        process = subprocess.Popen(
            [sys.executable, "-m", "fairtable.node.cli", "node", "--data", str(tmp_path / "data"), "--api-port", "0",
             "--no-token"], stdout=subprocess.PIPE, stderr=stderr, text=True, preexec_fn=_few_descriptors)
    flood: list[socket.socket] = []
    try:
        address = listening_address(process)
        url = process.stdout.readline().split()[3]
        host, port = address.rsplit(":", 1)
        for n in range(3 * DESCRIPTORS):  # far more than the node can hold open, from ten addresses
            flood.append(socket.create_connection((host, int(port)), source_address=(f"127.0.0.{2 + n % 10}", 0)))
        assert trio.run(_list_tables, address) == ()
        assert trio.run(_games, url) >= 2
        assert process.poll() is None
    finally:
        for sock in flood:
            sock.close()
        process.kill()
        process.communicate()
    lines = log.read_text().splitlines()
    assert "Traceback" not in log.read_text()
    assert len([line for line in lines if "cannot accept a connection (Too many open files)" in line]) == 1
    assert len(lines) <= 45
