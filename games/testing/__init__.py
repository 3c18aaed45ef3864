"""Tools for testing a game on the contract, as ``trio.testing`` is for trio.

:func:`check_game` plays seeded random games of one variant through the referee and checks
everything the table session and the verifier rely on (see :mod:`fairtable.games.testing.check`);
the project runs it on every registered game and variant (``tests/games/test_contract.py``),
and a developer writing a game runs it on theirs. :func:`registered` makes a game known to
the registry for the length of a ``with`` block.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from fairtable.games import registry
from fairtable.games.contract import Game
from fairtable.games.testing.check import Flaky, Sampling, check_game, flaky_random, plain_random

__all__ = ["Flaky", "Sampling", "check_game", "flaky_random", "plain_random", "registered"]


@contextmanager
def registered(game: Game) -> Iterator[Game]:
    """``game`` registered (under its id) inside the block, unregistered after it, so a test's
    own game is never seen by another test or a listing of games."""
    registry.register(game)
    try:
        yield game
    finally:
        registry.unregister(game.id)
