"""Public random values from hash chains: one message per seat per value, checked by one hash.

Each seat derives ``x_N`` from its seed and hashes down to ``x_0``
(``x_{i-1} = H("fair/chain", [i, x_i])``), publishing the tip ``x_0`` beside its seed
commitment at game start. For the ``i``-th public value every seat reveals ``x_i``; anyone
checks it by hashing it onto the seat's previous reveal. The value is the hash of the game,
the index and every seat's ``x_i``.

Why this is fair: all contributions were fixed at game start (the tips commit to them),
and ``x_i`` cannot be computed from ``x_{i-1}`` (preimage resistance), so nobody knows a
value before every seat has revealed, and no seat can change its contribution: the last
to reveal can only withhold, which names it. Compared with a fresh commit-then-reveal per
value this takes one round instead of two, and it needs no public-key machinery.
"""

from __future__ import annotations

import hmac
from collections.abc import Mapping
from dataclasses import dataclass, field

from fairtable.protocol.codec import encode
from fairtable.protocol.errors import ProtocolError, UsageError
from fairtable.protocol.fair.errors import FairnessError
from fairtable.protocol.fair.seeds import GameRef, Seed, Stream
from fairtable.protocol.hashing import digest

CHAIN_LENGTH = 256
"""``N``: the values each seat's chain holds, one game's public values at most. The same for every
table and game (it is bound into the chain's derivation); only the test vectors use shorter chains."""
VALUE_SIZE = 32


class ChainExhausted(ProtocolError):
    """More public values were asked for than the chains hold."""

    def __init__(self, index: int, length: int) -> None:
        self.index = index
        self.length = length
        super().__init__(f"public value {index} asked for, but the hash chains hold only {length} values per game")


def chain_link(index: int, value: bytes) -> bytes:
    """``x_{index-1}`` from ``x_index``."""
    return digest("fair/chain", encode([index, value]))


@dataclass(frozen=True)
class HashChain:
    """A seat's whole chain; ``values[i]`` is ``x_i``, ``values[0]`` the published tip."""

    values: tuple[bytes, ...] = field(repr=False)

    @classmethod
    def derive(cls, seed: Seed, length: int = CHAIN_LENGTH) -> HashChain:
        """The chain of ``length`` values from the seat's seed, ``x_length`` first derived then hashed
        down to the tip; ``length`` is bound into the derivation, so chains of different lengths share nothing."""
        if type(length) is not int or length < 1:
            raise UsageError(f"a hash chain holds at least one value, got {length!r}")
        value = seed.key("public-random/chain-end", length)
        values = [value]
        for index in range(length, 0, -1):
            value = chain_link(index, value)
            values.append(value)
        return cls(tuple(reversed(values)))

    @property
    def tip(self) -> bytes:
        """``x_0``: published with the seed commitment, it fixes every later contribution."""
        return self.values[0]

    @property
    def length(self) -> int:
        """How many public values the chain can contribute to (``N``; the tip is not one)."""
        return len(self.values) - 1

    def reveal(self, index: int) -> bytes:
        """This seat's contribution to public value ``index`` (1-based)."""
        if type(index) is not int or index < 1:
            raise UsageError(f"public values are numbered from 1, got {index!r}")
        if index > self.length:
            raise ChainExhausted(index, self.length)
        return self.values[index]


def reveal_body(chain: HashChain, index: int) -> dict:
    """The canonical body of a reveal message."""
    return {"index": index, "reveal": chain.reveal(index)}


def check_reveal(seat: int, index: int, body: object, previous: bytes, length: int = CHAIN_LENGTH) -> bytes:
    """The revealed ``x_index`` of ``seat``, checked against its ``previous`` one (the tip for index 1).

    Raises :class:`ChainExhausted` past the chain's end, and a :class:`FairnessError` naming
    the seat for a malformed body or a value that does not hash onto ``previous``.
    """
    if type(index) is not int or index < 1:
        raise UsageError(f"public values are numbered from 1, got {index!r}")
    if index > length:
        raise ChainExhausted(index, length)
    if not isinstance(body, dict) or set(body) != {"index", "reveal"} or body["index"] != index:
        raise FairnessError(seat, "public-random.malformed", f"a reveal for value {index} is the map {{index, reveal}}")
    reveal = body["reveal"]
    if not (isinstance(reveal, bytes) and len(reveal) == VALUE_SIZE
            and hmac.compare_digest(chain_link(index, reveal), previous)):
        detail = f"the reveal for value {index} does not hash to the previous one"
        raise FairnessError(seat, "public-random.bad-reveal", detail)
    return reveal


def public_value(game: GameRef, index: int, reveals: Mapping[int, bytes | None]) -> bytes:
    """Public value ``index`` from every seat's checked reveal (None for a seat that withheld it)."""
    for seat in sorted(reveals):
        if reveals[seat] is None:
            raise FairnessError(seat, "public-random.withheld", f"no reveal for public value {index}")
    contributions = [[seat, reveals[seat]] for seat in sorted(reveals)]
    return digest("fair/public-random", encode([game.table, game.index, index, contributions]))


def public_below(game: GameRef, index: int, reveals: Mapping[int, bytes | None], k: int) -> int:
    """Public value ``index`` mapped without bias to ``0 .. k-1`` (the first draw of its stream)."""
    return Stream(public_value(game, index, reveals)).below(k)


def check_tip(seed: Seed, tip: bytes, length: int = CHAIN_LENGTH) -> None:
    """After the seed reveal: the published tip must be the one the seed derives."""
    if not hmac.compare_digest(HashChain.derive(seed, length).tip, tip):
        detail = "the published chain tip is not derived from the seed"
        raise FairnessError(seed.seat, "public-random.tip-mismatch", detail)
