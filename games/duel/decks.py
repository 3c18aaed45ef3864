"""What a seat's deck may hold: a new deck, a deck rebuilt with the used cards back in, and a
deck rebuilt with cards swapped for random ones (blind play's ``swap_after_round``).

A rebuilt deck is a new secret deck whose composition the owner chooses again, so its node
checks it (``check_composition``) before it commits, and the verifier, which knows every
face, checks it once more; nobody else knows enough. :func:`problem` is that one check.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from fairtable.games.contract import Face, RuleError
from fairtable.games.duel.catalogue import CARDS, IDS, is_card
from fairtable.games.duel.state import Player

DECK_SIZE = 20
HAND_SIZE = 6
SWAPS = 2
"""Cards a seat may swap after a blind round."""


def swap_bound(player: Player) -> int:
    """The bound of the next swap draw: the cards outside the deck not drawn yet."""
    return len(IDS) - DECK_SIZE - len(player.draws)


def drawn_cards(cards: Sequence[Face], draws: Sequence[int | None]) -> tuple[Face, ...] | None:
    """The cards the swap draws name: each an index into the catalogue cards outside the deck
    and not drawn before. None when a draw is not known to this state."""
    rest = [card for card in IDS if card not in set(cards)]
    drawn = []
    for index in draws:
        if index is None or not 0 <= index < len(rest):
            return None
        drawn.append(rest.pop(index))
    return tuple(drawn)


def remaining(player: Player) -> tuple[Face, ...] | None:
    """The cards left in the deck (hands are empty whenever a deck is rebuilt), where known."""
    if player.cards is None:
        return None
    left = Counter(player.cards) - Counter(player.used)
    return tuple(sorted(left.elements()))


def base(player: Player) -> tuple[Face, ...] | None:
    """What the rebuilt deck holds before any swap: the remaining cards, or every card when the
    used ones go back in."""
    return player.cards if player.reshuffle else remaining(player)


def choices(player: Player) -> tuple[Face, ...] | None:
    """The cards the seat's next deck may take, where this state knows them: any catalogue card
    for a first deck; for a rebuilt one the cards it keeps and those drawn for a swap."""
    if not player.built:
        return IDS
    before = base(player)
    drawn = drawn_cards(player.cards or (), player.draws) if player.swap else ()
    if before is None or drawn is None:
        return None
    return tuple(sorted(set(before) | set(drawn)))


def size(player: Player) -> int:
    """The size of the seat's next deck (known to every state: used cards are public)."""
    if not player.built:
        return DECK_SIZE
    return DECK_SIZE if player.reshuffle else DECK_SIZE - len(player.used)


def problem(seat: int, player: Player, cards: Sequence[Face]) -> RuleError | None:
    """What makes ``cards`` no deck ``seat`` may build now, as far as this state knows
    (``duel.deck`` or ``duel.rebuild``, with its words for a person), or None."""
    cards = tuple(cards)
    wanted = size(player)
    if not player.built:
        counts = Counter(cards)
        strange = sorted({card for card in cards if not is_card(card)}, key=repr)
        twice = sorted(card for card, count in counts.items() if count > 1 and is_card(card))
        if strange:
            return RuleError("duel.deck", f"seat {seat}'s deck holds {strange[0]!r}, which is not a card of the catalogue",
                             "duel.deck:card", card=repr(strange[0]))
        if twice:
            return RuleError("duel.deck", f"seat {seat}'s deck holds {CARDS[twice[0]].name} {counts[twice[0]]} times; each card at most once",
                             "duel.deck:twice", card=f"duel.cards.{twice[0]}", count=counts[twice[0]])
        if len(cards) != wanted:
            return RuleError("duel.deck", f"seat {seat}'s deck holds {len(cards)} cards, not {wanted}",
                             "duel.deck:size", count=len(cards), wanted=wanted)
        return None
    if len(cards) != wanted or len(set(cards)) != len(cards):
        return RuleError("duel.rebuild", f"seat {seat}'s rebuilt deck must be {wanted} distinct cards, not {len(cards)}",
                         "duel.rebuild:size", count=len(set(cards)), wanted=wanted)
    allowed = choices(player)
    if allowed is None:
        return None
    new = set(cards) - set(allowed)
    if new:
        card = CARDS[min(new)]
        what = "the cards drawn for it" if player.swap else "no new card"
        return RuleError("duel.rebuild", f"seat {seat}'s rebuilt deck takes {card.name}, but it may take {what}",
                         "duel.rebuild:swap" if player.swap else "duel.rebuild:new", card=f"duel.cards.{card.id}")
    return None


def rebuilt_cards(player: Player, composition: Sequence[Face]) -> tuple[Face, ...] | None:
    """The seat's cards after its deck was rebuilt as ``composition``: swapped-out cards leave,
    swapped-in ones join (used cards stay its own)."""
    before = base(player)
    if player.cards is None or before is None:
        return None
    gone = set(before) - set(composition)
    return tuple(sorted((set(player.cards) - gone) | set(composition)))
