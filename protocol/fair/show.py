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

from collections.abc import Callable, Mapping, Sequence

from fairtable.protocol.codec import encode
from fairtable.protocol.fair.edwards import BASE
from fairtable.protocol.fair.equal_logs import EqualLogs, EqualLogsProof, prove_equal_logs, verify_equal_logs
from fairtable.protocol.fair.errors import FairnessError
from fairtable.protocol.fair.group import InvalidPoint, Ops, invert, invert_all, multiply_each, product, scalar_from
from fairtable.protocol.fair.mental_deck import Card, Deck
from fairtable.protocol.fair.seeds import GameRef, Seed, Stream
from fairtable.protocol.hashing import digest


def blinding_scalars(seed: Seed, deck: Deck, show: str, positions: Sequence[int]) -> list[bytes]:
    """``b`` for each position, in order: successive scalars of stream ``key(B, "deck/blind", deck, show)``."""
    stream = seed.stream("deck/blind", deck.name, show)
    return [scalar_from(stream) for _ in positions]


def blind(scalars: Sequence[bytes], entries: Sequence[bytes], others: Sequence[Mapping[int, bytes]], ops: Ops | None = None,
          times: Callable[..., list[bytes]] = multiply_each) -> list[bytes]:
    """``X = b · (∏ others' keys)⁻¹ · final entry`` for each position: one multiplication each.

    ``others[i]`` maps every seat but the holder to its published key for position ``i``;
    ``times`` is the deck's :attr:`~protocol.fair.mental_deck.Deck.multiply_each`.
    Raises :class:`InvalidPoint` if a final entry is not a group point.
    """
    inverses = invert_all([product(keys[seat] for seat in sorted(keys)) for keys in others])
    return times([product((b, inverse)) for b, inverse in zip(scalars, inverses)], entries, ops)


def unblind(keys: Sequence[bytes], blinded: Sequence[bytes], ops: Ops | None = None,
            times: Callable[..., list[bytes]] = multiply_each) -> list[bytes]:
    """``Y = k⁻¹ · X`` with the holder's position key ``k`` for each blinded point (``times`` as for :func:`blind`).

    Raises :class:`InvalidPoint` (the recipient's fault) if an ``X`` is not a group point.
    """
    return times(invert_all(list(keys)), blinded, ops)


def unblind_context(game: GameRef, show: str, holder: int) -> bytes:
    """``H("fair/proof-context", enc([table, game, show, holder, "unblind"]))``: what an unblinding's proof is bound to."""
    return digest("fair/proof-context", encode([game.table, game.index, show, holder, "unblind"]))


def _unblind_statement(commitments: Sequence[bytes], blinded: Sequence[bytes], unblinded: Sequence[bytes]) -> EqualLogs:
    return EqualLogs((BASE,) * len(blinded), tuple(commitments), tuple(unblinded), tuple(blinded))


def prove_unblind(seed: Seed, context: bytes, show: str, keys: Sequence[bytes], commitments: Sequence[bytes],
                  blinded: Sequence[bytes], unblinded: Sequence[bytes]) -> EqualLogsProof:
    """A proved deck's unblinding proof (fairness.md §12.3): ``K_j = k_j·G`` and ``X_j = k_j·Y_j`` for
    each point, so ``Y`` is the blinded copy with the committed key's layer removed and nothing else.
    Nonces from ``key(A, "deck/unblind-proof", show)`` and the blinded points."""
    stream = Stream(digest("fair/proof-nonce", encode([seed.key("deck/unblind-proof", show), list(blinded)])))
    witnesses = [int.from_bytes(key, "little") for key in keys]
    return prove_equal_logs(context, _unblind_statement(commitments, blinded, unblinded), witnesses, stream)


def verify_unblind(context: bytes, commitments: Sequence[bytes], blinded: Sequence[bytes], unblinded: Sequence[bytes],
                   proof: EqualLogsProof) -> bool:
    """Whether ``proof`` shows every ``unblinded`` point is its ``blinded`` one under the inverse of the committed key."""
    return verify_equal_logs(context, _unblind_statement(commitments, blinded, unblinded), proof)


def shown_card(deck: Deck, position: int, scalar: bytes, unblinded: bytes, holder: int, recipient: int, ops: Ops | None = None) -> Card:
    """The card ``b⁻¹ · Y`` opens to; a :class:`FairnessError` when it is no card of the deck.

    Only the recipient can see this fail, and it cannot show others why without its seed:
    the violation names no seat, with holder and recipient as suspects.
    """
    try:
        (point,) = deck.multiply_each([invert(scalar)], [unblinded], ops)
    except InvalidPoint:
        raise FairnessError(holder, "deck.invalid-point", f"the unblinded point for position {position} is not a group point") from None
    card = deck.lookup.get(point)
    if card is None:
        detail = f"position {position} shown to seat {recipient} opens to no card of deck {deck.name!r}"
        raise FairnessError(None, "deck.no-card", detail, tuple(sorted({holder, recipient})))
    return card
