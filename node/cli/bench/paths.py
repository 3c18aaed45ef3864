"""``fairtable bench net --path direct|relay|punched``: a libp2p path in the NAT world against direct TCP.

It builds :mod:`fairtable.node.natworld` (needs root): ``fairtable relay`` and two seats in the
public namespace (one on today's TCP channel, one on libp2p), and homes ``a`` and ``b`` behind
endpoint-independent NAT routers. A seat in ``b`` opens a channel and echoes move-sized values
(:data:`MOVE_BYTES`) over:

- ``tcp``, every run: today's direct TCP channel to the public seat (the baseline);
- ``direct``: libp2p to the public seat's own address;
- ``relay``: libp2p through the relay to the seat in home ``a``;
- ``punched``: the same, then a DCUtR hole punch and a fresh channel on the direct connection.

``--relay-kind js`` puts js-libp2p's circuit relay v2 server (:data:`~fairtable.node.natworld.JS_PEER`)
where ``fairtable relay`` stands: the same paths through another implementation's relay.

Figures: channel set-up time and round trip p50/p99 of the path, each also as a ratio to the
TCP baseline's; ``ratio`` is the round trip p50 ratio and ``goal`` its ceiling for the path.
With ``relay``, ``relay_cpu_s_per_mb`` is the relay process's CPU (user and system) per
megabyte it forwarded while :data:`BULK` values of 60 000 bytes went through and back.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from fairtable.node.natworld import EIM, RELAY_IP, NatWorld, Peer, WorldError, js_unavailable, nat_world, unavailable

PATHS = ("direct", "relay", "punched")
RELAY_KINDS = ("fairtable", "js")
GOALS = {"direct": 20.0, "relay": 150.0, "punched": 20.0}
"""Ceilings of the round trip p50 over direct TCP's. py-libp2p runs its stream multiplexer and
secure channel in Python under fairtable's own, about a millisecond per round trip where the
TCP channel takes tenths of one in the namespaces; a relay adds two hops through a Python
process. Both stay far below what a player notices (tens of milliseconds)."""
MOVE_BYTES = 160
"""Bytes each echoed value carries beyond its framing: about one signed move envelope."""
BULK = 32
TCP_SEED, PUBLIC_SEED, HOME_SEED, DIALLER_SEED = 9, 10, 1, 2
TCP_PORT = 4100


class BenchUnavailable(SystemExit):
    """The NAT world cannot be built here: the message says why (not root, a tool missing)."""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--path", choices=PATHS,
                        help="a libp2p path in a NAT world of network namespaces against direct TCP (needs root)")
    parser.add_argument("--round-trips", type=int, default=200, help="round trips per path with --path (default 200)")
    parser.add_argument("--relay-kind", choices=RELAY_KINDS, default="fairtable",
                        help="the relay of the --path world: fairtable relay (default) or js-libp2p's circuit relay v2 server")


def run(path: str, round_trips: int, relay_kind: str = "fairtable") -> dict:
    problem = unavailable()
    if problem is not None:
        raise BenchUnavailable(f"fairtable bench net --path: {problem}; run it as root on Linux with iproute2 and nftables")
    problem = js_unavailable() if relay_kind == "js" else None
    if problem is not None:
        raise BenchUnavailable(f"fairtable bench net --relay-kind js: {problem}")
    with tempfile.TemporaryDirectory(prefix="fairtable-bench-paths-") as root, \
            nat_world({"a": EIM, "b": EIM}, Path(root)) as world:
        try:
            return _measure(world, Path(root), path, round_trips, relay_kind)
        except WorldError as exc:
            raise SystemExit(f"fairtable bench net --path {path}: {exc}") from None


def _measure(world: NatWorld, root: Path, path: str, round_trips: int, relay_kind: str) -> dict:
    relay_process, relay = world.js_relay(4001) if relay_kind == "js" else world.relay(root / "relay", 4001)
    world.tcp_echo(world.public, TCP_SEED, TCP_PORT)
    far = (world.public, PUBLIC_SEED, ()) if path == "direct" else (world.homes["a"], HOME_SEED, (relay,))
    dialler, peer = world.peers((world.homes["b"], DIALLER_SEED, (relay,)), far)
    for started, relays in ((dialler, (relay,)), (peer, far[2])):
        if not all(_ask(started, {"do": "held", "relay": held})["held"] for held in relays):
            raise SystemExit("fairtable bench net --path: a seat holds no reservation at the relay")
    tcp = _channel(dialler, {"do": "tcp", "address": f"{RELAY_IP}:{TCP_PORT}", "peer": TCP_SEED}, round_trips)
    figures: dict = {"path": path, "relay_kind": relay_kind, "round_trips": round_trips}
    if path == "direct":
        measured = _channel(dialler, {"do": "dial", "reach": peer.addresses[0], "peer": PUBLIC_SEED}, round_trips)
    else:
        dial = {"do": "dial", "reach": peer.circuit(relay), "peer": HOME_SEED}
        measured = _channel(dialler, dial, round_trips)
        if path == "relay":
            cpu = world.cpu_seconds(relay_process)
            _ask(dialler, {"do": "echo", "count": BULK, "bulk": 60000})
            figures["relay_cpu_s_per_mb"] = round((world.cpu_seconds(relay_process) - cpu) / (2 * BULK * 60000 / 1e6), 4)
        else:
            punch = _ask(dialler, {"do": "punch"})
            if not punch["direct"]:
                raise SystemExit("fairtable bench net --path punched: the hole punch did not hold a direct connection")
            relayed_setup = measured["setup"]
            measured = _channel(dialler, dial, round_trips)
            figures["punch_s"] = round(punch["seconds"], 3)
            measured["setup"] += relayed_setup + punch["seconds"]
        if measured["relayed"] != (path == "relay"):
            raise SystemExit(f"fairtable bench net --path {path}: the channel ran {'through' if measured['relayed'] else 'off'} the relay")
    for name, values in (("tcp_", tcp), ("", measured)):
        figures[f"{name}setup_ms"] = round(1000 * values["setup"], 3)
        figures[f"{name}rtt_p50_ms"] = round(1000 * values["p50"], 3)
        figures[f"{name}rtt_p99_ms"] = round(1000 * values["p99"], 3)
    for figure in ("setup_ms", "rtt_p50_ms", "rtt_p99_ms"):
        figures[figure.replace("_ms", "_ratio")] = round(figures[figure] / figures[f"tcp_{figure}"], 2)
    figures["ratio"] = figures["rtt_p50_ratio"]
    figures["goal"] = GOALS[path]
    return figures


def _ask(peer: Peer, command: dict) -> dict:
    answer = peer.ask(command)
    for failure in ("failed", "broken"):
        if failure in answer:
            raise SystemExit(f"fairtable bench net --path: {command['do']} {failure}: {answer[failure]}")
    return answer


def _channel(peer: Peer, dial: dict, round_trips: int) -> dict:
    """Open a channel as ``dial`` says and echo ``round_trips`` values on it: set-up and round trip figures."""
    opened = _ask(peer, dial)
    rtts = sorted(_ask(peer, {"do": "echo", "count": round_trips, "bulk": MOVE_BYTES})["rtts"])
    return {"setup": opened["setup"], "relayed": opened["relayed"], "p50": rtts[len(rtts) // 2],
            "p99": rtts[min(len(rtts) - 1, int(len(rtts) * 0.99))]}
