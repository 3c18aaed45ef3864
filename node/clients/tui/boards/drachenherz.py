"""Drachenherz: both players' collections and piles, the board's fields (what each does, how
full it is, what lies there), your hand as cards under a cursor, the last plays.

Left/right move the cursor over the hand, Space marks cards (several of one kind), Enter lays
the marked cards (or the one under the cursor); where the play lets you choose the field to
take, it asks, and 1 or 2 answers (Escape: back). An empty hand passes with Enter. Typed: a
hand card's number lays it alone, or a move's code (``pr3/pd``: a princess of 3 taking the
petrified dragons; the game's own codes, ``games/drachenherz/render.py``).
"""

from __future__ import annotations

from typing import Any

from rich.console import RenderableType
from rich.text import Text
from textual import events

from fairtable.games import counted, named
from fairtable.games.drachenherz import CARDS, FIELDS, KINDS, MARKS, SPECIAL, card_name, effect, field_name, kind_of
from fairtable.node.clients.tui.boards import Board, Refused, moves_laying, pick, refused_cards, wrapped

WIDTH = 78
STYLES = {"chest": "yellow", "fire_dragon": "red", "huntress": "magenta", "fossil": "grey62", "princess": "bright_magenta",
          "hero": "cyan", "troll": "green", "dwarf": "bright_yellow", "ship": "blue"}


class DrachenherzBoard(Board):
    game = "drachenherz"
    keys = (
        ("← →", "move over your hand"),
        ("Space", "mark more cards of one kind"),
        ("Enter", "lay the marked cards (or the one under the cursor); empty hand: pass"),
        ("1 / 2", "the field to take, when the play asks (Escape: back)"),
        ("typing", "a hand card's number lays it alone, or a play's code (pr3/pd)"),
    )

    def __init__(self) -> None:
        super().__init__()
        self.cursor = 0
        self.marked: set[int] = set()
        self.asking: list[dict] = []
        """The plays that differ only in the field taken, while the player chooses one."""

    @property
    def seen(self) -> dict:
        return self.current["view"]

    def hand(self) -> list[dict]:
        return list(self.seen.get("hand") or [])

    def moves_for(self, handles: set[int]) -> list[dict]:
        """The plays laying ``handles``, or cards of the same kinds and values (the game lists
        one play per distinct set of values)."""
        faces = {entry["handle"]: entry["card"] for entry in self.hand()}

        def label(handle: int) -> tuple[str, int] | None:
            face = faces.get(handle)
            return None if face is None else (kind_of(face).id, CARDS[face].value)

        return moves_laying(self.current.get("legal_moves") or (), handles, lambda move: set(move["play"]), label)

    def play(self, handles: set[int]) -> Any | None:
        """The one move laying ``handles``, or None after asking which field to take (or saying,
        in :attr:`problem`, that these cards make no play now)."""
        moves = self.moves_for(handles)
        self.problem = "" if moves or not self.current.get("legal_moves") else (
            "these cards make no play now: a play lays cards of one kind, no more than their field has room for")
        if len(moves) == 1:
            self.marked = set()
            return moves[0]
        self.asking = moves if len(moves) > 1 else []
        return None

    def typed(self, update: dict, text: str) -> Any | None:
        text = text.strip()
        hand = self.hand()
        if text.isdecimal() and 1 <= int(text) <= len(hand):
            move = self.play({hand[int(text) - 1]["handle"]})
            if move is None and self.asking:
                self.redraw()
                raise Refused("choose the field to take: press 1 or 2, or type the play's code (e.g. pr3/pd)")
            return move
        return pick(update, text)

    def meant(self, update: dict, text: str) -> Any | None:
        """A hand card's number that makes no play now: that card laid alone, for the node to explain."""
        hand, text = self.hand(), text.strip()
        return {"play": [hand[int(text) - 1]["handle"]]} if text.isdecimal() and 1 <= int(text) <= len(hand) else None

    def hint(self, update: dict) -> str | None:
        size = len(self.hand())
        return f"a card's number 1..{size}, or a play's code" if update.get("legal_moves") and size else None

    def board_key(self, event: events.Key) -> bool:
        if not self.current or self.current.get("view") is None or not self.press(event.key):
            return False
        self.redraw()
        return True

    def press(self, key: str) -> bool:
        """Act on ``key``; False (changing nothing) for a key this board does not take now, which
        then starts typing a move."""
        hand = self.hand()
        if self.asking:
            if key in ("1", "2") and int(key) <= len(self.asking):
                move, self.asking, self.marked = self.asking[int(key) - 1], [], set()
                self.choose(move)
            elif key == "escape":
                self.asking = []
            else:
                return False
        elif key in ("left", "right") and hand:
            self.cursor = (self.cursor + (1 if key == "right" else -1)) % len(hand)
            self.problem = ""
        elif key == "space" and hand:
            self.marked ^= {hand[self.cursor]["handle"]}
            self.problem = ""
        elif key == "enter":
            chosen = self.marked or ({hand[self.cursor]["handle"]} if hand else set())
            played = self.play(chosen)
            if played is not None:
                self.choose(played)
        else:
            return False
        return True

    # ------------------------------------------------------------------ drawing

    def names(self) -> list[str]:
        seats, me = self.current.get("seats") or [], self.seen["seat"]
        return [f"you ({seats[index]})" if index == me and index < len(seats) else str(seats[index]) if index < len(seats)
                else f"seat {index}" for index in range(len(self.seen["players"]))]

    def draw(self, update: dict) -> RenderableType:
        view = update["view"]
        hand = self.hand()
        held = {entry["handle"] for entry in hand}
        self.marked &= held
        if not update.get("legal_moves"):
            self.asking = []
        self.cursor = min(self.cursor, max(len(hand) - 1, 0))
        text = Text(self._title() + "\n", style="bold")
        names = self.names()
        for index, player in enumerate(view["players"]):
            turn = "▶ " if view["turn"] == index and view["phase"] == "play" else "  "
            dragon = ", holds the dragon" if player["dragon"] else ""
            known = f" ({player['returned']} known on top)" if player["returned"] else ""
            late = f", {counted('timeout', player['timeouts'])}" if player["timeouts"] else ""
            text.append(f"{turn}{names[index][:18]:<18} {counted('point', player['points']):>6} from {counted('card', player['collected'])}"
                        f"{dragon} · "
                        f"hand {player['hand']}, pile {player['pile']}{known}{late}"[:WIDTH] + "\n")
        text.append(f"{'field':<20}{'what it does':<40}cards there\n", style="underline")
        for field in FIELDS:
            text.append_text(self._field_line(field))
        self._draw_hand(text, update)
        for play in view["recent"][-2:]:
            text.append(wrapped(self._play_line(play, names)), style="italic")
        lines = (update.get("text") or "").splitlines()
        if self.asking:
            options = "  ".join(f"{number} the {field_name(move['take'])}" for number, move in enumerate(self.asking, 1))
            text.append(f"Take which field? {options}  (Escape: back)\n", style="bold reverse")
        elif self.problem and update.get("legal_moves"):
            self.draw_problem(text)
        elif update.get("legal_moves"):
            text.append("←→ choose, Space marks more of a kind, Enter lays (or type 3, or a code: pr3/pd)\n", style="bold")
        elif lines:
            text.append(lines[-1][:WIDTH] + "\n", style="bold")
        return text

    def _title(self) -> str:
        view = self.seen
        match = view["match"]
        which = {"single": "one game",
                 "match": f"game {match['game'] + 1}, first to {match['target']} wins ({'-'.join(map(str, match['wins']))})",
                 "sumof": f"game {match['game'] + 1} of {match['target']}, totals {'-'.join(map(str, match['totals']))}"}[match["mode"]]
        left = "" if view["left"] is None else f" · {counted('turn', view['left'])} left"
        return f"Drachenherz: {which} · ship marks {view['marks']} of {MARKS}{left}"[:WIDTH]

    def _field_line(self, field: str) -> Text:
        faces = self.seen["board"][field]
        if field in KINDS:
            kind = KINDS[field]
            slots = "" if kind.slots is None else f" {len(faces)}/{kind.slots}"
            label, does, style = f"{named(kind)}{slots}", effect(kind), STYLES.get(field, "")
        else:
            label, does, style = named(SPECIAL), "taken by the 3rd ship", ""
        line = Text(f"{label:<20}", style=style or "")
        line.append(f"{does[:39]:<40}", style="dim")
        values = " ".join(str(CARDS[face].value) for face in faces)
        worth = sum(CARDS[face].value for face in faces)
        cards = values if len(values) <= WIDTH - 60 - 5 else counted("card", len(faces))
        line.append((f"{cards} ={worth}" if faces else "-") + "\n")
        return line

    def _draw_hand(self, text: Text, update: dict) -> None:
        hand = self.hand()
        view = self.seen
        if view["hand"] is None:
            return
        playable = {handle for move in update.get("legal_moves") or () for handle in move["play"]}
        refused = refused_cards(update)
        text.append("Your hand: " if hand else "Your hand is empty", style="bold")
        for index, entry in enumerate(hand):
            face = entry["card"]
            style = "?" if face is None else STYLES.get(kind_of(face).id, "")
            if entry["handle"] in self.marked:
                style += " underline bold"
            if index == self.cursor and update.get("legal_moves"):
                style += " reverse"
            if update.get("legal_moves") and entry["handle"] not in playable:
                style += " dim"
            label = "?" if face is None else f"{named(kind_of(face))} {CARDS[face].value}"
            label += f" [{refused[entry['handle']]}]" if entry["handle"] in refused else ""
            text.append(f"{index + 1}:{label}", style=style.replace("?", "").strip() or None)
            text.append(" ")
        text.append("\n")
        if view["pile_top"]:
            text.append(wrapped("On top of your pile (put back): ", ", ".join(map(card_name, view["pile_top"]))), style="dim")

    def _play_line(self, play: dict, names: list[str]) -> str:
        laid = " + ".join(map(card_name, play["cards"])) or "nothing"
        took = f", took {len(play['taken'])} ({counted('point', sum(CARDS[face].value for face in play['taken']))})" if play["taken"] else ""
        chose = f" on the {field_name(play['take'])}" if play["take"] else ""
        dragon = " and the dragon" if play["dragon"] else ""
        timeout = " (timer)" if play["timeout"] else ""
        return f"{names[play['seat']].split(' (')[0]}: {laid}{chose}{took}{dragon}{timeout}"
