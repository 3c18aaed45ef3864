"""Tools for testing a game on the contract, as ``trio.testing`` is for trio.

:func:`check_game` plays seeded random games of one variant through the referee and checks
everything the table session and the verifier rely on (see :mod:`fairtable.games.testing.check`);
the project runs it on every registered game and variant (``tests/games/test_contract.py``),
and a developer writing a game runs it on theirs. :func:`registered` makes a game known to
the registry for the length of a ``with`` block.

The toy games, registered only by the tests and benches that play them:

- :mod:`~fairtable.games.testing.script`: asks for whatever requests it is configured with,
  one of each kind by default (the referee's and the checker's own tests);
- :mod:`~fairtable.games.testing.counting`: decisions only, any number of seats, a match of
  any length (the node tests, the memory bench);
- :mod:`~fairtable.games.testing.probe` (hidden grids, simultaneous choices, a match),
  :mod:`~fairtable.games.testing.tricks` (teams, a kitty, shows, up to 16 seats; as variants
  ``deck`` and ``draw``, a mental deck or private draws for 2 to 4 seats) and
  :mod:`~fairtable.games.testing.blind` (owned decks, blind cards, timed choices): the
  session tests' games, whose messages ``spec/session.md`` §9 walks through.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from fairtable.games import registry
from fairtable.games.contract import Game
from fairtable.games.testing.check import Flaky, Sampling, check_game, flaky_random, plain_random
from fairtable.games.testing.counting import COUNTING, Counting

__all__ = ["COUNTING", "Counting", "Flaky", "Sampling", "check_game", "flaky_random", "plain_random", "registered"]


@contextmanager
def registered(game: Game) -> Iterator[Game]:
    """``game`` registered (under its id) inside the block, unregistered after it, so a test's
    own game is never seen by another test or a listing of games."""
    registry.register(game)
    try:
        yield game
    finally:
        registry.unregister(game.id)
