"""Fixtures shared by the whole suite.

Toy games exist for the session and node tests only; each is registered while a test that
asks for it runs (``pytestmark = pytest.mark.usefixtures("counting_game")``), so no other
test, and no listing of games, ever sees it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from hypothesis import settings

from fairtable.games.contract import Game
from fairtable.games.testing import registered

os.environ["FAIRTABLE_DISCOVERY"] = "off"
"""Node processes the tests start announce nothing on this machine's network; the discovery
tests turn it on for 127.0.0.1 alone."""

settings.register_profile("fairtable", deadline=None)
settings.load_profile("fairtable")
"""No per-example deadline: hypothesis's 200 ms is a timed assertion, and on a loaded machine a
slow first call failed codec and transcript properties as "unreliable timings". Loaded here,
before any test module, it is the parent of every test's own ``@settings``."""


def _registered(game: Game) -> Iterator[Game]:
    with registered(game):
        yield game


@pytest.fixture
def counting_game() -> Iterator[Game]:
    """The node tests' counting game (``fairtable.games.testing.counting``)."""
    from fairtable.games.testing.counting import COUNTING

    yield from _registered(COUNTING)


@pytest.fixture
def probe_game() -> Iterator[Game]:
    """The session tests' probe game with hidden data and choices (``fairtable.games.testing.probe``)."""
    from fairtable.games.testing.probe import PROBE

    yield from _registered(PROBE)


@pytest.fixture
def tricks_game() -> Iterator[Game]:
    """The session tests' card game: tricks and teams for 2..16 seats, a mental deck or private
    draws for 2 to 4 (``fairtable.games.testing.tricks``)."""
    from fairtable.games.testing.tricks import TRICKS

    yield from _registered(TRICKS)


@pytest.fixture
def blind_game() -> Iterator[Game]:
    """The session tests' free-for-all with owned decks and blind cards (``fairtable.games.testing.blind``)."""
    from fairtable.games.testing.blind import BLIND

    yield from _registered(BLIND)


@pytest.fixture
def version_2_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    """The suite's one switch to protocol version 2 for tables a test self-plays
    (``SelfPlay.default_version``): for a test whose subject is not the deck, to spare it the
    proofs' CPU, or whose cheats are version 2's (a stage the live seats cannot refuse). Every game
    and every kind of deck (shared, hidden, shown) is still played at version 3 elsewhere in the
    suite, and real-process node tests always use the default."""
    from fairtable.protocol.testing import SelfPlay

    monkeypatch.setattr(SelfPlay, "default_version", 2)
