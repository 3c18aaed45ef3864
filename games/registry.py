"""Games by id: the one place the session, node and verifier look a game up."""

from __future__ import annotations

from fairtable.games.contract import Game, OptionsError

_GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    if game.id in _GAMES:
        raise ValueError(f"game id {game.id!r} registered twice")
    _GAMES[game.id] = game
    return game


def unregister(game_id: str) -> None:
    """Remove a game registered at run time (a plugin unloading, a test's own toy game)."""
    _GAMES.pop(game_id, None)


def get(game_id: str) -> Game:
    _load_builtin()
    try:
        return _GAMES[game_id]
    except KeyError:
        raise OptionsError(f"unknown game {game_id!r}; known games: {', '.join(sorted(_GAMES))}") from None


def ids() -> tuple[str, ...]:
    _load_builtin()
    return tuple(sorted(_GAMES))


def _load_builtin() -> None:
    """Import the bundled games; each registers itself on import."""
    import fairtable.games.drachenherz
    import fairtable.games.duel
    import fairtable.games.shengji
    import fairtable.games.towers
    import fairtable.games.zeeslag  # noqa: F401
