"""The least CPU a node's share of a proved deck can cost here: its group operations, counted, at raw prices.

What :func:`node_work` counts for one seat of a public proved deck of ``m`` cards (fairness.md §12):

- its own stages proved and every other seat's stage verified, each with the operations
  §12.4 and §12.3 need (:func:`~protocol.fair.deck_proofs.stage_work`);
- its own commitments (``D`` and every ``K_i``: ``1 + m`` fixed-base multiplications) and every
  other seat's ``m`` published keys checked against theirs (one fixed-base multiplication each);
- the ``m`` card points (``crypto_core_ed25519_from_uniform``);
- the HMAC-SHA512 blocks that become the proofs' scalars: the prover's nonces (``4m + 4`` for a
  shuffle, ``m`` for a lock) and the challenges (``u``: ``m`` per shuffle; ``c``: one per part).

:func:`prices` times each as a raw batch of the C library's call (CPU time), and :func:`priced` sums the
counts at those prices. libsodium has no multi-scalar multiplication, so a sum of products costs
its terms, and its variable-base multiplication re-checks its input's subgroup on every call, the
check every received point needs anyway (§12.2): no cheaper multiplication exists to price. Not
counted, because no proof needs it: the codec, the shape checks of §5.4 and §12.8, Python itself,
and deriving the keys from the seed (which the unproven deck does too).
"""

from __future__ import annotations

import hmac
from collections.abc import Callable
from dataclasses import dataclass, fields
from functools import partial

from nacl.bindings import crypto_core_ed25519_from_uniform
from nacl.bindings.crypto_scalarmult import ffi, lib

from fairtable.node.cli.bench.timing import timed
from fairtable.protocol import digest
from fairtable.protocol.fair import LOCK, SHUFFLE, Deck, stage_work


@dataclass
class Work:
    """Counts of the raw calls a node's share of a proved deck needs (see the module's docstring)."""

    mults: int = 0
    base_mults: int = 0
    adds: int = 0
    points: int = 0
    blocks: int = 0

    @property
    def group_ops(self) -> int:
        """Every group operation, hash blocks aside: what grows with the deck."""
        return self.mults + self.base_mults + self.adds + self.points


def node_work(deck: Deck, seat: int) -> Work:
    """What ``seat``'s node must compute for ``deck``'s proofs: proving its stages, verifying the others'."""
    m, others = deck.size, len(deck.seats) - 1
    work = Work(base_mults=1 + m + others * m, points=m)
    for stage in deck.stages:
        prove, verify = stage_work(deck, stage.index)
        ops = prove if stage.seat == seat else verify
        work.mults += ops.mults
        work.base_mults += ops.base_mults
        work.adds += ops.adds
        parts = (stage.kind != LOCK) + (stage.kind != SHUFFLE)
        work.blocks += parts + (m if stage.kind != LOCK else 0)  # the challenges c, and u for a shuffle
        if stage.seat == seat:
            work.blocks += (4 * m + 4 if stage.kind != LOCK else 0) + (m if stage.kind != SHUFFLE else 0)
    return work


_POINT = crypto_core_ed25519_from_uniform(digest("bench/floor", b"point"))
_SCALAR = (int.from_bytes(digest("bench/floor", b"scalar"), "little") >> 4).to_bytes(32, "little")
_KEY = digest("bench/floor", b"key")
_OUT = ffi.new("unsigned char[]", 32)
_RAW: dict[str, Callable[[int], object]] = {
    "mults": lambda i: lib.crypto_scalarmult_ed25519_noclamp(_OUT, _SCALAR, _POINT),
    "base_mults": lambda i: lib.crypto_scalarmult_ed25519_base_noclamp(_OUT, _SCALAR),
    "adds": lambda i: lib.crypto_core_ed25519_add(_OUT, _POINT, _POINT),
    "points": lambda i: lib.crypto_core_ed25519_from_uniform(_OUT, _KEY),
    "blocks": lambda i: hmac.digest(_KEY, i.to_bytes(8, "big"), "sha512"),
}
"""libsodium's own functions through cffi, without pynacl's checks and copies around them (which
are Python a caller may skip): the C library's cost. Each returns 0 here, so no refusal is priced."""
if any(_RAW[name](0) for name in ("mults", "base_mults", "adds", "points")):
    raise AssertionError("a priced libsodium call refuses its input, so it would be priced at the cost of the refusal")


Prices = dict[str, float]
"""Seconds per raw call, by the name of the :class:`Work` field it prices."""


def prices(calls: int = 100, batches: int = 5) -> Prices:
    """Seconds per raw call of each operation: the least of ``batches`` batches of ``calls`` (CPU time).

    Short batches, the least counting: a neighbour's burst (or the host's, which a virtual machine
    counts as its own CPU time) lands in some batch, not in the price.
    """
    return {name: min(timed(partial(_batch, raw, calls))[0] for _ in range(batches)) / calls for name, raw in _RAW.items()}


def _batch(raw: Callable[[int], object], calls: int) -> None:
    for i in range(calls):
        raw(i)


def cheapest(a: Prices, b: Prices) -> Prices:
    """The lower price of each operation."""
    return {name: min(a[name], b[name]) for name in a}


def priced(work: Work, price: Prices) -> float:
    """Seconds ``work`` costs at ``price``."""
    return sum(getattr(work, f.name) * price[f.name] for f in fields(Work))
