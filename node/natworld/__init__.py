"""A small internet on one machine: Linux network namespaces, a public segment and homes behind NAT routers.

Built by the NAT-world tests and by ``fairtable bench net --path``; its peers are
:mod:`fairtable.node.natworld.peer` processes and ``fairtable relay``/``fairtable node`` runs.

    public (203.0.113.0/24 on a bridge; the relay at .1)
      ├── router k: wan 203.0.113.(10+k) ── nftables masquerade ── lan 10.0.k.1
      │     └── home k: 10.0.k.2, default route via its router
      ...

Every router drops unsolicited inbound packets (``ct state new`` on its wan side), as home
routers do. Its NAT is either ``EIM`` (``masquerade``: a connection keeps its source port, so
one mapping serves every destination: endpoint-independent, what a hole punch needs) or
``SYMMETRIC`` (``masquerade fully-random``: a new random port for every destination, so the
port a peer learnt from the relay is useless for a punch). A connection from a home to an
address its router has no route to (another home's private address) is refused at once with a
TCP reset: the kernel's own answer, an ICMP error, is rate-limited to a few a second, so such a
dial would fail at once or only after the dialler's timeout, by chance. Only documentation and
private addresses are used, and only inside the namespaces.

Needs root, ``ip`` (iproute2) and ``nft`` (nftables); :func:`unavailable` says why not when
not. Namespaces are named with the building process's id and removed on exit, failed run or not.
"""

from __future__ import annotations

import itertools
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

_worlds = itertools.count()
JS_PEER = Path(__file__).with_name("jslibp2p") / "peer.mjs"
"""A js-libp2p peer (its own README is its head comment): another implementation of libp2p to meet."""
EIM = "eim"
SYMMETRIC = "symmetric"
RELAY_IP = "203.0.113.1"


def unavailable() -> str | None:
    """Why a NAT world cannot be built here, or None when it can."""
    if os.geteuid() != 0:
        return "the NAT world needs root (network namespaces, nftables)"
    for tool in ("ip", "nft"):
        if shutil.which(tool) is None:
            return f"the NAT world needs '{tool}' (apt-get install iproute2 nftables)"
    probe = f"ftprobe{os.getpid()}"
    made = subprocess.run(["ip", "netns", "add", probe], capture_output=True, text=True)
    if made.returncode != 0:
        return f"cannot create a network namespace: {made.stderr.strip()}"
    subprocess.run(["ip", "netns", "del", probe], capture_output=True)
    return None


def js_unavailable() -> str | None:
    """Why the js-libp2p peer cannot run here, or None when it can."""
    if shutil.which("node") is None:
        return "the js-libp2p peer needs Node.js 20 or newer (apt-get install nodejs npm)"
    if not (JS_PEER.parent / "node_modules" / "libp2p").is_dir():
        return f"js-libp2p is not installed: npm ci --prefix {JS_PEER.parent}"
    return None


def _ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, text=True)


def _in(namespace: str, *argv: str, stdin: str | None = None) -> None:
    done = subprocess.run(["ip", "netns", "exec", namespace, *argv], input=stdin, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"in {namespace}: {' '.join(argv)}: {done.stderr.strip()}")


def _router_rules(nat: str) -> str:
    random = " fully-random" if nat == SYMMETRIC else ""
    return f"""
table ip nat {{
    chain post {{ type nat hook postrouting priority srcnat; oifname "wan" masquerade{random}; }}
}}
table inet filter {{
    chain input {{ type filter hook input priority 0; iifname "wan" ct state new drop; }}
    chain forward {{ type filter hook forward priority 0; iifname "wan" ct state new drop; }}
    chain unrouted {{ type filter hook prerouting priority -5; iifname "lan" fib daddr oif missing meta l4proto tcp reject with tcp reset; }}
}}
"""


class WorldError(RuntimeError):
    """A process of the world that did not start or answer as it should; the message holds its stderr."""


@dataclass
class Peer:
    """A :mod:`fairtable.node.natworld.peer` process: its addresses, and :meth:`ask` to drive it."""

    world: NatWorld
    process: subprocess.Popen[str]
    addresses: list[str]

    def ask(self, command: dict) -> dict:
        """Send one command; its answer (a :class:`WorldError` with the process's stderr when none came)."""
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(command) + "\n")
        self.process.stdin.flush()
        return self.world.answer(self.process)

    def circuit(self, relay: str) -> str:
        """This peer's address through ``relay``."""
        return next(address for address in self.addresses if address.startswith(f"{relay}/p2p-circuit/"))


@dataclass
class NatWorld:
    """The namespaces of one world and the processes started in them (all ended by :meth:`close`)."""

    prefix: str
    public: str
    logs: Path
    homes: dict[str, str] = field(default_factory=dict)
    processes: list[subprocess.Popen[str]] = field(default_factory=list)
    namespaces: list[str] = field(default_factory=list)

    def home_ip(self, name: str) -> str:
        return f"10.0.{list(self.homes).index(name) + 1}.2"

    def start(self, namespace: str, argv: Sequence[str]) -> subprocess.Popen[str]:
        """Start ``argv`` in ``namespace``; stdin and stdout are pipes of text lines.

        Its stderr goes to a file (:meth:`stderr`): a pipe nobody reads would stall a chatty process.
        """
        with open(self.logs / f"{len(self.processes)}.stderr", "w") as stderr:
            process = subprocess.Popen(["ip", "netns", "exec", namespace, *argv], stdin=subprocess.PIPE,
                                       stdout=subprocess.PIPE, stderr=stderr, text=True)
        self.processes.append(process)
        return process

    def stderr(self, process: subprocess.Popen[str]) -> str:
        return (self.logs / f"{self.processes.index(process)}.stderr").read_text()[-4000:]

    def python(self, namespace: str, *args: str) -> subprocess.Popen[str]:
        return self.start(namespace, [sys.executable, *args])

    def answer(self, process: subprocess.Popen[str]) -> dict:
        """The next JSON line ``process`` prints; a :class:`WorldError` with its stderr when it printed none or an error."""
        text = process.stdout.readline() if process.stdout else ""
        value = json.loads(text) if text else {"error": "printed nothing"}
        if "error" in value:
            process.kill()
            process.wait()
            raise WorldError(f"{value['error']}: {self.stderr(process)}")
        return dict(value)

    def peer(self, namespace: str, seed: int, *relays: str) -> Peer:
        """A peer process for seat key ``seed`` in ``namespace`` (at port 5000 + seed), holding a reservation at each of
        ``relays``; its addresses name the namespace's own IP address where the host lists the wildcard it listens on."""
        return self.peers((namespace, seed, relays))[0]

    def peers(self, *wanted: tuple[str, int, Sequence[str]]) -> list[Peer]:
        """:meth:`peer` for each ``(namespace, seed, relays)``, all started before any is waited for."""
        processes = [self.python(namespace, "-m", "fairtable.node.natworld.peer", "peer", "--seed", str(seed),
                                 "--port", str(5000 + seed), *[flag for relay in relays for flag in ("--relay", relay)])
                     for namespace, seed, relays in wanted]
        return [Peer(self, process, [address.replace("/ip4/0.0.0.0/", f"/ip4/{self._ip(namespace)}/")
                                     for address in self.answer(process)["addresses"]])
                for (namespace, _seed, _relays), process in zip(wanted, processes, strict=True)]

    def _ip(self, namespace: str) -> str:
        return RELAY_IP if namespace == self.public else self.home_ip(next(name for name, home in self.homes.items() if home == namespace))

    def js(self, namespace: str, *flags: str) -> Peer:
        """A js-libp2p peer (:data:`JS_PEER`) in ``namespace`` started with ``flags``, once it listens."""
        process = self.start(namespace, ["node", str(JS_PEER), *flags])
        return Peer(self, process, self.answer(process)["addresses"])

    def js_relay(self, port: int, capture: Path | None = None) -> tuple[subprocess.Popen[str], str]:
        """A js-libp2p circuit relay v2 server in the public namespace: the process and its address."""
        relay = self.js(self.public, "--role", "relay", "--listen", f"/ip4/{RELAY_IP}/tcp/{port}",
                        *(["--capture", str(capture)] if capture is not None else []))
        return relay.process, relay.addresses[0]

    def tcp_echo(self, namespace: str, seed: int, port: int) -> None:
        """A seat echoing over today's TCP channel at ``port`` in ``namespace``."""
        self.answer(self.python(namespace, "-m", "fairtable.node.natworld.peer", "tcp-echo", "--seed", str(seed),
                                "--port", str(port)))

    def relay(self, data: Path, port: int, *flags: str) -> tuple[subprocess.Popen[str], str]:
        """``fairtable relay`` in the public namespace: the process and the address it printed."""
        process = self.python(self.public, "-m", "fairtable.node.cli", "relay", "--data", str(data), "--host", RELAY_IP,
                              "--port", str(port), *flags)
        address = process.stdout.readline().strip() if process.stdout else ""
        if not address.startswith(f"/ip4/{RELAY_IP}/tcp/{port}/p2p/"):
            raise WorldError(f"the relay did not start: {self.stderr(process)}")
        return process, address

    @staticmethod
    def cpu_seconds(process: subprocess.Popen[str]) -> float:
        """User and system CPU ``process`` has used (``ip netns exec`` execs it, so the pid is its own)."""
        fields = Path(f"/proc/{process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def blackhole(self, port: int, on: bool) -> None:
        """Drop (``on``) or pass again every packet to or from ``port`` in the public namespace: a relay
        that stops forwarding for a while, its connections kept (TCP retransmits once it passes again)."""
        if on:
            _in(self.public, "nft", "-f", "-", stdin=f"""
table inet blackhole {{
    chain input {{ type filter hook input priority -10; tcp dport {port} drop; }}
    chain output {{ type filter hook output priority -10; tcp sport {port} drop; }}
}}
""")
        else:
            _in(self.public, "nft", "delete", "table", "inet", "blackhole")

    def close(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.kill()
            process.wait()
        for namespace in reversed(self.namespaces):
            subprocess.run(["ip", "netns", "del", namespace], capture_output=True)


def build(world: NatWorld, nats: dict[str, str]) -> None:
    public = world.public
    world.namespaces.append(public)
    _ip("netns", "add", public)
    _in(public, "ip", "link", "set", "lo", "up")
    _in(public, "ip", "link", "add", "br0", "type", "bridge")
    _in(public, "ip", "addr", "add", f"{RELAY_IP}/24", "dev", "br0")
    _in(public, "ip", "link", "set", "br0", "up")
    for number, (name, nat) in enumerate(nats.items(), start=1):
        router, home = f"{world.prefix}r{number}", f"{world.prefix}h{number}"
        world.homes[name] = home
        for namespace in (router, home):
            world.namespaces.append(namespace)
            _ip("netns", "add", namespace)
            _in(namespace, "ip", "link", "set", "lo", "up")
        _ip("link", "add", "wan", "netns", router, "type", "veth", "peer", "name", f"p{number}", "netns", public)
        _in(public, "ip", "link", "set", f"p{number}", "master", "br0", "up")
        _in(router, "ip", "addr", "add", f"203.0.113.{10 + number}/24", "dev", "wan")
        _in(router, "ip", "link", "set", "wan", "up")
        _ip("link", "add", "lan", "netns", router, "type", "veth", "peer", "name", "eth0", "netns", home)
        _in(router, "ip", "addr", "add", f"10.0.{number}.1/24", "dev", "lan")
        _in(router, "ip", "link", "set", "lan", "up")
        _in(home, "ip", "addr", "add", f"10.0.{number}.2/24", "dev", "eth0")
        _in(home, "ip", "link", "set", "eth0", "up")
        _in(home, "ip", "route", "add", "default", "via", f"10.0.{number}.1")
        _in(router, "sysctl", "-qw", "net.ipv4.ip_forward=1")
        _in(router, "nft", "-f", "-", stdin=_router_rules(nat))


@contextmanager
def nat_world(nats: dict[str, str], logs: Path) -> Iterator[NatWorld]:
    """A world with one home per entry of ``nats`` (name → :data:`EIM` or :data:`SYMMETRIC`), removed on exit.

    The processes' stderr is kept in ``logs``.
    """
    prefix = f"ft{os.getpid() % 100000}w{next(_worlds)}"
    world = NatWorld(prefix=prefix, public=f"{prefix}pub", logs=logs)
    try:
        build(world, nats)
        yield world
    finally:
        world.close()
