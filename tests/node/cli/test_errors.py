"""The CLI as a user meets it when something is wrong: one clear line, a non-zero exit, no traceback."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.node.nodes import free_port, listening_address, node_process
from tests.paths import ROOT


def fairtable(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "fairtable.node.cli", *args], capture_output=True, text=True,
                          cwd=ROOT, stdin=subprocess.DEVNULL, timeout=timeout)


def refused(completed: subprocess.CompletedProcess, *words: str) -> str:
    """The one line a failed command printed, after checking it failed cleanly and names ``words``."""
    assert completed.returncode != 0, completed.stdout
    assert "Traceback" not in completed.stderr and "Error:" not in completed.stderr, completed.stderr
    assert " listening on " not in completed.stdout
    lines = completed.stderr.strip().splitlines()
    assert len(lines) == 1, completed.stderr
    assert all(word in lines[0] for word in words), lines[0]
    return lines[0]


@pytest.mark.parametrize("flags, words", [
    (["--host-table", "towers", "--seats", "3"], ["towers is played by exactly 2 seats, not 3"]),
    (["--host-table", "towers", "--options", '{"turn_seconds": -5}'], ["turn_seconds", "0..3600", "-5"]),
    (["--host-table", "towers", "--options", "{turn"], ["--options is not JSON"]),
    (["--host-table", "towers", "--options", "[1]"], ["--options must be a JSON object"]),
    (["--host-table", "chess"], ["unknown game 'chess'"]),
    (["--host-table", "towers", "--variant", "tiny"], ["tiny"]),
    (["--grace", "-1"], ["--grace must be 0 or more seconds"]),
    (["--heartbeat", "0"], ["--heartbeat must be more than 0"]),
    (["--port", "70000"], ["--port must be a port number"]),
    (["--join", "nowhere"], ["--join", "host:port"]),
    (["--join", "ft:b71c0e.Z5NGN48B8BB88ZSXKJS2VP24@/ip4/192.0.2.7/tcp/1"], ["--join", "names the host by its peer id"]),
    (["--relay", "/ip4/192.0.2.7/tcp/4001"], ["--relay", "ending in /p2p/<peer id>"]),
    (["--relay", "192.0.2.7:4001"], ["--relay", "ending in /p2p/<peer id>"]),
    (["--p2p-port", "4001"], ["--p2p-port goes with --relay"]),
    (["--log-level", "LOUD"], ["--log-level 'LOUD' is not a logging level"]),
])
def test_bad_node_flags_are_refused_before_listening(tmp_path, flags, words):
    refused(fairtable("node", "--data", str(tmp_path / "data"), *flags), "fairtable node:", *words)


@pytest.fixture
def read_only(tmp_path) -> Iterator[Path]:
    """A directory this process cannot write to: a read-only mount for root, mode 0555 for others."""
    path = tmp_path / "read-only"
    path.mkdir()
    if os.geteuid() != 0:
        path.chmod(0o555)
        yield path
        path.chmod(0o755)
        return
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "ro,size=1m", "tmpfs", str(path)], capture_output=True).returncode:
        pytest.skip("running as root and cannot mount a read-only file system")
    try:
        yield path
    finally:
        subprocess.run(["umount", str(path)], check=True)


def test_a_data_directory_that_cannot_be_written_is_refused_before_listening(read_only, tmp_path):
    refused(fairtable("node", "--data", str(read_only)), "fairtable node:", "cannot", str(read_only))
    refused(fairtable("node", "--data", str(read_only / "sub")), "fairtable node:", "cannot", str(read_only / "sub"))
    not_a_directory = tmp_path / "file"
    not_a_directory.write_text("")
    refused(fairtable("node", "--data", str(not_a_directory / "data")), "fairtable node:", "cannot", "Not a directory")


def test_ports_in_use_are_refused_with_the_port_leaving_no_data_folder_and_binding_nothing(tmp_path):
    kept = tmp_path / "kept"
    kept.mkdir()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        refused(fairtable("node", "--data", str(tmp_path / "a"), "--port", str(port)),
                f"cannot listen for peers on 127.0.0.1:{port}", "in use")
        peer_port = free_port()
        refused(fairtable("node", "--data", str(tmp_path / "b" / "deep"), "--port", str(peer_port), "--api-port", str(port)),
                f"cannot serve the client API on 127.0.0.1:{port}", "in use")
        refused(fairtable("node", "--data", str(kept), "--api-port", str(port)), f"cannot serve the client API on 127.0.0.1:{port}")
        relay = "/ip4/127.0.0.1/tcp/9/p2p/12D3KooWGRUVh7ZDnFpz2Z6JQNqGF8R4Q5VqvJm7n5Kt3uWHGHyN"
        refused(fairtable("node", "--data", str(tmp_path / "c"), "--discovery", "off", "--relay", relay, "--p2p-port", str(port)),
                f"cannot listen for libp2p peers on /ip4/127.0.0.1/tcp/{port}", "the port is taken")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["kept"]  # the folders it made are gone, a folder it was given stays
    with socket.socket() as again:  # the peer port it would have listened on was never held
        again.bind(("127.0.0.1", peer_port))


def misused(completed: subprocess.CompletedProcess) -> str:
    """The error line of a command line argparse refused (after its usage line): exit status 2, no traceback."""
    assert completed.returncode == 2 and "Traceback" not in completed.stderr, completed.stderr
    usage, error = completed.stderr.strip().splitlines()
    assert usage.startswith("usage: fairtable")
    return error


def test_an_unknown_flag_is_named_before_a_missing_argument():
    assert misused(fairtable("verify", "--bogus")) == "fairtable verify: error: unrecognized arguments: --bogus"
    assert misused(fairtable("verify", "--bogus", "x.ftt")).endswith("unrecognized arguments: --bogus")
    assert misused(fairtable("bench", "verify", "--nope=3")).endswith("unrecognized arguments: --nope=3")
    assert misused(fairtable("verify", "--js")) == "fairtable verify: error: the following arguments are required: FILE"


def test_ctrl_c_ends_a_node_cleanly(tmp_path):
    process = node_process(tmp_path / "data", "n", "--api-port", "0", log=tmp_path / "log")
    try:
        listening_address(process)
        process.stdout.readline()  # the client API line: everything is running
        process.send_signal(signal.SIGINT)
        process.communicate(timeout=30)
    finally:
        process.kill()
    assert process.returncode == 130
    log = (tmp_path / "log").read_text()
    assert "Traceback" not in log and "interrupted" in log.splitlines()[-1]


def test_verify_into_a_closed_pipe_ends_quietly(tmp_path):
    out = tmp_path / "games"
    assert fairtable("selfplay", "towers", "--out", str(out), "--games", "1", "--seed", "pipe").returncode == 0
    (file,) = out.glob("*.ftt")
    process = subprocess.Popen([sys.executable, "-m", "fairtable.node.cli", "verify", *[str(file)] * 12],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
                               env={**os.environ, "PYTHONUNBUFFERED": "1"})  # each line out at once: the second write finds the pipe closed
    process.stdout.readline()
    process.stdout.close()  # what `| head -1` does
    stderr = process.stderr.read().decode()
    process.wait(timeout=60)
    assert stderr == "" and process.returncode != 0


def test_play_at_a_port_without_a_client_api_fails_at_once_with_the_reason(tmp_path):
    refused(fairtable("play", "--api", f"ws://127.0.0.1:{free_port()}", timeout=20),
            "fairtable play: cannot use the node's client API", "Connection refused")
    with socket.socket() as closing:  # something that takes connections and drops them, like a peer port
        closing.bind(("127.0.0.1", 0))
        closing.listen()
        url = f"ws://127.0.0.1:{closing.getsockname()[1]}"
        process = subprocess.Popen([sys.executable, "-m", "fairtable.node.cli", "play", "--api", url],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True, cwd=ROOT)
        closing.accept()[0].close()
        _, stderr = process.communicate(timeout=20)
    assert process.returncode != 0 and "Traceback" not in stderr
    assert f"cannot use the node's client API at {url}: " in stderr
    refused(fairtable("play", "--api", "http://127.0.0.1:1"), "not a ws:// URL")
