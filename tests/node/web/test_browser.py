"""The browser client in a real headless Chromium, against real nodes: log in with the printed
link, host, join by invite, from a node's list and from the tables announced nearby, play whole
towers, zeeslag, duel (a deck from a deck list) and drachenherz games by clicking (one player on
a phone-sized screen), fire salvos at a table of three, land a space station's reserve squadron,
see the result; both clocks count (the grace after the turn time), the moves are listed as the node
tells them and a finished table is replayed from the move chosen; the replay viewer steps to a
planted violation and draws every golden game.
Screenshots of each game are saved in ``build/screenshots`` (or the directory
``FAIRTABLE_SCREENSHOTS`` names), replaced on each run."""

from __future__ import annotations

import base64
import json
import os
import random
import re
import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from fairtable.games import LANGUAGES, catalogue, registry
from fairtable.games.bots import RandomBot
from fairtable.games.contract import Game
from fairtable.games.texts import original_words
from fairtable.node.discovery import factory_for
from fairtable.node.lobby.invite import parse_invite
from tests.export_golden import transcripts
from tests.node.cheated import unaffordable_play
from tests.node.clients.tui.tables import sj_played, table_at, table_with_copy
from tests.node.clients.tui.test_keys import FIRST_KEYS, starting_with
from tests.node.clients.tui.test_snapshots import MARKED
from tests.node.clients.tui.test_snapshots import case as snapshot_case
from tests.node.web.browser import WAIT, Served, chromium, nodes
from tests.paths import ROOT, VECTORS

pytest.importorskip("selenium")
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.select import Select
from selenium.webdriver.support.ui import WebDriverWait

PHONE = (390, 844)
GAME_SECONDS = 240
"""A guard against a game that never ends (these games take seconds to a minute or two)."""
NEARBY = {"discovery": factory_for("loopback")}


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

    def values(self, css: str) -> list[str]:
        """The ``value`` of every input ``css`` finds, read in one call (a redraw cannot intervene)."""
        return self.driver.execute_script("return [...document.querySelectorAll(arguments[0])].map((input) => input.value)", css)

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
    with nodes(tmp_path_factory.mktemp("nodes"), ("alice", "bob", "robot"), alice=NEARBY, bob=NEARBY,
               robot={**NEARBY, "bot": "random"}) as running:
        yield running


@pytest.fixture(scope="module")
def pages(tmp_path_factory, served) -> Iterator[list[Page]]:
    shots = Path(os.environ.get("FAIRTABLE_SCREENSHOTS") or ROOT / "build" / "screenshots")
    shutil.rmtree(shots, ignore_errors=True)
    shots.mkdir(parents=True)
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


def test_the_host_form_offers_every_option_of_every_variant_with_its_default(pages):
    alice = pages[0]
    alice.driver.get(alice.driver.current_url.split("#")[0] + "#/")
    read = ("return [...document.querySelectorAll('#host-options [data-option]')].map((field) => "
            "[field.dataset.option, field.type === 'checkbox' ? field.checked : field.value, field.min || null, field.max || null])")
    for game in registry.ids():
        described = registry.get(game).describe()
        Select(alice.one("#host-game")).select_by_value(game)
        for variant in described["variants"]:
            Select(alice.one("#host-variant")).select_by_value(variant)
            expected = [[o["name"], o["default"] if o["type"] == "flag" else str(o["default"]),
                         str(o["lowest"]) if o["type"] == "integer" else None, str(o["highest"]) if o["type"] == "integer" else None]
                        for o in described["options"][variant]]
            assert alice.driver.execute_script(read) == expected, (game, variant)


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
    invite = page.text("#host-message").rsplit("Invite: ", 1)[-1].strip()
    page.wait(lambda: invite in page.values("#your-tables input.invite-code"), "the new table among the node's own")
    return invite


def lobby_of(invite: str) -> str:
    """The lobby id an invite names."""
    return parse_invite(invite).lobby_id


def join_by_invite(host_page: Page, guest: Page, game: str, options: dict[str, str] | None = None) -> str:
    """The host hosts ``game``, the guest pastes the invite and is seated; the lobby id."""
    invite = host(host_page, game, options)
    lobby = lobby_of(invite)
    guest.driver.get(guest.driver.current_url.split("#")[0] + "#/")
    guest.one("#join-invite").send_keys(invite)
    guest.press("#join-button")
    guest.one(f'#your-tables li[data-lobby="{lobby}"]')
    return lobby


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


def explain(page: Page, css: str, explained: list[str]) -> None:
    """Click what ``css`` finds and keep the reason the page shows; a page drawn before the turn
    passed gets "it is not your turn" (or nothing to wait for), kept only as a retry."""
    page.driver.execute_script("document.getElementById('notice').textContent = ''")
    page.press(css)
    said = page.wait(lambda: page.text("#notice"), f"{page.name}: the reason for {css}")
    if "turn" not in said and "wait" not in said:
        explained.append(said)


def test_two_players_play_a_whole_towers_game_by_clicking(pages):
    alice, bob = pages
    lobby = join_by_invite(alice, bob, "towers")
    start(alice, bob, lobby)
    alice.screenshot("towers-start")

    explained: list[str] = []
    prompts: set[str] = set()
    marks: list[str] = []

    def card(page: Page) -> str | None:
        if not page.all("#turn.yours"):
            return None
        prompts.add(page.text("#turn").split(" · ")[0])
        if not marks and page.all("button.unplayable"):  # the card it cannot afford says why in a word
            marks.extend(page.text(".card:has(button.unplayable) .mark").splitlines())
            page.screenshot("towers-marked")
        if not explained and page.all("button.unplayable"):  # a card it cannot afford: the click says why, sends nothing
            explain(page, "button.unplayable", explained)
        return next((css for css in ("button.play:not([disabled])", "button.discard:not([disabled])") if page.all(css)), None)

    alice.wait(lambda: any(page.text("#clock").endswith(" s") for page in pages), "the turn timer on the page whose turn it is")
    assert alice.text("#seats").startswith("alice (you)") and "bob" in alice.text("#seats")  # names, not seats
    assert alice.text("#turn").startswith(("Your turn", "Turn of bob")) and "seat" not in alice.text("#table-page .board")
    assert "-" not in alice.text("#seats")
    alice.press("#seats")  # a click shows each player's key fingerprint
    alice.wait(lambda: alice.text("#seats").count("-") >= 10, "the fingerprints shown")
    play(pages, card, "towers", reload_after=5)
    assert explained and re.fullmatch(r".+ costs \d+ (ore|mana|soldiers); you have \d+", explained[0]), explained
    assert marks and set(marks) == {"cost"}, marks
    assert "Your turn: play or discard a card" in prompts and prompts <= {
        "Your turn: play or discard a card", "Your turn: discard a card, then play again"}, prompts
    results = sorted(page.text("#result").split(" ")[1] for page in pages)
    assert results == ["lost", "won"], results
    for page, other in zip(pages, ("bob", "alice")):  # the winner by name, the final score, the verifier's verdict
        result = page.text("#result")
        assert result.startswith("You won") or f": {other} won" in result, result
        page.wait(lambda: page.text("#verdict").startswith("Verified: every message"), f"{page.name}: the verifier's verdict")
        named = page.text("#table-page h1 .table-id").split()[-1]  # the table by its id's first 12 hex digits
        assert len(named) == 12 and set(named) <= set("0123456789abcdef"), named
    for page in pages:
        page.screenshot("towers")
    assert bob.fits_its_screen()


def test_typing_a_name_from_each_first_key_on_a_table_page_neither_resigns_nor_leaves(pages):
    alice, bob = pages
    lobby = join_by_invite(alice, bob, "towers")
    start(alice, bob, lobby)
    alice.wait(lambda: alice.all("#resign"), "the table")
    alice.driver.execute_script("window.asked = []; window.confirm = (question) => { window.asked.push(question); return false; }")
    alice.press("#resign")  # asked, declined: the button keeps no keys for what is typed next
    typed = [*map(starting_with, FIRST_KEYS), "Ruby", "Rock Garden"]  # every first key; the two names that once resigned
    ActionChains(alice.driver).send_keys(*(f"{name}{Keys.ENTER}" for name in typed)).perform()
    assert alice.driver.execute_script("return window.asked") == ["Give up this game?"]
    assert alice.all("#resign") and not alice.text("#result")
    # the seat to move gives up, for the next tests: a resignation out of turn waits out the grace (spec/session.md §10)
    # the page whose turn it is, once one says so (a page read before its first redraw says neither)
    mover = alice.wait(lambda: next((page for page in pages if page.text("#turn").startswith("Your turn")), None), "a page whose turn it is")
    mover.driver.execute_script("window.confirm = () => true")
    mover.press("#resign")
    alice.wait(lambda: alice.text("#result").startswith(("You lost", "You won")), "the table given up, for the next tests")
    watcher = bob if mover is alice else alice
    mover.wait(lambda: "You resigned." in mover.text("#log"), "the resignation in the resigner's log")
    watcher.wait(lambda: f"{mover.name} resigned." in watcher.text("#log"), "the resignation in the other player's log")
    assert mover.text("#result").startswith(f"You lost (a player resigned): {watcher.name} won")


def resign_the_mover(pages: list[Page]) -> Page:
    """The page whose turn it is gives up (a resignation out of turn waits out the grace); that page."""
    mover = pages[0].wait(lambda: next((page for page in pages if page.text("#turn").startswith("Your turn")), None), "a page whose turn it is")
    mover.driver.execute_script("window.confirm = () => true")
    mover.press("#resign")
    for page in pages:
        page.wait(lambda: page.text("#result").startswith(("You lost", "You won")), f"{page.name}: the table given up")
    return mover


def test_two_players_chat_at_the_table_and_start_a_rematch_with_one_button_each(pages):
    alice, bob = pages
    lobby = join_by_invite(alice, bob, "towers")
    start(alice, bob, lobby)
    alice.one("#chat-input").send_keys("good luck <b>bob</b>", Keys.ENTER)  # typed and sent as a person does
    bob.wait(lambda: bob.text("#chat") == "alice: good luck <b>bob</b>", "alice's line on bob's page, as typed")
    assert alice.text("#chat") == "you: good luck <b>bob</b>" and alice.values("#chat-input") == [""]
    bob.one("#chat-input").send_keys("thanks")
    bob.press("#chat-send")
    alice.wait(lambda: alice.text("#chat").endswith("bob: thanks"), "bob's line on alice's page")
    alice.one("#chat-input").send_keys("x" * 301)  # the field takes 300 characters, as the node does
    assert len(alice.values("#chat-input")[0]) == 300
    alice.driver.execute_script("document.getElementById('chat-input').value = ''")
    resign_the_mover(pages)
    bob.wait(lambda: bob.all("#rematch"), "the rematch button at the end")
    assert bob.text("#rematch") == "Offer a rematch"
    bob.press("#rematch")
    bob.wait(lambda: bob.all("#table-page") and bob.one("#table-page").get_attribute("data-lobby") != lobby, "bob on the new table")
    rematch = bob.one("#table-page").get_attribute("data-lobby")
    alice.wait(lambda: "bob offers a rematch" in alice.text("#rematch-row"), "bob's offer on alice's page")
    assert alice.text("#rematch") == "Accept the rematch"
    alice.screenshot("rematch-offer")
    alice.press("#rematch")
    for page in pages:
        page.one(f'#table-page[data-lobby="{rematch}"]')
        page.wait(lambda: page.all("#resign"), f"{page.name}: the rematch's table playing")
        assert page.text("#table-page h1").startswith("towers · normal") and page.text("#chat") == ""
    resign_the_mover(pages)  # given up, for the next tests


def test_the_board_speaks_one_language_and_the_menu_changes_it(pages):
    alice, bob = pages
    start(alice, bob, join_by_invite(alice, bob, "towers"))
    alice.wait(lambda: alice.all(".towers .card-face strong"), "the towers board with its hand")
    shown = {word.lower().strip(".,:;()") for word in alice.text("#main").split()}
    assert not shown & original_words() and "Archmage's Citadel:" in alice.text("#main")
    Select(alice.one("#lang")).select_by_value("orig")
    try:
        alice.wait(lambda: "Arhimāga citadele:" in alice.text("#main"), "the board in the rule text's language")
        assert "Archmage" not in alice.text("#main") and Select(alice.one("#lang")).first_selected_option.text.startswith("Original")
        alice.screenshot("towers-original")
    finally:  # the tests after this one, and their screenshots, read English
        Select(alice.one("#lang")).select_by_value("en")
        alice.wait(lambda: "Archmage's Citadel:" in alice.text("#main"), "the board in English again")


FLEET = ("A1", "C1", "E1", "G1")
"""Where alice places the classic fleet's first four ships, left to right; the fifth goes down from A10."""


def place_by_hand(page: Page, starts: tuple[str, ...] = FLEET, last: str = "A10", label: str = "zeeslag-placing") -> set[str]:
    """Place the first four ships going right from ``starts``, turn, the fifth going down from ``last``."""
    for cell in starts:
        page.press(f'rect[data-place="{cell}"]')
    page.press("#rotate")
    page.wait(lambda: "vertical" in page.text("#rotate"), "the ship to turn")
    page.press(f'rect[data-place="{last}"]')
    placed = set(page.cells("rect.cell.place.ship", "place"))
    below = f"{chr(ord(last[0]) + 1)}{last[1:]}"
    assert len(placed) == 5 + 4 + 3 + 3 + 2 and {last, below} <= placed
    page.screenshot(label)
    page.press("#confirm-fleet")
    return placed


def test_two_players_play_a_whole_zeeslag_game_by_clicking(pages, served):
    alice, bob = pages
    lobby = lobby_of(host(alice, "zeeslag"))
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

    explained: list[str] = []

    def shot(page: Page) -> str | None:
        targets = set(page.cells("rect.target"))
        if targets and not explained and page.all("rect.refused"):  # a cell already shot: the click says why, sends nothing
            explain(page, "rect.refused", explained)
        aims = theirs if page is alice else misses
        wanted = next((cell for cell in aims if cell in targets), None)
        return None if wanted is None else f'rect.target[data-cell="{wanted}"]'

    play(pages, shot, "zeeslag")
    said = [re.escape(catalogue(language)["refusal.zeeslag.target:shot"]).replace(re.escape("{cell}"), r"[A-J]\d+") for language in LANGUAGES]
    assert explained and any(re.fullmatch(words, explained[0]) for words in said), explained  # in the page's language, whichever
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
    marker = "return getComputedStyle(document.querySelector('#replay-steps li')).listStyleType"
    assert alice.driver.execute_script(marker) == "none"  # numbered once, by the steps' own numbers, none clipped
    numbered = [text for item in alice.all("#replay-steps li") if (text := item.get_attribute("textContent"))[:1].isdigit()]
    assert numbered and all(text.startswith(f"{number}. ") for number, text in enumerate(numbered, 1))
    clicks = 0
    while not alice.text("#replay-violation"):
        assert alice.text("#replay-text") != "" and clicks < 200
        alice.press("#replay-next")
        clicks += 1
        alice.wait(lambda: f"step {clicks + 1} of" in alice.text("#replay-position"), "the next step")
    assert f"envelope {cheat.index})" in alice.text("#replay-position")
    cheater = alice.text(f'#replay-perspective option[value="seat-{cheat.seat}"]').removeprefix("as ")  # by name
    assert f"VIOLATION at envelope {cheat.index}: {cheater} broke {cheat.rule}" in alice.text("#replay-violation")
    alice.press("#replay-prev")
    alice.wait(lambda: not alice.text("#replay-violation"), "the step before the violation")
    assert alice.text("#replay-text").startswith(f"{cheat.moves}. bot-")  # a move, by its player's name
    alice.press("#replay-next")
    Select(alice.one("#replay-perspective")).select_by_value("all")
    alice.wait(lambda: len(alice.all("#replay-board .hand-area")) == 2, "both hands")
    alice.screenshot("viewer-violation")


GOLDEN = [path.stem for path in transcripts()]


@pytest.mark.parametrize("name", GOLDEN)
def test_the_viewer_draws_every_golden_game_from_every_seat(pages, name):
    alice = pages[0]
    game, variant = name.split("-")[:2]
    open_viewer(alice, VECTORS / "games" / f"{name}.ftt", game)
    assert alice.one("#replay-verdict.valid")
    alice.press("#replay-last")
    alice.wait(lambda: "game over" in alice.text("#replay-text"), "the last step")
    seats = len(alice.all("#replay-perspective option")) - 2
    Select(alice.one("#replay-perspective")).select_by_value("all")
    alice.wait(lambda: len(alice.all(f"#replay-board > .panel .{game}")) == seats, "every seat's board, drawn")
    assert not alice.all("#replay-board dl.tree"), "a game with pictures is not shown as data"
    if variant == "space":  # every seat's view draws every star field, the sunk ships with their kinds
        assert len(alice.all("#replay-board .star-field")) == seats * seats
        assert alice.all("#replay-board .star-field text.kind") and alice.all("#replay-board .star-field rect.cell.sunk")
    alice.press("#replay-first")
    alice.wait(lambda: alice.text("#replay-position").startswith("step 1 of"), "the first step")
    alice.screenshot(f"viewer-{name}")


def test_the_viewer_replays_a_finished_table_of_the_node(pages):
    alice = pages[0]
    for route in ("#/", "#/replay"):
        alice.driver.get(alice.driver.current_url.split("#")[0] + route)
    buttons = alice.wait(lambda: alice.all("button.replay-table"), "this node's tables")
    buttons[0].click()
    assert alice.one("#replay-verdict.valid")
    assert alice.text("#replay-result").startswith(("Result: alice won", "Result: bob won", "Result: a draw"))


def history_lines(page: Page) -> list[str]:
    """The moves the table page lists, as the export writes them (without the replay buttons)."""
    script = ("return [...document.querySelectorAll('#history li')].map((li) => [...li.childNodes]"
              ".filter((n) => !(n instanceof HTMLButtonElement)).map((n) => n.textContent).join('').trim())")
    return page.driver.execute_script(script)


def test_both_clocks_count_and_the_moves_are_listed_then_replayed_from_the_move_chosen(pages, served):
    alice, bob = pages
    lobby = join_by_invite(alice, bob, "towers", {"turn_seconds": "90"})
    start(alice, bob, lobby)
    for page in pages:  # every seat's clock at once: the seat due counting down, the other showing its time
        page.wait(lambda: len(page.all("#clocks .seat-clock")) == 2 and page.all("#clocks .running .clock"), f"{page.name}: both clocks")
        assert page.text("#clocks .seat-clock:not(.running)").endswith("90 s")
        assert re.fullmatch(r".+ \d+ s", page.text("#clocks .running")), page.text("#clocks")
    alice.screenshot("clocks")
    # a seat whose node stays silent past its turn time: its clock goes on with the grace, said as such
    probe = """const done = arguments[arguments.length - 1];
      import("/history.js").then((page) => {
        const shown = page.clocks({ phase: "playing", seat: 0, seats: ["alice", "bob"], clocks: [
          { seat: 0, turn: 90, grace: 20, running: false }, { seat: 1, turn: 0.4, grace: 20, running: true }] });
        shown.id = "clocks-probe";
        document.body.append(shown);
        done([...shown.children].map((clock) => clock.textContent));
      }, (error) => done(String(error)));"""
    assert alice.driver.execute_async_script(probe) == ["you 90 s", "bob 1 s"]
    alice.wait(lambda: re.fullmatch(r"bob grace (20|19) s", alice.text("#clocks-probe .running")), "the grace once the turn time ran out")
    assert alice.all("#clocks-probe .running .clock.grace")
    alice.driver.execute_script("document.getElementById('clocks-probe').remove()")
    moves = 0
    while moves < 4:  # a few discards: always a legal move
        for page in pages:
            if page.all("#turn.yours") and page.all("button.discard:not([disabled])"):
                page.click(page.one("button.discard:not([disabled])"))
                moves += 1
    table = alice.driver.execute_script("return document.querySelector('#table-page .table-id').textContent").split()[-1]
    live = next(t for t in served[0].node.tables.values() if t.table_id.hex().startswith(table))
    alice.wait(lambda: len(history_lines(alice)) >= 4 and history_lines(alice) == [
        f"{e['n']}. {e['text']}" if e["n"] is not None else e["text"] for e in served[0].call(served[0].node.history, live.table_id.hex(), 0)["entries"]],
        "the moves listed as the node tells them")
    assert re.fullmatch(r"1\. (alice|bob): discard .+", history_lines(alice)[0]), history_lines(alice)
    mover = alice.wait(lambda: next((page for page in pages if page.text("#turn").startswith("Your turn")), None), "a page whose turn it is")
    mover.driver.execute_script("window.confirm = () => true")
    mover.press("#resign")
    alice.wait(lambda: "Verified" in alice.text("#verdict") and alice.all("#history .replay-from"), "the finished table's replay buttons")
    assert alice.text("#history-result").startswith("Result: ") and "won" in alice.text("#history-result")
    line = history_lines(alice)[2]
    chosen = alice.all("#history .replay-from")[2]
    index = chosen.get_attribute("data-index")
    chosen.click()
    alice.wait(lambda: alice.all("#replay-text") and alice.text("#replay-text") == line, "the viewer at move 3")
    assert f"(envelope {index})" in alice.text("#replay-position")
    alice.screenshot("replay-from-a-move")
    alice.press("#replay-next")
    alice.wait(lambda: f"(envelope {index})" not in alice.text("#replay-position"), "a step on")


def cards_of(game: str) -> list[dict]:
    return json.loads((ROOT / "games" / game / "cards.json").read_text(encoding="utf-8"))


def test_two_players_play_a_whole_duel_one_with_a_deck_from_a_deck_list(pages, served):
    alice, bob = pages
    lobby = join_by_invite(alice, bob, "duel")
    start(alice, bob, lobby)
    catalogue = cards_of("duel")
    wanted = sorted(card["id"] for card in catalogue[::5][:20])
    lines = ["# my deck", *(str(card) if index % 3 == 0 else catalogue[card]["name_en"].upper() if index % 3 == 1
                            else catalogue[card]["name"] for index, card in enumerate(wanted))]
    listing = alice.one("#deck-list")
    listing.send_keys("not a card\n")
    alice.press("#read-deck-list")
    assert "no card is called" in alice.text("#deck-problems") and "a deck holds exactly 20" in alice.text("#deck-problems")
    listing.clear()
    listing.send_keys("\n".join(lines))
    alice.press("#read-deck-list")
    alice.wait(lambda: alice.text("#deck-count") == "20 of 20 chosen", "the list read")
    assert sorted(map(int, alice.cells("#deck-builder .deck-card.chosen", "card"))) == wanted
    alice.screenshot("duel-deck")
    alice.press("#confirm-deck")
    bob.press("#random-deck")

    def card(page: Page) -> str | None:
        css = ".duel .face.play:not([disabled])"
        return css if page.all("#turn.yours") and page.all(css) else None

    play(pages, card, "duel")
    results = sorted(page.text("#result").split(" ")[1] for page in pages)
    assert results == ["lost", "won"] or all(page.text("#result").startswith("Draw") for page in pages), results
    (table,) = [update for update in served[0].call(served[0].node.my_tables) if update.lobby_id == lobby]
    assert table.view["deck_cards"] == wanted, "alice played the deck of her list"
    for page in pages:
        page.screenshot("duel")
    assert bob.fits_its_screen()


def test_two_players_play_a_whole_drachenherz_game_by_clicking_a_table_found_nearby(pages):
    alice, bob = pages
    lobby = lobby_of(host(alice, "drachenherz"))
    bob.driver.get(bob.driver.current_url.split("#")[0] + "#/")
    bob.press(f'#nearby button.join[data-lobby="{lobby}"]')
    bob.one(f'#your-tables li[data-lobby="{lobby}"]')
    start(alice, bob, lobby)
    alice.wait(lambda: alice.all(".drachenherz .dh-field"), "the board's fields")
    assert len(alice.all(".drachenherz .dh-field")) == 10

    prompts: set[str] = set()

    def card(page: Page) -> str | None:
        css = ".drachenherz button.dh-play:not([disabled])"
        if page.all("#turn.yours"):
            prompts.add(page.text("#turn").split(" · ")[0])
        return css if page.all("#turn.yours") and page.all(css) else None

    play(pages, card, "drachenherz")
    assert prompts == {"Your turn: lay cards on a field"}, prompts
    assert all(page.text("#result") for page in pages)
    for page in pages:
        page.screenshot("drachenherz")
    assert bob.fits_its_screen()


@pytest.mark.parametrize("variant", ["duel", "shared"])
def test_three_seats_fire_salvos_by_picking_cells_at_a_bot_table_found_nearby(pages, served, variant):
    alice = pages[0]
    bot_table(pages, served[2], variant, {}, 3)
    if variant == "shared":  # alice's window: the border column left of her block, her block, the one right of it
        seat = int(alice.cells("#table-page .seat.me", "seat")[0])
        column = 10 * seat + 1
        assert alice.cells("rect.cell.place.border", "place")[:1] == [f"A{column - 1}"]
        place_by_hand(alice, tuple(f"{row}{column}" for row in "ACEG"), f"I{column}", "zeeslag-shared-placing")
    else:
        alice.press("#random-fleet")
    pages[1].press("#random-fleet")
    fired = {page.name: 0 for page in pages}
    deadline = time.monotonic() + GAME_SECONDS
    while min(fired.values()) < 2:
        assert time.monotonic() < deadline, [page.screenshot("salvo-stuck") for page in pages]
        for page in pages:
            if not page.all("#fire-salvo") or fired[page.name] >= 2:
                continue
            if fired[page.name] == 0 and page is alice:  # fired short: the rules say why, and nothing is sent
                page.click(page.one("#fire-salvo"))
                page.wait(lambda: "shots at each enemy, not 0" in page.text("#notice"), "the salvo's refusal")
                assert page.all("#fire-salvo")
            fill_salvo(page)
            if fired[page.name] == 1:
                page.screenshot(f"zeeslag-{variant}-salvo")
            page.click(page.one("#fire-salvo"))
            page.wait(lambda: not page.all("#fire-salvo"), f"{page.name}: the salvo taken")
            fired[page.name] += 1
    alice.wait(lambda: len(alice.all(".recent li")) >= 6, "the salvos' shots among the last shots")
    for page in pages:
        page.driver.execute_script("window.confirm = () => true")
        page.press("#resign")
    for page in pages:
        page.wait(lambda: page.text("#result").startswith("You lost"), f"{page.name} to see it lost")
    alice.screenshot(f"zeeslag-{variant}-three")


def bot_table(pages: list[Page], robot: Served, variant: str, options: dict, seats: int) -> str:
    """A table of zeeslag ``variant`` the robot's node hosts (a random bot in its seat) and the
    pages join from the tables nearby, started and open on every page; its lobby id."""
    lobby = robot.call(robot.node.host, "zeeslag", variant, options, seats).lobby_id
    for page in pages:
        page.driver.get(page.driver.current_url.split("#")[0] + "#/")
        page.press(f'#nearby button.join[data-lobby="{lobby}"]')
        page.one(f'#your-tables li[data-lobby="{lobby}"]')

    def seated() -> int:
        return len(next(t for t in robot.call(robot.node.list_tables, None) if t.lobby_id == lobby).joined)

    pages[0].wait(lambda: seated() == seats, f"{seats} seats taken")
    robot.call(robot.node.start, lobby)
    for page in pages:
        page.press(f'li[data-lobby="{lobby}"] a.open')
    return lobby


def view_of(node: Served, lobby: str) -> dict:
    """The view ``node``'s seat has of the table: what its node accepted."""
    (table,) = [update for update in node.call(node.node.my_tables) if update.lobby_id == lobby]
    return table.view


def cell_of(name: str, width: int = 20) -> int:
    return (ord(name[0]) - ord("A")) * width + int(name[1:]) - 1



def shoot_until_ready(page: Page, node: Served, lobby: str, enemy: int, ability: str, most: int) -> list[str]:
    """Click listed shots at ``enemy``'s field, each taken by the node, until ``ability``'s button
    shows (at most ``most`` shots); the cells shot."""
    button, targets_css = f"#ability-{ability}", f'.star-field[data-seat="{enemy}"] rect.target'
    fired: list[str] = []
    while not page.all(button):
        assert len(fired) <= most, page.screenshot(f"zeeslag-space-{ability}-stuck")
        page.wait(lambda: page.all(button) or page.all(targets_css), f"{page.name}'s turn")
        targets = page.cells(targets_css)
        if page.all(button) or not targets:
            continue
        fired.append(targets[len(fired) * 7 % len(targets)])
        page.click(page.one(f'{targets_css}[data-cell="{fired[-1]}"]'))
        page.wait(lambda: cell_of(fired[-1]) in view_of(node, lobby)["seas"][enemy]["shots"], "the shot taken by the node")
    return fired

def test_a_person_buys_places_shoots_and_fires_a_laser_in_the_space_battle(pages, served):
    alice = pages[0]
    lobby = bot_table([alice], served[2], "space", {"money": 100, "turn_seconds": 0}, 2)

    def budget() -> str:
        return alice.text("#budget")

    alice.press('button.buy[data-kind="station"]')
    alice.wait(lambda: budget().endswith("20 of 100 left"), "the station bought")
    for kind, refused in (("dreadnought", "Refused: at most one capital ship in a fleet: not both the Dreadnought and the Space station"),
                          ("lancer", "Refused: this fleet costs 120; you have 100")):  # the node's words (its check)
        alice.press(f'button.buy[data-kind="{kind}"]')
        alice.wait(lambda: refused in alice.text("#fleet-message"), f"the {kind} refused")
    alice.press('button.sell[data-kind="station"]')
    alice.press('button.buy[data-kind="lancer"]')
    alice.press('button.buy[data-kind="spirit"]')
    alice.wait(lambda: budget() == "2 ships for 90; 10 of 100 left", "a Lancer and a Spirit bought")
    alice.press("#to-placement")
    alice.wait(lambda: alice.text("#fleet-message").startswith("10 of 100 left unspent"), "the money left said first")
    assert alice.text(".purchase h3").startswith("Buy your fleet")
    alice.press("#to-placement")
    alice.wait(lambda: "Spirit" in alice.text(".purchase h3"), "the Spirit, the larger, placed first")
    alice.one("body").send_keys("r")  # the T turned a quarter: its first cell on top, three below to its left
    alice.wait(lambda: "2 of 4" in alice.text("#rotate"), "the Spirit turned by the R key")
    alice.press('rect[data-place="B2"]')
    alice.wait(lambda: sorted(alice.cells("rect.cell.place.ship", "place")) == ["B2", "C1", "C2", "D2"], "the turned Spirit placed")
    alice.press("#rotate")
    alice.wait(lambda: "2 of 2" in alice.text("#rotate"), "the Lancer turned upright")
    alice.press('rect[data-place="E3"]')
    alice.wait(lambda: "would touch the Spirit" in alice.text("#fleet-message"), "a Lancer touching the Spirit refused")
    alice.press('rect[data-place="A10"]')
    alice.wait(lambda: len(alice.cells("rect.cell.place.ship", "place")) == 7, "the Lancer placed")
    alice.press("#undo-ship")
    alice.wait(lambda: len(alice.cells("rect.cell.place.ship", "place")) == 4, "the Lancer taken back")
    alice.press('rect[data-place="A15"]')  # a new ship starts in its first turn: A15 A16 A17
    alice.screenshot("zeeslag-space-placing")
    alice.press("#confirm-fleet")
    me = alice.wait(lambda: view_of(served[0], lobby)["seat"] is not None and view_of(served[0], lobby), "alice's view")["seat"]
    alice.wait(lambda: view_of(served[0], lobby)["fleets"][me]["layout"], "the fleet committed")
    spirit, lancer = 7, 5  # the ids of Spirit 1 and Lancer 1: slots 6 and 4
    expected = sorted([[cell_of(c), spirit] for c in ("B2", "C1", "C2", "D2")] + [[cell_of(c), lancer] for c in ("A15", "A16", "A17")])
    assert view_of(served[0], lobby)["fleets"][me]["layout"] == expected
    enemy = 1 - me
    fired = shoot_until_ready(alice, served[0], lobby, enemy, "laser", most=11)
    assert fired, "alice shot before her laser was ready"
    state = {e["ability"]: e for e in view_of(served[0], lobby)["fleets"][me]["abilities"]}
    assert alice.text(f'.star-field[data-seat="{me}"] li[data-ability="laser"]').endswith("ready")
    alice.press("#ability-laser")
    beams = alice.wait(lambda: alice.cells(f'.star-field[data-seat="{enemy}"] rect.target', "move"), "the laser's cells")
    assert {json.dumps({"laser": cell}, separators=(",", ":")) for cell in (*range(20), *range(180, 200))} >= set(beams) and beams
    alice.screenshot("zeeslag-space-laser")
    alice.click(alice.one(f'.star-field[data-seat="{enemy}"] rect.target[data-cell="J7"]'))
    after = alice.wait(lambda: (v := view_of(served[0], lobby)) and any(s["kind"] == "laser" and s["seat"] == me for s in v["recent"]) and v,
                       "the laser fired")
    (entry,) = [e for e in after["fleets"][me]["abilities"] if e["ability"] == "laser"]
    assert entry["next"] == state["laser"]["next"] + 3, "the laser used in the round it became ready"
    alice.driver.execute_script("window.confirm = () => true")
    alice.press("#resign")
    alice.wait(lambda: alice.text("#result").startswith("You lost"), "alice to see she lost")


class FirstShot(RandomBot):
    """A bot that shoots the first cell it may, in reading order (A1, A2, ...): a field whose
    ships lie below row A is never hit by it in the few rounds a test plays."""

    def choose(self, game: Game, state: Any, seat: int) -> Any:
        moves = game.legal_moves(state, seat)
        return next((move for move in moves if "shoot" in move), moves[0])


def to_placement(page: Page) -> None:
    """On from buying a fleet that leaves money unspent: the page says so first, the second press goes on."""
    page.press("#to-placement")
    page.wait(lambda: "left unspent" in page.text("#fleet-message"), "the money left said")
    page.press("#to-placement")


def shooting_first_cells(robot: Served, lobby: str) -> None:
    """The robot's seat at ``lobby`` plays :class:`FirstShot` from now on (its node's bot is random)."""
    async def swap() -> None:
        robot.node.mesh.find(lobby).bot = FirstShot(random.Random(0))
    robot.call(swap)


def test_a_person_lands_a_reserve_squadron_by_clicking_in_the_space_battle(pages, served):
    alice = pages[0]
    lobby = bot_table([alice], served[2], "space", {"turn_seconds": 0}, 2)
    shooting_first_cells(served[2], lobby)  # row A only: the station below is never hit
    alice.press('button.buy[data-kind="station"]')
    to_placement(alice)
    alice.press('rect[data-place="H18"]')
    alice.wait(lambda: len(alice.cells("rect.cell.place.ship", "place")) == 8, "the station placed")
    alice.press("#confirm-fleet")
    me = alice.wait(lambda: view_of(served[0], lobby)["seat"] is not None and view_of(served[0], lobby), "alice's view")["seat"]
    enemy = 1 - me
    # a random fleet for 500 has over 30 cells: 8 rounds of 3 shots sink none
    shoot_until_ready(alice, served[0], lobby, enemy, "reserve", most=24)
    before = view_of(served[0], lobby)
    assert before["fleets"][me]["rounds"] == 8 and cell_of("A1") in before["seas"][me]["shots"], "the 9th own round, A1 shot"
    assert alice.text(f'.star-field[data-seat="{me}"] li[data-ability="reserve"]').endswith("ready")
    alice.press("#ability-reserve")
    alice.wait(lambda: (view_of(served[0], lobby)["placing"] or {}).get("fighters") == 3, "the node asking for the squadron")
    alice.one("rect[data-land]")

    def refused(cell: str, why: str) -> None:
        alice.press(f'rect[data-land="{cell}"]')
        alice.wait(lambda: why in alice.text("#landing-message"), f"{cell} refused")
        view = view_of(served[0], lobby)
        assert view["placing"] and view["fleets"][me]["squadrons"] == 0, "nothing sent"

    refused("A1", "A1 was shot at")
    refused("H18", "H18 holds a ship")
    refused("I19", "I19 is next to a ship")  # the station's hole
    landed = ("C5", "E5", "C8")
    alice.press(f'rect[data-land="{landed[0]}"]')
    refused("D6", "fighters may not touch each other")
    for cell in landed[1:]:
        alice.press(f'rect[data-land="{cell}"]')
    alice.wait(lambda: sorted(alice.cells("rect.cell.place.fighter", "land")) == sorted(landed), "three fighters chosen")
    assert alice.text("#landing-message").strip() == ""
    alice.screenshot("zeeslag-space-landing")
    alice.press("#confirm-landing")
    after = alice.wait(lambda: (v := view_of(served[0], lobby))["fleets"][me]["squadrons"] == 1 and v, "the squadron landed")
    wing = [0] * 200
    for number, cell in enumerate(landed, 1):
        wing[cell_of(cell)] = number
    assert served[0].node.mesh.find(lobby).session.state.boards[me].own["wing1"] == tuple(wing)
    assert sorted(after["fleets"][me]["fighters"]) == sorted([cell_of(cell), 15 + n] for n, cell in enumerate(landed))
    alice.wait(lambda: sorted(alice.cells(f'.star-field[data-seat="{me}"] rect.cell.fighter')) == sorted(landed), "the fighters on her field")
    alice.driver.execute_script("window.confirm = () => true")
    alice.press("#resign")
    alice.wait(lambda: alice.text("#result").startswith("You lost"), "alice to see she lost")


def fill_salvo(page: Page) -> None:
    """Pick the salvo's free cells, the first offered each time, until none is offered: the view's
    targets are offered while an enemy is still owed a shot."""
    while page.all("rect.salvo-target:not(.chosen)"):
        free = zip(page.cells("rect.salvo-target:not(.chosen)"), page.cells("rect.salvo-target:not(.chosen)", "enemy"))
        cell, enemy = next(free)
        page.click(page.one(f'rect.salvo-target[data-cell="{cell}"][data-enemy="{enemy}"]'))


def test_three_seats_fire_a_space_salvo_with_a_laser_in_place_of_the_shots_at_one_enemy(pages, served):
    alice, bob = pages
    lobby = bot_table(pages, served[2], "space", {"money": 100, "turn_seconds": 0}, 3)
    alice.press('button.buy[data-kind="lancer"]')
    to_placement(alice)
    alice.press('rect[data-place="A1"]')
    alice.press("#confirm-fleet")
    bob.press("#random-fleet")
    me = alice.wait(lambda: view_of(served[0], lobby)["fleets"][view_of(served[0], lobby)["seat"]]["layout"] and view_of(served[0], lobby),
                    "alice's fleet committed")["seat"]
    deadline = time.monotonic() + GAME_SECONDS
    lasered = None
    while lasered is None:
        assert time.monotonic() < deadline, [page.screenshot("space-salvo-stuck") for page in pages]
        for page in pages:
            if not page.all("#fire-salvo"):
                continue
            if page is alice and alice.all("#ability-laser"):
                lasered = next(int(seat) for seat in alice.cells(".star-field[data-seat]", "seat") if int(seat) != me)
                alice.press("#ability-laser")
                alice.press(f'.star-field[data-seat="{lasered}"] rect.target[data-cell="A5"]')
                name = alice.text(f'#seats .seat[data-seat="{lasered}"]')  # the player, by the name in the genesis
                alice.wait(lambda: alice.text("#salvo-ability") == f"; laser A5 at {name}", "the laser in the salvo")
                enemy = 3 - me - lasered
                assert set(alice.cells("rect.salvo-target", "enemy")) == {str(enemy)}, "no shots at the lasered enemy"
            fill_salvo(page)
            if page is alice and lasered is not None:
                alice.screenshot("zeeslag-space-salvo")
            page.click(page.one("#fire-salvo"))
            page.wait(lambda: not page.all("#fire-salvo") or page.text("#notice"), f"{page.name}: the salvo taken")
            assert not page.text("#notice"), page.text("#notice")
    alice.wait(lambda: any(s["kind"] == "laser" and s["seat"] == me and s["target"] == lasered for s in view_of(served[0], lobby)["recent"]),
               "the laser fired at its enemy")
    for page in pages:
        page.driver.execute_script("window.confirm = () => true")
        page.press("#resign")
    for page in pages:
        page.wait(lambda: page.text("#result").startswith("You lost"), f"{page.name} to see it lost")


FIXED_BOARD = """const [update, done] = [arguments[0], arguments[arguments.length - 1]];
Promise.all([import(`/games/${update.game}.js`), import("/words.js")]).then(async ([game, words]) => {
  window.sentMoves = [];
  const ctx = { game: update.game, variant: update.variant, view: update.view, legal: update.legal_moves, texts: update.move_texts,
    text: update.text, decision: update.decision, yourTurn: update.your_turn, send: async (move) => window.sentMoves.push(move),
    names: update.seats, marks: words.playedFor(update), forced: words.forcedFor(update), state: {}, final: null, repaint: () => {} };
  const board = document.createElement("section");
  board.id = "fixed-board";
  board.append(await game.render(ctx));
  document.body.prepend(board);
  done(true);
});"""
"""The game's board drawn alone, from a fixed table update, on top of the page; moves it sends go to ``window.sentMoves``."""


def test_shengji_selecting_the_unlisted_copy_of_a_card_offers_the_move_the_game_lists_for_its_face(pages):
    alice = pages[0]
    update, index = table_with_copy("shengji")
    entry = update["view"]["hand"][index]
    assert alice.driver.execute_async_script(FIXED_BOARD, update)
    try:
        alice.press(f"#fixed-board button.pick[data-handle='{entry['handle']}']")
        moves = alice.wait(lambda: alice.all("#fixed-board button.move"), "the moves the selected card makes")
        moves[0].click()
        sent = alice.driver.execute_script("return window.sentMoves")
        hand = {card["handle"]: card["card"] for card in update["view"]["hand"]}
        assert len(sent) == 1 and sent[0] in update["legal_moves"] and entry["card"] in [hand[h] for h in sj_played(sent[0])]
    finally:
        alice.driver.execute_script("document.getElementById('fixed-board').remove()")


FIXED_TABLE = """const [update, transcript, done] = [arguments[0], arguments[1], arguments[arguments.length - 1]];
import("/table.js").then((m) => {
  const app = { tables: new Map([[update.lobby_id, update]]), token: sessionStorage.getItem("fairtable-token"), api: { request: async (op) => {
    if (op === "history") return { entries: [], replay: false, result: null };  // as a node answers before the first move
    if (op !== "transcript") return {};
    if (transcript === null) throw new Error("the node went away");
    return { transcript };
  } } };
  const table = document.createElement("section");
  table.id = "fixed-table";
  table.append(m.tablePage(app, update.lobby_id).element);
  document.body.prepend(table);
  done(true);
});"""
"""A table page of a fixed table update on top of the page, through a stub connection whose ``transcript``
is the given one (null: the request fails) and whose ``history`` has no move yet; the page's verdict comes from
this node's replay of it."""


@pytest.mark.parametrize(("game_id", "variant", "nth"), [("duel", "1v1", 9), ("drachenherz", "standard", 5)])
@pytest.mark.parametrize(("reason", "words"), [("resigned", "a player resigned"), ("absent", "a player stopped answering and was declared absent")])
def test_the_resigner_and_the_absent_player_see_the_winner_the_score_how_it_was_reached_and_the_verdict(pages, game_id, variant, nth,
                                                                                                         reason, words):
    alice = pages[0]
    update = table_at(game_id, variant, 2, 1, nth=nth, forfeit=reason, **({"match": 2} if game_id == "drachenherz" else {}))
    update["table"] = f"{game_id}-{reason}".encode().hex().ljust(64, "0")  # a table of its own: the page keeps a verdict per table
    transcript = base64.b64encode((VECTORS / "games" / f"{game_id}-{variant}.ftt").read_bytes()).decode()
    assert alice.driver.execute_async_script(FIXED_TABLE, update, transcript)
    try:
        alice.wait(lambda: alice.text("#fixed-table #verdict").startswith("Verified: every message"), "the verdict")
        result = alice.text("#fixed-table #result")
        assert result.startswith(f"You lost ({words}): bob won"), result
        if game_id == "duel":  # its scores are not one per seat: the board says how the match was reached
            assert re.fullmatch(r"Final points \d+–\d+, rounds won \d–\d(, \d rounds? drawn)?", alice.text("#fixed-table #standing"))
        else:
            assert re.search(r"Final games won: you \d+, bob \d+$", result), result  # a match to a number of wins counts games
    finally:
        alice.driver.execute_script("document.getElementById('fixed-table').remove()")


@pytest.mark.parametrize(("game_id", "variant", "seats", "options", "prompt", "word"), [
    ("shengji", "standard", 4, {"deals": 1}, "Your turn: follow the lead", "follow"),
    ("towers", "normal", 2, {}, "Your turn: play or discard a card", "cost"),
])
def test_the_table_page_names_the_decision_and_marks_each_card_the_rules_refuse_with_its_word(pages, game_id, variant, seats, options,
                                                                                              prompt, word):
    alice = pages[0]
    update = table_at(game_id, variant, seats, 5, where=lambda game, state: bool(game.unplayable(state, 0)), **options)
    refused = {entry["move"]["play"] for entry in update["unplayable"]}
    assert refused and {entry["mark"] for entry in update["unplayable"]} == {word}
    update["table"] = f"{game_id}-marks".encode().hex().ljust(64, "0")
    assert alice.driver.execute_async_script(FIXED_TABLE, update, None)
    try:
        alice.wait(lambda: alice.text("#fixed-table #turn").startswith(prompt) and alice.all("#fixed-table .mark"), "the decision named, cards marked")
        card = "button.pick" if game_id == "shengji" else ".card"
        marked = {int(handle) for handle in alice.driver.execute_script(
            f"return [...document.querySelectorAll('#fixed-table {card}')].filter((c) => c.querySelector('.mark')).map((c) => c.dataset.handle)")}
        assert marked == refused
        assert {element.text for element in alice.all("#fixed-table .mark")} == {word}
        alice.screenshot(f"{game_id}-marked")
    finally:
        alice.driver.execute_script("document.getElementById('fixed-table').remove()")


def test_a_check_that_fails_is_said_in_the_verdicts_place_and_the_page_stays(pages):
    alice = pages[0]
    update = table_at("towers", "normal", 2, 3, nth=2, forfeit="resigned")
    update["table"] = "fa11ed".ljust(64, "0")
    assert alice.driver.execute_async_script(FIXED_TABLE, update, None)
    try:
        alice.wait(lambda: alice.text("#fixed-table #verdict") == "The transcript could not be checked: the node went away", "the failure")
        assert alice.text("#fixed-table #result").startswith("You lost (a player resigned): bob won")
    finally:
        alice.driver.execute_script("document.getElementById('fixed-table').remove()")


def test_the_duel_board_says_the_drawn_rounds_beside_the_rounds_won(pages):
    alice = pages[0]
    update, _ = snapshot_case("duel-blind")  # a tie-break after three rounds, one of them drawn: rounds won 1 1
    assert alice.driver.execute_async_script(FIXED_BOARD, update)
    try:
        assert alice.text("#fixed-board #rounds-drawn") == "1 round drawn"
    finally:
        alice.driver.execute_script("document.getElementById('fixed-board').remove()")


BOARDS = ("towers", "shengji", "drachenherz", "duel-deck", "duel-defend", "duel-ffa", "duel-blind", "zeeslag-duel", "zeeslag-salvo",
          "zeeslag-shared", "zeeslag-shared-placing", "space-purchase", "space-battle", "space-salvo")
"""The terminal snapshots' tables (``tests/node/clients/tui/test_snapshots.py``) whose boards the
browser draws too, at a desktop and a phone width: every game, mid-play, to look at."""


PLAYED_FOR = {"towers": "forced: no other move", "shengji": "played for bob: time ran out", "zeeslag-duel": "answered for you: no other answer"}
"""The mark each board in ``MARKED`` draws on the move made for its seat."""


@pytest.mark.parametrize("name", BOARDS)
def test_each_games_board_is_drawn_mid_play_in_english_at_a_desktop_and_a_phone_width(pages, name):
    update, _ = snapshot_case(name)
    for page in pages:
        assert page.driver.execute_async_script(FIXED_BOARD, update)
        try:
            page.driver.execute_script("window.scrollTo(0, 0)")
            assert page.fits_its_screen(), f"{page.name}: the {name} board is wider than its screen"
            text = page.driver.execute_script("return document.getElementById('fixed-board').innerText")
            foreign = {word.strip(".,:;()·").lower() for word in text.split()} & original_words()
            assert not foreign, f"{page.name}: the {name} board in English says {sorted(foreign)}"
            if name in MARKED:  # a move made for a seat says so on the move itself (the log's latest entry)
                notes = page.driver.execute_script("return [...document.querySelectorAll('#fixed-board .played-for-note')].map((n) => n.innerText)")
                assert notes == [PLAYED_FOR[name]], notes
            page.screenshot(f"{update['game']}-board-{name}")
        finally:
            page.driver.execute_script("document.getElementById('fixed-board').remove()")


def test_a_variant_without_pictures_falls_back_to_the_generic_view(pages):
    script = ("const done = arguments[arguments.length - 1];"
              "import('/boards.js').then(async (m) => done([!!(await m.board('zeeslag', 'duel')), !!(await m.board('zeeslag', 'space')),"
              " !!(await m.board('zeeslag', 'a-new-variant')), !!(await m.board('duel', '1v1'))]));")
    assert pages[0].driver.execute_async_script(script) == [True, True, False, True]


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
    lobby = join_by_invite(alice, bob, counting_game.id)
    start(alice, bob, lobby)
    assert alice.all("details.generic-panel[open]"), "with no pictures, the view and its moves are open"

    def button(page: Page) -> str | None:
        css = "details.generic-panel button.move:not([disabled])"
        return css if page.all("#turn.yours") and page.all(css) else None

    play(pages, button, counting_game.id)
    assert sorted(page.text("#result").split(" ")[1] for page in pages) == ["lost", "won"]
    alice.screenshot("generic")


def test_a_screenshot_of_each_game_was_saved(pages):
    saved = [path.name for path in pages[0].shots.glob("*.png")]
    missing = [(game, page.name) for game in registry.ids() for page in pages
               if not any(name.startswith((f"{game}-", f"viewer-{game}-")) and name.endswith(f"-{page.name}.png") for name in saved)]
    assert missing == [], saved
