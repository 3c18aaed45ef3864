"""Duel bots: random legal play with a random deck, and a heuristic player with a built deck.

Both use only what their seat knows (its own hand and deck, and what was played), so they run
on the seat's own node. The heuristic weighs each card by its worth in each role against a
random opponent card (:func:`catalogue.expected`): the catalogue's balance makes a card strong
in one role weak in the other, so the game is in giving each card the right role.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from fairtable.games import bots
from fairtable.games.contract import Face, GameError, Rng
from fairtable.games.duel import decks, draft
from fairtable.games.duel.catalogue import CARDS, IDS, expected, points, share
from fairtable.games.duel.state import DuelState

if TYPE_CHECKING:
    from fairtable.games.duel.game import DuelGame


def _sample(cards: Sequence[Face], count: int, rng: Rng) -> list[Face]:
    pool = list(cards)
    return [pool.pop(rng.randrange(len(pool))) for _ in range(count)]


def random_deck(state: DuelState, seat: int, rng: Rng) -> tuple[Face, ...]:
    """A random legal composition for ``seat``'s pending deck: 20 random cards; a rebuilt deck
    as it must be, with a random number of its cards swapped for the drawn ones."""
    player = state.players[seat]
    if not player.built:
        return tuple(sorted(_sample(IDS, decks.DECK_SIZE, rng)))
    cards = list(_known(decks.base(player)))
    drawn = decks.drawn_cards(player.cards or (), player.draws) if player.swap else ()
    for card in _sample(_known(drawn), rng.randrange(len(drawn or ()) + 1), rng):
        cards[rng.randrange(len(cards))] = card
    return tuple(sorted(cards))


def _known(cards: Sequence[Face] | None) -> Sequence[Face]:
    if cards is None:
        raise GameError("this state does not know the deck it must rebuild")
    return cards


def worth(card: Face, variant: str = "1v1") -> Fraction:
    """A card's worth: in its better role, or in blind play (where chance gives the role) its share."""
    return share(card) if variant == "blind" else max(expected(card))


def lean(card: Face) -> Fraction:
    """How much better the card attacks than it defends."""
    attack, defence = expected(card)
    return attack - defence


def built_deck(variant: str) -> tuple[Face, ...]:
    """The deck-building heuristic. Where cards are played by choice, specialists: the 10 best
    attackers and the 10 best defenders. In blind play chance gives each card its role, so
    the 20 cards with the best share of points in random duels."""
    if variant == "blind":
        return tuple(sorted(sorted(IDS, key=lambda card: (-share(card), card))[: decks.DECK_SIZE]))
    attackers = sorted(IDS, key=lambda card: (-expected(card)[0], card))[: decks.DECK_SIZE // 2]
    defenders = [card for card in sorted(IDS, key=lambda card: (-expected(card)[1], card)) if card not in attackers]
    return tuple(sorted(attackers + defenders[: decks.DECK_SIZE - len(attackers)]))


def kept_deck(state: DuelState, seat: int) -> tuple[Face, ...]:
    """A rebuilt deck: the drawn cards in place of the weakest when they are worth more."""
    player = state.players[seat]

    def value(card: Face) -> tuple[Fraction, Face]:
        return worth(card, state.variant), card

    cards = sorted(_known(decks.base(player)), key=value)
    drawn = decks.drawn_cards(player.cards or (), player.draws) if player.swap else ()
    for card in sorted(_known(drawn), key=value, reverse=True):
        if value(card) > value(cards[0]):
            cards[0] = card
            cards.sort(key=value)
    return tuple(sorted(cards))


def assignment(cards: Sequence[Face], attacks: int) -> Fraction:
    """The expected points of ``cards`` when the ``attacks`` most attacking ones attack and the rest defend."""
    ordered = sorted(cards, key=lean, reverse=True)
    return sum((expected(card)[0] for card in ordered[:attacks]), Fraction(0)) + sum((expected(card)[1] for card in ordered[attacks:]), Fraction(0))


class RandomBot(bots.RandomBot):
    """A uniformly random legal move; its deck is the game's ``random_hidden``: :func:`random_deck`."""


class GreedyBot:
    """Builds :func:`built_deck`; plays each card where it is worth most.

    In a duel of two the round's hand is used up exactly (3 attacks, 3 defences), so each
    choice maximises the points it makes now plus the expected points of the rest of the hand
    in its best roles. In a free-for-all the hand is refilled, so a card spent costs its worth;
    it attacks the opponent with the fewest points (a defender's win helps a rival least there).
    """

    def __init__(self, rng: Rng) -> None:
        self.rng = rng

    def commit(self, game: DuelGame, state: DuelState, seat: int, request: Any) -> tuple[Face, ...]:
        """The deck to commit: the one kept from a draft or an earlier match, else :func:`built_deck`."""
        return kept_deck(state, seat) if state.players[seat].built else built_deck(state.variant)

    def choose(self, game: DuelGame, state: DuelState, seat: int) -> Any:
        """In the draft, the pool's best card in the role its picks lack; else the hand card worth most in this role."""
        moves = game.legal_moves(state, seat)
        if state.step == "draft":
            return {"pick": self._pick(state, seat)}
        hand = {handle: state.faces[handle] for handle in state.players[seat].hand}
        if state.step == "defend":
            attack = CARDS[state.faces[state.attack]] if state.attack is not None else CARDS[0]
            handle = max(hand, key=lambda h: (self._value(state, seat, hand, h, points(attack, CARDS[hand[h]])[1], defending=True), -h))
            return {"defend": handle}
        handle = max(hand, key=lambda h: (self._value(state, seat, hand, h, expected(hand[h])[0], defending=False), -h))
        if state.variant != "ffa":
            return {"attack": handle}
        targets = [move["target"] for move in moves if move["attack"] == handle]
        target = min(targets, key=lambda t: (bool(state.players[t].hand), state.players[t].points, (t - seat) % state.seats))
        return {"attack": handle, "target": target}

    def _value(self, state: DuelState, seat: int, hand: dict[int, Face], handle: int, now: Fraction | int, defending: bool) -> Fraction:
        rest = [face for h, face in hand.items() if h != handle]
        if state.variant == "ffa":
            return now - worth(hand[handle])
        attacks = sum(1 for duel in range(state.duel + 1, 6) if (duel - state.duel) % 2 == (1 if defending else 0))
        return now + assignment(rest, attacks)

    def _pick(self, state: DuelState, seat: int) -> Face:
        mine = draft.picks_of(state.first or 0, state.seats, state.picks, seat)
        attackers = sum(1 for card in mine if lean(card) > 0)
        role = 0 if attackers * 2 < len(mine) + 1 else 1
        return min(draft.pool(state.picks), key=lambda card: (-expected(card)[role], card))
