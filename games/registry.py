"""Games by id: the one place the session, node and verifier look a game up."""

from __future__ import annotations

from fairtable.games.contract import Game, OptionsError

_GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    """Make ``game`` known by its id; each game package calls it on import. Raises
    ``ValueError`` for an id taken already, so two games never answer to one name."""
    if game.id in _GAMES:
        raise ValueError(f"game id {game.id!r} registered twice")
    _GAMES[game.id] = game
    return game


def unregister(game_id: str) -> None:
    """Remove a game registered at run time (a plugin unloading, a test's own toy game)."""
    _GAMES.pop(game_id, None)


def get(game_id: str) -> Game:
    """The game with id ``game_id``; raises :class:`OptionsError` naming the known ids, since the id
    comes from a genesis, a user or a file."""
    _load_builtin()
    try:
        return _GAMES[game_id]
    except KeyError:
        raise OptionsError(f"unknown game {game_id!r}; known games: {', '.join(sorted(_GAMES))}") from None


def ids() -> tuple[str, ...]:
    """Every known game id, sorted: what a client lists and an error names."""
    _load_builtin()
    return tuple(sorted(_GAMES))


def _load_builtin() -> None:
    """Import the bundled games; each registers itself on import."""
    import fairtable.games.drachenherz
    import fairtable.games.duel
    import fairtable.games.shengji
    import fairtable.games.towers
    import fairtable.games.zeeslag  # noqa: F401
