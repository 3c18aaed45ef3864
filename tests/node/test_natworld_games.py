"""Whole games between nodes in different homes behind NAT routers, each ``fairtable node`` its own process.

The world (:mod:`fairtable.node.natworld`): ``fairtable relay`` in the public namespace, capturing
what it forwards, and a spare relay; homes ``a`` and ``b`` behind endpoint-independent NATs, home
``c`` behind a symmetric one. A host in ``a`` logs its invite; guests in other homes join by it;
every node runs with both ``--relay``. Each game ends with the same transcript on every node,
which verifies, nobody judged absent, while the relay's capture holds none of its envelopes (not
even a signature).

Three games cover the five cases, each fault made at a moment the game cannot have passed: one
seat is played through its node's client API by :mod:`tests.node.natgame_player`, which holds it
at its first decision (mid-game: shuffled and dealt) until the test lets it go on. So no game is
slowed down to outlast a hole punch or a fault: every wait is for an event, with a generous bound.
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

from fairtable.node.cli.main import main
from fairtable.node.lobby.invite import parse_invite
from fairtable.node.natworld import EIM, SYMMETRIC, NatWorld, js_unavailable, nat_world, unavailable
from fairtable.protocol.envelope import Envelope
from fairtable.protocol.session.slots import ABSENT, RESIGN
from fairtable.protocol.transcript_file import TranscriptReader
from tests.node.test_jslibp2p import need_js
from tests.node.test_processes import journal_length

pytestmark = pytest.mark.skipif(bool(unavailable()), reason=unavailable() or "")
SECONDS = 300
"""Bound on every wait (a game's end, a punch, a redial): a guard against hanging, never a timing assertion."""
PLAYER = Path(__file__).with_name("natgame_player.py")
API_PORT = 7467
HELD = "turn_seconds=300"
"""A held seat's turn timer outlasts every wait, so its node never plays the timer's default for it."""


class Homes:
    def __init__(self, world: NatWorld, tmp: Path) -> None:
        self.world = world
        self.tmp = tmp
        self.capture = tmp / "relay-capture.bin"
        self.relay_process, self.relay = world.relay(tmp / "relay", 4001, "--capture", str(self.capture))
        self.spare_process, self.spare = world.relay(tmp / "spare", 4002)

    def node(self, home: str, name: str, *flags: str, port: int = 7400, relays: tuple[str, ...] = ()) -> subprocess.Popen[str]:
        """A node in ``home`` holding reservations at ``relays`` (by default the relay and the spare)."""
        return self.world.start(self.world.homes[home], [
            sys.executable, "-m", "fairtable.node.cli", "node", "--data", str(self.tmp / name), "--name", name,
            "--host", "0.0.0.0", "--port", str(port), "--p2p-port", str(port + 1),
            *[flag for relay in relays or (self.relay, self.spare) for flag in ("--relay", relay)],
            "--discovery", "off", "--heartbeat", "1", "--until-done", *flags])

    def host(self, home: str, name: str, game: str, options: str,
             relays: tuple[str, ...] = ()) -> tuple[subprocess.Popen[str], str]:
        """A node whose bot hosts a table of ``game``: the process and the invite it logged."""
        host = self.node(home, name, "--bot", "random", "--host-table", game, "--options", options, relays=relays)
        assert host.stdout is not None
        invite = next((line.split()[1] for line in host.stdout if line.startswith("invite ")), None)
        assert invite is not None, self.world.stderr(host)
        return host, invite

    def joined(self, guest: subprocess.Popen[str]) -> str:
        """Return once ``guest`` took its seat (seats are taken in the order guests join): its key fingerprint."""
        assert guest.stdout is not None
        fingerprint = None
        for line in guest.stdout:
            fingerprint = fingerprint or listening(line)
            if line.startswith("joined table "):
                assert fingerprint is not None
                return fingerprint
        raise AssertionError(self.world.stderr(guest))

    def held(self, home: str, name: str, invite: str,
             relays: tuple[str, ...] = ()) -> tuple[subprocess.Popen[str], subprocess.Popen[str], str]:
        """A node without a bot joining by ``invite``, and its player, once the game waits for that seat's first
        decision: the node, the player (:func:`go` lets it play) and the node's key fingerprint."""
        node = self.node(home, name, "--join", invite, "--api-port", str(API_PORT), relays=relays)
        assert node.stdout is not None
        fingerprint = listening(node.stdout.readline())
        assert fingerprint is not None, self.world.stderr(node)
        player = self.world.python(self.world.homes[home], str(PLAYER), "--api", f"ws://127.0.0.1:{API_PORT}",
                                   "--token-file", str(self.tmp / name / "api-token"))
        self.world.answer(player)  # {"decision": ...}
        return node, player, fingerprint

    def finish(self, processes: list[subprocess.Popen[str]]) -> list[str]:
        """Each process's output once it ended by itself, within :data:`SECONDS`, with status 0."""
        outputs = []
        for process in processes:
            try:
                outputs.append(process.communicate(timeout=SECONDS)[0])
            except subprocess.TimeoutExpired:
                process.kill()
                raise AssertionError(f"no end within {SECONDS} s: {self.world.stderr(process)}") from None
            assert process.returncode == 0, (outputs[-1:], self.world.stderr(process))
        return outputs

    @staticmethod
    def files(outputs: list[str]) -> list[Path]:
        """The transcript each node wrote (its ``--until-done`` line names the file)."""
        return [Path(next(line for line in output.splitlines() if " finished: " in line).rsplit(" ", 1)[1]) for output in outputs]

    def log(self, process: subprocess.Popen[str]) -> str:
        """A node's whole log (``NatWorld.stderr`` keeps only its end, for failure messages)."""
        return (self.world.logs / f"{self.world.processes.index(process)}.stderr").read_text()

    def until(self, condition: Callable[[], bool], what: str) -> None:
        deadline = time.monotonic() + SECONDS
        while not condition():
            assert time.monotonic() < deadline, f"not within {SECONDS} s: {what}"
            time.sleep(0.2)  # polling logs: a guard against hanging, not a timing assertion

    def assert_relay_saw_none_of(self, file: Path, capture: Path | None = None) -> None:
        captured = (capture or self.capture).read_bytes()
        assert captured
        assert not [envelope.seq for envelope in envelopes(file) if envelope.signature in captured or envelope.content in captured]


def listening(line: str) -> str | None:
    """The key fingerprint a node's first line names, or None for another line."""
    found = re.search(r"\(([0-9A-Z-]+)\) listening on", line)
    return found.group(1) if found else None


def kill(process: subprocess.Popen[str]) -> None:
    process.kill()
    process.wait()


def go(player: subprocess.Popen[str]) -> None:
    """Let a held seat's player answer every decision from now on."""
    assert player.stdin is not None
    player.stdin.write("go\n")
    player.stdin.flush()


def envelopes(file: Path) -> list[Envelope]:
    found: list[Envelope] = []
    TranscriptReader(found.append).feed(file.read_bytes())
    assert found
    return found


def played_out(files: list[Path]) -> None:
    """Every node holds the same file, ``fairtable verify`` finds it valid, and nobody was judged absent (or resigned)."""
    assert len({file.read_bytes() for file in files}) == 1
    assert main(["verify", str(files[0])]) == 0
    assert not {envelope.kind for envelope in envelopes(files[0])} & {ABSENT, RESIGN}


@pytest.fixture(scope="module")
def homes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Homes]:
    tmp = tmp_path_factory.mktemp("natgames")
    with nat_world({"a": EIM, "b": EIM, "c": SYMMETRIC}, tmp) as built:
        yield Homes(built, tmp)


@pytest.fixture(autouse=True)
def _ends_its_processes(homes: Homes) -> Iterator[None]:
    """A test that fails midway leaves no process behind holding the ports the next test's nodes take."""
    first = len(homes.world.processes)
    yield
    for process in homes.world.processes[first:]:
        if process.poll() is None:
            kill(process)


def libp2p_channels(log: str, peer: str = "") -> list[str]:
    """How each libp2p channel the node dialled (to the node of fingerprint ``peer``, if given) ran: ``relayed`` or
    ``direct``, in order. The lower seat dials the higher one: the host sits at seat 0, guests in the order they joined
    (a guest's log also holds the channel its join dialled to the host)."""
    return [line.rsplit(": ", 1)[1] for line in log.splitlines() if f" INFO libp2p channel to {peer}" in line]


def test_towers_between_two_homes_behind_endpoint_independent_nats_moves_to_a_punched_direct_connection(homes: Homes) -> None:
    """The guest's seat is held until the host's channel to it runs direct: every move it makes goes that way.
    Its join reached home a only through the relay, so that direct connection is a punch's (libp2p's own punch
    may move the join's connection before the table starts, then the table's first channel is direct already)."""
    host, invite = homes.host("a", "eim-host", "towers", HELD)
    guest, player, _ = homes.held("b", "eim-guest", invite)
    homes.until(lambda: "direct" in libp2p_channels(homes.log(host)), "a hole punch moves the table off the relay")
    go(player)
    files = homes.files(homes.finish([host, guest]))
    homes.finish([player])
    played_out(files)
    joined = libp2p_channels(homes.log(guest))[0]
    channels = libp2p_channels(homes.log(host))
    assert joined == "relayed" and channels[-1] == "direct", (joined, channels)
    homes.assert_relay_saw_none_of(files[0])


def test_towers_through_a_js_libp2p_relay_between_two_homes_punches_and_plays_out(homes: Homes) -> None:
    """js-libp2p's circuit relay v2 server (another implementation, in the public namespace) stands in for
    ``fairtable relay``: both nodes reserve there alone, the guest joins through it, the host's link to the guest
    punches a hole, and the game ends alike on both, verified, with none of its envelopes in the js relay's capture."""
    if js_unavailable() and not os.environ.get("CI"):
        pytest.skip(js_unavailable() or "")
    need_js()
    capture = homes.tmp / "js-relay-capture.bin"
    process, js_relay = homes.world.js_relay(4005, capture)
    try:
        host, invite = homes.host("a", "js-host", "towers", HELD, relays=(js_relay,))
        assert f"{js_relay}/p2p-circuit" in parse_invite(invite).address
        guest, player, _ = homes.held("b", "js-guest", invite, relays=(js_relay,))
        homes.until(lambda: "direct" in libp2p_channels(homes.log(host)), "a hole punch moves the table off the js relay")
        go(player)
        files = homes.files(homes.finish([host, guest]))
        homes.finish([player])
    finally:
        kill(process)
    played_out(files)
    assert libp2p_channels(homes.log(guest))[0] == "relayed"
    homes.assert_relay_saw_none_of(files[0], capture)


def test_towers_with_a_home_behind_a_symmetric_nat_stays_on_the_relay_and_a_node_killed_there_mid_game_finishes_it(
        homes: Homes) -> None:
    """The guest, behind the symmetric NAT, is killed while its first decision is due and started again with its
    data and ports: it reloads its journal, is reached through the relay again, and its bot finishes the game."""
    host, invite = homes.host("a", "symmetric-host", "towers", HELD)
    guest, player, _ = homes.held("c", "symmetric-guest", invite)
    kill(guest)
    kill(player)
    journaled = journal_length(homes.tmp / "symmetric-guest")
    guest = homes.node("c", "symmetric-guest", "--bot", "random")
    files = homes.files(homes.finish([host, guest]))
    played_out(files)
    channels = libp2p_channels(homes.log(host))
    assert len(channels) >= 2 and set(channels) == {"relayed"}, channels
    reloaded = re.search(r"reloaded (\d+) envelopes", homes.log(guest))
    assert reloaded is not None and int(reloaded.group(1)) == journaled
    assert 0 < journaled < len(envelopes(files[0]))
    homes.assert_relay_saw_none_of(files[0])


def test_shengji_with_four_nodes_in_three_homes_outlives_its_relay_killed_mid_game(homes: Homes) -> None:
    """Two nodes in home a (one hosting), then one behind the other endpoint-independent NAT, then the last seat
    behind the symmetric one, reached only through relays (the lower seat dials). That seat is held while the relay
    is killed, once the links to home b run direct after their punches: those go on as they are, and the links to
    home c move to the spare relay."""
    host, invite = homes.host("a", "shengji-host", "shengji", f"deals=1,{HELD}")
    near = homes.node("a", "shengji-a", "--bot", "random", "--join", invite, port=7410)
    homes.joined(near)
    far = homes.node("b", "shengji-b", "--bot", "random", "--join", invite)
    punched = homes.joined(far)
    held, player, symmetric = homes.held("c", "shengji-c", invite)
    homes.until(lambda: f"relay {homes.spare}: reservation held" in homes.log(held), "home c's reservation at the spare relay")
    homes.until(lambda: all(libp2p_channels(homes.log(dialler), punched)[-1:] == ["direct"] for dialler in (host, near)),
                "the channels to home b punched and direct")
    homes.until(lambda: bool(libp2p_channels(homes.log(host), symmetric)), "the host's channel to home c")
    before = [libp2p_channels(homes.log(dialler), punched) for dialler in (host, near)]
    kill(homes.relay_process)
    try:
        homes.until(lambda: len(libp2p_channels(homes.log(host), symmetric)) >= 2, "a channel through the spare relay")
        after = [libp2p_channels(homes.log(dialler), punched) for dialler in (host, near)]
        go(player)
        files = homes.files(homes.finish([host, near, far, held]))
        homes.finish([player])
    finally:
        homes.relay_process, _ = homes.world.relay(homes.tmp / "relay", 4001, "--capture", str(homes.capture))
    played_out(files)
    assert after == before  # the punched channels were not redialled while the relayed ones were
    channels = libp2p_channels(homes.log(host), symmetric)
    assert len(channels) >= 2 and set(channels) == {"relayed"}, channels
    homes.assert_relay_saw_none_of(files[0])
