"""Duel moves as canonical values, and the one parser every rule and client goes through.

``{"pick": card}`` takes a card from the draft pool; ``{"attack": handle}`` plays a hand card
to attack (in a free-for-all with ``"target": seat``); ``{"defend": handle}`` answers it. The
turn timer's move carries ``"timeout": true``, which the rules' base strips before this parser.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fairtable.games.contract import RuleError

KINDS = ("pick", "attack", "defend")


def _integer(value: Any) -> bool:
    return type(value) is int


def parse_move(move: Any) -> tuple[str, int, int | None]:
    """``(kind, card or handle, target)`` of a move (without the timer's marker), or :class:`RuleError` ``duel.move``."""
    if isinstance(move, Mapping):
        kinds = [kind for kind in KINDS if kind in move]
        extra = set(move) - {*kinds, "target"}
        if len(kinds) == 1 and not extra and _integer(move[kinds[0]]):
            kind = kinds[0]
            target = move.get("target")
            if ("target" not in move) or (kind == "attack" and _integer(target)):
                return kind, move[kind], target
    raise RuleError("duel.move", "a move is {'pick': card}, {'attack': handle} (with 'target': seat in a free-for-all), "
                                 f"or {{'defend': handle}}, maybe with 'timeout': true; got {move!r}", "move")
