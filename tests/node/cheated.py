"""A towers transcript with a planted cheat: a seat, signing with its own key, plays a card it
cannot afford. Shared by the export and replay viewer tests."""

from __future__ import annotations

from dataclasses import dataclass

from fairtable.games.towers.catalogue import CARDS
from fairtable.games.towers.game import affordable
from tests.protocol.session.tables import file_bytes, play_until, slot_is, towers

MOVES_BEFORE = 4


@dataclass(frozen=True)
class Cheat:
    transcript: bytes
    index: int
    """The envelope index of the cheating move."""
    seat: int
    moves: int
    """Moves made before the cheat."""
    rule: str = "towers.cost"


def unaffordable_play(seed: bytes = b"seed") -> Cheat:
    table = towers(seed)

    def can_cheat(t) -> bool:
        if not slot_is("move")(t) or sum(envelope.kind == "move" for envelope in t.sessions[0].envelopes) < MOVES_BEFORE:
            return False
        seat = t.sessions[0].slot.seat
        state = t.sessions[seat].state
        return any(not affordable(CARDS[state.faces[h]], state.sides[seat]) for h in state.hands[seat])

    play_until(table, can_cheat)
    seat = table.sessions[0].slot.seat
    own = table.sessions[seat]
    handle = next(h for h in own.state.hands[seat] if not affordable(CARDS[own.state.faces[h]], own.state.sides[seat]))
    envelope = table.seal(seat, "move", own.run.move_body(seat, {"play": handle}, (handle,)))
    moves = sum(envelope.kind == "move" for envelope in table.sessions[0].envelopes)
    return Cheat(file_bytes(table, [envelope]), envelope.seq, seat, moves)
