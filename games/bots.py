"""Bots any game can use, and the lookup of a game's own bots."""

from __future__ import annotations

import importlib
import inspect
from types import ModuleType
from typing import Any

from fairtable.games.contract import CommitHidden, Game
from fairtable.games.referee import Bot, Rng, hidden_data


class RandomBot:
    """Plays a uniformly random legal move."""

    def __init__(self, rng: Rng) -> None:
        self.rng = rng

    def choose(self, game: Game, state: Any, seat: int) -> Any:
        moves = game.legal_moves(state, seat)
        return moves[self.rng.randrange(len(moves))]


def _own_bots(game: Game) -> ModuleType | None:
    try:
        return importlib.import_module(f"fairtable.games.{game.id}.bots")
    except ModuleNotFoundError:
        return None


def random_bot(game: Game, rng: Rng) -> Bot:
    """The game's own ``games.<id>.bots.RandomBot`` if it has one (a game with hidden data
    needs one that also commits), else a :class:`RandomBot`."""
    return getattr(_own_bots(game), "RandomBot", RandomBot)(rng)


def heuristic(game: Game, rng: Rng) -> Bot:
    """The game's own ``games.<id>.bots.GreedyBot`` if it has one (given ``rng`` if it takes
    one), else a :class:`RandomBot`."""
    greedy = getattr(_own_bots(game), "GreedyBot", None)
    if greedy is None:
        return RandomBot(rng)
    return greedy(rng) if "rng" in inspect.signature(greedy).parameters else greedy()


def decision(bot: Bot, game: Game, state: Any, seat: int) -> Any:
    """The bot's answer to whatever ``seat`` must decide: its hidden data for a
    :class:`~games.contract.CommitHidden`, otherwise a move or a simultaneous choice."""
    request = game.pending(state)
    if isinstance(request, CommitHidden):
        return hidden_data(bot, game, state, seat, request)
    return bot.choose(game, state, seat)
