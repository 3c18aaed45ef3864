"""The browser client in a real headless Chromium, against two real nodes: log in with the printed
link, host, join by invite and from a list, play whole towers and zeeslag games by clicking (one
player on a phone-sized screen), see the result; the replay viewer steps to a planted violation.
Screenshots of each game are saved in the test's temporary directory."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.node.cheated import unaffordable_play
from tests.node.web.browser import WAIT, Served, chromium, nodes
from tests.paths import VECTORS

pytest.importorskip("selenium")
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.select import Select
from selenium.webdriver.support.ui import WebDriverWait

PHONE = (390, 844)
GAME_SECONDS = 60
"""A guard against a game that never ends (these games take seconds)."""


class Page:
    """One player's browser tab, with bounded waits for what the page shows."""

    def __init__(self, driver, shots: Path, name: str) -> None:
        self.driver = driver
        self.shots = shots
        self.name = name

    def wait(self, condition: Callable[[], object], what: str):
        ignored = (StaleElementReferenceException,)
        return WebDriverWait(self.driver, WAIT, poll_frequency=0.05, ignored_exceptions=ignored).until(lambda _: condition(), what)

    def all(self, css: str) -> list:
        return self.driver.find_elements(By.CSS_SELECTOR, css)

    def one(self, css: str):
        return self.wait(lambda: (self.all(css) or [None])[0], f"{self.name}: {css} on the page")

    def cells(self, css: str, key: str = "cell") -> list[str]:
        """The ``data-KEY`` of every element ``css`` finds, read in one call."""
        script = "return [...document.querySelectorAll(arguments[0])].map((element) => element.dataset[arguments[1]])"
        return self.driver.execute_script(script, css, key)

    def press(self, css: str) -> None:
        """Click what ``css`` finds, finding it again if the page redrew it meanwhile."""
        def pressed() -> bool:
            self.one(css).click()
            return True
        self.wait(pressed, f"{self.name}: a click on {css}")

    def text(self, css: str) -> str:
        """The text of what ``css`` finds ("" for nothing), read again if the page redrew it meanwhile."""
        return self.wait(lambda: [element.text for element in self.all(css)[:1]] or [""], f"{self.name}: {css}")[0]

    def click(self, element) -> None:
        """Click, then wait until the page has redrawn what was clicked (the node answered)."""
        try:
            element.click()
        except StaleElementReferenceException:
            return
        WebDriverWait(self.driver, WAIT, poll_frequency=0.05).until(lambda _: self._gone(element) or self.text("#notice"),
                                                                    f"{self.name}: the page to answer a click")

    @staticmethod
    def _gone(element) -> bool:
        try:
            element.is_enabled()
        except StaleElementReferenceException:
            return True
        return False

    def screenshot(self, label: str) -> Path:
        path = self.shots / f"{label}-{self.name}.png"
        self.driver.save_screenshot(str(path))
        return path

    def fits_its_screen(self) -> bool:
        return self.driver.execute_script("return document.documentElement.scrollWidth <= window.innerWidth + 1")


@pytest.fixture(scope="module")
def served(tmp_path_factory) -> Iterator[list[Served]]:
    with nodes(tmp_path_factory.mktemp("nodes"), ("alice", "bob")) as running:
        yield running


@pytest.fixture(scope="module")
def pages(tmp_path_factory, served) -> Iterator[list[Page]]:
    shots = tmp_path_factory.mktemp("screenshots")
    with chromium(tmp_path_factory.mktemp("alice-profile")) as alice, \
            chromium(tmp_path_factory.mktemp("bob-profile"), *PHONE) as bob:
        opened = [Page(alice, shots, "alice"), Page(bob, shots, "bob")]
        for page, node in zip(opened, served):
            page.driver.get(node.links.pop())
            page.one("#host-form")
        yield opened


def test_the_login_link_logs_in_once_and_leaves_no_code_in_the_address(served, tmp_path):
    node = served[0]
    with chromium(tmp_path / "profile") as driver:
        page = Page(driver, tmp_path, "stranger")
        link = node.links.pop()
        driver.get(link)
        page.one("#host-form")
        assert "login" not in driver.current_url and node.node.name in page.text("#who")
        driver.execute_script("sessionStorage.clear()")
        driver.get(link)  # the same link again, as someone who copied it would
        page.one("#login-input")
        assert "used already" in page.text(".login .error")


def host(page: Page, game: str, options: dict[str, str] | None = None) -> str:
    """Host a table of ``game`` through the form; the invite the page shows for it."""
    page.driver.get(page.driver.current_url.split("#")[0] + "#/")
    Select(page.one("#host-game")).select_by_value(game)
    for name, value in (options or {}).items():
        field = page.one(f"#option-{name}")
        field.clear()
        field.send_keys(value)
    page.press("#host-button")
    page.wait(lambda: "offered" in page.text("#host-message"), "the table to be offered")
    return page.one("#your-tables input.invite-code").get_attribute("value")


def start(host_page: Page, guest: Page, lobby: str) -> None:
    host_page.wait(lambda: "2 of 2 seated" in host_page.text(f'li[data-lobby="{lobby}"]'), "the guest to be seated")
    host_page.press(f'li[data-lobby="{lobby}"] button.start')
    host_page.one(f'#table-page[data-lobby="{lobby}"]')
    guest.press(f'li[data-lobby="{lobby}"] a.open')
    guest.one(f'#table-page[data-lobby="{lobby}"]')


def finished(pages: list[Page]) -> bool:
    return all(page.text("#result") for page in pages)


def play(pages: list[Page], choose: Callable[[Page], str | None], game: str, reload_after: int | None = None) -> None:
    """Each player clicks what ``choose`` picks on its page, whenever it picks something, until both
    pages show the result. ``reload_after`` clicks, the last page is reloaded: its player rejoins."""
    deadline = time.monotonic() + GAME_SECONDS
    clicks = 0
    while not finished(pages):
        if time.monotonic() > deadline:
            pytest.fail(f"the {game} game did not end; the pages: {[page.screenshot(f'{game}-stuck') for page in pages]}")
        for page in pages:
            css = choose(page)
            if css is not None:
                page.click(page.one(css))
                clicks += 1
            if clicks == reload_after:
                pages[-1].driver.refresh()
                pages[-1].one("#table-page .status")
                clicks += 1


def test_two_players_play_a_whole_towers_game_by_clicking(pages):
    alice, bob = pages
    invite = host(alice, "towers")
    lobby = invite.rsplit("/", 1)[1]
    bob.one("#join-invite").send_keys(invite)
    bob.press("#join-button")
    bob.one(f'li[data-lobby="{lobby}"]')
    start(alice, bob, lobby)
    alice.screenshot("towers-start")

    def card(page: Page) -> str | None:
        if not page.all("#turn.yours"):
            return None
        return next((css for css in ("button.play:not([disabled])", "button.discard:not([disabled])") if page.all(css)), None)

    alice.wait(lambda: any(page.text("#clock").endswith(" s") for page in pages), "the turn timer on the page whose turn it is")
    play(pages, card, "towers", reload_after=5)
    results = sorted(page.text("#result").split(" ")[1] for page in pages)
    assert results == ["lost", "won"], results
    for page in pages:
        page.screenshot("towers")
    assert bob.fits_its_screen()


FLEET = ("A1", "C1", "E1", "G1")
"""Where alice places the classic fleet's first four ships, left to right; the fifth goes down from A10."""


def place_by_hand(page: Page) -> set[str]:
    for cell in FLEET:
        page.press(f'rect[data-place="{cell}"]')
    page.press("#rotate")
    page.wait(lambda: "vertical" in page.text("#rotate"), "the ship to turn")
    page.press('rect[data-place="A10"]')
    placed = set(page.cells("rect.cell.place.ship", "place"))
    assert len(placed) == 5 + 4 + 3 + 3 + 2 and {"A10", "B10"} <= placed
    page.screenshot("zeeslag-placing")
    page.press("#confirm-fleet")
    return placed


def test_two_players_play_a_whole_zeeslag_game_by_clicking(pages, served):
    alice, bob = pages
    lobby = host(alice, "zeeslag").rsplit("/", 1)[1]
    bob.driver.get(bob.driver.current_url.split("#")[0] + "#/")
    bob.one("#join-invite").send_keys(served[0].node.address)  # an address only: list its tables and pick one
    bob.press("#join-button")
    bob.press(f'#join-found button.join[data-lobby="{lobby}"]')
    bob.one(f'#your-tables li[data-lobby="{lobby}"]')
    start(alice, bob, lobby)
    own = place_by_hand(alice)
    bob.press("#random-fleet")
    bob.wait(lambda: len(bob.all('.sea-panel[data-seat="1"] rect.cell.ship')) == 17, "bob's random fleet")
    theirs = bob.cells('.sea-panel[data-seat="1"] rect.cell.ship')
    misses = [f"{row}{column}" for row in "ABCDEFGHIJ" for column in range(1, 11) if f"{row}{column}" not in own]

    def shot(page: Page) -> str | None:
        targets = set(page.cells("rect.target"))
        aims = theirs if page is alice else misses
        wanted = next((cell for cell in aims if cell in targets), None)
        return None if wanted is None else f'rect.target[data-cell="{wanted}"]'

    play(pages, shot, "zeeslag")
    assert alice.text("#result").startswith("You won") and bob.text("#result").startswith("You lost")
    for page in pages:
        page.screenshot("zeeslag")
    assert bob.fits_its_screen()


def open_viewer(page: Page, transcript: Path, game: str) -> None:
    """A fresh replay viewer with ``transcript`` open in it."""
    for route in ("#/", "#/replay"):
        page.driver.get(page.driver.current_url.split("#")[0] + route)
    page.one("#replay-file").send_keys(str(transcript))
    page.wait(lambda: page.text("#viewer h1").startswith(game), f"the viewer to show the {game} transcript")


def test_the_viewer_steps_to_a_planted_violation_and_shows_every_hand(pages, tmp_path):
    alice = pages[0]
    cheat = unaffordable_play()
    path = tmp_path / "cheat.ftt"
    path.write_bytes(cheat.transcript)
    open_viewer(alice, path, "towers")
    assert alice.one("#replay-verdict.invalid").text.startswith("NOT VERIFIED: 1 violation")
    clicks = 0
    while not alice.text("#replay-violation"):
        assert alice.text("#replay-text") != "" and clicks < 200
        alice.press("#replay-next")
        clicks += 1
        alice.wait(lambda: f"step {clicks + 1} of" in alice.text("#replay-position"), "the next step")
    assert f"envelope {cheat.index})" in alice.text("#replay-position")
    assert f"VIOLATION at envelope {cheat.index}: seat {cheat.seat} broke {cheat.rule}" in alice.text("#replay-violation")
    alice.press("#replay-prev")
    alice.wait(lambda: not alice.text("#replay-violation"), "the step before the violation")
    assert alice.text("#replay-text").startswith(f"{cheat.moves}. seat ")
    alice.press("#replay-next")
    Select(alice.one("#replay-perspective")).select_by_value("all")
    alice.wait(lambda: len(alice.all("#replay-board .hand-area")) == 2, "both hands")
    alice.screenshot("viewer-violation")


@pytest.mark.parametrize("name", ["shengji-standard", "zeeslag-duel"])
def test_the_viewer_shows_a_golden_game_from_every_seat(pages, name):
    alice = pages[0]
    open_viewer(alice, VECTORS / "games" / f"{name}.ftt", name.split("-")[0])
    assert alice.one("#replay-verdict.valid")
    alice.press("#replay-last")
    alice.wait(lambda: "game over" in alice.text("#replay-text"), "the last step")
    Select(alice.one("#replay-perspective")).select_by_value("all")
    seats = 4 if name.startswith("shengji") else 2
    alice.wait(lambda: len(alice.all("#replay-board > .panel")) == seats, "every seat's board")
    alice.screenshot(name)


def test_the_viewer_replays_a_finished_table_of_the_node(pages):
    alice = pages[0]
    for route in ("#/", "#/replay"):
        alice.driver.get(alice.driver.current_url.split("#")[0] + route)
    buttons = alice.wait(lambda: alice.all("button.replay-table"), "this node's tables")
    buttons[0].click()
    assert alice.one("#replay-verdict.valid")
    assert alice.text("#replay-result").startswith("Result: seat ")


def test_nothing_on_the_pages_failed(pages):
    for page in pages:
        try:
            logs = page.driver.get_log("browser")
        except WebDriverException:
            continue
        assert [entry for entry in logs if entry["level"] == "SEVERE"] == []


def test_a_game_without_pictures_is_played_through_the_generic_view(pages, counting_game):
    alice, bob = pages
    for page in pages:  # the pages learn of the new game when they connect again
        page.driver.get(page.driver.current_url.split("#")[0] + "#/")
        page.driver.refresh()
        page.one("#host-form")
    invite = host(alice, counting_game.id)
    lobby = invite.rsplit("/", 1)[1]
    bob.one("#join-invite").send_keys(invite)
    bob.press("#join-button")
    bob.one(f'li[data-lobby="{lobby}"]')
    start(alice, bob, lobby)
    assert alice.all("details.generic-panel[open]"), "with no pictures, the view and its moves are open"

    def button(page: Page) -> str | None:
        css = "details.generic-panel button.move:not([disabled])"
        return css if page.all("#turn.yours") and page.all(css) else None

    play(pages, button, counting_game.id)
    assert sorted(page.text("#result").split(" ")[1] for page in pages) == ["lost", "won"]
    alice.screenshot("generic")
