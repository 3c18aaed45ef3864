"""An :class:`~games.contract.OpenSums` round: committed values made public only as sums.

Round ``sum-<n>`` (n counts the game's sum rounds): every seat of the round that has not yet
published its pair key in this game sends ``pair``, in seat order; then every seat of the
round, in seat order, sends ``shares`` for the sums it is in (``protocol.fair.masked_sum``).
Each share is kept as a :class:`Term`, so that when its seat later opens that cell of that
layer (with a Merkle proof) the value can be compared with the one the share claimed: by
whoever knows the masks (the other seat of a two-seat sum live, the verifier with every
seed), naming the seat; and by everyone once all of a sum's terms are opened, naming suspects.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from fairtable.games.contract import OpenSums
from fairtable.protocol.fair import masked_sum
from fairtable.protocol.fair.errors import FairnessError

if TYPE_CHECKING:
    from fairtable.protocol.session.run import GameRun


@dataclass
class SumRecord:
    """One sum of one round: its terms, its moduli, the shares and, as cells open, the values."""

    round: str
    index: int
    layer: str
    terms: tuple[tuple[int, int], ...]
    bound: int
    total: int | None = None
    opened: dict[int, int] = field(default_factory=dict)
    """Seat -> the value its later opening of the term's cell proved."""
    named: bool = False
    """A false share of this sum was already pinned on its seat."""

    @property
    def seats(self) -> tuple[int, ...]:
        """The seats whose values this sum adds, in term order."""
        return tuple(seat for seat, _ in self.terms)

    @property
    def modulus(self) -> int:
        """The modulus the shares are taken in: large enough that the sum of every value below
        ``bound`` never wraps."""
        return masked_sum.modulus(len(self.terms), self.bound)


@dataclass
class Term:
    """A seat's share of one sum: the envelope that carried it, and the value it claimed
    (when this session knows the seat's masks)."""

    sum: SumRecord
    seat: int
    envelope: int
    claimed: int | None
    checked: bool = False
    """Its cell was opened and compared (an opening and a seed reveal may both show it)."""


class SumBook:
    """A game's pair keys, pair secrets and every share sent, by the cell it speaks for."""

    def __init__(self, run: GameRun) -> None:
        self._run = weakref.ref(run)
        self.keys: dict[int, bytes] = {}
        self.rounds = 0
        self.terms: dict[tuple[int, str, int], list[Term]] = {}
        self._secrets: dict[tuple[int, int], bytes | None] = {}

    @property
    def run(self) -> GameRun:
        """Its game, referred to weakly: a finished game is freed at once, not left to the cycle collector."""
        run = self._run()
        assert run is not None, "a sum book outlived its game"
        return run

    def secret(self, low: int, high: int) -> bytes | None:
        """The pair's secret, from a seed of the pair this session knows, preferring one whose
        published key it derives: with the other seat's published key, that is the secret the
        honest seat used live, even if the other published a key of its own making."""
        if (low, high) not in self._secrets:
            known = [seat for seat in (low, high) if seat in self.run.seeds]
            known.sort(key=lambda seat: masked_sum.pair_public_key(self.run.seeds[seat]) != self.keys.get(seat))
            secret = None
            if known and low in self.keys and high in self.keys:
                secret = masked_sum.pair_secret(self.run.fair, low, high, self.keys, self.run.seeds[known[0]])
            self._secrets[(low, high)] = secret
        return self._secrets[(low, high)]

    def masks(self, record: SumRecord, seat: int) -> dict[tuple[int, int], int] | None:
        """Every mask ``seat`` applies in ``record``, or None when this session lacks one."""
        masks = {}
        for other in record.seats:
            if other == seat:
                continue
            pair = (min(seat, other), max(seat, other))
            secret = self.secret(*pair)
            if secret is None:
                return None
            masks[pair] = masked_sum.mask(secret, record.round, record.index, record.modulus)
        return masks

    def opened(self, seat: int, layer: str, cells: dict[int, int]) -> list[tuple[int | None, FairnessError]]:
        """Check the shares ``seat`` sent for ``cells`` of ``layer`` against the values just opened:
        a violation naming the seat, at the envelope of its share, when the claimed value differs;
        else, once a whole sum is opened and does not add up, one naming the sum's seats as
        suspects (``None``: at the opening itself)."""
        found: list[tuple[int | None, FairnessError]] = []
        for cell, value in cells.items():
            for term in self.terms.get((seat, layer, cell), ()):
                if term.checked:
                    continue
                term.checked = True
                record = term.sum
                record.opened[seat] = value
                if term.claimed is not None and term.claimed != value:
                    detail = f"the share for sum {record.index} of {record.round} claimed {term.claimed}, the opening proves {value}"
                    found.append((term.envelope, FairnessError(seat, "sum.share-mismatch", detail)))
                    record.named = True
                elif not record.named and len(record.opened) == len(record.terms) and record.total is not None \
                        and sum(record.opened.values()) % record.modulus != record.total:
                    detail = f"sum {record.index} of {record.round} is {record.total}, its opened values add up to {sum(record.opened.values())}"
                    found.append((None, FairnessError(None, "sum.mismatch", detail, record.seats)))
        return found


@dataclass
class SumRound:
    """The sums of one request, the seats that share, and the shares received so far."""

    book: SumBook
    name: str
    records: tuple[SumRecord, ...]
    shares: dict[int, dict[int, int]] = field(default_factory=dict)

    @classmethod
    def plan(cls, book: SumBook, request: OpenSums) -> SumRound:
        """The round for an ``OpenSums`` request: its sums, the seats that share, and which of them
        still owe a pair key."""
        if not request.sums or request.bound < 1:
            raise ValueError("the game asked for no sums, or for values below no bound")
        name = f"sum-{book.rounds}"
        book.rounds += 1
        records = []
        for index, terms in enumerate(request.sums):
            seats = [seat for seat, _ in terms]
            if len(seats) < 2 or seats != sorted(set(seats)):
                raise ValueError(f"sum {index} must name two or more distinct seats, increasing")
            records.append(SumRecord(name, index, request.layer, tuple(terms), request.bound))
        return cls(book, name, tuple(records))

    @property
    def seats(self) -> tuple[int, ...]:
        """The seats that send shares in this round, in seat order."""
        return tuple(sorted({seat for record in self.records for seat in record.seats}))

    def due(self, seat: int) -> list[masked_sum.Due]:
        """Whether ``seat`` still owes its ``shares`` in this round."""
        return [masked_sum.Due(record.index, record.modulus) for record in self.records if seat in record.seats]

    def can_share(self, seat: int) -> bool:
        """Whether this session can compute ``seat``'s shares: its own node (its data and seed)."""
        return seat in self.book.run.seeds and self.book.run.hidden.own(seat) is not None

    def shares_body(self, seat: int) -> dict:
        """This seat's ``shares`` body: one masked share per sum it is a term of, from the pair
        secrets its seed gives."""
        data = self.book.run.hidden.own(seat)
        assert data is not None
        shares = []
        for record in self.records:
            if seat in record.seats:
                cell = dict(record.terms)[seat]
                masks = self.book.masks(record, seat)
                assert masks is not None, "a seat knows every mask of its own sums"
                shares.append((record.index, masked_sum.share(data[record.layer][cell], seat, masks, record.modulus)))
        return masked_sum.shares_body(self.name, shares)

    def check(self, seat: int, body: object) -> dict[int, int]:
        """The shares of a ``shares`` body, refused (naming the seat) unless there is exactly one
        well-formed share per sum the seat is a term of."""
        return masked_sum.check_shares(seat, self.name, self.due(seat), body)

    def adopt(self, seat: int, shares: dict[int, int], envelope: int, local: int | None) -> list[FairnessError]:
        """Keep ``seat``'s shares (sent in ``envelope``) and decode those this session can: a
        claimed value outside the layer's range is ``sum.bad-share``, naming ``seat``."""
        self.shares[seat] = shares
        found = []
        for index, value in shares.items():
            record = self.records[index]
            masks = self.book.masks(record, seat) if seat != local else None
            claimed = None if masks is None else masked_sum.claimed(value, seat, masks, record.modulus)
            cell = dict(record.terms)[seat]
            if claimed is not None and claimed >= record.bound:
                detail = f"the share for sum {index} of {self.name} claims {claimed}, but values are below {record.bound}"
                found.append(FairnessError(seat, "sum.bad-share", detail))
                record.named, claimed = True, None
            self.book.terms.setdefault((seat, record.layer, cell), []).append(Term(record, seat, envelope, claimed))
        return found

    def totals(self) -> tuple[int, ...]:
        """Every sum, once every seat has sent its shares."""
        totals = []
        for record in self.records:
            total = sum(self.shares[seat][record.index] for seat in record.seats) % record.modulus
            record.total = total
            totals.append(total)
        return tuple(totals)
