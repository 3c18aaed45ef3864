"""The game's words for a seat's open decision, as the table event carries them to clients:
its name (``prompt``) and the hand cards the rules refuse now, each with one word why
(``unplayable``), so neither client names a decision or judges a card by rules of its own."""

from __future__ import annotations

from typing import Any

from fairtable.games import Game, mark_text, prompt_text, say


def decision_words(game: Game[Any], state: Any, seat: int) -> tuple[str | None, tuple[dict, ...]]:
    """``(prompt, unplayable)`` for ``seat``'s open decision in the language in use: the
    decision's name (None where the game names none) and ``{"mark", "move", "text"}`` per
    refused hand card play (its one-word mark and the refusal's whole sentence)."""
    prompt = game.prompt(state, seat)
    marked = tuple({"mark": mark_text(u.mark), "move": u.move, "text": say(u.refusal)} for u in game.unplayable(state, seat))
    return None if prompt is None else prompt_text(prompt), marked
