"""Masked sums: several seats' committed values at some cells become public only as their sum.

Used where the table must learn *that* something is there but not *whose* it is (a hit on a
shared border cell of battleship: the sum of the candidates' "ship here" bits). Every pair
of seats shares a secret without talking: each seat publishes an X25519 public key derived
from its seed (``sum/pair``), and the two sides' Diffie-Hellman value is known to that pair
alone. For sum ``j`` of round ``r`` over seats ``S`` (increasing), every pair ``a < b`` in
``S`` derives a mask ``m_ab`` below the modulus ``M`` (the largest possible sum plus one);
seat ``p`` publishes

    share_p = value_p + sum(m_pq for q > p) - sum(m_qp for q < p)   (mod M)

The masks cancel, so the shares add up to the sum of the values; without the masks each
share is uniform, so the others learn the sum and nothing else. Because the pair keys derive
from the seeds, the verifier recomputes every mask after the seed reveal and decodes every
share into the value its sender claimed, which the sender's later opening of that cell (the
committed data) must equal: a false share names its sender alone, since decoding a seat's
share uses only its share and its own masks. The other seat of a two-seat sum holds those
masks too and checks the same live. ``spec/fairness.md`` §8 has the formulas and the
reasoning for each check.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from nacl import bindings
from nacl.exceptions import CryptoError

from fairtable.protocol.codec import encode
from fairtable.protocol.fair.errors import FairnessError
from fairtable.protocol.fair.seeds import GameRef, Seed, Stream
from fairtable.protocol.hashing import digest

KEY_SIZE = 32
PAIR_LABEL = "sum/pair"
"""The seed label of a seat's pair key: one key per seat and game, shared by all its sums."""
_PROBE = bytes([9]) + bytes(31)
"""A fixed scalar: X25519 with it yields all zeros exactly for a public key of small order."""


def modulus(seats: int, bound: int) -> int:
    """The modulus of a sum of ``seats`` values each below ``bound``: the largest sum plus one,
    so every residue is a possible sum and a share decodes to one integer."""
    if seats < 2 or bound < 1:
        raise ValueError("a masked sum has two seats or more and values below a positive bound")
    return seats * (bound - 1) + 1


def pair_secret_key(seed: Seed) -> bytes:
    """The seat's X25519 private key for this game (clamped by X25519 itself)."""
    return seed.key(PAIR_LABEL)


def pair_public_key(seed: Seed) -> bytes:
    """The X25519 public half of this seat's pair key; every other seat combines it with its own
    secret into the secret this pair alone shares."""
    return bindings.crypto_scalarmult_base(pair_secret_key(seed))


def pair_key_body(seed: Seed) -> dict:
    """The canonical body publishing the seat's pair key."""
    return {"key": pair_public_key(seed)}


def check_pair_key(seat: int, body: object) -> bytes:
    """The public key in a pair-key message; ``sum.malformed`` names the seat for a body of
    another shape or a key of small order (which would make every shared secret zero)."""
    if not (isinstance(body, dict) and set(body) == {"key"} and isinstance(body["key"], bytes) and len(body["key"]) == KEY_SIZE):
        raise FairnessError(seat, "sum.malformed", "a pair-key body is {key: bin32}")
    try:
        bindings.crypto_scalarmult(_PROBE, body["key"])
    except CryptoError:
        raise FairnessError(seat, "sum.malformed", "the pair key is of small order") from None
    return body["key"]


def pair_secret(game: GameRef, low: int, high: int, keys: Mapping[int, bytes], own: Seed) -> bytes:
    """The secret of seats ``low < high``, from ``own`` (the seed of one of them) and the other's
    published key: ``H("fair/sum-pair", [table, game, low, high, key_low, key_high, X25519])``."""
    if own.seat not in (low, high) or not low < high:
        raise ValueError("the pair secret is computed by one of the pair, low seat first")
    other = keys[high if own.seat == low else low]
    shared = bindings.crypto_scalarmult(pair_secret_key(own), other)
    return digest("fair/sum-pair", encode([game.table, game.index, low, high, keys[low], keys[high], shared]))


def mask(secret: bytes, round_id: str, index: int, mod: int) -> int:
    """``m_ab`` of sum ``index`` of round ``round_id``: the first ``below(mod)`` of the stream
    keyed by ``H("fair/sum-mask", [secret, round, index])``."""
    return Stream(digest("fair/sum-mask", encode([secret, round_id, index]))).below(mod)


def offset(seat: int, masks: Mapping[tuple[int, int], int], mod: int) -> int:
    """What ``seat`` adds to its value: its masks with higher seats minus those with lower ones."""
    total = 0
    for (low, high), value in masks.items():
        if low == seat:
            total += value
        elif high == seat:
            total -= value
    return total % mod


def share(value: int, seat: int, masks: Mapping[tuple[int, int], int], mod: int) -> int:
    """``seat``'s share of its ``value``; ``masks`` holds every pair of the sum that ``seat`` is in."""
    return (value + offset(seat, masks, mod)) % mod


def claimed(share_value: int, seat: int, masks: Mapping[tuple[int, int], int], mod: int) -> int:
    """The value ``seat`` claimed with its share, given its masks (the inverse of :func:`share`)."""
    return (share_value - offset(seat, masks, mod)) % mod


@dataclass(frozen=True)
class Due:
    """One sum a seat's shares message must hold: its index and modulus."""

    index: int
    modulus: int


def shares_body(round_id: str, shares: Sequence[tuple[int, int]]) -> dict:
    """The canonical body of a seat's shares: ``[[sum index, share], …]``, indices increasing."""
    return {"round": round_id, "shares": [[index, value] for index, value in sorted(shares)]}


def check_shares(seat: int, round_id: str, due: Sequence[Due], body: object) -> dict[int, int]:
    """The shares of a message holding exactly the ``due`` sums, each below its modulus;
    ``sum.malformed`` names the seat otherwise."""
    expected = [item.index for item in due]
    if not (isinstance(body, dict) and set(body) == {"round", "shares"} and body["round"] == round_id
            and isinstance(body["shares"], (list, tuple))):
        raise FairnessError(seat, "sum.malformed", f"a shares body for round {round_id!r} is {{round, shares}}")
    items = body["shares"]
    if [item[0] if isinstance(item, (list, tuple)) and len(item) == 2 else None for item in items] != expected:
        raise FairnessError(seat, "sum.malformed", f"shares for the sums {expected} are due, as [index, share] pairs in order")
    shares = {}
    for item, wanted in zip(items, due):
        value = item[1]
        if type(value) is not int or not 0 <= value < wanted.modulus:
            raise FairnessError(seat, "sum.malformed", f"the share of sum {wanted.index} must be an integer below {wanted.modulus}")
        shares[wanted.index] = value
    return shares
