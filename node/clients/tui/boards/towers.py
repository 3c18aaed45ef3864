"""Towers: both sides' tower, wall and resources, the hand with costs and effects in English
(and the original names), and the last cards. Up/down choose a card; Enter plays it, ``x``
and Enter discard it; typed, ``3`` plays card 3 and ``d3`` discards it, or a card's name plays it."""

from __future__ import annotations

from typing import Any

from rich.console import RenderableType
from rich.text import Text
from textual import events

from fairtable.games import named
from fairtable.games.towers import BATTLEFIELDS, CARDS, PRODUCERS, RESOURCES, effect_text
from fairtable.node.clients.tui.boards import Board, played_for, refused_cards, wrapped

NAME_WIDTH = 30
ROWS = (("Tower", "tower", None), ("Wall", "wall", None)) + tuple(
    (f"{resource.capitalize()} (+{producer})", resource, producer) for resource, producer in zip(RESOURCES, PRODUCERS)
)


def card_title(card_id: int, width: int | None = None) -> str:
    """The card's name in the language in use, cut to ``width`` where given."""
    card = CARDS[card_id]
    name = named(card)
    return name if width is None else name[:width]


def discarding(update: dict) -> bool:
    """A decision whose legal moves are all discards (after a "draw a card, discard one" card)."""
    legal = update.get("legal_moves") or ()
    return bool(legal) and all("discard" in move for move in legal)


class TowersBoard(Board):
    game = "towers"
    keys = (
        ("↑↓", "choose a card in your hand"),
        ("Enter", "play it (after a draw-and-discard card: discard it)"),
        ("x Enter", "discard the card chosen"),
        ("typing", "a card's number or name plays it, d and its number (d3) discards it"),
    )

    def __init__(self) -> None:
        super().__init__()
        self.cursor = 0

    def hand(self) -> list[dict]:
        return list((self.current.get("view") or {}).get("hand") or [])

    def move_for(self, index: int, kind: str) -> Any | None:
        move = self.named_move(index, kind)
        return move if move in (self.current.get("legal_moves") or []) else None

    def named_move(self, index: int, kind: str) -> Any | None:
        """The ``kind`` move of hand card ``index``, legal or not."""
        hand = self.hand()
        return {kind: hand[index]["handle"]} if 0 <= index < len(hand) else None

    def reading(self, text: str) -> tuple[int, str] | None:
        """The hand card (its index) and the kind of move ``text`` names: ``3``, ``p3``, ``d3`` or a card's name."""
        text = text.strip().lower()
        kind = "discard" if text[:1] == "d" and text[1:].isdecimal() else "play"
        number = text[1:] if kind == "discard" or text[:1] == "p" else text
        if number.isdecimal():
            return int(number) - 1, kind
        named = [index for index, entry in enumerate(self.hand())
                 if entry["card"] is not None and text in (CARDS[entry["card"]].name_en.lower(), CARDS[entry["card"]].name.lower())]
        return (named[0], "play") if len(named) == 1 else None

    def typed(self, update: dict, text: str) -> Any | None:
        read = self.reading(text)
        return None if read is None else self.move_for(*read)

    def hint(self, update: dict) -> str | None:
        size = len(self.hand())
        if not update.get("legal_moves") or not size:
            return None
        if discarding(update):
            return f"d and a card's number 1..{size} discards it (x or Enter: the chosen card)"
        return f"a card's number 1..{size} or name plays it, d and its number discards it"

    def meant(self, update: dict, text: str) -> Any | None:
        read = self.reading(text)
        return None if read is None else self.named_move(*read)

    def letter(self, key: str) -> bool:
        move = self.move_for(self.cursor, "discard") if key == "x" else None
        if move is not None:
            self.choose(move)
        return move is not None

    def board_key(self, event: events.Key) -> bool:
        size = len(self.hand())
        if event.key in ("up", "down") and size:
            self.cursor = (self.cursor + (1 if event.key == "down" else -1)) % size
            self.redraw()
        elif event.key == "enter":
            move = self.move_for(self.cursor, "discard" if discarding(self.current) else "play")
            if move is not None:
                self.choose(move)
        else:
            return False
        return True

    def draw(self, update: dict) -> RenderableType:
        view = update["view"]
        me, players = view["seat"], view["players"]
        names = update["seats"]
        field = BATTLEFIELDS[view["battlefield"]]
        victory = view["victory"]
        deck = "" if view["deck"] is None else f" · {view['deck']} in deck"
        text = Text(f"{named(field)}: tower {victory['tower']} or a resource {victory['resource']} wins"
                    f" · {view['variant']} deck{deck}\n", style="bold")
        order = [me, 1 - me] if me is not None else [0, 1]
        text.append(f"{'':<22}" + "".join(f"{('you: ' if seat == me else '') + names[seat]:<20}"[:20] for seat in order) + "\n",
                    style="underline")
        for label, key, producer in ROWS:
            cells = [str(players[seat][key]) + (f" (+{players[seat][producer]})" if producer else "") for seat in order]
            text.append(f"{label:<22}" + "".join(f"{cell:<20}" for cell in cells) + "\n")
        hand = view["hand"] or []
        legal = update.get("legal_moves") or []
        if hand:
            keys = "↑↓ choose, Enter discard; or type d3" if discarding(update) else "↑↓ choose, Enter play, x Enter discard; or type 3, d3, a name"
            text.append(f"Your hand  ({keys})\n", style="bold")
            self.cursor = min(self.cursor, len(hand) - 1)
        refused = refused_cards(update)
        for index, entry in enumerate(hand):
            card = None if entry["card"] is None else CARDS[entry["card"]]
            playable = {"play": entry["handle"]} in legal
            head = f"{index + 1:>2} " + ("?" if card is None else
                                         f"{card_title(card.id, NAME_WIDTH):<{NAME_WIDTH}} {card.cost:>2} {card.resource:<8} ")
            why = f"[{refused[entry['handle']]}] " if entry["handle"] in refused else ""
            style = ("reverse " if index == self.cursor and update.get("your_turn") else "") + ("" if playable or not legal else "dim")
            text.append(wrapped(head, why + ("" if card is None else effect_text(card)), len(head)), style=style.strip() or None)
        marks, recent = played_for(update), view["recent"]
        for index, action in enumerate(recent[-2:], max(len(recent) - 2, 0)):
            verb = "played" if action["played"] else "discarded"
            who = "you" if action["seat"] == me else names[action["seat"]]
            card = CARDS[action["card"]]
            latest = all(later["seat"] != action["seat"] for later in recent[index + 1:])  # its seat's latest move
            mark = f" ({marks[action['seat']]})" if latest and action["seat"] in marks else ""
            text.append(wrapped(f"{who} {verb} {card_title(card.id)}{mark}: ", effect_text(card), 2), style="italic")
        return text

