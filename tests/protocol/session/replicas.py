"""Replicas of one table in memory, with delivery under the test's control (as h11's tests pair two ends).

Nothing here runs on its own: a test says which replica's envelopes reach which replica and
at what time, so every interleaving is explicit and deterministic.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from fairtable.protocol.envelope import Envelope
from fairtable.protocol.genesis import PROTOCOL_VERSION, Genesis, Seat, SignedGenesis
from fairtable.protocol.identity import SecretKey
from fairtable.protocol.session.replica import Offered, Replica, Timing

KEYS = tuple(SecretKey.from_seed(bytes([60 + n]) * 32) for n in range(16))


def genesis(game: str, seats: int, options: dict | None = None, variant: str = "normal", nonce: bytes = bytes(16),
            version: int = PROTOCOL_VERSION) -> SignedGenesis:
    """The signed genesis; ``version=2`` for a test of what version 2 tables do without proofs."""
    value = Genesis(game, variant, options or {}, tuple(Seat(KEYS[s].public, f"seat-{s}") for s in range(seats)), nonce, version)
    return SignedGenesis(value, tuple(value.sign(KEYS[s]) for s in range(seats)))


class Replicas:
    """One replica per seat of ``table``; ``timing`` for all (grace 10 s, settle 10 s by default)."""

    def __init__(self, table: SignedGenesis, timing: Timing = Timing(grace=10.0)) -> None:
        self.genesis = table
        self.replicas = [Replica(table, seat=s, key=KEYS[s], secret=bytes([s + 1]) * 32, timing=timing, now=0.0)
                         for s in range(len(table.genesis.seats))]

    def __getitem__(self, seat: int) -> Replica:
        return self.replicas[seat]

    def deliver(self, source: int, target: int, now: float) -> list[Offered]:
        """Everything ``source`` holds on its chain and off it, offered to ``target``."""
        held = [*self[source].chain, *self[source].off_chain()]
        return [self[target].receive(envelope, now) for envelope in held]

    def gossip(self, now: float, among: Sequence[int] | None = None) -> None:
        """Deliver between every pair of ``among`` until nobody learns anything more."""
        seats = range(len(self.replicas)) if among is None else among
        while True:
            before = [(r.head, len(r.evidence)) for r in self.replicas]
            for source in seats:
                for target in seats:
                    if source != target:
                        self.deliver(source, target, now)
            for seat in seats:
                self[seat].tick(now)
            if before == [(r.head, len(r.evidence)) for r in self.replicas]:
                return


def send(replica: Replica, envelopes: Iterable[Envelope], now: float) -> list[Offered]:
    return [replica.receive(envelope, now) for envelope in envelopes]


def kinds(replica: Replica) -> list[tuple[int, str]]:
    return [(e.seat, e.kind) for e in replica.chain]
