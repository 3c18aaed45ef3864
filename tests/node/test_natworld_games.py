"""Whole games between nodes in different homes behind NAT routers, each ``fairtable node`` its own process.

The world (:mod:`fairtable.node.natworld`): ``fairtable relay`` in the public namespace, capturing
what it forwards; homes ``a`` and ``b`` behind endpoint-independent NATs, home ``c`` behind a
symmetric one. A host in ``a`` logs its invite; a guest in another home joins by it. Both run
with ``--relay`` and bots, and each game ends with the same transcript on both nodes, which
verifies, while the relay's capture holds none of its envelopes (not even a signature).
They take a minute or more each, so they run with ``FAIRTABLE_NAT_GAMES=1`` (the normal suite
proves the punch, the symmetric router and the faults at the channel level, ``test_natworld.py``).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from fairtable.node.natworld import EIM, SYMMETRIC, NatWorld, nat_world, unavailable
from fairtable.protocol.envelope import Envelope
from fairtable.protocol.session.slots import ABSENT, RESIGN
from fairtable.protocol.session.verify import verify_chunks
from fairtable.protocol.transcript_file import TranscriptReader
from tests.node.test_processes import journal_length

pytestmark = [
    pytest.mark.skipif(bool(unavailable()), reason=unavailable() or ""),
    pytest.mark.skipif(not os.environ.get("FAIRTABLE_NAT_GAMES"), reason="a minute or more each: FAIRTABLE_NAT_GAMES=1 runs them"),
]
GAME_SECONDS = 400
MID_GAME = 10
"""Envelopes a node has journaled when a fault is made: the game is under way."""


class Homes:
    def __init__(self, world: NatWorld, tmp: Path) -> None:
        self.world = world
        self.tmp = tmp
        self.capture = tmp / "relay-capture.bin"
        self.relay_process, self.relay = world.relay(tmp / "relay", 4001, "--capture", str(self.capture))
        self.spare_process, self.spare = world.relay(tmp / "spare", 4002)

    def node(self, home: str, name: str, *flags: str, port: int = 7400) -> subprocess.Popen[str]:
        return self.world.start(self.world.homes[home], [
            sys.executable, "-m", "fairtable.node.cli", "node", "--data", str(self.tmp / name), "--name", name,
            "--host", "0.0.0.0", "--port", str(port), "--p2p-port", str(port + 1), "--relay", self.relay, "--relay", self.spare,
            "--discovery", "off", "--bot", "random", "--heartbeat", "0.5", "--until-done", *flags])

    def play(self, host_home: str, guest_home: str, name: str, *flags: str,
             meanwhile: Callable[[subprocess.Popen[str], subprocess.Popen[str]], subprocess.Popen[str] | None] = lambda host, guest: None,
             ) -> tuple[list[bytes], list[str]]:
        """A towers table hosted in ``host_home`` and joined by invite from ``guest_home``: both files and logs.

        ``meanwhile(host, guest)`` runs once both nodes are started; it may return a guest started again."""
        host = self.node(host_home, f"{name}-host", "--host-table", "towers", *flags)
        assert host.stdout is not None
        invite = next((line.split()[1] for line in host.stdout if line.startswith("invite ")), None)
        assert invite is not None, self.world.stderr(host)
        guest = self.node(guest_home, f"{name}-guest", "--join", invite, *flags)
        guest = meanwhile(host, guest) or guest
        outputs = self.finish([host, guest])
        return self.files(outputs), [self.log(process) for process in (host, guest)]

    def finish(self, processes: list[subprocess.Popen[str]]) -> list[str]:
        """Each process's output once it ended by itself, within the game's time, with status 0."""
        outputs = []
        for process in processes:
            try:
                outputs.append(process.communicate(timeout=GAME_SECONDS)[0])
            except subprocess.TimeoutExpired:
                process.kill()
                raise AssertionError(f"no end within {GAME_SECONDS} s: {self.world.stderr(process)}") from None
            assert process.returncode == 0, self.world.stderr(process)
        return outputs

    @staticmethod
    def files(outputs: list[str]) -> list[bytes]:
        """The transcript each node wrote (its ``--until-done`` line names the file)."""
        return [Path(next(line for line in output.splitlines() if " finished: " in line).rsplit(" ", 1)[1]).read_bytes()
                for output in outputs]

    def log(self, process: subprocess.Popen[str]) -> str:
        """A node's whole log (``NatWorld.stderr`` keeps only its end, for failure messages)."""
        return (self.world.logs / f"{self.world.processes.index(process)}.stderr").read_text()

    def link_runs(self, host: subprocess.Popen[str], guest: str) -> None:
        """Return once the host dialled the guest's libp2p channel and the guest (its data folder) journaled some play."""
        deadline = time.monotonic() + GAME_SECONDS
        while not (libp2p_channels(self.log(host)) and journal_length(self.tmp / guest) >= MID_GAME) \
                and time.monotonic() < deadline:
            time.sleep(0.2)  # polling files: a guard against hanging, not a timing assertion

    def assert_relay_saw_none_of(self, file: bytes) -> None:
        captured = self.capture.read_bytes()
        assert captured
        assert not [envelope.seq for envelope in envelopes(file) if envelope.signature in captured or envelope.content in captured]


def envelopes(file: bytes) -> list[Envelope]:
    found: list[Envelope] = []
    TranscriptReader(found.append).feed(file)
    assert found
    return found


def played_out(files: list[bytes]) -> None:
    """Every node holds the same file, it verifies, and nobody was judged absent (or resigned)."""
    assert len(set(files)) == 1 and verify_chunks([files[0]]).valid
    assert not {envelope.kind for envelope in envelopes(files[0])} & {ABSENT, RESIGN}


@pytest.fixture(scope="module")
def homes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Homes]:
    tmp = tmp_path_factory.mktemp("natgames")
    with nat_world({"a": EIM, "b": EIM, "c": SYMMETRIC}, tmp) as built:
        yield Homes(built, tmp)


def libp2p_channels(log: str) -> list[str]:
    """How each libp2p channel the node dialled ran: ``relayed`` or ``direct``, in order."""
    return [line.rsplit(": ", 1)[1] for line in log.splitlines() if " INFO libp2p channel to " in line]


def test_towers_between_two_homes_behind_endpoint_independent_nats_ends_punched_and_direct(homes: Homes) -> None:
    # a bot delay keeps the game going past libp2p's 60 s close of the relayed connection after the punch
    files, logs = homes.play("a", "b", "eim", "--bot-delay", "0.4")
    played_out(files)
    channels = libp2p_channels(logs[0])  # the host (seat 0) dials the guest
    assert channels[0] == "relayed" and channels[-1] == "direct", channels
    homes.assert_relay_saw_none_of(files[0])


def test_towers_with_a_home_behind_a_symmetric_nat_stays_on_the_relay(homes: Homes) -> None:
    files, logs = homes.play("a", "c", "symmetric")
    played_out(files)
    channels = libp2p_channels(logs[0])
    assert channels and set(channels) == {"relayed"}, channels
    homes.assert_relay_saw_none_of(files[0])


def test_a_relay_killed_mid_game_costs_time_not_the_game_the_link_moves_to_the_spare_relay(homes: Homes) -> None:
    def kill_the_relay_once_the_link_runs_through_it(host: subprocess.Popen[str], guest: subprocess.Popen[str]) -> None:
        homes.link_runs(host, "relay-killed-guest")
        homes.relay_process.kill()
        homes.relay_process.wait()

    files, logs = homes.play("a", "c", "relay-killed", "--bot-delay", "0.3", meanwhile=kill_the_relay_once_the_link_runs_through_it)
    played_out(files)
    channels = libp2p_channels(logs[0])
    assert len(channels) >= 2 and set(channels) == {"relayed"}, channels  # redialled, through the spare


def test_a_node_killed_mid_game_behind_its_nat_and_started_again_finishes_the_game(homes: Homes) -> None:
    def restart_the_guest(host: subprocess.Popen[str], guest: subprocess.Popen[str]) -> subprocess.Popen[str]:
        homes.link_runs(host, "restarted-guest")
        guest.kill()
        guest.wait()
        return homes.node("b", "restarted-guest", "--bot-delay", "0.3")  # same data and ports; it reloads its journal

    files, logs = homes.play("a", "b", "restarted", "--bot-delay", "0.3", meanwhile=restart_the_guest)
    played_out(files)
    reloaded = int(re.search(r"reloaded (\d+) envelopes", logs[1]).group(1))
    assert MID_GAME <= reloaded < len(envelopes(files[0]))


def test_shengji_with_four_nodes_in_three_homes(homes: Homes) -> None:
    """Two nodes in home a (one hosting), one behind the other endpoint-independent NAT, one behind the symmetric one."""
    host = homes.node("a", "shengji-host", "--host-table", "shengji", "--options", "deals=1")
    assert host.stdout is not None
    invite = next((line.split()[1] for line in host.stdout if line.startswith("invite ")), None)
    assert invite is not None, homes.world.stderr(host)
    guests = [homes.node(home, f"shengji-{home}{port}", "--join", invite, port=port)
              for home, port in (("a", 7410), ("b", 7400), ("c", 7400))]
    outputs = homes.finish([host, *guests])
    played_out(homes.files(outputs))
