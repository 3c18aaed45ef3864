"""Table updates at a chosen moment of a real game, made deterministically for the board tests.

A whole game is played by random bots under the local referee in lockstep (every seat's own
state kept beside the full one); seat 0's events are then replayed up to its ``nth`` decision,
(decisions the node answers itself not counted), so the view, legal moves and decision are exactly what seat 0's node would send its client
there (nothing a seat may not know).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable
from typing import Any

from fairtable.games import final_standing, referee, registry, seated
from fairtable.games.bots import make
from fairtable.games.contract import CommitHidden, Decide, Forfeit, ShuffleOwned, Simultaneous
from fairtable.games.drachenherz.catalogue import CARDS as DH_CARDS
from fairtable.games.drachenherz.catalogue import kind_of
from fairtable.node.api.ops import fields_of
from fairtable.node.service import TableUpdate
from fairtable.node.table.decisions import decision_words

NAMES = ("alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi")
KINDS = ((Decide, "move"), (Simultaneous, "choice"), (CommitHidden, "hidden"), (ShuffleOwned, "deck"))


def decision_of(request: Any) -> str | None:
    """What seat 0 must decide at ``request``, in the client API's words, or None."""
    seats = {Decide: lambda r: (r.seat,), Simultaneous: lambda r: r.seats, CommitHidden: lambda r: r.seats,
             ShuffleOwned: lambda r: (r.owner,)}
    for kind, word in KINDS:
        if isinstance(request, kind) and 0 in seats[kind](request):
            return word
    return None


def forced(game: Any, state: Any) -> bool:
    """A decision with one legal move, which the node answers itself (a zeeslag sink answer)."""
    return decision_of(game.pending(state)) == "move" and len(game.legal_moves(state, 0)) == 1


def table_at(game_id: str, variant: str, seats: int, seed: int, nth: int = 0, events: int | None = None,
             bot: Callable[[random.Random], Any] | None = None, where: Callable[[Any, Any], bool] | None = None,
             forfeit: str | None = None, spectator: bool = False, **options: Any) -> dict:
    """Seat 0's ``table`` event at its ``nth`` decision (counted from 0) of a seeded game, or
    after its first ``events`` events (a moment it decides nothing: blind play, say), or at its
    first decision in a state ``where(game, state)`` holds; seat 0 played by ``bot`` (made from
    its random generator) instead of a random one. With ``forfeit`` (``resigned``, ``absent``)
    seat 0 leaves the game there for that reason: the finished table it sees. With ``spectator``, the
    event of a node watching the table at that moment instead (the spectator's view, no seat, no moves)."""
    game = registry.get(game_id)
    chosen = game.options_of(game.setup(variant, options, seats))
    bots = [(bot if bot is not None and seat == 0 else lambda rng: make(game, "random", rng))(random.Random(seed * 10 + seat))
            for seat in range(seats)]
    played = referee.play(game, variant, options, bots, random.Random(seed), lockstep=True)
    state, count = game.setup(variant, options, seats), -1
    for index, event in enumerate(played.seat_events[0]):
        if index == events:
            break
        if events is None and decision_of(game.pending(state)) is not None and not forced(game, state):
            count += 1
            if (count == nth and where is None) or (where is not None and where(game, state)):
                break
        state = game.apply(state, event)
    else:
        raise AssertionError(f"seat 0 decides fewer than {nth + 1} times")
    if forfeit is not None:
        state = game.apply(state, Forfeit(0, forfeit))
    request = game.pending(state)
    seat = None if spectator else 0
    decision = None if spectator else decision_of(request)
    legal = () if spectator else game.legal_moves(state, 0)
    renderer = game.renderer
    assert renderer is not None
    view = game.view(state, seat)
    timer = dict(chosen).get("turn_seconds", 0)
    result = getattr(state, "result", None)
    with seated(NAMES[:seats]):  # the game's words name the players, as the node renders them
        text, move_texts = renderer.render(view), tuple(renderer.move_line(view, move) for move in legal)
        standing = None if result is None else final_standing(renderer, view, result)
        prompt, unplayable = decision_words(game, state, 0) if decision is not None else (None, ())
    update = fields_of(TableUpdate("lobby1", "ab" * 32, game_id, variant, seat, NAMES[:seats], "playing" if result is None else "finished",
                                   view, legal, your_turn=decision is not None, decision=decision,
                                   result=None if result is None else result.to_value(), text=text, move_texts=move_texts,
                                   standing=standing, prompt=prompt, unplayable=unplayable, watching=spectator))
    update["clock"] = {"seat": 0, "seconds": 42} if timer and decision is not None else None
    update["clocks"] = None if not timer else [
        {"grace": 30.0, "running": seat == 0 and decision is not None, "seat": seat,
         "turn": 42.0 if seat == 0 and decision is not None else float(timer)} for seat in range(seats)]
    return update


def dh_label(face: int) -> Hashable:
    """What makes two drachenherz cards the same play: kind and value."""
    return kind_of(face).id, DH_CARDS[face].value


def dh_played(move: Any) -> list[int]:
    return list(move["play"])


def sj_played(move: Any) -> list[int]:
    value = next((move[kind] for kind in ("declare", "bury", "lead", "play") if kind in move), [])
    return value if isinstance(value, list) else [value]


COPIES: dict[str, tuple[int, Callable[[int], Hashable], Callable[[Any], list[int]], dict[str, Any]]] = {
    "drachenherz": (2, dh_label, dh_played, {"turn_seconds": 0}),
    "shengji": (4, lambda face: face, sj_played, {"turn_seconds": 0, "deals": 1}),
}
"""Per card game whose legal moves name one of identical cards: seats, what makes cards identical,
the hand cards a move lays, the options of its seeded tables."""


def unlisted_copy(update: dict, game: str) -> int | None:
    """The hand index of a card that no legal move lays, though one lays an identical card alone."""
    _, label, played, _ = COPIES[game]
    hand = update["view"]["hand"] or []
    laid = {handle for move in update["legal_moves"] for handle in played(move)}
    alone = {played(move)[0] for move in update["legal_moves"] if len(played(move)) == 1}
    for index, entry in enumerate(hand):
        twins = [other for other in hand if other["handle"] != entry["handle"] and label(other["card"]) == label(entry["card"])]
        if entry["handle"] not in laid and any(other["handle"] in alone for other in twins):
            return index
    return None


def table_with_copy(game: str) -> tuple[dict, int]:
    """The first seeded table where seat 0 must move holding an unlisted copy of a listed card, and that copy's index."""
    seats, _, _, options = COPIES[game]
    for seed in range(1, 30):
        for nth in range(12):
            try:
                update = table_at(game, "standard", seats, seed=seed, nth=nth, **options)
            except AssertionError:  # the game ended before
                break
            if update["decision"] == "move" and (index := unlisted_copy(update, game)) is not None:
                return update, index
    raise AssertionError(f"no seeded {game} table has an unlisted copy of a hand card")
