"""Bots any game can use, and the lookup of a game's own heuristic bot."""

from __future__ import annotations

import importlib
from typing import Any

from games.contract import Game
from games.referee import Bot, Rng


class RandomBot:
    """Plays a uniformly random legal move."""

    def __init__(self, rng: Rng) -> None:
        self.rng = rng

    def choose(self, game: Game, state: Any, seat: int) -> Any:
        moves = game.legal_moves(state, seat)
        return moves[self.rng.randrange(len(moves))]


def heuristic(game: Game, rng: Rng) -> Bot:
    """The game's own ``games.<id>.bots.GreedyBot`` if it has one, else a :class:`RandomBot`."""
    try:
        module = importlib.import_module(f"games.{game.id}.bots")
    except ModuleNotFoundError:
        return RandomBot(rng)
    return module.GreedyBot()
