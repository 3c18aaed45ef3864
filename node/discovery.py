"""Local discovery: nodes announce their open tables by DNS-SD over multicast DNS and find others'.

Each open lobby table this node hosts (not started, a seat free) is one service of type
``_fairtable._tcp.local.``, its TXT record naming the table (``spec/node.md``, "Local
discovery"). Browsing collects the other nodes' services into :meth:`Discovery.found`. The
``zeroconf`` library does the multicast DNS in its own thread; this module only keeps the
announcements in step with the hosted tables and hands what it hears to the trio side.

Discovery is a convenience, never a dependency: a machine without multicast (no interface, a
sandbox, a firewall) gets one clear log line and a node that works without it, and nothing
a stranger announces can raise out of here (a malformed record is skipped).
"""

from __future__ import annotations

import json
import logging
import socket
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import trio
from zeroconf import IPVersion, ServiceBrowser, ServiceInfo, ServiceStateChange, Zeroconf

from fairtable.node.peer.reach import parse_address
from fairtable.node.service import FoundTable, LobbyTable

log = logging.getLogger("fairtable.node")

SERVICE = "_fairtable._tcp.local."
TXT_VERSION = "1"
LOOKUP_MS = 3000
"""How long the browser waits for a service's records after it appears."""

ZeroconfFactory = Callable[[], Zeroconf]


def factory_for(where: str) -> ZeroconfFactory:
    """``all``: every interface of this machine; ``loopback``: 127.0.0.1 only (two nodes on one machine, tests)."""
    if where == "loopback":
        return lambda: Zeroconf(interfaces=["127.0.0.1"], ip_version=IPVersion.V4Only)
    return lambda: Zeroconf(ip_version=IPVersion.V4Only)


@dataclass(frozen=True)
class Announced:
    """What this node tells the network about one of its open tables."""

    listing: LobbyTable
    fingerprint: str
    address: str

    @property
    def name(self) -> str:
        return f"{self.listing.lobby_id}-{self.fingerprint[:4].lower()}.{SERVICE}"

    def properties(self) -> dict[str, str]:
        table = self.listing
        return {
            "v": TXT_VERSION, "lobby": table.lobby_id, "host": table.host, "fp": self.fingerprint, "addr": self.address,
            "game": table.game, "variant": table.variant, "seats": str(table.seats),
            "options": json.dumps(table.options, sort_keys=True, separators=(",", ":")),
            "joined": json.dumps(list(table.joined), separators=(",", ":")),
        }

    def info(self, ip: str) -> ServiceInfo:
        _, port = parse_address(self.address)
        return ServiceInfo(SERVICE, self.name, port=port, properties=self.properties(), addresses=[socket.inet_aton(ip)],
                           server=f"fairtable-{self.fingerprint[:4].lower()}.local.")


def found_from(properties: dict[bytes, bytes | None]) -> FoundTable | None:
    """A browsed TXT record as a table, or None when it is not one this version reads."""
    try:
        text = {key.decode("utf-8"): (value or b"").decode("utf-8") for key, value in properties.items()}
        if text.get("v") != TXT_VERSION:
            return None
        parse_address(text["addr"])
        options, joined, seats = json.loads(text["options"]), json.loads(text["joined"]), int(text["seats"])
        if not isinstance(options, dict) or not isinstance(joined, list) or not all(isinstance(n, str) for n in joined):
            return None
        return FoundTable(text["lobby"], text["host"], text["fp"], text["addr"], text["game"], text["variant"],
                          options, seats, tuple(joined))
    except (KeyError, ValueError, UnicodeDecodeError):
        return None


def announceable(listings: Iterable[LobbyTable]) -> list[LobbyTable]:
    """The hosted tables worth announcing: not started, a seat still free."""
    return [table for table in listings if not table.started and len(table.joined) < table.seats]


class Discovery:
    """Announce this node's open tables and collect the others'; :meth:`run` until cancelled."""

    def __init__(self, factory: ZeroconfFactory, fingerprint: str, address: Callable[[], str],
                 listings: Callable[[], Iterable[LobbyTable]], next_change: Callable[[], trio.Event]) -> None:
        self._factory = factory
        self._fingerprint = fingerprint
        self._address = address
        self._listings = listings
        self._next_change = next_change
        self._found: dict[str, FoundTable] = {}
        self._announced: dict[str, Announced] = {}
        self.running = False

    def found(self) -> tuple[FoundTable, ...]:
        return tuple(self._found.values())

    async def run(self) -> None:
        """Announce and browse until cancelled; without multicast, log why and return."""
        try:
            zeroconf = await trio.to_thread.run_sync(self._factory)
        except Exception as exc:  # zeroconf raises OSError and its own errors when it cannot bind
            log.warning("local discovery is off: this machine cannot use multicast DNS (%s); "
                        "tables are still reachable by invite or address", exc or type(exc).__name__)
            return
        token = trio.lowlevel.current_trio_token()
        self.running = True
        try:
            ServiceBrowser(zeroconf, SERVICE, handlers=[lambda **change: self._heard(token, **change)])
            log.info("local discovery on: announcing open tables and listening for others'")
            while True:
                changed = self._next_change()
                await self._sync(zeroconf)
                await changed.wait()
        except Exception as exc:
            log.warning("local discovery stopped: %s", exc)
        finally:
            self.running = False
            with trio.CancelScope(shield=True):
                await trio.to_thread.run_sync(zeroconf.close)

    async def _sync(self, zeroconf: Zeroconf) -> None:
        """Register, update and withdraw services until they match the open tables."""
        host, port = parse_address(self._address())
        ip = socket.gethostbyname(socket.gethostname() if host in ("0.0.0.0", "") else host)
        address = f"{ip}:{port}"
        wanted = {item.name: item for item in (Announced(t, self._fingerprint, address) for t in announceable(self._listings()))}
        for name, old in list(self._announced.items()):
            if name not in wanted:
                del self._announced[name]
                await trio.to_thread.run_sync(zeroconf.unregister_service, old.info(ip))
        for name, item in wanted.items():
            if name not in self._announced:
                await trio.to_thread.run_sync(zeroconf.register_service, item.info(ip))
            elif self._announced[name] != item:
                await trio.to_thread.run_sync(zeroconf.update_service, item.info(ip))
            self._announced[name] = item

    def _heard(self, token: trio.lowlevel.TrioToken, zeroconf: Zeroconf, service_type: str, name: str,
               state_change: ServiceStateChange) -> None:
        """Runs in zeroconf's browser thread: look the service up, then hand it to trio."""
        table = None
        if state_change is not ServiceStateChange.Removed:
            info = zeroconf.get_service_info(service_type, name, LOOKUP_MS)
            table = None if info is None else found_from(info.properties)
            if table is None or table.fingerprint == self._fingerprint:
                return
        try:
            trio.from_thread.run_sync(self._record, name, table, trio_token=token)
        except trio.RunFinishedError:
            pass

    def _record(self, name: str, table: FoundTable | None) -> None:
        if table is None:
            self._found.pop(name, None)
        else:
            self._found[name] = table
