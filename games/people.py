"""Players in words: the names in the table's genesis, ``you`` for oneself, never a seat number.

Who sits where is a setting of whoever prints, like the language (:mod:`~fairtable.games.lang`):
the node rendering a seat's board, ``export``, a client drawing a game's text. It is held in a
context variable (:func:`seated`), so the renderers' signatures in the game contract stay as
they are. Without names (a bare renderer call, a test) a seat is ``seat n``: the one place a
seat number is still printed.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar

YOU = "you"
"""What a person reads for their own seat."""

_NAMES: ContextVar[tuple[str, ...]] = ContextVar("fairtable_names", default=())


def distinct(names: Sequence[str]) -> tuple[str, ...]:
    """``names`` with repeats told apart in seat order (``bot``, ``bot #2``): a person must never
    confuse two players, and two nodes may well be called alike."""
    seen: dict[str, int] = {}
    result = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        result.append(name if seen[name] == 1 else f"{name} #{seen[name]}")
    return tuple(result)


@contextmanager
def seated(names: Sequence[str]) -> Iterator[None]:
    """Name the seats by ``names`` (the genesis's, in seat order) inside the ``with`` block."""
    token = _NAMES.set(distinct(names))
    try:
        yield
    finally:
        _NAMES.reset(token)


def player(seat: int, me: int | None = None, names: Sequence[str] | None = None) -> str:
    """``seat`` in words: :data:`YOU` for ``me``, else its name (from ``names``, else the ones
    :func:`seated` set), else ``seat n``."""
    if seat == me:
        return YOU
    known = distinct(names) if names is not None else _NAMES.get()
    return known[seat] if 0 <= seat < len(known) else f"seat {seat}"


def players(seats: Sequence[int], me: int | None = None, names: Sequence[str] | None = None) -> str:
    """Several seats in words, e.g. ``alice and you``."""
    said = [player(seat, me, names) for seat in seats]
    return said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1] if said else "nobody"
