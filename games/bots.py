"""Bots any game can use, and the bots a game declares (``Game.bots``: ``"random"``, ``"greedy"``)."""

from __future__ import annotations

from typing import Any

from fairtable.games.contract import Bot, CommitHidden, Game, GameError, Request, Rng, ShuffleOwned


class RandomBot:
    """Plays a uniformly random legal move; its hidden data is the game's ``random_hidden``."""

    def __init__(self, rng: Rng) -> None:
        self.rng = rng

    def choose(self, game: Game, state: Any, seat: int) -> Any:
        """Any legal move, drawn from the bot's ``rng``."""
        moves = game.legal_moves(state, seat)
        return moves[self.rng.randrange(len(moves))]

    def commit(self, game: Game, state: Any, seat: int, request: Request) -> Any:
        """Random legal hidden data or a random legal owned deck, as the game draws them."""
        return game.random_hidden(state, seat, request, self.rng)


def make(game: Game, kind: str, rng: Rng) -> Bot:
    """The game's bot named ``kind``; ``random`` is :class:`RandomBot` unless the game declares its own."""
    factory = game.bots.get(kind, RandomBot if kind == "random" else None)
    if factory is None:
        raise GameError(f"{game.id} has no bot {kind!r}; its bots are: {', '.join(game.bot_names())}")
    return factory(rng)


def random_bot(game: Game, rng: Rng) -> Bot:
    """The game's random bot (any legal move, drawn from ``rng``): the baseline every game ships."""
    return make(game, "random", rng)


def heuristic(game: Game, rng: Rng) -> Bot:
    """The game's ``greedy`` bot if it declares one, else a :class:`RandomBot`."""
    return make(game, "greedy" if "greedy" in game.bots else "random", rng)


def decision(bot: Bot, game: Game, state: Any, seat: int) -> Any:
    """The bot's answer to whatever ``seat`` must decide: its hidden data for a
    :class:`~games.contract.CommitHidden` or its composition for a
    :class:`~games.contract.ShuffleOwned`, otherwise a move or a simultaneous choice."""
    request = game.pending(state)
    if isinstance(request, (CommitHidden, ShuffleOwned)):
        commit = getattr(bot, "commit", None)
        if commit is None:
            raise GameError(f"bot {type(bot).__name__} cannot choose hidden data")
        return commit(game, state, seat, request)
    return bot.choose(game, state, seat)
