"""Explicit towers positions for tests: states built by hand, not by playing."""

from __future__ import annotations

import dataclasses

from fairtable.games.contract import Move
from fairtable.games.registry import get
from fairtable.games.towers.effects import Side
from fairtable.games.towers.state import TowersState

GAME = get("towers")

# Seat 0 ("me") and seat 1 ("enemy"): me has more mines, a higher wall, a lower tower,
# fewer monasteries and more barracks than the enemy; the enemy wall is 8.
ME = dict(tower=20, wall=10, ore=30, mana=30, soldiers=30, mines=3, monasteries=3, barracks=3)
ENEMY = dict(tower=25, wall=8, ore=20, mana=20, soldiers=20, mines=2, monasteries=4, barracks=2)
FILLER = 7  # Parasts mūris, the rest of the hand
HAND = (100, 101, 102, 103, 104, 105)
ENEMY_HAND = (200, 201, 202, 203, 204, 205)


def position(
    hand_faces: tuple[int, ...] = (FILLER,) * 6,
    me: dict | None = None,
    enemy: dict | None = None,
    variant: str = "normal",
    options: dict | None = None,
    deck: tuple[int, ...] = tuple(range(300, 340)),
    discard: tuple[int, ...] = (),
    **fields,
) -> TowersState:
    """Seat 0 to play, its hand's faces known (and nothing else), the sides as given."""
    base = GAME.setup(variant, options or {}, 2)
    return dataclasses.replace(
        base,
        sides=(Side(**{**ME, **(me or {})}), Side(**{**ENEMY, **(enemy or {})})),
        hands=(HAND[: len(hand_faces)], ENEMY_HAND),
        deck=deck if variant == "normal" else (),
        discard=discard if variant == "normal" else (),
        faces=dict(zip(HAND, hand_faces)),
        next_handle=400,
        owed=(0, 0),
        turn=0,
        **fields,
    )


def play(state: TowersState, handle: int, seat: int = 0) -> TowersState:
    return GAME.apply(state, Move(seat, {"play": handle}, {handle: state.faces[handle]}))


def discard(state: TowersState, handle: int, face: int | None = None, seat: int = 0, timeout: bool = False) -> TowersState:
    move = {"discard": handle, "timeout": True} if timeout else {"discard": handle}
    return GAME.apply(state, Move(seat, move, {handle: state.faces[handle] if face is None else face}))
