"""Showing a dealt card to other seats, and to nobody else: the holder unlocks a blinded copy.

Once position ``j`` is dealt to seat ``A``, every other seat has published its key for ``j``,
so anyone can strip those layers: ``D = k_{A,j} · card`` (:func:`partial`). For ``B`` to see
the card too, without publishing ``k_{A,j}`` (which would show it to everyone):

1. ``B`` publishes ``X = b · D``, with ``b`` a scalar from its seed for this show and position;
2. ``A`` publishes ``Y = k_{A,j}⁻¹ · X = b · card``;
3. ``B`` computes ``b⁻¹ · Y`` and looks the card up.

Everyone else sees ``X`` and ``Y``, two points that, without ``b``, look random: they learn
that ``j`` was shown to ``B``, not its face. A false ``X`` only blinds ``B`` itself; a false
``Y`` makes ``B``'s lookup fail (``B`` then disputes); after the seed reveal both recompute,
so the verifier names whoever deviated. Two multiplications per shown card and recipient.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from fairtable.protocol.fair.errors import FairnessError
from fairtable.protocol.fair.group import InvalidPoint, Ops, invert, invert_all, multiply_each, product, scalar_from
from fairtable.protocol.fair.mental_deck import Card, Deck
from fairtable.protocol.fair.seeds import Seed


def blinding_scalars(seed: Seed, deck: Deck, show: str, positions: Sequence[int]) -> list[bytes]:
    """``b`` for each position, in order: successive scalars of stream ``key(B, "deck/blind", deck, show)``."""
    stream = seed.stream("deck/blind", deck.name, show)
    return [scalar_from(stream) for _ in positions]


def blind(scalars: Sequence[bytes], entries: Sequence[bytes], others: Sequence[Mapping[int, bytes]], ops: Ops | None = None) -> list[bytes]:
    """``X = b · (∏ others' keys)⁻¹ · final entry`` for each position: one multiplication each.

    ``others[i]`` maps every seat but the holder to its published key for position ``i``.
    Raises :class:`InvalidPoint` if a final entry is not a group point.
    """
    inverses = invert_all([product(keys[seat] for seat in sorted(keys)) for keys in others])
    return multiply_each([product((b, inverse)) for b, inverse in zip(scalars, inverses)], entries, ops)


def unblind(keys: Sequence[bytes], blinded: Sequence[bytes], ops: Ops | None = None) -> list[bytes]:
    """``Y = k⁻¹ · X`` with the holder's position key ``k`` for each blinded point.

    Raises :class:`InvalidPoint` (the recipient's fault) if an ``X`` is not a group point.
    """
    return multiply_each(invert_all(list(keys)), blinded, ops)


def shown_card(deck: Deck, position: int, scalar: bytes, unblinded: bytes, holder: int, recipient: int, ops: Ops | None = None) -> Card:
    """The card ``b⁻¹ · Y`` opens to; a :class:`FairnessError` when it is no card of the deck.

    Only the recipient can see this fail, and it cannot show others why without its seed:
    the violation names no seat, with holder and recipient as suspects.
    """
    try:
        (point,) = multiply_each([invert(scalar)], [unblinded], ops)
    except InvalidPoint:
        raise FairnessError(holder, "deck.invalid-point", f"the unblinded point for position {position} is not a group point") from None
    card = deck.lookup.get(point)
    if card is None:
        detail = f"position {position} shown to seat {recipient} opens to no card of deck {deck.name!r}"
        raise FairnessError(None, "deck.no-card", detail, tuple(sorted({holder, recipient})))
    return card
