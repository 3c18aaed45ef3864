"""Plain-text rendering of a towers view (``Towers.view``) for the terminal client."""

from __future__ import annotations

from fairtable.games.lang import choose, messages, named, term
from fairtable.games.people import player
from fairtable.games.results import reason_words
from fairtable.games.towers.catalogue import BATTLEFIELDS, CARDS, Card
from fairtable.games.towers.effects import PRODUCERS, RESOURCES, Change, Damage, Equalize, If, Steal, Step, Swap

ROWS = (("tower", "Tower"), ("wall", "Wall")) + tuple(
    (resource, f"{resource.capitalize()} (+{producer})") for resource, producer in zip(RESOURCES, PRODUCERS)
)


WHOSE = {"self": "your", "enemy": "enemy", "all": "every", "lower_wall": "the lower wall's"}
CHANGED = {"enemy": "enemy", "all": "all", "lower_wall": "the lower wall"}
TESTS = {"<": "is below", ">": "is above", "==": "is"}
AFTER = {"play_again": "play again", "draw_discard": "draw a card, discard one, play again"}


def effect_en(card: Card) -> str:
    """The card's effect in English, written from its effect data (the catalogue's text is Latvian):
    e.g. ``+6 wall, 10 damage to the enemy``."""
    parts = [_step_en(step) for step in card.effect]
    if card.after:
        parts.append(AFTER.get(card.after, card.after))
    return "; ".join(parts)


def _step_en(step: Step) -> str:
    if isinstance(step, Change):
        return f"{step.by:+d} {step.stat}" + ("" if step.who == "self" else f" ({CHANGED[step.who]})")
    if isinstance(step, Damage):
        target = {"self": "you", "enemy": "the enemy", "all": "everyone", "lower_wall": "the lower wall"}[step.who]
        only = f" {'tower' if step.who != 'all' else 'towers'}" if step.only == "tower" else " wall" if step.only == "wall" else ""
        if only:
            target = {"self": "your", "enemy": "the enemy", "all": "all", "lower_wall": "the lower"}[step.who] + only
        return f"{step.amount} damage to {target}"
    if isinstance(step, If):
        test = f"if {_operand_en(step.left)} {TESTS[step.op]} {_operand_en(step.right)}: " + ", ".join(map(_step_en, step.then))
        return test + (", else " + ", ".join(map(_step_en, step.otherwise)) if step.otherwise else "")
    if isinstance(step, Equalize):
        return f"raise your {step.stat} to the enemy's" if step.who == "self" else f"raise the lower {step.stat} to the higher"
    if isinstance(step, Swap):
        return f"swap {step.stat}s with the enemy"
    assert isinstance(step, Steal)
    return f"the enemy loses {step.amount} {step.stat}, you gain half"


def _operand_en(operand: object) -> str:
    if isinstance(operand, (list, tuple)):
        who, stat = operand
        return f"{WHOSE[who]} {stat}"
    return str(operand)


def effect_text(card: Card) -> str:
    """The card's effect in the language in use: written from its data in English, the rule
    text's own words in the original."""
    return choose(effect_en(card), card.text)


def resource_word(resource: str) -> str:
    """A resource (``ore``, as the card data names it) in the language in use (``rūda`` in the original)."""
    original = next(word for word, english in messages()["terms"]["towers"].items() if english == resource)
    return term("towers", original)


def card_line(card_id: int) -> str:
    """A card as the hand lists it: its name, cost and resource, and its effect."""
    card = CARDS[card_id]
    return f"{named(card)}, {card.cost} {resource_word(card.resource)}: {effect_text(card)}"


def move_line(view: dict, move: dict) -> str:
    """A legal move in words, e.g. ``play [12] Dragon, ...``, its card named from the hand."""
    kind = "play" if "play" in move else "discard"
    handle = move[kind]
    card = next((entry["card"] for entry in view["hand"] or () if entry["handle"] == handle), None)
    return f"{kind} [{handle}] " + ("?" if card is None else card_line(card))


def describe_move(before: dict, move: dict, after: dict) -> str:
    """A move as a transcript lists it, e.g. ``play Dragon``; ``before`` is the mover's view."""
    kind = "play" if "play" in move else "discard"
    card = next((entry["card"] for entry in before["hand"] or () if entry["handle"] == move[kind]), None)
    name = "an unknown card" if card is None else named(CARDS[card])
    return f"{kind} {name}" + (" (timeout)" if move.get("timeout") else "")


def render(view: dict) -> str:
    """The board, the seat's hand, the last cards and whose turn it is, as lines of text."""
    seat = view["seat"]
    field = BATTLEFIELDS[view["battlefield"]]
    victory = view["victory"]
    players = view["players"]
    names = [player(index, seat) for index in range(len(players))]
    lines = [
        f"{named(field)}: win at tower {victory['tower']} or a resource at {victory['resource']}, "
        f"{view['variant']} deck" + ("" if view["deck"] is None else f", {view['deck']} in deck, {view['discard']} discarded"),
        f"{'':<18}" + "".join(f"{name[:17]:>18}" for name in names),
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
        return f"Game over ({reason_words(result['reason'], 'towers')}): " + ("draw" if not winners else f"{names[winners[0]]} won")
    if view["turn"] is None:
        return "Waiting for the start."
    turn = view["turn"]
    doing = "discard a card" if view["phase"] == "discard" else "play or discard a card"
    timeouts = view["players"][turn]["timeouts"]
    late = f" ({timeouts} timeouts in a row)" if timeouts else ""
    return f"Your turn: {doing}{late}." if turn == view["seat"] else f"Turn of {names[turn]}: {doing}{late}."
