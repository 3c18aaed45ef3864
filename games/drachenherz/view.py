"""What a seat (or a spectator) sees of a drachenherz table, as a canonical value.

Only faces every state agrees on appear, except in ``hand`` and ``pile_top``, which show the
seat its own cards: so a seat's view is the same from its own state and from the verifier's.
"""

from __future__ import annotations

import dataclasses

from fairtable.games.drachenherz import match
from fairtable.games.drachenherz.catalogue import FIELDS
from fairtable.games.drachenherz.state import SEATS, DrachenherzState


def phase(state: DrachenherzState) -> str:
    """``start`` (who starts), ``shuffle``, ``deal`` (the opening hands), ``play``, ``give`` (a
    card back on the pile), ``draw`` (the refill), ``next`` (between games), ``over``."""
    if state.result is not None:
        return "over"
    if state.deal_result is not None:
        return "next"
    if state.turn is None:
        return "start"
    if state.decks < SEATS:
        return "shuffle"
    if state.giving is not None:
        return "give"
    if any(state.owed):
        return "draw" if state.moved else "deal"
    return "play"


def view(state: DrachenherzState, seat: int | None) -> dict:
    """What ``seat`` (None: a spectator) sees, as a canonical value for clients: public faces plus
    the seat's own hand and returned cards, so it is the same from the seat's state and the verifier's."""
    options = state.options
    kind = match.mode(options)
    own = None if seat is None else state.hands[seat]
    return {
        "seat": seat,
        "phase": phase(state),
        "turn": state.turn,
        "match": {
            "mode": kind,
            "target": None if kind == "single" else options[kind],
            "game": state.deal,
            "wins": list(state.wins),
            "totals": list(state.totals),
        },
        "players": [
            {
                "hand": len(state.hands[index]),
                "pile": len(state.piles[index]),
                "returned": sum(h in state.returned for h in state.piles[index]),
                "collected": len(state.collected[index]),
                "points": match.points(state, index),
                "dragon": state.dragon == index,
                "timeouts": state.timeouts[index],
            }
            for index in range(SEATS)
        ],
        "hand": None if own is None else [{"card": state.faces.get(h), "handle": h} for h in own],
        "pile_top": None if seat is None else [state.faces[h] for h in state.piles[seat] if h in state.returned],
        "board": {field: [state.faces[h] for h in state.board[field]] for field in FIELDS},
        "marks": state.marks,
        "left": state.left,
        "recent": [dataclasses.asdict(play) for play in state.recent],
        "game_result": None if state.deal_result is None else state.deal_result.to_value(),
        "result": None if state.result is None else state.result.to_value(),
    }
