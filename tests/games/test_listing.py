"""Every game's move listing is exactly what its ``apply`` accepts, on states sampled from random
playouts of every registered game and variant.

Both directions: (a) every listed move is accepted; (b) every candidate the listing leaves out is
refused with a :class:`RuleError`. Candidates are drawn broadly from each game's move space
(every sub-multiset of a hand up to the play size, every handle, every cell and ability, every
``take``), so a move the listing forgets is found, as the shengji tractor that chains the top
plain trump to an off-suit level pair was.

Identical copies are one move: two cards of one face (shengji), or of one kind and value
(drachenherz), are interchangeable, and the listing names one handle of them. So a candidate
counts as listed when a listed move has the same *key*: its kind, its cards' faces as a
multiset, and its other fields.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from fairtable.games import referee, registry
from fairtable.games.bots import make
from fairtable.games.contract import Decide, Game, Move, RuleError
from fairtable.games.drachenherz.catalogue import CARDS as DRACHENHERZ_CARDS
from fairtable.games.drachenherz.catalogue import FIELDS
from fairtable.games.zeeslag.abilities import beam_path
from fairtable.games.zeeslag.sea import FIELD
from fairtable.games.zeeslag.starships import ABILITIES

SAMPLES = 80
"""States sampled per game and variant."""


class Recorder:
    """Plays as the game's random bot and keeps every state it decided in (full knowledge)."""

    def __init__(self, inner: Any, seen: list) -> None:
        self.inner, self.seen = inner, seen

    def choose(self, game: Game, state: Any, seat: int) -> Any:
        if isinstance(game.pending(state), Decide):
            self.seen.append((state, seat))
        return self.inner.choose(game, state, seat)

    def commit(self, game: Game, state: Any, seat: int, request: Any) -> Any:
        return self.inner.commit(game, state, seat, request)


def tables() -> Iterator[tuple[str, str, int, dict]]:
    """Every registered game and variant at its fewest seats (and three for zeeslag's duel variant:
    its two-seat endgame after salvos); short matches."""
    short = {"shengji": {"deals": 1}, "duel": {}, "drachenherz": {}, "towers": {}, "zeeslag": {}}
    for game_id in registry.ids():
        game = registry.get(game_id)
        for variant in game.variants:
            low, _ = game.seat_range(variant)
            yield game_id, variant, low, short.get(game_id, {})


def sampled(game_id: str, variant: str, seats: int, options: dict, seed: int) -> list[tuple[Any, int]]:
    game = registry.get(game_id)
    seen: list[tuple[Any, int]] = []
    rng = random.Random(seed)
    bots = [Recorder(make(game, "random", random.Random(seed * 10 + seat)), seen) for seat in range(seats)]
    referee.play(game, variant, options, bots, rng)
    picks = random.Random(seed).sample(range(len(seen)), min(SAMPLES, len(seen)))
    return [seen[index] for index in sorted(picks)]


def faces_of(state: Any) -> dict[int, int]:
    return getattr(state, "faces", {})


def accepts(game: Game, state: Any, seat: int, move: Any) -> bool:
    shown = game.reveals(state, move)
    faces = faces_of(state)
    try:
        game.apply(state, Move(seat, move, {h: faces[h] for h in shown if h in faces}))
    except RuleError:
        return False
    return True


# ------------------------------------------------------------------ each game's move space and keys


def hand_of(game_id: str, state: Any, seat: int) -> tuple[int, ...]:
    if game_id == "duel":
        return tuple(state.players[seat].hand)
    return tuple(state.hands[seat])


def card_key(game_id: str, state: Any, handle: int) -> Any:
    """What makes two cards the same card for a move: the face, or drachenherz's kind and value."""
    face = faces_of(state).get(handle, ("handle", handle))
    if game_id == "drachenherz" and isinstance(face, int):
        card = DRACHENHERZ_CARDS[face]
        return (card.kind, card.value)
    if game_id == "shengji" and isinstance(face, int):
        declared = state.declaration.handles if state.declaration else ()
        return (face, handle in declared or (state.declaration is None and handle in state.kitty))
    return face


def key(game_id: str, state: Any, move: Any) -> Any:
    """A move with its handles replaced by their cards' keys (as a multiset where order is free)."""
    if game_id not in ("shengji", "drachenherz"):
        return repr(move)
    parts = []
    for name, value in sorted(move.items()):
        handles = value if isinstance(value, list) else [value] if name in ("bury", "play") and type(value) is int else None
        if handles is None:
            parts.append((name, repr(value)))
        else:
            parts.append((name, tuple(sorted(map(repr, (card_key(game_id, state, h) for h in handles))))))
    return tuple(parts)


def shengji_candidates(state: Any, seat: int, rng: random.Random) -> Iterator[Any]:
    hand = list(state.hands[seat])
    if state.step == "declare":
        yield {"pass": True}
        for size in (1, 2, 3):
            for chosen in itertools.combinations(hand, size):
                yield {"declare": list(chosen)}
        return
    if state.step == "bury":
        yield from ({"bury": h} for h in hand)
        return
    if state.trick:
        yield from ({"play": h} for h in hand)
        return
    by_face: dict[int, list[int]] = {}
    for handle in hand:
        by_face.setdefault(state.faces[handle], []).append(handle)
    yield from ({"lead": [h]} for h in hand)
    doubles = [handles for handles in by_face.values() if len(handles) == 2]
    for size in (1, 2, 3):
        for chosen in itertools.combinations(doubles, size):
            yield {"lead": [h for pair in chosen for h in pair]}
    for _ in range(200):
        yield {"lead": rng.sample(hand, rng.randrange(2, min(8, len(hand)) + 1))}


def drachenherz_candidates(state: Any, seat: int, rng: random.Random) -> Iterator[Any]:
    hand = sorted(state.hands[seat])
    for size in range(len(hand) + 1):
        for chosen in itertools.combinations(hand, size):
            yield {"play": list(chosen)}
            if chosen:
                yield from ({"play": list(chosen), "take": field} for field in FIELDS)


def duel_candidates(state: Any, seat: int, rng: random.Random) -> Iterator[Any]:
    if state.step == "draft":
        yield from ({"pick": card} for card in range(110))
        return
    handles = sorted({*state.players[seat].hand, *range(max(state.players[seat].hand, default=0) + 3)})
    kind = "defend" if state.step == "defend" else "attack"
    for handle in handles:
        yield {kind: handle}
        if kind == "attack":
            yield from ({kind: handle, "target": target} for target in range(state.seats + 1))


def towers_candidates(state: Any, seat: int, rng: random.Random) -> Iterator[Any]:
    for handle in (*state.hands[seat], max(state.hands[seat], default=0) + 1):
        yield {"play": handle}
        yield {"discard": handle}


def zeeslag_candidates(state: Any, seat: int, rng: random.Random) -> Iterator[Any]:
    if state.stage == "muster":
        yield from ({"ships": count} for count in range(0, 17))
        return
    if state.stage == "answer":
        yield {"sunk": []}  # the one true answer is listed; each other lie has its own cheat test
        return
    if state.stage == "beam":
        task = state.tasks[0]
        yield from ({"beam": cell} for cell in (-1, *beam_path(FIELD, task.cell)))
        return
    size = len(state.boards) * 200 if state.variant == "space" else len(state.seas) * 100
    yield {"pass": True}
    for cell in range(-1, size + 1):
        yield {"shoot": cell}
        if state.variant == "space":
            yield from ({name: cell} for name in ABILITIES if name != "reserve")
    yield {"reserve": True}


CANDIDATES: dict[str, Callable[[Any, int, random.Random], Iterator[Any]]] = {
    "shengji": shengji_candidates,
    "drachenherz": drachenherz_candidates,
    "duel": duel_candidates,
    "towers": towers_candidates,
    "zeeslag": zeeslag_candidates,
}


def check_listing(game_id: str, state: Any, seat: int, rng: random.Random) -> None:
    """Every listed move of ``seat`` is accepted; every candidate with no listed move of its key is refused."""
    game = registry.get(game_id)
    listed = game.legal_moves(state, seat)
    refused = [move for move in listed if not accepts(game, state, seat, move)]
    assert not refused, f"{game_id}: listed but refused: {refused[:3]}"
    keys = {key(game_id, state, move) for move in listed}
    for candidate in CANDIDATES[game_id](state, seat, rng):
        if key(game_id, state, candidate) not in keys:
            assert not accepts(game, state, seat, candidate), f"{game_id}: accepted but not listed: {candidate}"


@pytest.mark.parametrize("game_id, variant, seats, options", list(tables()), ids=lambda value: str(value))
def test_the_listing_is_exactly_what_apply_accepts(game_id, variant, seats, options):
    """A variant without decisions (duel's blind play) samples none and passes at once."""
    rng = random.Random(27)
    for state, seat in sampled(game_id, variant, seats, options, seed=27):
        check_listing(game_id, state, seat, rng)
