"""fairtable's libp2p hosts meet js-libp2p, an implementation they share no code with, in the NAT world.

The world (:mod:`fairtable.node.natworld`): ``fairtable relay`` and a ``fairtable node`` in the
public namespace, homes ``a`` and ``b`` behind endpoint-independent NATs, and js-libp2p peers
(:data:`~fairtable.node.natworld.JS_PEER`, js-libp2p 2.10 from the npm registry) where each case
puts them. A whole game through a js-libp2p relay is in tests/node/test_natworld_games.py. Times
measured here are figures for the report (``build/jslibp2p-figures.json``), never asserted on.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from fairtable.node.lobby.invite import parse_invite
from fairtable.node.natworld import EIM, RELAY_IP, NatWorld, Peer, js_unavailable, nat_world, unavailable
from fairtable.node.peer.peerid import peer_id_text
from fairtable.node.peer.reach import key_of

JS = js_unavailable()
pytestmark = [pytest.mark.skipif(bool(unavailable()), reason=unavailable() or ""),
              pytest.mark.skipif(bool(JS) and not os.environ.get("CI"), reason=JS or "")]
FIGURES = Path(__file__).resolve().parents[2] / "build" / "jslibp2p-figures.json"
NODE_P2P_PORT = 7411
HOP = "/libp2p/circuit/relay/0.2.0/hop"
STOP = "/libp2p/circuit/relay/0.2.0/stop"
IDENTIFY, PING, AUTONAT = "/ipfs/id/1.0.0", "/ipfs/ping/1.0.0", "/libp2p/autonat/1.0.0"
OK, E_DIAL_ERROR, E_DIAL_REFUSED = 0, 100, 101
ROUTER_A = "203.0.113.11"


class World:
    def __init__(self, world: NatWorld, tmp: Path) -> None:
        self.world = world
        self.tmp = tmp
        self.relay_process, self.relay = world.relay(tmp / "relay", 4001)
        self.node_process, self.node = self.public_node()
        self.figures: dict[str, dict] = {}

    def public_node(self) -> tuple[subprocess.Popen[str], str]:
        """A ``fairtable node`` hosting a table in the public namespace: the process and its libp2p address."""
        node = self.world.start(self.world.public, [
            sys.executable, "-m", "fairtable.node.cli", "node", "--data", str(self.tmp / "node"), "--name", "host",
            "--host", RELAY_IP, "--port", "7410", "--p2p-port", str(NODE_P2P_PORT), "--relay", self.relay,
            "--discovery", "off", "--bot", "random", "--host-table", "towers"])
        assert node.stdout is not None
        invite = next((line.split()[1] for line in node.stdout if line.startswith("invite ")), None)
        assert invite is not None, self.world.stderr(node)
        key = key_of(parse_invite(invite).address)
        assert key is not None, invite
        return node, f"/ip4/{RELAY_IP}/tcp/{NODE_P2P_PORT}/p2p/{peer_id_text(key)}"

    def js(self, home: str | None, *flags: str) -> Peer:
        namespace = self.world.public if home is None else self.world.homes[home]
        return self.world.js(namespace, "--listen", "/ip4/0.0.0.0/tcp/0", *flags)


def need_js() -> None:
    """Fail when CI cannot run js-libp2p (it must, in every run); elsewhere such a test is skipped."""
    if JS:
        pytest.fail(f"CI runs js-libp2p in every run: {JS}")


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    need_js()
    tmp = tmp_path_factory.mktemp("jslibp2p")
    with nat_world({"a": EIM, "b": EIM}, tmp) as built:
        made = World(built, tmp)
        yield made
        FIGURES.parent.mkdir(exist_ok=True)
        FIGURES.write_text(json.dumps(made.figures, indent=1))


def answered(peer: Peer, command: dict) -> dict:
    answer = peer.ask(command)
    assert "failed" not in answer, (command, answer)
    return answer


def without_peer(address: str) -> str:
    return address.split("/p2p/")[0]


def test_a_js_peer_behind_a_nat_identifies_and_pings_the_fairtable_relay_which_serves_hop_only(world: World) -> None:
    client = world.js("a")
    seen = answered(client, {"do": "identify", "address": world.relay})
    assert seen["peer"] == world.relay.rsplit("/p2p/", 1)[1]
    assert seen["agent"].startswith("py-libp2p/")
    assert {IDENTIFY, PING, AUTONAT, HOP} <= set(seen["protocols"]) and STOP not in seen["protocols"]
    assert seen["listen"] == [without_peer(world.relay)]
    assert seen["observed"].startswith(f"/ip4/{ROUTER_A}/tcp/")  # its router's address, as the relay saw it
    world.figures["ping_relay"] = answered(client, {"do": "ping", "address": world.relay})


def test_a_js_peer_identifies_and_pings_a_fairtable_node(world: World) -> None:
    client = world.js("b")
    seen = answered(client, {"do": "identify", "address": world.node})
    assert seen["peer"] == world.node.rsplit("/p2p/", 1)[1]
    assert {IDENTIFY, PING, STOP, "/fairtable/channel/1", "/libp2p/dcutr"} <= set(seen["protocols"])
    assert HOP not in seen["protocols"]
    assert without_peer(world.node) in seen["listen"]
    assert seen["observed"].startswith("/ip4/203.0.113.12/tcp/")
    world.figures["ping_node"] = answered(client, {"do": "ping", "address": world.node})


@pytest.mark.parametrize("flags, offered", [(("--security", "plaintext"), "plaintext/2.0.0"), (("--muxer", "mplex"), "mplex")])
def test_a_js_peer_offering_only_plaintext_or_mplex_reaches_neither_the_relay_nor_a_node(world: World, flags, offered) -> None:
    client = world.js("a", *flags)
    for address in (world.relay, world.node):
        answer = client.ask({"do": "ping", "address": address})
        assert "failed" in answer, (offered, address, answer)


def test_the_fairtable_relay_serves_a_js_reservation_and_a_relayed_connection_between_two_js_peers(world: World) -> None:
    listener = world.js("a", "--relay", world.relay)
    circuit = next(address for address in listener.addresses if "/p2p-circuit/" in address)
    assert circuit.startswith(f"{world.relay}/p2p-circuit/p2p/")
    dialler = world.js("b")
    echoed = answered(dialler, {"do": "echo", "address": circuit, "count": 50, "bytes": 160})
    assert echoed["relayed"]
    rtts = sorted(echoed["seconds"])
    world.figures["js_through_fairtable_relay"] = {"rtt_p50_ms": round(1000 * rtts[len(rtts) // 2], 3),
                                                   "rtt_max_ms": round(1000 * rtts[-1], 3)}


def test_the_fairtable_relay_answers_a_js_autonat_dial_request_reachable_or_not(world: World) -> None:
    public = world.js(None)
    direct = next(address for address in public.addresses if f"/ip4/{RELAY_IP}/" in address)
    said = answered(public, {"do": "autonat", "address": world.relay, "addrs": [without_peer(direct)]})
    assert (said["status"], said["addr"]) == (OK, without_peer(direct))

    home = world.js("a")
    observed = answered(home, {"do": "identify", "address": world.relay})["observed"]
    port = home.addresses[0].split("/tcp/")[1].split("/")[0]
    behind_nat = f"/ip4/{ROUTER_A}/tcp/{port}"  # its router's address at its listening port: the router drops the dial
    said = answered(home, {"do": "autonat", "address": world.relay, "addrs": [behind_nat]})
    assert (said["status"], said["addr"]) == (E_DIAL_ERROR, None), (observed, said)
    private = answered(home, {"do": "autonat", "address": world.relay, "addrs": [f"/ip4/10.0.1.2/tcp/{port}"]})
    assert private["status"] == E_DIAL_REFUSED  # not the address it asked from: the relay will not dial a third party


def test_neither_the_relay_nor_the_node_logs_libp2ps_own_lines_or_dials_to_reach_a_count(world: World) -> None:
    """py-libp2p's auto-connector logged "below target (200 …); initiating 199 new dials" at INFO every 10 s.
    Last in this file: by now the relay and the node have run with peers connected for well over 10 s."""
    for process in (world.relay_process, world.node_process):
        log = (world.world.logs / f"{world.world.processes.index(process)}.stderr").read_text()
        assert "libp2p." not in log and "new dials" not in log, log[-2000:]
