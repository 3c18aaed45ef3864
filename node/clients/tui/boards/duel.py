"""Duel: the score table for 2 to 6 seats, your hand with each card's type and values, the
attack on the table, the last duels; and the two decisions before play: your secret deck and
the draft.

Playing: up/down choose a card, Enter plays it (attack or defence); in a free-for-all
left/right choose the seat to attack. Over the score table › marks the attacker, ‹ the
defender (or the seat you aim at). Typed: ``3`` plays card 3 (at the chosen seat), or the
card's name without spaces (``wittehaai``, ``wittehaai@2``). In blind play the cards lie face
down and are turned at random: there is nothing to choose.

Your deck (the ``deck`` decision): ``a`` and Enter have your node build one at random; typing the path of
a deck-list file (one card a line, see ``games/duel/decklist.py``) sends that deck; or pick the
cards here: up/down (PgUp/PgDn) move through the catalogue, Space takes or leaves a card, Enter
sends the deck once it holds exactly the cards it must. A rebuilt deck starts from the cards
the rules keep and may take the cards drawn for a swap.

The draft: up/down move through the pool, Enter picks the card (typed: its name).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.console import RenderableType
from rich.text import Text
from textual import events

from fairtable.games import counted, named, term
from fairtable.games.duel import CARDS, DeckListError, drawn, duel_line, parse, standing, title, triangle
from fairtable.node.clients.tui.boards import RANDOM, Board, Refused, pick, played_for, wrapped

WIDTH = 78
LABEL, COLUMN = 13, 10
LIST_ROWS = 12
"""Catalogue or pool lines shown at once (the list scrolls with the cursor)."""
TYPE_STYLE = {"Mare": "blue", "Terra": "green", "Aria": "yellow"}
PAGE = 10


def card_line(card_id: int) -> str:
    """``Great White Shark   Sea  210/130``: name and type in the language in use, attack/defence."""
    card = CARDS[card_id]
    return f"{named(card)[:36]:<36} {term('duel', card.type):<5} {card.attack:>3}/{card.defence:<3}"


class DuelBoard(Board):
    game = "duel"
    keys = (
        ("↑↓", "choose a card (in the draft: a card to pick)"),
        ("Enter", "play it, attacking or defending (or pick it)"),
        ("← →", "free-for-all: the seat to attack"),
        ("Space", "your deck: take a card in or out"),
        ("a Enter", "your deck: let your node build one at random"),
        ("typing", "a card's number or name (wittehaai@2), or a deck-list file's path"),
    )

    def __init__(self) -> None:
        super().__init__()
        self.cursor = 0
        self.target: int | None = None
        self.chosen: set[int] = set()
        """The deck picked here so far."""
        self.building: tuple[int, ...] | None = None
        """What ``chosen`` was started from (the deck's base), so a new deck decision starts afresh."""

    @property
    def seen(self) -> dict:
        return self.current["view"]

    # ------------------------------------------------------------------ what is to decide

    def mode(self) -> str:
        """``deck``, ``draft`` or ``play``."""
        if self.current.get("decision") == "deck":
            return "deck"
        if self.seen["step"] == "draft" and self.seen["draft"] is not None:
            return "draft"
        return "play"

    def listed(self) -> list[int]:
        """The cards the cursor moves through: the deck's candidates, the pool, or the hand's handles."""
        mode, view = self.mode(), self.seen
        if mode == "deck":  # the rules' list, in catalogue order, which groups the cards by type (Mare, Terra, Aria)
            return list(view.get("deck_choices") or ())
        if mode == "draft":
            return list(view["draft"]["pool"])
        return [entry["handle"] for entry in view["hand_cards"] or ()]

    def targets(self) -> list[int]:
        return sorted({move["target"] for move in self.current.get("legal_moves") or () if "target" in move})

    def aimed(self) -> int | None:
        targets = self.targets()
        if self.target not in targets:
            self.target = targets[0] if targets else None
        return self.target

    def move_for(self, index: int) -> Any | None:
        """The move playing the hand's card ``index`` (at the chosen target), or picking pool card ``index``."""
        listed = self.listed()
        if not 0 <= index < len(listed):
            return None
        value = listed[index]
        for move in self.current.get("legal_moves") or ():
            if move.get("pick") == value or (move.get("attack") == value and move.get("target") == self.aimed()) \
                    or move.get("defend") == value:
                return move
        return None

    def deck_size(self) -> int:
        return int(self.seen.get("deck_size") or 0)

    # ------------------------------------------------------------------ input

    def typed(self, update: dict, text: str) -> Any | None:
        text = text.strip()
        if update.get("decision") == "deck":
            return self.deck_file(text)
        if text.isdecimal() and self.mode() == "play":
            return self.move_for(int(text) - 1)
        return pick(update, text)

    def letter(self, key: str) -> bool:
        if key == "a" and self.mode() == "deck":
            self.choose(RANDOM)
            return True
        return False

    def deck_file(self, text: str) -> list[int]:
        """The deck a deck-list file holds; :class:`Refused` says what is wrong with it (or the path)."""
        path = Path(text).expanduser()
        try:
            listing = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise Refused(f"cannot read the deck list {text}: {exc.strerror if isinstance(exc, OSError) else 'not text'}") from None
        try:
            return list(parse(listing, self.deck_size()))
        except DeckListError as exc:
            raise Refused(f"{path.name}: {exc}") from None

    def board_key(self, event: events.Key) -> bool:
        if not self.current or self.current.get("view") is None:
            return False
        key, mode, listed = event.key, self.mode(), self.listed()
        steps = {"up": -1, "down": 1, "pageup": -PAGE, "pagedown": PAGE}
        if key in steps and listed:
            self.cursor = min(max(self.cursor + steps[key], 0), len(listed) - 1)
        elif key in ("left", "right") and mode == "play" and self.targets():
            targets = self.targets()
            self.target = targets[(targets.index(self.aimed() or targets[0]) + (1 if key == "right" else -1)) % len(targets)]
        elif mode == "deck" and key == "space" and listed:
            self.chosen ^= {listed[self.cursor]}
        elif mode == "deck" and key == "enter":
            if len(self.chosen) == self.deck_size():
                self.choose(sorted(self.chosen))
        elif key == "enter":
            move = self.move_for(self.cursor)
            if move is not None:
                self.choose(move)
        else:
            return False
        self.redraw()
        return True

    # ------------------------------------------------------------------ drawing

    def draw(self, update: dict) -> RenderableType:
        view = update["view"]
        mode = self.mode()
        base = tuple(view.get("deck_base") or ()) if mode == "deck" else None
        if base != self.building:  # a new deck to build: start from what the rules keep
            self.building, self.chosen = base, set(base or ())
        listed = self.listed()
        self.cursor = min(self.cursor, max(len(listed) - 1, 0))
        text = Text(title(view)[:WIDTH] + "\n", style="bold")
        if mode == "deck":
            self._draw_deck(text, listed)
        elif mode == "draft":
            self._draw_draft(text, listed)
        else:
            self._draw_play(text, update)
        return text

    def names(self) -> list[str]:
        seats = self.current.get("seats") or []
        me = self.seen["seat"]
        return ["you" if index == me else str(seats[index]) if index < len(seats) else f"seat {index}"
                for index in range(len(self.seen["players"]))]

    def _window(self, listed: list[int]) -> range:
        first = min(max(self.cursor - LIST_ROWS // 2, 0), max(len(listed) - LIST_ROWS, 0))
        return range(first, min(first + LIST_ROWS, len(listed)))

    def _draw_list(self, text: Text, listed: list[int], marked: set[int] | None, active: bool) -> None:
        window = self._window(listed)
        for index in window:
            card = listed[index]
            mark = "" if marked is None else "[x] " if card in marked else "[ ] "
            style = TYPE_STYLE[CARDS[card].type] + (" reverse" if index == self.cursor and active else "")
            text.append(f"{mark}{card_line(card)}"[:WIDTH] + "\n", style=style)
        more = [word for word, on in (("more above (↑, PgUp)", window.start > 0), ("more below (↓, PgDn)", window.stop < len(listed))) if on]
        text.append((" · ".join(more) or " ") + "\n", style="dim")

    def _draw_deck(self, text: Text, listed: list[int]) -> None:
        view, size = self.seen, self.deck_size()
        if view.get("deck_base") is None:
            text.append(f"Build your secret deck: {size} of the {len(CARDS)} cards, each once (hidden until the end)\n")
        else:
            drawn = view.get("swap_draws") or []
            text.append(f"Rebuild your deck: {size} cards from those you keep" + (f" and the {len(drawn)} drawn" if drawn else "") + "\n")
        text.append(f"{len(self.chosen)} of {size} chosen", style="bold")
        text.append(f" · {triangle(view)}\n", style="dim")
        self._draw_list(text, listed, self.chosen, True)
        ready = "Enter sends the deck" if len(self.chosen) == size else f"Space takes or leaves a card, Enter sends {size}"
        text.append(f"{ready} · a Enter: a random deck\n", style="bold")
        text.append("or type the path of a deck-list file (one card a line) and press Enter\n", style="bold")

    def _draw_draft(self, text: Text, listed: list[int]) -> None:
        view, names = self.seen, self.names()
        draft = view["draft"]
        me = view["seat"]
        mine = draft["picks"][me] if me is not None else []
        turn = draft["next"]
        who = "your pick" if turn == me else f"{names[turn]} picks" if turn is not None else "done"
        text.append(f"Draft: {counted('card', len(listed))} in the pool · {who} · picks: "
                    + ", ".join(f"{names[seat]} {len(picks)}" for seat, picks in enumerate(draft["picks"]))[:WIDTH] + "\n")
        taken = f"Your {counted('card', len(mine))}: " + (", ".join(named(CARDS[card]) for card in mine) or "none yet")
        text.append((taken if len(taken) <= WIDTH else taken[: WIDTH - 1] + "…") + "\n")
        self._draw_list(text, listed, None, bool(self.current.get("legal_moves")))
        text.append("↑↓ choose, Enter picks it (or type its name)\n" if self.current.get("legal_moves") else
                    (self.current.get("text") or "").splitlines()[-1] + "\n", style="bold")

    def _draw_play(self, text: Text, update: dict) -> None:
        view, names = self.seen, self.names()
        players = view["players"]
        header = "".join(f"{self._seat_title(index, names[index])[:COLUMN - 1]:>{COLUMN}}" for index in range(len(players)))
        text.append(" " * LABEL + header + "\n", style="underline")
        rows = [("Points", lambda p: str(p["points"])), ("This round", lambda p: str(p["round_points"]))]
        if view["variant"] != "ffa":
            rows.append(("Rounds won", lambda p: str(p["rounds_won"])))
        rows += [("Won att/def", lambda p: f"{p['attacks_won']}/{p['defences_won']}"),
                 ("Hand/deck", lambda p: "out" if p["out"] else f"{p['hand']}/{p['deck']}")]
        for label, cell in rows:
            text.append(f"{label:<{LABEL}}" + "".join(f"{cell(player):>{COLUMN}}" for player in players)
                        + (drawn(view) if label == "Rounds won" else "") + "\n")
        attack, marks = view["attack"], played_for(update)
        moved = set()  # seats whose latest move is drawn already (a later line marks it)
        if attack is not None:
            attacker = names[view["attacker"]]
            mark = f" ({marks[view['attacker']]})" if view["attacker"] in marks else ""
            text.append(wrapped(f"On the table: {attacker} attack{'' if attacker == 'you' else 's'} {names[view['defender']]} with "
                                f"{named(CARDS[attack])} ({term('duel', CARDS[attack].type)} {CARDS[attack].attack}){mark}"), style="bold")
            moved.add(view["attacker"])
        self._draw_hand(text, update)
        shown = view["recent"][-3:]
        notes: list[list[str]] = [[] for _ in shown]
        for index in reversed(range(len(shown))):  # each seat's latest duel carries its mark
            for seat in (shown[index]["attacker"], shown[index]["defender"]):
                if seat not in moved and seat in marks:
                    notes[index].append(f" ({marks[seat]})")
                moved.add(seat)
        for duel, note in zip(shown, notes):
            text.append(wrapped(duel_line(duel, names) + "".join(note)), style="italic")
        lines = (update.get("text") or "").splitlines()
        if update.get("legal_moves"):
            aimed = self.aimed()
            where = f" · ←→ target: {names[aimed]}" if aimed is not None else ""
            verb = "defends" if any("defend" in move for move in update["legal_moves"]) else "attacks"
            text.append(f"↑↓ choose, Enter {verb}{where} (or type its number or name)\n", style="bold")
        elif lines:
            if view["result"] is not None:
                text.append(f"Final {standing(view)}"[:WIDTH] + "\n")
            text.append(lines[-1] + "\n", style="bold")

    def _seat_title(self, index: int, name: str) -> str:
        view = self.seen
        role = "›" if index == view["attacker"] and view["step"] in ("attack", "defend") else \
            "‹" if (index == view["defender"] and view["step"] == "defend") or (self.targets() and index == self.aimed()) else ""
        return role + name

    def _draw_hand(self, text: Text, update: dict) -> None:
        view = self.seen
        hand = view["hand_cards"] or []
        if not hand:
            return
        if view["variant"] == "blind":
            text.append(f"Your {counted('card', len(hand))} lie face down: nobody knows them; each duel turns one at random\n", style="dim")
            return
        defending = update.get("legal_moves") and view["step"] == "defend"
        text.append("Your hand" + (f"  (defence counts; the attack gets +{self.seen['bonus']} if its type beats yours)" if defending else "") + "\n",
                    style="bold")
        for index, entry in enumerate(hand):
            card = entry["card"]
            if card is None:
                text.append(f"{index + 1:>2} ?\n")
                continue
            note = ""
            facing = entry.get("facing")
            if defending and facing is not None:
                outcome = {(2, 0): "falls", (1, 1): "a tie", (0, 2): "holds"}[tuple(facing["points"])]
                note = f"  vs {facing['attack']}: {outcome}"
            style = TYPE_STYLE[CARDS[card].type] + (" reverse" if index == self.cursor and update.get("legal_moves") else "")
            text.append(f"{index + 1:>2} {card_line(card)}{note}"[:WIDTH] + "\n", style=style)
