"""What each seat of a shengji table may see (``Game.view``), as a canonical value.

A seat sees its own hand (sorted by effective suit and strength), the kitty and the buried
cards if it deals, and what everyone sees: declared cards, played cards, counts, points and
levels. Nothing here depends on a face the seat may not know, so every node computes the
same view of a seat as the verifier does.
"""

from __future__ import annotations

from fairtable.games.contract import Handle
from fairtable.games.shengji.catalogue import SEATS, SUITS
from fairtable.games.shengji.state import TEAMS, Play, ShengjiState

AFTER_TRUMP = ("bury", "play", "buried", "done")


def _faces(state: ShengjiState, handles: tuple[Handle, ...]) -> list[int | None]:
    """The faces of ``handles``, None for one this state does not know (another seat's kitty,
    seen from a seat that is not the dealer: a node telling the game from its own knowledge)."""
    return [state.faces.get(handle) for handle in handles]


def _plays(state: ShengjiState, plays: tuple[Play, ...]) -> list[dict]:
    return [{"cards": _faces(state, play.handles), "seat": play.seat} for play in plays]


def view(state: ShengjiState, seat: int | None) -> dict:
    """The fields are documented in spec/games.md (shengji, View)."""
    order = state.order
    dealer = state.dealer
    kitty_public = state.declaration is None and state.step in AFTER_TRUMP
    own_kitty = seat is not None and seat == dealer and state.step not in ("start", "shuffle", "deal", "declare", "kitty")
    buried_public = state.step == "done"
    hand = None
    if seat is not None:
        ordered = sorted(state.hands[seat], key=lambda h: (*order.sort_key(state.faces[h]), h) if h in state.faces else (9, 0, 0, h))
        hand = [{"card": state.faces.get(h), "handle": h} for h in ordered]
    trump = state.standing_trump
    decl = state.declaration
    return {
        "attackers": state.attackers,
        "bonus": state.bonus,
        "buried": _faces(state, state.buried) if (own_kitty or buried_public) else len(state.buried),
        "cards": [len(hand_) for hand_ in state.hands],
        "deal": state.deal,
        "deal_result": None if state.deal_result is None else state.deal_result.to_value(),
        "dealer": dealer,
        "declaration": None if decl is None else {"cards": _faces(state, decl.handles), "seat": decl.seat, "strength": decl.strength},
        "hand": hand,
        "kitty": _faces(state, state.kitty) if state.kitty and (own_kitty or kitty_public) else len(state.kitty),
        "last": None if state.last is None else {"plays": _plays(state, state.last.plays), "winner": state.last.winner},
        "level": state.level,
        "levels": list(state.levels),
        "need": len(state.trick[0].handles) if state.trick else None,
        "options": {"deals": state.options["deals"], "start": state.options["start"], "target": state.options["target"]},
        "passes": state.passes,
        "points": list(state.points),
        "result": None if state.result is None else state.result.to_value(),
        "seat": seat,
        "seats": SEATS,
        "starter": state.starter,
        "step": "over" if state.result is not None else state.step,
        "teams": [list(team) for team in TEAMS],
        "timeouts": list(state.timeouts),
        "trick": _plays(state, state.trick),
        "tricks": state.tricks,
        "trump": None if trump is None else SUITS[trump],
        "trump_fixed": state.step in AFTER_TRUMP,
        "turn": state.turn if state.step in ("declare", "bury", "play") and state.result is None else None,
    }
