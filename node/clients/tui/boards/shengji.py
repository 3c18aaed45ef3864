"""Shengji: levels, trump and declaration, the trick, the last trick and points (the game's own
text lines), and the hand as cards under a cursor. Left/right move the cursor, Space marks a
card (for pairs and tractors), Enter plays the marked cards (or the card under the cursor) as
whatever move they make now: a lead, a follow, a declaration or a card to bury; ``p`` and Enter pass.
Typed, a move's cards run together (``HKHK``) or its number work too."""

from __future__ import annotations

from typing import Any

from rich.console import RenderableType
from rich.text import Text
from textual import events

from fairtable.games.shengji import CARDS, code, render
from fairtable.node.clients.tui.boards import LINE_WIDTH, Board, moves_laying, played_for, refusal_lines, refused_cards

KINDS = ("declare", "bury", "lead", "play")
RED = {"H", "D"}
PER_ROW = 19


def handles_of(move: Any) -> frozenset[int] | None:
    """The hand's cards a move plays, or None for a pass."""
    for kind in KINDS:
        if isinstance(move, dict) and kind in move:
            value = move[kind]
            return frozenset(value if isinstance(value, list) else [value])
    return None


def hand_keys(update: dict) -> str:
    """The keys of the decision due, by the kinds of its legal moves: declare or pass, bury,
    lead or follow (the keys of any play when none is due)."""
    kinds = [kind for kind in KINDS if any(isinstance(move, dict) and kind in move for move in update.get("legal_moves") or ())]
    passing = any(isinstance(move, dict) and "pass" in move for move in update.get("legal_moves") or ())
    verb = " or ".join(kinds) or "play"
    return f"←→ move, Space mark, Enter {verb}" + (", p Enter pass" if passing else "") + "; or HKHK"


CODES = frozenset(card.code for card in CARDS)


def read_codes(text: str) -> list[str]:
    """Card codes typed together (``HKHK``, ``h10 c4``), or [] when the text is not only codes."""
    typed, found = "".join(text.split()).upper(), []
    while typed:
        size = next((size for size in (3, 2) if typed[:size] in CODES), None)
        if size is None:
            return []
        found.append(typed[:size])
        typed = typed[size:]
    return found


class ShengjiBoard(Board):
    game = "shengji"
    keys = (
        ("← →", "move over your hand"),
        ("Space", "mark a card (the cards of a pair or a tractor)"),
        ("Enter", "declare, bury, lead or play the marked cards (or the one under the cursor)"),
        ("p Enter", "pass instead of declaring"),
        ("typing", "a move's cards run together (HKHK) or its number"),
    )

    def __init__(self) -> None:
        super().__init__()
        self.cursor = 0
        self.marked: set[int] = set()

    def hand(self) -> list[dict]:
        return list((self.current.get("view") or {}).get("hand") or [])

    def move_for(self, handles: set[int]) -> Any | None:
        """The move playing ``handles``, or identical cards (the game lists one move per face)."""
        faces = {entry["handle"]: entry["card"] for entry in self.hand()}
        moves = moves_laying(self.current.get("legal_moves") or (), handles, handles_of, faces.get)
        return moves[0] if moves else None

    def meant(self, update: dict, text: str) -> Any | None:
        """Cards of the hand typed by their codes (``C4``, ``HKHK``) that make no move now: the move
        they would be, for the node to explain (a card that does not follow, say)."""
        kinds = [kind for kind in KINDS if any(isinstance(move, dict) and kind in move for move in update.get("legal_moves") or ())]
        codes = read_codes(text)
        if len(kinds) != 1 or not codes:
            return None
        handles: list[int] = []
        for wanted in codes:
            found = next((entry["handle"] for entry in self.hand() if entry["handle"] not in handles and entry["card"] is not None
                          and code(entry["card"]) == wanted), None)
            if found is None:
                return None
            handles.append(found)
        single = kinds[0] in ("play", "bury")
        return None if single and len(handles) > 1 else {kinds[0]: handles[0] if single else sorted(handles)}

    def board_key(self, event: events.Key) -> bool:
        hand = self.hand()
        if not hand:
            return False
        self.cursor = min(self.cursor, len(hand) - 1)
        handle, problem = hand[self.cursor]["handle"], ""
        if event.key in ("left", "right"):
            self.cursor = (self.cursor + (1 if event.key == "right" else -1)) % len(hand)
        elif event.key == "space":
            self.marked ^= {handle}
        elif event.key == "enter":
            move = self.move_for(self.marked or {handle})
            if move is not None:
                self.marked = set()
                self.choose(move)
            elif self.current.get("legal_moves"):
                problem = "these cards make no move now (Space marks the cards of a pair or a tractor)"
        else:
            return False
        self.problem = problem
        self.redraw()
        return True

    def letter(self, key: str) -> bool:
        passing = [move for move in self.current.get("legal_moves") or () if isinstance(move, dict) and "pass" in move]
        if key == "p" and passing:
            self.choose(passing[0])
        return key == "p" and bool(passing)

    def draw(self, update: dict) -> RenderableType:
        view = update["view"]
        lines = render.render(view).splitlines()
        top = lines[: lines.index("Your hand:")] if "Your hand:" in lines else lines[:-1]
        text = Text("\n".join(top) + "\n")
        last = (view["last"] or {}).get("plays") or []
        for seat, mark in played_for(update).items():  # under the tricks: a play made for its seat
            play = next((play for play in view["trick"] if play["seat"] == seat), None)
            where = "" if play is not None else "last trick's "
            play = play or next((play for play in last if play["seat"] == seat), None)
            if play is not None:
                text.append(f"  {where}{' '.join(code(card) for card in play['cards'])}: {mark}"[:LINE_WIDTH] + "\n", style="bold yellow")
        hand = view["hand"] or []
        held = {entry["handle"] for entry in hand}
        self.marked &= held
        if hand:
            self.cursor = min(self.cursor, len(hand) - 1)
            text.append(f"Your hand  ({hand_keys(update)})\n", style="bold")
            refused = refused_cards(update)
            for index, entry in enumerate(hand):
                card = None if entry["card"] is None else CARDS[entry["card"]]
                style = "red" if card is not None and card.suit in RED else ""
                if entry["handle"] in self.marked:
                    style += " bold underline"
                if index == self.cursor and update.get("your_turn"):
                    style += " reverse"
                if entry["handle"] in refused:
                    style += " dim"
                text.append(f"{code(entry['card']):>3}", style=style.strip() or None)
                text.append("\n" if (index + 1) % PER_ROW == 0 else " ")
            if len(hand) % PER_ROW:
                text.append("\n")
            for line in refusal_lines(update, "dimmed"):
                text.append(line + "\n", style="dim")
        if update.get("legal_moves"):
            self.draw_problem(text)
        text.append(lines[-1] + "\n", style="bold")
        return text
