"""Real nodes for a real browser: in-process nodes serving the client API in a thread of their own,
and headless Chromium driven through chromedriver (Debian's ``chromium`` and ``chromium-driver``).

The browser runs in real time, so the nodes do too (no mock clock here); every wait is a
bounded wait for a condition on the page, never a sleep for timing.
"""

from __future__ import annotations

import shutil
import threading
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import pytest
import trio

from fairtable.node.api.login import Logins, login_link
from fairtable.node.api.server import serve_api
from fairtable.node.api.token import TOKEN_FILE, load_or_create_token
from fairtable.node.node import Node, NodeConfig
from tests.node.nodes import FAST

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
"""Debian's packages ``chromium`` and ``chromium-driver``, found on the PATH."""
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage")
WAIT = 30.0
"""Seconds any one condition on a page may take (a guard against hanging, not a timing assertion)."""


@dataclass
class Served:
    """One node as its player's browser sees it: the port of its client API and fresh login links."""

    name: str
    node: Node
    port: int = 0
    links: list[str] = field(default_factory=list)
    token: Any = None
    """The trio token of the nodes' thread, for :meth:`call`."""

    def call(self, function: Callable[..., Awaitable[Any]], *args: Any) -> Any:
        """Run ``function(*args)`` (e.g. a method of the node) in the nodes' thread; its result."""
        return trio.from_thread.run(function, *args, trio_token=self.token)


@contextmanager
def nodes(tmp_path: Path, names: tuple[str, ...], links: int = 4, **config: dict[str, Any]) -> Iterator[list[Served]]:
    """Nodes with their client APIs, each with ``links`` one-time login links, running in a thread;
    ``config[name]`` adds to that node's :class:`NodeConfig` (a bot, discovery)."""
    served = [Served(name, Node(NodeConfig(data=tmp_path / name, name=name, **{**FAST, **config.get(name, {})}))) for name in names]
    ready = threading.Event()
    stop: list[Callable[[], None]] = []
    failure: list[BaseException] = []

    async def main() -> None:
        async with trio.open_nursery() as nursery:
            token = trio.lowlevel.current_trio_token()
            stop.append(lambda: token.run_sync_soon(nursery.cancel_scope.cancel))
            for entry in served:
                entry.token = token
                await nursery.start(entry.node.run)
                logins = Logins()
                secret = load_or_create_token(entry.node.config.data / TOKEN_FILE)
                entry.port = await nursery.start(partial(serve_api, entry.node, 0, secret, logins=logins))
                entry.links = [login_link(entry.port, logins.issue()) for _ in range(links)]
            ready.set()

    def run() -> None:
        try:
            trio.run(main)
        except BaseException as exc:  # reported to the test below
            failure.append(exc)
            ready.set()

    thread = threading.Thread(target=run, name="nodes", daemon=True)
    thread.start()
    ready.wait(WAIT)
    if failure or not stop:
        raise RuntimeError(f"the nodes did not start: {failure}")
    try:
        yield served
    finally:
        stop[0]()
        thread.join(WAIT)


def browsers_installed() -> bool:
    return Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists()


@contextmanager
def chromium(profile: Path, width: int = 1100, height: int = 1300) -> Iterator:
    """A headless Chromium with a fresh profile, driven by Debian's chromedriver (nothing is downloaded)."""
    if not browsers_installed():
        pytest.skip("Debian's chromium and chromium-driver are not installed (.ci/run installs them)")
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (*FLAGS, f"--user-data-dir={profile}", f"--window-size={width},{height}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()
