"""``fairtable relay``: its address first once it listens, a status line, the same key after a restart, bad input in words."""

import subprocess
import sys
from pathlib import Path

import pytest

from fairtable.node.cli.main import main
from fairtable.node.lobby.invite import parse_invite
from fairtable.node.relay import KEY_FILE
from fairtable.protocol.session.verify import verify_chunks
from tests.node.nodes import node_process


def start(data, *extra):
    return subprocess.Popen([sys.executable, "-m", "fairtable.node.cli", "relay", "--data", str(data), "--host", "127.0.0.1",
                             "--port", "0", "--status-seconds", "0.2", *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def first_lines(process, count):
    try:
        return [process.stdout.readline().strip() for _ in range(count)]
    finally:
        process.kill()
        process.wait()


def test_relay_prints_its_address_then_its_status_and_keeps_its_key(tmp_path):
    address, status = first_lines(start(tmp_path), 2)
    assert address.startswith("/ip4/127.0.0.1/tcp/") and "/p2p/12D3KooW" in address
    peer_id = address.rsplit("/p2p/", 1)[1]
    assert status == f"relay {peer_id}: 0 reservations, 0 circuits open"
    assert (tmp_path / KEY_FILE).stat().st_mode & 0o077 == 0
    again, _ = first_lines(start(tmp_path), 2)
    assert again.rsplit("/p2p/", 1)[1] == peer_id


@pytest.mark.parametrize("argv, problem", [
    (["--port", "70000"], "--port 70000 is not a TCP port"),
    (["--reservations", "0"], "--reservations must be at least 1"),
    (["--circuit-bytes", "0"], "--circuit-bytes must be at least 1"),
])
def test_bad_limits_are_refused_in_words(tmp_path, capsys, argv, problem):
    assert main(["relay", "--data", str(tmp_path), *argv]) == 2
    assert problem in capsys.readouterr().err


def test_a_data_folder_in_use_is_refused(tmp_path, capsys):
    process = start(tmp_path)
    try:
        process.stdout.readline()
        assert main(["relay", "--data", str(tmp_path), "--host", "127.0.0.1", "--port", "0"]) == 2
        assert "in use" in capsys.readouterr().err
    finally:
        process.kill()
        process.wait()


def test_a_node_with_a_relay_logs_an_invite_and_a_guest_joins_by_it_and_plays_to_the_end(tmp_path):
    """The README's three commands: a relay, a node hosting with it, a node joining by the invite."""
    relay = start(tmp_path / "relay")
    processes = [relay]
    try:
        address = relay.stdout.readline().strip()
        host = node_process(tmp_path / "host", "host", "--discovery", "off", "--relay", address, "--host-table", "towers",
                            "--bot", "random", "--until-done")
        processes.append(host)
        invite = next(line.split()[1] for line in host.stdout if line.startswith("invite "))
        assert f"{address}/p2p-circuit" in parse_invite(invite).address
        guest = node_process(tmp_path / "guest", "guest", "--discovery", "off", "--relay", address, "--join", invite,
                             "--bot", "random", "--until-done")
        processes.append(guest)
        outputs = [process.communicate(timeout=180)[0] for process in (host, guest)]
        assert [process.returncode for process in (host, guest)] == [0, 0]
        files = [next(line.rsplit(" ", 1)[1] for line in output.splitlines() if " finished: " in line) for output in outputs]
        contents = [Path(file).read_bytes() for file in files]
        assert contents[0] == contents[1] and verify_chunks([contents[0]]).valid
        # on one machine the relay dials the node back: it says so in its log
        assert "libp2p: reachable directly at /ip4/127.0.0.1/tcp/" in (tmp_path / "host.log").read_text()
    finally:
        for process in processes:
            process.kill()
            process.wait()
