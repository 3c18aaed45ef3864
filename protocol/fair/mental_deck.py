"""Mental deck: a jointly shuffled deck that no seat can see into, with no dealer.

Every physical card (every copy too) is a group point nobody knows a discrete log of.
Encryption is multiplication by a secret scalar, which commutes, so layers can be added
and removed in any order. The shuffle is a fixed schedule of stages over the deck's seats:

1. ``shuffle``: each seat but the last in turn multiplies every entry by its deck key and
   applies its permutation (``out[i] = k · in[p[i]]``);
2. ``shuffle-lock``: the last seat permutes and multiplies position ``i`` by its position
   key ``k_i`` directly (it has nothing to lock afterwards, which saves a pass);
3. ``lock``: each other seat in turn swaps its deck key for position keys
   (``out[i] = (k_i · k⁻¹) · in[i]``).

Afterwards position ``i`` holds ``(∏ seats' k_i) · card``. Publishing one's ``k_i`` removes
one layer of one position and nothing else. A seat's keys and permutation derive from its
seed, so after the seed reveal :func:`verify_deck` recomputes every stage and names the
first seat whose output differs. A *hidden* deck is one whose composition only its owner
knows until the end: the owner runs the first stage on cards of its choice, committed by
a salted hash.
"""

from __future__ import annotations

import hmac
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, NamedTuple

from fairtable.protocol.codec import encode
from fairtable.protocol.errors import UsageError
from fairtable.protocol.fair import edwards
from fairtable.protocol.fair.errors import FairnessError
from fairtable.protocol.fair.group import (
    POINT_SIZE,
    InvalidPoint,
    Ops,
    hash_to_points,
    invert,
    invert_all,
    is_scalar,
    multiply,
    multiply_each,
    product,
    scalar_from,
    scaled,
)
from fairtable.protocol.fair.seeds import GameRef, Seed
from fairtable.protocol.hashing import digest

SHUFFLE = "shuffle"
"""Stage kind: encrypt every entry with the deck key and permute (every seat but the last)."""
SHUFFLE_LOCK = "shuffle-lock"
"""Stage kind: permute and encrypt with position keys at once (the last seat)."""
LOCK = "lock"
"""Stage kind: swap the deck key for position keys, so each position can be opened alone."""
MAX_NAME = 64

Entries = tuple[bytes, ...]


class Card(NamedTuple):
    """A physical card: the card id and which copy of it (0 for the first)."""

    id: int
    copy: int


@dataclass(frozen=True)
class Stage:
    """Stage ``index`` of a shuffle is computed and published by ``seat``."""

    index: int
    kind: str
    seat: int


def _check_ids(what: str, values: Sequence[int]) -> tuple[int, ...]:
    values = tuple(values)
    if any(type(v) is not int or v < 0 for v in values):
        raise UsageError(f"{what} must be non-negative integers")
    return values


@dataclass(frozen=True)
class Deck:
    """One deck instance of one game: who shuffles it and which cards it may hold.

    For a public deck ``cards`` is the composition in initial order (a repeated id is
    another copy). For a hidden deck ``cards`` is the catalogue of ids the owner may pick
    from, each up to ``max_copies`` times, and ``size`` how many it picks.
    Build with :meth:`public` or :meth:`hidden`.
    """

    game: GameRef
    name: str
    seats: tuple[int, ...]
    cards: tuple[int, ...]
    size: int
    owner: int | None = None
    max_copies: int = 1
    proved: bool = False
    """A deck of protocol version 3 (fairness.md §12): its points are edwards25519 encodings and
    every stage and key carries its proof (:mod:`~protocol.fair.deck_proofs`)."""

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not 1 <= len(self.name) <= MAX_NAME or not self.name.isprintable():
            raise UsageError(f"a deck name is 1..{MAX_NAME} printable characters, got {self.name!r}")
        seats = _check_ids("seats", self.seats)
        if not seats or len(set(seats)) != len(seats):
            raise UsageError("a deck needs one or more distinct seats")
        if type(self.size) is not int or self.size < 1:
            raise UsageError("a deck holds at least one card")
        if self.owner is None:
            if len(self.cards) != self.size:
                raise UsageError("a public deck's size is the number of its cards")
        elif self.owner not in seats:
            raise UsageError(f"the owner {self.owner} of a hidden deck must be one of its seats")
        elif len(set(self.cards)) != len(self.cards) or type(self.max_copies) is not int or self.max_copies < 1:
            raise UsageError("a hidden deck's catalogue has distinct ids and allows at least one copy")
        elif self.size > len(self.cards) * self.max_copies:
            raise UsageError(f"a hidden deck of {self.size} cards does not fit its catalogue")
        object.__setattr__(self, "seats", seats)
        object.__setattr__(self, "cards", _check_ids("card ids", self.cards))

    @classmethod
    def public(cls, game: GameRef, name: str, seats: Sequence[int], cards: Sequence[int], proved: bool = False) -> Deck:
        """A deck whose composition everybody knows, e.g. a fresh pack or a discard pile."""
        return cls(game, name, tuple(seats), tuple(cards), len(cards), proved=proved)

    @classmethod
    def hidden(
        cls,
        game: GameRef,
        name: str,
        seats: Sequence[int],
        owner: int,
        size: int,
        catalogue: Sequence[int],
        max_copies: int,
        proved: bool = False,
    ) -> Deck:
        """A deck of ``size`` cards the owner picks from ``catalogue``, kept secret until the end."""
        return cls(game, name, tuple(seats), tuple(catalogue), size, owner, max_copies, proved)

    @cached_property
    def label(self) -> bytes:
        """``H("fair/deck", [table, game, name])``: every card point of the deck hangs off it."""
        return digest("fair/deck", encode([self.game.table, self.game.index, self.name]))

    @cached_property
    def candidates(self) -> tuple[Card, ...]:
        """Every card an entry may open to."""
        if self.owner is None:
            return _numbered(self.cards)
        return tuple(Card(card, copy) for card in self.cards for copy in range(self.max_copies))

    @cached_property
    def points(self) -> tuple[bytes, ...]:
        """The point of each candidate, in order."""
        return self._points(self.candidates)

    def _points(self, cards: Sequence[Card]) -> tuple[bytes, ...]:
        datas = [encode([self.label, card.id, card.copy]) for card in cards]
        return tuple(edwards.hash_to_points("fair/card", datas) if self.proved else hash_to_points("fair/card", datas))

    @property
    def multiply_each(self) -> Callable[..., list[bytes]]:
        """The deck's ``multiply_each``: :func:`~protocol.fair.group.multiply_each` on u-coordinates,
        :func:`~protocol.fair.edwards.multiply_each` on a proved deck's Edwards encodings."""
        return edwards.multiply_each if self.proved else multiply_each

    @cached_property
    def lookup(self) -> dict[bytes, Card]:
        """Card point to the card it stands for: how a fully decrypted entry is read. A point not
        in it opens to no card, which is cheating."""
        return dict(zip(self.points, self.candidates))

    @cached_property
    def stages(self) -> tuple[Stage, ...]:
        """The schedule: the owner of a hidden deck first, then the seats in their given order."""
        order = self.seats if self.owner is None else (self.owner, *(s for s in self.seats if s != self.owner))
        kinds = [(SHUFFLE, seat) for seat in order[:-1]] + [(SHUFFLE_LOCK, order[-1])]
        kinds += [(LOCK, seat) for seat in order[:-1]]
        return tuple(Stage(index, kind, seat) for index, (kind, seat) in enumerate(kinds))

    def initial(self, composition: Sequence[int] | None = None) -> Entries:
        """The input of stage 0: the card points in order (a hidden deck's from its composition)."""
        if self.owner is None:
            return self.points
        return self._points(self.initial_cards(composition))

    def initial_cards(self, composition: Sequence[int] | None = None) -> tuple[Card, ...]:
        """The cards of stage 0's input in order: the candidates, or a hidden deck's composition numbered."""
        if self.owner is None:
            return self.candidates
        return _numbered(self.check_composition(composition))

    def check_composition(self, composition: Sequence[int] | None) -> tuple[int, ...]:
        """A hidden deck's composition as sorted ids; ValueError unless it fits the catalogue."""
        if composition is None:
            raise UsageError(f"deck {self.name!r} is hidden: its first stage needs the owner's composition")
        chosen = tuple(sorted(_check_ids("card ids", composition)))
        if len(chosen) != self.size:
            raise UsageError(f"deck {self.name!r} holds {self.size} cards, the composition has {len(chosen)}")
        allowed = set(self.cards)
        for card, count in Counter(chosen).items():
            if card not in allowed:
                raise UsageError(f"card {card} is not in the catalogue of deck {self.name!r}")
            if count > self.max_copies:
                raise UsageError(f"card {card} appears {count} times, at most {self.max_copies} allowed")
        return chosen


def _numbered(cards: Sequence[int]) -> tuple[Card, ...]:
    seen: Counter[int] = Counter()
    numbered = []
    for card in cards:
        numbered.append(Card(card, seen[card]))
        seen[card] += 1
    return tuple(numbered)


@dataclass(frozen=True)
class DeckKeys:
    """A seat's secrets for one deck, all derived from its seed under the deck's name."""

    seat: int
    deck_key: bytes
    permutation: tuple[int, ...]
    position_keys: tuple[bytes, ...]

    @classmethod
    def derive(cls, seed: Seed, deck: Deck) -> DeckKeys:
        """The seat's deck key, permutation and per-position keys for ``deck``, all from its seed:
        so the verifier, given the revealed seed, recomputes every stage that seat produced."""
        positions = seed.stream("deck/positions", deck.name)
        return cls(
            seed.seat,
            scalar_from(seed.stream("deck/key", deck.name)),
            seed.stream("deck/permutation", deck.name).permutation(deck.size),
            tuple(scalar_from(positions) for _ in range(deck.size)),
        )


def composition_commitment(seed: Seed, deck: Deck, composition: Sequence[int] | None) -> bytes:
    """``H("fair/deck-composition", [deck label, salt, sorted ids])``, the salt derived from the seed."""
    salt = seed.key("deck/composition-salt", deck.name)
    return digest("fair/deck-composition", encode([deck.label, salt, list(deck.check_composition(composition))]))


def composition_body(deck: Deck, composition: Sequence[int]) -> dict:
    """The canonical body in which a hidden deck's owner reveals its composition after the game."""
    return {"cards": list(deck.check_composition(composition)), "deck": deck.name}


def check_composition_body(deck: Deck, body: Any) -> tuple[int, ...]:
    """The revealed composition, as sorted ids; a :class:`FairnessError` names the owner if malformed."""
    if not (isinstance(body, dict) and set(body) == {"cards", "deck"} and body["deck"] == deck.name
            and isinstance(body["cards"], (list, tuple))):
        detail = f"a composition of {deck.name!r} is the map {{cards, deck}}"
        raise FairnessError(deck.owner, "deck.malformed-composition", detail)
    try:
        return deck.check_composition(body["cards"])
    except ValueError as exc:
        raise FairnessError(deck.owner, "deck.bad-composition", str(exc)) from None


def run_stage(
    deck: Deck, index: int, keys: DeckKeys, entries: Sequence[bytes], ops: Ops | None = None, recomputed: bool = False,
) -> Entries:
    """This seat's output for stage ``index`` given the previous stage's entries (or :meth:`Deck.initial`).

    Raises a :class:`FairnessError` naming the previous stage's seat if an input entry is not
    a group point: the multiplication is the check. Stage 0's input (card points) and a
    ``recomputed`` input (this process's own products, :func:`verify_deck`) never came from
    another seat, so their points are not checked again.
    """
    stage = deck.stages[index]
    if keys.seat != stage.seat:
        raise UsageError(f"stage {index} belongs to seat {stage.seat}, these keys to seat {keys.seat}")
    if len(entries) != deck.size:
        raise UsageError(f"stage {index} takes {deck.size} entries, got {len(entries)}")
    checked = index > 0 and not recomputed
    try:
        if stage.kind == LOCK:
            factors = scaled(invert(keys.deck_key), keys.position_keys)
            return tuple(multiply_each(factors, entries, ops, checked))
        permuted = [entries[i] for i in keys.permutation]
        if stage.kind == SHUFFLE:
            return tuple(multiply(keys.deck_key, permuted, ops, checked))
        return tuple(multiply_each(keys.position_keys, permuted, ops, checked))
    except InvalidPoint as exc:
        author = deck.stages[index - 1].seat if index else None
        position = keys.permutation[exc.index] if stage.kind != LOCK else exc.index
        detail = f"entry {position} of stage {index - 1} is not a group point"
        raise FairnessError(author, "deck.invalid-point", detail) from None


def stage_body(deck: Deck, index: int, entries: Sequence[bytes], commitment: bytes | None = None) -> dict:
    """The canonical body of a stage message; stage 0 of a hidden deck carries the composition commitment."""
    body: dict[str, Any] = {"deck": deck.name, "stage": index, "entries": list(entries)}
    if commitment is not None:
        body["commitment"] = commitment
    return body


def check_stage(deck: Deck, index: int, body: Any, extra: frozenset[str] = frozenset()) -> Entries:
    """The entries of a received stage message, after every check that needs no secret.

    ``extra`` names the fields a proved stage carries besides these (checked by
    :func:`~protocol.fair.deck_proofs.check_proven_stage`).

    Raises a :class:`FairnessError` naming the stage's seat for a malformed body, a wrong
    entry count, an entry that is not 32 bytes, or a duplicated entry. Whether entries are
    group points is checked by whoever multiplies them next (:func:`run_stage`,
    :func:`open_position`).
    """
    seat = deck.stages[index].seat
    fields = {"deck", "entries", "stage"} | ({"commitment"} if deck.owner is not None and index == 0 else set()) | extra

    def refuse(rule: str, detail: str) -> FairnessError:
        return FairnessError(seat, rule, f"stage {index} of deck {deck.name!r}: {detail}")

    if not isinstance(body, dict) or set(body) != fields:
        raise refuse("deck.malformed-stage", f"the body must be a map with the keys {sorted(fields)}")
    if body["deck"] != deck.name or body["stage"] != index:
        raise refuse("deck.malformed-stage", f"the body names deck {body['deck']!r} stage {body['stage']!r}")
    if "commitment" in fields and not (isinstance(body["commitment"], bytes) and len(body["commitment"]) == 32):
        raise refuse("deck.malformed-stage", "the composition commitment must be 32 bytes")
    entries = body["entries"]
    if not isinstance(entries, (list, tuple)):
        raise refuse("deck.malformed-stage", "entries must be an array")
    if len(entries) != deck.size:
        raise refuse("deck.wrong-count", f"{len(entries)} entries, the deck holds {deck.size}")
    for position, entry in enumerate(entries):
        if not isinstance(entry, bytes) or len(entry) != POINT_SIZE:
            raise refuse("deck.malformed-stage", f"entry {position} is not {POINT_SIZE} bytes")
    if len(set(entries)) != len(entries):
        first = next(i for i, entry in enumerate(entries) if entries.index(entry) != i)
        raise refuse("deck.duplicate-entry", f"entry {first} repeats entry {entries.index(entries[first])}")
    return tuple(entries)


def key_body(deck: Deck, keys: DeckKeys, positions: Sequence[int]) -> dict:
    """The canonical body publishing this seat's position keys for ``positions``."""
    chosen = sorted(set(positions))
    return {"deck": deck.name, "keys": [[position, keys.position_keys[position]] for position in chosen]}


def check_keys(deck: Deck, seat: int, body: Any) -> dict[int, bytes]:
    """The position keys in a key message from ``seat``; a :class:`FairnessError` names it if malformed."""

    def refuse(detail: str) -> FairnessError:
        return FairnessError(seat, "deck.malformed-keys", f"keys for deck {deck.name!r}: {detail}")

    if not isinstance(body, dict) or set(body) != {"deck", "keys"} or body["deck"] != deck.name:
        raise refuse("the body must be the map {deck, keys} naming this deck")
    if not isinstance(body["keys"], (list, tuple)) or not body["keys"]:
        raise refuse("keys must be a non-empty array")
    result: dict[int, bytes] = {}
    last = -1
    for item in body["keys"]:
        if not isinstance(item, (list, tuple)) or len(item) != 2:
            raise refuse("each key is the pair [position, scalar]")
        position, key = item
        if type(position) is not int or not 0 <= position < deck.size:
            raise refuse(f"position {position!r} is outside the deck")
        if position <= last:
            raise refuse("positions must be strictly increasing")
        if not is_scalar(key):
            raise refuse(f"the key for position {position} is not a canonical non-zero scalar")
        result[position] = key
        last = position
    return result


def open_positions(
    deck: Deck,
    entries: Mapping[int, bytes],
    keys: Mapping[int, Mapping[int, bytes]],
    opened: Mapping[Card, int] | None = None,
    ops: Ops | None = None,
    checked: bool = True,
) -> dict[int, Card]:
    """The cards at the given final-stage positions (``entries``: position -> entry).

    ``keys[seat][position]`` must hold every seat's key for every position. One
    multiplication per position, by the inverse of its keys' product (all inverses from one
    inversion). ``opened`` maps cards already seen to their positions. A result that is no
    card of the deck, or a card seen at another position, proves that some key or stage was
    false; who is known only after the seeds are revealed, so the :class:`FairnessError` lists
    the deck's seats as suspects.
    """
    positions = sorted(entries)
    if set(keys) != set(deck.seats) or any(p not in keys[seat] for seat in deck.seats for p in positions):
        raise UsageError(f"opening positions {positions} needs the keys of seats {sorted(deck.seats)} for each")
    totals = [product(keys[seat][position] for seat in sorted(keys)) for position in positions]
    try:
        points = deck.multiply_each(invert_all(totals), [entries[position] for position in positions], ops, checked)
    except InvalidPoint as exc:
        detail = f"final entry {positions[exc.index]} is not a group point"
        raise FairnessError(deck.stages[-1].seat, "deck.invalid-point", detail) from None
    seen = dict(opened or {})
    cards: dict[int, Card] = {}
    for position, point in zip(positions, points):
        card = deck.lookup.get(point)
        if card is None:
            detail = f"position {position} opens to no card of deck {deck.name!r}"
            raise FairnessError(None, "deck.no-card", detail, deck.seats)
        repeat = repeated(deck, position, card, seen)
        if repeat is not None:
            raise repeat
        seen[card] = position
        cards[position] = card
    return cards


def repeated(deck: Deck, position: int, card: Card, opened: Mapping[Card, int]) -> FairnessError | None:
    """The finding if ``card``, opened at ``position``, was already opened at another position.

    A card that opens twice proves some stage or key false, but not whose: the deck's seats
    are the suspects until the seeds are revealed.
    """
    seen = opened.get(card, position)
    if seen == position:
        return None
    detail = f"position {position} opens to card {tuple(card)}, already opened at position {seen}"
    return FairnessError(None, "deck.card-repeated", detail, deck.seats)


def open_position(
    deck: Deck,
    position: int,
    entry: bytes,
    keys: Mapping[int, bytes],
    opened: Mapping[Card, int] | None = None,
    ops: Ops | None = None,
) -> Card:
    """The card at one position given every seat's key for it (``keys``: seat -> key)."""
    by_seat = {seat: {position: key} for seat, key in keys.items()}
    return open_positions(deck, {position: entry}, by_seat, opened, ops)[position]


def verify_deck(
    deck: Deck,
    seeds: Mapping[int, Seed],
    stages: Sequence[Sequence[bytes]],
    keys: Mapping[int, Mapping[int, bytes]],
    composition: Sequence[int] | None = None,
    commitment: bytes | None = None,
    ops: Ops | None = None,
) -> None:
    """Recompute the deck from every seat's revealed seed and name the first seat that deviated.

    ``stages`` are the published stage entries in order (fewer if the game stopped early),
    ``keys`` the position keys each seat published. A hidden deck also needs the owner's
    revealed composition and its commitment. Seeds must already match their commitments.
    """
    derived = {seat: DeckKeys.derive(seeds[seat], deck) for seat in deck.seats}
    if deck.owner is not None:
        try:
            expected = composition_commitment(seeds[deck.owner], deck, composition)
        except ValueError as exc:
            raise FairnessError(deck.owner, "deck.bad-composition", str(exc)) from None
        if commitment is None or not hmac.compare_digest(expected, commitment):
            detail = "the revealed composition does not open the commitment"
            raise FairnessError(deck.owner, "deck.composition-mismatch", detail)
    entries = deck.initial(composition)
    for stage, published in zip(deck.stages, stages):
        entries = run_stage(deck, stage.index, derived[stage.seat], entries, ops, recomputed=True)
        if tuple(published) != entries:
            detail = f"stage {stage.index} ({stage.kind}) differs from its recomputation"
            raise FairnessError(stage.seat, "deck.stage-mismatch", detail)
    for seat in sorted(keys):
        for position, key in sorted(keys[seat].items()):
            if key != derived[seat].position_keys[position]:
                detail = f"the published key for position {position} is not the derived one"
                raise FairnessError(seat, "deck.key-mismatch", detail)
