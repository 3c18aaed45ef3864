"""Two homes behind NAT routers reach each other through a relay, and punch a hole where the routers allow.

The world (:mod:`tests.node.natworld`): a relay (``fairtable relay``, capturing what it forwards)
and a plain TCP echo in the public namespace; homes ``a`` and ``b`` behind endpoint-independent
NATs, home ``c`` behind a symmetric one. Every peer is its own process in its home. The timings
each dialler prints are figures for the report, never asserted on.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.node.natpeer import MARKER
from tests.node.natworld import EIM, RELAY_IP, SYMMETRIC, NatWorld, nat_world, unavailable

pytestmark = pytest.mark.skipif(bool(unavailable()), reason=unavailable() or "")
TIMEOUT = 120
FIGURES = Path(__file__).resolve().parents[2] / "build" / "natworld-figures.json"


def line(world: NatWorld, process: subprocess.Popen[str]) -> dict:
    """The next JSON line a peer process prints (its stderr in the failure when it printed none)."""
    text = process.stdout.readline() if process.stdout else ""
    if not text:
        process.kill()
        process.wait()
        raise AssertionError(f"peer process printed nothing: {world.stderr(process)}")
    value = json.loads(text)
    assert "error" not in value, value["error"]
    return value


class World:
    def __init__(self, world: NatWorld, tmp: Path) -> None:
        self.world = world
        self.capture = tmp / "relay-capture.bin"
        self.relay_process = relay = world.start(world.public, [sys.executable, "-m", "fairtable.node.cli", "relay", "--data", str(tmp / "relay"),
                                           "--host", RELAY_IP, "--port", "4001", "--capture", str(self.capture)])
        self.relay = relay.stdout.readline().strip() if relay.stdout else ""
        assert self.relay.endswith("/p2p/" + self.relay.rsplit("/", 1)[-1]) and self.relay.startswith(f"/ip4/{RELAY_IP}/tcp/4001/p2p/")
        line(world, world.python(world.public, "-m", "tests.node.natpeer", "tcp-echo", "--seed", "9", "--port", "4100"))
        self.figures: dict[str, dict] = {}

    def listener(self, home: str, seed: int) -> str:
        """Start a listening seat in ``home``; its relayed address."""
        shown = line(self.world, self.world.python(self.world.homes[home], "-m", "tests.node.natpeer", "listen", "--seed", str(seed),
                                       "--relay", self.relay))
        circuits = [address for address in shown["addresses"] if "/p2p-circuit/" in address]
        assert circuits, shown
        return circuits[0]

    def relay_cpu_seconds(self) -> float:
        """User and system CPU the relay process has used (``ip netns exec`` execs it, so the pid is the relay's)."""
        fields = Path(f"/proc/{self.relay_process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def dial(self, home: str, seed: int, to: str, peer: int, punch: bool, bulk: bool = False) -> dict:
        argv = ["-m", "tests.node.natpeer", "dial", "--seed", str(seed), "--relay", self.relay, "--to", to,
                "--peer", str(peer), "--tcp", f"{RELAY_IP}:4100", "--tcp-seed", "9"]
        argv += (["--punch"] if punch else []) + (["--bulk"] if bulk else [])
        process = self.world.python(self.world.homes[home], *argv)
        try:
            process.wait(TIMEOUT)
        except subprocess.TimeoutExpired:
            process.kill()
        return line(self.world, process)


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    tmp = tmp_path_factory.mktemp("natworld")
    with nat_world({"a": EIM, "b": EIM, "c": SYMMETRIC}, tmp) as built:
        made = World(built, tmp)
        yield made
        FIGURES.parent.mkdir(exist_ok=True)
        FIGURES.write_text(json.dumps(made.figures, indent=1))


def test_two_homes_talk_through_the_relay_which_sees_only_ciphertext(world: World) -> None:
    to = world.listener("a", 1)
    cpu, before = world.relay_cpu_seconds(), world.capture.stat().st_size
    result = world.dial("b", 2, to, 1, punch=False, bulk=True)
    forwarded = world.capture.stat().st_size - before
    result["relay_cpu_seconds_per_mb"] = (world.relay_cpu_seconds() - cpu) / (forwarded / 1e6)
    world.figures["relayed"] = result
    assert result["relay"]["relayed"] and len(result["relay"]["rtts"]) > 0
    assert not result["tcp"]["relayed"]
    captured = world.capture.read_bytes()
    assert forwarded > 2 * 32 * 60000, "the relay forwarded the channel's frames, both ways"
    assert MARKER.encode() not in captured


def test_endpoint_independent_nats_punch_a_hole_to_a_direct_connection(world: World) -> None:
    to = world.listener("a", 3)
    result = world.dial("b", 4, to, 3, punch=True)
    world.figures["punched"] = result
    assert result["punch"] and result["direct"]
    assert not result["punched"]["relayed"]


def test_a_symmetric_nat_stays_on_the_relay(world: World) -> None:
    to = world.listener("a", 5)
    result = world.dial("c", 6, to, 5, punch=True)
    world.figures["symmetric"] = result
    assert not result["punch"] and not result["direct"]
    assert result["punched"]["relayed"] and result["relay_after"]["relayed"]


def test_the_world_is_removed_even_when_a_test_fails(tmp_path):
    with pytest.raises(RuntimeError, match="a failing test"):
        with nat_world({"x": SYMMETRIC}, tmp_path) as doomed:
            names = set(doomed.namespaces)
            doomed.start(doomed.homes["x"], ["sleep", "60"])
            raise RuntimeError("a failing test")
    listed = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True, check=True).stdout.split()
    assert names and not names & set(listed)
    assert all(process.poll() is not None for process in doomed.processes)
