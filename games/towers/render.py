"""Plain-text rendering of a towers view (``Towers.view``) for the terminal client."""

from __future__ import annotations

from fairtable.games.towers.catalogue import BATTLEFIELDS, CARDS
from fairtable.games.towers.effects import PRODUCERS, RESOURCES

ROWS = (("tower", "Tower"), ("wall", "Wall")) + tuple(
    (resource, f"{resource.capitalize()} (+{producer})") for resource, producer in zip(RESOURCES, PRODUCERS)
)


def card_line(card_id: int) -> str:
    card = CARDS[card_id]
    return f"{card.name} ({card.name_en}), {card.cost} {card.resource}: {card.text}"


def move_line(view: dict, move: dict) -> str:
    """A legal move in words, e.g. ``play [12] Pūķis (Dragon), ...``, its card named from the hand."""
    kind = "play" if "play" in move else "discard"
    handle = move[kind]
    card = next((entry["card"] for entry in view["hand"] or () if entry["handle"] == handle), None)
    return f"{kind} [{handle}] " + ("?" if card is None else card_line(card))


def describe_move(before: dict, move: dict, after: dict) -> str:
    """A move as a transcript lists it, e.g. ``play Pūķis (Dragon)``; ``before`` is the mover's view."""
    kind = "play" if "play" in move else "discard"
    card = next((entry["card"] for entry in before["hand"] or () if entry["handle"] == move[kind]), None)
    name = "an unknown card" if card is None else f"{CARDS[card].name} ({CARDS[card].name_en})"
    return f"{kind} {name}" + (" (timeout)" if move.get("timeout") else "")


def render(view: dict) -> str:
    """The board, the seat's hand, the last cards and whose turn it is, as lines of text."""
    seat = view["seat"]
    field = BATTLEFIELDS[view["battlefield"]]
    victory = view["victory"]
    players = view["players"]
    names = [f"seat {index}" if seat is None else "you" if index == seat else "enemy" for index in range(len(players))]
    lines = [
        f"{field.name} ({field.name_en}): win at tower {victory['tower']} or a resource at {victory['resource']}, "
        f"{view['variant']} deck" + ("" if view["deck"] is None else f", {view['deck']} in deck, {view['discard']} discarded"),
        f"{'':<18}" + "".join(f"{name if seat is None else f'{name} (seat {index})':>18}" for index, name in enumerate(names)),
    ]
    for key, label in ROWS:
        lines.append(f"{label:<18}" + "".join(f"{_cell(player, key):>18}" for player in players))
    lines.append(f"{'Cards in hand':<18}" + "".join(f"{player['cards']:>18}" for player in players))
    if view["hand"] is not None:
        lines.append("Your hand:")
        lines.extend(f"  [{entry['handle']}] " + ("?" if entry["card"] is None else card_line(entry["card"])) for entry in view["hand"])
    if view["recent"]:
        lines.append("Last cards:")
        for action in view["recent"]:
            verb = "played" if action["played"] else "discarded (timeout)" if action["timeout"] else "discarded"
            lines.append(f"  {names[action['seat']]} {verb} {card_line(action['card'])}")
    lines.append(_status(view, names))
    return "\n".join(lines)


def _cell(player: dict, key: str) -> str:
    index = RESOURCES.index(key) if key in RESOURCES else None
    return str(player[key]) if index is None else f"{player[key]} (+{player[PRODUCERS[index]]})"


def _status(view: dict, names: list[str]) -> str:
    result = view["result"]
    if result is not None:
        winners = result["winners"]
        return f"Game over ({result['reason']}): " + ("draw" if not winners else f"{names[winners[0]]} won")
    if view["turn"] is None:
        return "Waiting for the start."
    turn = view["turn"]
    doing = "discard a card" if view["phase"] == "discard" else "play or discard a card"
    timeouts = view["players"][turn]["timeouts"]
    late = f" ({timeouts} timeouts in a row)" if timeouts else ""
    return f"Your turn: {doing}{late}." if turn == view["seat"] else f"Turn of {names[turn]}: {doing}{late}."
