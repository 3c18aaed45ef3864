"""A small internet on one machine: Linux network namespaces, a public segment and homes behind NAT routers.

    public (203.0.113.0/24 on a bridge; the relay at .1)
      ├── router k: wan 203.0.113.(10+k) ── nftables masquerade ── lan 10.0.k.1
      │     └── home k: 10.0.k.2, default route via its router
      ...

Every router drops unsolicited inbound packets (``ct state new`` on its wan side), as home
routers do. Its NAT is either ``EIM`` (``masquerade``: a connection keeps its source port, so
one mapping serves every destination: endpoint-independent, what a hole punch needs) or
``SYMMETRIC`` (``masquerade fully-random``: a new random port for every destination, so the
port a peer learnt from the relay is useless for a punch). Only documentation and private
addresses are used, and only inside the namespaces.

Needs root, ``ip`` (iproute2) and ``nft`` (nftables); :func:`unavailable` says why not when
not. Namespaces are named with the test process's id and removed on exit, failed test or not.
"""

from __future__ import annotations

import itertools
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

_worlds = itertools.count()
EIM = "eim"
SYMMETRIC = "symmetric"
RELAY_IP = "203.0.113.1"
REPO = Path(__file__).resolve().parents[2]


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
}}
"""


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
        """Start ``argv`` in ``namespace`` from the repository root; stdout is a pipe of text lines.

        Its stderr goes to a file (:meth:`stderr`): a pipe nobody reads would stall a chatty process.
        """
        with open(self.logs / f"{len(self.processes)}.stderr", "w") as stderr:
            process = subprocess.Popen(["ip", "netns", "exec", namespace, *argv], cwd=REPO, stdout=subprocess.PIPE,
                                       stderr=stderr, text=True)
        self.processes.append(process)
        return process

    def stderr(self, process: subprocess.Popen[str]) -> str:
        return (self.logs / f"{self.processes.index(process)}.stderr").read_text()[-4000:]

    def python(self, namespace: str, *args: str) -> subprocess.Popen[str]:
        return self.start(namespace, [sys.executable, *args])

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
