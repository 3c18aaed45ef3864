"""Homes behind NAT routers reach each other through relays, punch a hole where the routers allow,
and outlive the faults of the relays and of each other.

The world (:mod:`fairtable.node.natworld`): a relay (``fairtable relay``, capturing what it
forwards) and a plain TCP echo in the public namespace; homes ``a`` and ``b`` behind
endpoint-independent NATs, home ``c`` behind a symmetric one. Every peer is its own process in
its home, dialling as a node dials (its reach, in order) and renewing its reservations as a node
does. The timings are figures for the report, never asserted on.
"""

from __future__ import annotations

import json
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from fairtable.node.natworld import EIM, RELAY_IP, SYMMETRIC, NatWorld, Peer, nat_world, unavailable
from fairtable.node.natworld.peer import MARKER
from fairtable.node.peer.reach import compact

pytestmark = pytest.mark.skipif(bool(unavailable()), reason=unavailable() or "")
FIGURES = Path(__file__).resolve().parents[2] / "build" / "natworld-figures.json"
TCP = f"{RELAY_IP}:4100"
BULK = 32
"""Values of 60 000 bytes each echoed through the relay: its CPU per megabyte forwarded."""


class World:
    def __init__(self, world: NatWorld, tmp: Path) -> None:
        self.world = world
        self.tmp = tmp
        self.capture = tmp / "relay-capture.bin"
        self.relay_process, self.relay = world.relay(tmp / "relay", 4001, "--capture", str(self.capture))
        world.tcp_echo(world.public, 9, 4100)
        self.figures: dict[str, dict] = {}

    def peer(self, home: str, seed: int, *relays: str) -> Peer:
        return self.world.peer(self.world.homes[home], seed, *relays)

    def peers(self, *wanted: tuple[str, int, tuple[str, ...]]) -> list[Peer]:
        """Peers ``(home, seed, relays)``, started side by side, each holding its reservations."""
        started = self.world.peers(*[(self.world.homes[home], seed, relays) for home, seed, relays in wanted])
        for peer, (_home, _seed, relays) in zip(started, wanted, strict=True):
            assert all(held(peer, relay) for relay in relays)
        return started


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    tmp = tmp_path_factory.mktemp("natworld")
    with nat_world({"a": EIM, "b": EIM, "c": SYMMETRIC}, tmp) as built:
        made = World(built, tmp)
        yield made
        FIGURES.parent.mkdir(exist_ok=True)
        FIGURES.write_text(json.dumps(made.figures, indent=1))


def held(peer: Peer, relay: str) -> bool:
    """Whether ``peer`` holds (or, within its timeout, comes to hold) its reservation at ``relay``."""
    return bool(peer.ask({"do": "held", "relay": relay})["held"])


def dial(dialler: Peer, reach: str, seed: int) -> dict:
    """Open the dialler's channel to seat ``seed`` at ``reach``: its answer (why not, when it failed)."""
    answer = dialler.ask({"do": "dial", "reach": reach, "peer": seed})
    assert "failed" not in answer, answer["failed"]
    return answer


def reach(peer: Peer) -> str:
    """What a node would announce: every address of the peer, without its own peer id."""
    return compact(",".join(peer.addresses))


def test_two_homes_talk_through_the_relay_which_sees_only_ciphertext(world: World) -> None:
    listener, dialler = world.peers(("a", 1, (world.relay,)), ("b", 2, (world.relay,)))
    tcp = {**dialler.ask({"do": "tcp", "address": TCP, "peer": 9}), **dialler.ask({"do": "echo", "count": 50})}
    relayed = {**dial(dialler, listener.circuit(world.relay), 1),
               **dialler.ask({"do": "echo", "count": 50})}
    cpu, before = world.world.cpu_seconds(world.relay_process), world.capture.stat().st_size
    assert "broken" not in dialler.ask({"do": "echo", "count": BULK, "bulk": 60000})
    forwarded = world.capture.stat().st_size - before
    world.figures["relayed"] = {"tcp": tcp, "relay": relayed,
                                "relay_cpu_seconds_per_mb": (world.world.cpu_seconds(world.relay_process) - cpu) / (forwarded / 1e6)}
    assert relayed["relayed"] and len(relayed["rtts"]) == 50 and not tcp["relayed"], relayed
    assert forwarded > 2 * BULK * 60000, "the relay forwarded the channel's frames, both ways"
    assert MARKER.encode() not in world.capture.read_bytes()


def test_endpoint_independent_nats_punch_a_hole_to_a_direct_connection(world: World) -> None:
    listener, dialler = world.peers(("a", 3, (world.relay,)), ("b", 4, (world.relay,)))
    assert dial(dialler, listener.circuit(world.relay), 3)["relayed"]
    punch = dialler.ask({"do": "punch"})
    fresh = dial(dialler, listener.circuit(world.relay), 3)
    world.figures["punched"] = {**punch, **fresh, **dialler.ask({"do": "echo", "count": 50})}
    assert punch["direct"] and not fresh["relayed"], (punch, fresh)


def test_a_node_in_public_learns_it_can_be_dialled_and_one_behind_either_kind_of_nat_that_it_cannot(world: World) -> None:
    public, eim, symmetric = world.world.peers((world.world.public, 16, (world.relay,)), (world.world.homes["a"], 17, (world.relay,)),
                                               (world.world.homes["c"], 18, (world.relay,)))
    learnt = {}
    for name, peer in (("public", public), ("eim", eim), ("symmetric", symmetric)):
        assert held(peer, world.relay)
        direct = [address for address in peer.addresses if "/p2p-circuit" not in address]
        if peer is eim:  # also its router's address (home a's: 203.0.113.11), where the relay sees it come from:
            direct.append("/ip4/203.0.113.11/tcp/5017")  # dialled back on a new connection, which the router drops
        learnt[name] = peer.ask({"do": "reachability", "direct": direct})
    world.figures["reachability"] = learnt
    assert learnt["public"]["reachability"] == "public" and learnt["public"]["reached"] == [f"/ip4/{RELAY_IP}/tcp/5016"]
    assert learnt["public"]["line"].startswith(f"reachable directly at /ip4/{RELAY_IP}/tcp/5016")
    for behind in ("eim", "symmetric"):
        assert learnt[behind]["reachability"] == "private" and not learnt[behind]["reached"], learnt[behind]
        assert learnt[behind]["line"] == f"behind a NAT: reached through relay {world.relay}"
    assert held(public, world.relay), "the relay's dial-back connection, closed again, leaves the reservation"


def test_a_symmetric_nat_stays_on_the_relay(world: World) -> None:
    listener, dialler = world.peers(("a", 5, (world.relay,)), ("c", 6, (world.relay,)))
    assert dial(dialler, listener.circuit(world.relay), 5)["relayed"]
    punch = dialler.ask({"do": "punch"})
    fresh = dial(dialler, listener.circuit(world.relay), 5)
    world.figures["symmetric"] = punch
    assert not punch["direct"] and fresh["relayed"]
    assert dialler.ask({"do": "echo", "count": 3})["relayed"]


def test_a_relay_dying_leaves_a_punched_channel_alone_and_a_relayed_one_redials_through_the_other_relay(world: World) -> None:
    dying, dying_address = world.world.relay(world.tmp / "dying", 4003)
    listener, punched, relayed = world.peers(("a", 7, (dying_address, world.relay)), ("b", 8, (world.relay,)),
                                             ("c", 10, (world.relay,)))
    for dialler in (punched, relayed):
        assert dial(dialler, listener.circuit(dying_address), 7)["relayed"]
    assert punched.ask({"do": "punch"})["direct"]
    assert not dial(punched, listener.circuit(dying_address), 7)["relayed"]
    dying.kill()
    dying.wait()
    assert "broken" not in punched.ask({"do": "echo", "count": 3})
    assert "broken" in relayed.ask({"do": "echo", "count": 3})
    start = time.monotonic()
    redialled = dial(relayed, reach(listener), 7)  # the dead circuit, then the other relay's
    world.figures["redial_after_relay_died"] = {**redialled, "wall": time.monotonic() - start}
    assert redialled["relayed"] and "broken" not in relayed.ask({"do": "echo", "count": 3})


def test_a_restarted_relay_is_reserved_again_even_by_a_peer_started_while_it_was_away_and_one_that_stalls_costs_time_not_the_channel(world: World) -> None:
    restarting, address = world.world.relay(world.tmp / "restarting", 4004)
    listener, dialler = world.peers(("a", 11, (address,)), ("c", 12, (world.relay,)))
    restarting.kill()
    restarting.wait()
    late = world.peer("a", 15, address)  # started while the relay is away: its circuit is announced all the same
    _, same = world.world.relay(world.tmp / "restarting", 4004)  # its key file: the same address
    assert same == address and held(listener, address) and held(late, address)
    assert dial(dialler, late.circuit(address), 15)["relayed"]
    assert dial(dialler, listener.circuit(address), 11)["relayed"]
    world.world.blackhole(4004, True)
    assert dialler.process.stdin is not None
    dialler.process.stdin.write(json.dumps({"do": "echo", "count": 1}) + "\n")
    dialler.process.stdin.flush()
    time.sleep(2)  # the relay forwards nothing meanwhile; how long is not what is asserted
    world.world.blackhole(4004, False)
    stalled = world.world.answer(dialler.process)
    world.figures["stalled_relay"] = stalled
    assert "broken" not in stalled and stalled["relayed"]


def test_a_peer_killed_behind_its_nat_and_started_again_is_reached_at_the_reach_it_announced(world: World) -> None:
    listener, dialler = world.peers(("a", 13, (world.relay,)), ("c", 14, (world.relay,)))
    announced = reach(listener)
    assert dial(dialler, announced, 13)["relayed"]
    listener.process.kill()
    listener.process.wait()
    assert "broken" in dialler.ask({"do": "echo", "count": 1})
    (restarted,) = world.peers(("a", 13, (world.relay,)))  # same key, same port: the same reach
    assert reach(restarted) == announced
    assert dial(dialler, announced, 13)["relayed"]
    assert "broken" not in dialler.ask({"do": "echo", "count": 3})


def test_the_world_is_removed_even_when_a_test_fails(tmp_path):
    with pytest.raises(RuntimeError, match="a failing test"):
        with nat_world({"x": SYMMETRIC}, tmp_path) as doomed:
            names = set(doomed.namespaces)
            doomed.start(doomed.homes["x"], ["sleep", "60"])
            raise RuntimeError("a failing test")
    listed = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True, check=True).stdout.split()
    assert names and not names & set(listed)
    assert all(process.poll() is not None for process in doomed.processes)
