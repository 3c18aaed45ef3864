"""Whole games between nodes in different homes behind NAT routers, each ``fairtable node`` its own process.

The world (:mod:`tests.node.natworld`): ``fairtable relay`` in the public namespace, capturing
what it forwards; homes ``a`` and ``b`` behind endpoint-independent NATs, home ``c`` behind a
symmetric one. A host in ``a`` logs its invite; a guest in another home joins by it. Both run
with ``--relay`` and bots, and each game ends with the same transcript on both nodes, which
verifies, while the relay's capture holds none of its envelopes (not even a signature).
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from fairtable.protocol.envelope import Envelope
from fairtable.protocol.session.verify import verify_chunks
from fairtable.protocol.transcript_file import TranscriptReader
from tests.node.natworld import EIM, RELAY_IP, SYMMETRIC, NatWorld, nat_world, unavailable

pytestmark = pytest.mark.skipif(bool(unavailable()), reason=unavailable() or "")
GAME_SECONDS = 400


class Homes:
    def __init__(self, world: NatWorld, tmp: Path) -> None:
        self.world = world
        self.tmp = tmp
        self.capture = tmp / "relay-capture.bin"
        relay = world.start(world.public, [sys.executable, "-m", "fairtable.node.cli", "relay", "--data", str(tmp / "relay"),
                                           "--host", RELAY_IP, "--port", "4001", "--capture", str(self.capture)])
        self.relay = relay.stdout.readline().strip() if relay.stdout else ""
        assert self.relay.startswith(f"/ip4/{RELAY_IP}/tcp/4001/p2p/"), world.stderr(relay)

    def node(self, home: str, name: str, *flags: str) -> subprocess.Popen[str]:
        return self.world.start(self.world.homes[home], [
            sys.executable, "-m", "fairtable.node.cli", "node", "--data", str(self.tmp / name), "--name", name,
            "--host", "0.0.0.0", "--port", "7400", "--p2p-port", "7401", "--relay", self.relay, "--discovery", "off",
            "--bot", "random", "--heartbeat", "0.5", "--until-done", *flags])

    def play(self, host_home: str, guest_home: str, name: str, *flags: str) -> tuple[list[bytes], list[str]]:
        """A towers table hosted in ``host_home`` and joined by invite from ``guest_home``: both files and logs."""
        host = self.node(host_home, f"{name}-host", "--host-table", "towers", *flags)
        assert host.stdout is not None
        invite = next((line.split()[1] for line in host.stdout if line.startswith("invite ")), None)
        assert invite is not None, self.world.stderr(host)
        guest = self.node(guest_home, f"{name}-guest", "--join", invite, *flags)
        outputs = []
        for process in (host, guest):
            try:
                outputs.append(process.communicate(timeout=GAME_SECONDS)[0])
            except subprocess.TimeoutExpired:
                process.kill()
                raise AssertionError(f"no end within {GAME_SECONDS} s: {self.world.stderr(process)}") from None
            assert process.returncode == 0, self.world.stderr(process)
        files = [Path(next(line for line in output.splitlines() if " finished: " in line).rsplit(" ", 1)[1]).read_bytes()
                 for output in outputs]
        return files, [self.world.stderr(process) for process in (host, guest)]

    def assert_relay_saw_none_of(self, file: bytes) -> None:
        envelopes: list[Envelope] = []
        TranscriptReader(envelopes.append).feed(file)
        captured = self.capture.read_bytes()
        assert envelopes and captured
        assert not [envelope.seq for envelope in envelopes if envelope.signature in captured or envelope.content in captured]


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
    assert files[0] == files[1] and verify_chunks([files[0]]).valid
    channels = libp2p_channels(logs[0])  # the host (seat 0) dials the guest
    assert channels[0] == "relayed" and channels[-1] == "direct", channels
    assert "absent" not in logs[0] + logs[1]
    homes.assert_relay_saw_none_of(files[0])


def test_towers_with_a_home_behind_a_symmetric_nat_stays_on_the_relay(homes: Homes) -> None:
    files, logs = homes.play("a", "c", "symmetric")
    assert files[0] == files[1] and verify_chunks([files[0]]).valid
    channels = libp2p_channels(logs[0])
    assert channels and set(channels) == {"relayed"}, channels
    homes.assert_relay_saw_none_of(files[0])
