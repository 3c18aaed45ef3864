"""The browser page in a real headless Chromium: watching a table as a spectator by invite, and the
alert (a tone, and a notification while the page is hidden) when the player's turn comes, off by the
header's checkbox. The tone and the notification are spied on (the page's AudioContext and
Notification replaced), since a headless browser plays no sound and shows no notification."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from fairtable.node.node import Node
from tests.node.web.browser import Served, chromium, nodes
from tests.node.web.test_browser import Page
from tests.paths import ROOT

SPY = """
window.alerts = {tones: 0, notes: []};
window.AudioContext = class {
  constructor() { this.currentTime = 0; this.destination = {}; }
  resume() {}
  createGain() { return {gain: {setValueAtTime() {}, exponentialRampToValueAtTime() {}}, connect: (next) => next}; }
  createOscillator() { return {frequency: {}, connect: (next) => next, start: () => { window.alerts.tones += 1; }, stop() {}}; }
};
window.Notification = class {
  static permission = "granted";
  constructor(title, options) { window.alerts.notes.push(title + ": " + options.body); }
};
"""


@pytest.fixture(scope="module")
def served(tmp_path_factory) -> Iterator[list[Served]]:
    with nodes(tmp_path_factory.mktemp("nodes"), ("alice", "bob", "robot"), robot={"bot": "random"}) as running:
        yield running


@pytest.fixture(scope="module")
def alice(tmp_path_factory, served) -> Iterator[Page]:
    shots = Path(os.environ.get("FAIRTABLE_SCREENSHOTS") or ROOT / "build" / "screenshots")
    shots.mkdir(parents=True, exist_ok=True)
    with chromium(tmp_path_factory.mktemp("alice-profile")) as driver:
        page = Page(driver, shots, "alice")
        driver.get(served[0].links.pop())
        page.one("#host-form")
        yield page


def seated(host: Served, guest: Served, game: str = "towers") -> str:
    """A started table of ``host`` with ``guest`` in seat 1; its lobby id."""
    lobby = host.call(host.node.host, game, "normal", {"turn_seconds": 0}, 2)
    guest.call(guest.node.join, host.node.address, lobby.lobby_id)
    host.call(host.node.start, lobby.lobby_id)
    return lobby.lobby_id


async def discard(node: Node, lobby: str) -> None:
    """The node's seat discards (the test plays bob's seat through his node)."""
    live = node.mesh.find(lobby)
    assert live is not None
    await node.move(live.table_id.hex(), next(move for move in live.session.legal_moves() if "discard" in move))


def bobs_turn(bob: Served, lobby: str) -> bool:
    live = bob.node.mesh.find(lobby)
    return live is not None and live.session.awaiting_decision()


def test_a_spectator_watches_by_invite_and_sees_the_table_without_a_seat(alice, served):
    _, bob, robot = served
    lobby = seated(robot, bob)
    invite = bob.call(bob.node.watch_invite, lobby)  # through the guest's node: any seat's serves spectators
    field = alice.one("#join-invite")
    field.clear()
    field.send_keys(invite)
    alice.press("#watch-button")
    alice.wait(lambda: alice.text("#turn").startswith("Watching"), "the watched table")
    assert "(you)" not in alice.text("#seats") and "bob" in alice.text("#seats") and "robot" in alice.text("#seats")
    assert not alice.all("#resign") and not alice.all("#invite-spectators") and not alice.all("button.discard:not([disabled])")
    alice.screenshot("watching-towers")
    bob.call(bob.node.resign, lobby)
    alice.wait(lambda: alice.text("#result").startswith("robot won"), "the result, by name")
    alice.wait(lambda: alice.text("#verdict").startswith("Verified: every message"), "the verifier's verdict")
    alice.press("#nav-lobby")
    alice.wait(lambda: "towers normal" in alice.text("#your-tables") and alice.all(f"li.table[data-lobby='{lobby}']"), "the watched table listed")


def test_the_turn_alert_sounds_when_the_turn_comes_notifies_while_hidden_and_the_checkbox_silences_it(alice, served):
    me, bob, _ = served
    lobby = seated(me, bob)
    alice.driver.get(f"http://127.0.0.1:{me.port}/#/table/{lobby}")
    alice.one("#table-page")
    alice.driver.execute_script(SPY)
    checkbox = alice.one("#turn-alert")
    assert checkbox.is_selected()  # on unless the player turned it off

    def alerts() -> dict:
        return alice.driver.execute_script("return window.alerts")

    def round_trip() -> None:
        """alice discards by a click; bob discards through his node until alice's turn is back."""
        alice.wait(lambda: alice.all("#turn.yours") or bobs_turn(bob, lobby), "a turn")
        if alice.all("#turn.yours"):
            alice.press("button.discard:not([disabled])")
            alice.wait(lambda: not alice.all("#turn.yours"), "alice's discard")
        while True:
            alice.wait(lambda: alice.all("#turn.yours") or bobs_turn(bob, lobby), "a turn")
            if not bobs_turn(bob, lobby):
                return
            bob.call(discard, bob.node, lobby)

    round_trip()
    tones = alerts()["tones"]  # none yet, or one if bob began and gave alice her first turn
    round_trip()
    assert alerts() == {"tones": tones + 1, "notes": []}  # the page is shown: a tone, no notification
    alice.driver.execute_script("Object.defineProperty(document, 'hidden', {configurable: true, get: () => true})")
    round_trip()
    assert alerts() == {"tones": tones + 2, "notes": ["fairtable: your turn: towers · normal"]}
    checkbox.click()
    assert alice.driver.execute_script("return localStorage.getItem('fairtable-turn-alert')") == "off"
    round_trip()
    assert alerts() == {"tones": tones + 2, "notes": ["fairtable: your turn: towers · normal"]}
    alice.driver.refresh()  # the setting is kept
    assert not alice.one("#turn-alert").is_selected()


def test_nothing_on_the_page_failed(alice):
    assert [entry for entry in alice.driver.get_log("browser") if entry["level"] == "SEVERE"] == []
