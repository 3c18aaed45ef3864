"""Owned decks in the session: the owner's choice of composition, the first stage it dictates,
and the composition's reveal after the game (fairness §5.8).

The owner's composition is a free choice, not derivable from its seed, so the owner's node
keeps it with the seat's other free choices (``GameRun.private``, persisted by the node);
the verifier reads it from the owner's ``composition`` message, which it finds before the
replay, so it can recompute the first stage when that stage comes.
"""

from __future__ import annotations

import hmac
from collections import Counter
from collections.abc import Sequence
from typing import Any

from fairtable.protocol.fair.errors import FairnessError
from fairtable.protocol.fair.mental_deck import check_composition_body, check_stage, composition_body, composition_commitment, run_stage, stage_body
from fairtable.protocol.session.run import DeckRecord, GameRun


def _key(record: DeckRecord) -> str:
    return f"composition-{record.deck.name}"


def known_composition(run: GameRun, record: DeckRecord) -> tuple[int, ...] | None:
    """The composition, where this session knows it: the owner's own, or the verifier's revealed one."""
    own = run.private.get(_key(record))
    return tuple(own) if own is not None else run.compositions.get(record.deck.name)


def choose(run: GameRun, record: DeckRecord, cards: Sequence[int]) -> dict:
    """The owner's first stage for ``cards``; ValueError unless they fit the deck's catalogue."""
    chosen = record.deck.check_composition(cards)
    run.private[_key(record)] = list(chosen)
    return first_stage(run, record, chosen)


def first_stage(run: GameRun, record: DeckRecord, composition: tuple[int, ...]) -> dict:
    """Stage 0 as the owner's seed and ``composition`` dictate it, with the composition commitment."""
    deck = record.deck
    assert deck.owner is not None
    commitment = composition_commitment(run.seeds[deck.owner], deck, composition)
    if deck.proved:
        return record.proven_body(0, deck.initial(composition), commitment)
    entries = run_stage(deck, 0, record.keys_of(deck.owner), deck.initial(composition), run.ops)
    return stage_body(deck, 0, entries, commitment)


def check_first_stage(record: DeckRecord, body: Any) -> tuple[tuple[bytes, ...], bytes]:
    """The entries and commitment of the owner's first stage, after the checks of any stage
    (of a proved deck: its deck key commitment and points, fairness.md §12.8)."""
    if record.deck.proved:
        return record.check_proven(0, (), body), body["commitment"]
    return check_stage(record.deck, 0, body), body["commitment"]


def reveal_body(run: GameRun, record: DeckRecord) -> dict:
    """The ``composition`` body this seat sends after play: the owned deck it committed to, for
    everyone to check."""
    composition = known_composition(run, record)
    assert composition is not None
    return composition_body(record.deck, composition)


def check_reveal(record: DeckRecord, body: Any) -> tuple[int, ...]:
    """The revealed composition, checked against the catalogue and every card this session
    saw opened from the deck (which must all be in it)."""
    deck = record.deck
    cards = check_composition_body(deck, body)
    missing = Counter(card.id for card in record.opened) - Counter(cards)
    if missing:
        card = min(missing)
        detail = f"card {card} was opened from deck {deck.name!r} but is not in the revealed composition"
        raise FairnessError(deck.owner, "deck.composition-mismatch", detail)
    return cards


def commitment_violation(run: GameRun, record: DeckRecord, cards: tuple[int, ...]) -> FairnessError | None:
    """Where the owner's seed is known: a revealed composition that does not open the commitment."""
    deck = record.deck
    assert deck.owner is not None and record.commitment is not None
    seed = run.seeds.get(deck.owner)
    if seed is None or hmac.compare_digest(composition_commitment(seed, deck, cards), record.commitment):
        return None
    return FairnessError(deck.owner, "deck.composition-mismatch", f"the revealed composition of {deck.name!r} does not open the commitment")
