"""The space battle's catalogue (``starships.json``): kinds of ship, the slots a seat buys them
into, prices, and what a purchase may hold.

A **kind** has a shape, a price (10 per cell, 10 more for the Lancer's and the Spirit's
ability), a maximum count, whether it is a capital ship, and its ability with its cycle. Each
kind has ``max`` **slots**, its copies, one after the other in catalogue order: slot ``i`` is
ship ``i`` of the space fleet (:data:`SPACE`, a bought :class:`~fleet.Fleet`), so the ``ids``
value ``i + 1`` on a cell says which kind lies there. A seat buys a fleet by placing ships in
slots; a **legal purchase** uses each kind's first slots (copy 1, then 2, ...), at least one
ship, at most one capital ship (Dreadnought or space station), and costs at most ``money``.
Reserve fighters are ships too, numbered after the slots (:meth:`Catalogue.fighter`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources

from fairtable.games.contract import Rng, RuleError
from fairtable.games.lang import choose, named
from fairtable.games.zeeslag.fleet import Fleet, Ship
from fairtable.games.zeeslag.shape import Shape

ABILITIES = ("laser", "scan", "nuke", "reserve")
CAPITALS = 1
"""The most capital ships (Dreadnought, space station) a purchase may hold."""


@dataclass(frozen=True)
class Kind:
    """A kind of starship: shape, price, the most a seat may buy, whether it is a capital ship,
    and its ability with its cycle (the own rounds from one use to the next)."""

    id: str
    name: str
    name_en: str
    shape: Shape
    price: int
    most: int
    capital: bool
    ability: str | None
    cycle: int

    @property
    def cells(self) -> int:
        """How many cells a ship of this kind covers."""
        return self.shape.size


@dataclass(frozen=True)
class Catalogue:
    """The space battle's catalogue: its kinds, the reserve's fighters, and the fleet of slots
    a seat buys into; every purchase rule is checked against it."""

    id: str
    name: str
    name_en: str
    kinds: tuple[Kind, ...]
    fighter_name: str
    fighter_name_en: str
    squadron: int
    """Fighters a reserve lands."""
    fleet: Fleet
    """Every slot as a ship: each kind's copies in catalogue order."""

    def kind(self, kind_id: str) -> Kind:
        """The kind with id ``kind_id`` (the caller names one of the catalogue's)."""
        return next(kind for kind in self.kinds if kind.id == kind_id)

    def kind_of(self, ship: int) -> Kind | None:
        """The kind of ship (slot) ``ship``; None for a reserve fighter."""
        ships = self.fleet.ships
        return self.kind(ships[ship].kind) if 0 <= ship < len(ships) else None

    def with_ability(self, ability: str) -> Kind:
        """The kind whose ships carry ``ability``; each ability belongs to one kind."""
        return next(kind for kind in self.kinds if kind.ability == ability)

    def fighter(self, wing: int, number: int) -> int:
        """The ship id of fighter ``number`` (1..squadron) of the seat's ``wing``-th reserve (from 1)."""
        return len(self.fleet.ships) + self.squadron * (wing - 1) + number - 1

    def ship_name(self, ship: int) -> str:
        """The name of ship id ``ship`` in the language in use (:mod:`~fairtable.games.lang`): its
        slot's kind, or the fighter for a reserve's ids past the slots."""
        if 0 <= ship < len(self.fleet.ships):
            return named(self.fleet.ships[ship])
        return choose(self.fighter_name_en, self.fighter_name)

    def slots(self, kind_id: str) -> tuple[int, ...]:
        """The slots (ship ids) of kind ``kind_id``, copy 1 first: a legal purchase fills them in that order."""
        return tuple(ship.index for ship in self.fleet.ships if ship.kind == kind_id)

    def cost(self, ships: Sequence[int]) -> int:
        """What buying the slots ``ships`` costs."""
        return sum(self._kind(ship).price for ship in ships)

    def most_ships(self, money: int) -> int:
        """The most ships ``money`` buys (the cheapest first, one capital ship at most): a
        declared fleet size above it is a lie anyone can see."""
        count, left, capitals = 0, money, 0
        for kind in sorted(self.kinds, key=lambda kind: (kind.price, kind.id)):
            copies = min(kind.most, left // kind.price, CAPITALS - capitals if kind.capital else kind.most)
            count, left, capitals = count + copies, left - copies * kind.price, capitals + (copies if kind.capital else 0)
        return count

    def purchase_problem(self, ships: Sequence[int], money: int) -> RuleError | None:
        """What makes buying the slots ``ships`` illegal (``zeeslag.purchase``, with its words for
        a person), or None."""
        bought = set(ships)
        if not bought:
            return RuleError("zeeslag.purchase", "it bought no ship", "zeeslag.purchase:none")
        for kind in self.kinds:
            slots = self.slots(kind.id)
            count = len(bought & set(slots))
            if bought & set(slots) != set(slots[:count]):
                return RuleError("zeeslag.purchase", f"its {kind.name_en} ships are not its first {kind.name_en} slots",
                                 "zeeslag.purchase:slots", kind=self.key(kind))
        capitals = [kind for kind in self.kinds if kind.capital and bought & set(self.slots(kind.id))]
        if sum(self._kind(ship).capital for ship in bought) > CAPITALS:
            return RuleError("zeeslag.purchase", "it bought more than one capital ship (Dreadnought or space station)",
                             "zeeslag.purchase:capital", first=self.key(capitals[0]), second=self.key(capitals[-1]))
        cost = self.cost(sorted(bought))
        if cost > money:
            return RuleError("zeeslag.purchase", f"its fleet costs {cost}, more than its {money}",
                             "zeeslag.purchase:money", cost=cost, money=money)
        return None

    def bought(self, counts: Mapping[str, int]) -> tuple[int, ...]:
        """The slots a purchase of ``counts`` (ships per kind id) fills, each kind's first ones;
        :class:`RuleError` ``zeeslag.purchase`` for a kind the catalogue lacks or more ships of a
        kind than its most. What a client buys by kind, judged by :meth:`purchase_problem` next."""
        kinds = {kind.id: kind for kind in self.kinds}
        for kind_id, count in counts.items():
            if kind_id not in kinds or type(count) is not int or count < 0:
                raise RuleError("zeeslag.purchase", f"{count!r} ships of kind {kind_id!r}: no purchase of the catalogue")
        slots: list[int] = []
        for kind in self.kinds:
            count = counts.get(kind.id, 0)
            if count > kind.most:
                raise RuleError("zeeslag.purchase", f"{count} {kind.name_en} ships, more than its most {kind.most}",
                                "zeeslag.purchase:most", kind=self.key(kind), most=kind.most)
            slots.extend(self.slots(kind.id)[:count])
        return tuple(sorted(slots))

    def key(self, kind: Kind) -> str:
        """The text-catalogue key of ``kind``'s name (``zeeslag.starships.scout``), as a refusal names it."""
        return f"zeeslag.starships.{kind.id}"

    def random_purchase(self, money: int, rng: Rng) -> tuple[int, ...]:
        """Slots bought at random: one kind at a time, uniformly among those still affordable
        and allowed, until none is."""
        bought: list[int] = []
        left = money
        while True:
            kinds = [kind for kind in self.kinds if kind.price <= left and self._copies(bought, kind) < kind.most
                     and not (kind.capital and sum(self._kind(ship).capital for ship in bought) >= CAPITALS)]
            if not kinds:
                return tuple(sorted(bought))
            kind = kinds[rng.randrange(len(kinds))]
            bought.append(self.slots(kind.id)[self._copies(bought, kind)])
            left -= kind.price

    def _kind(self, ship: int) -> Kind:
        return self.kind(self.fleet.ships[ship].kind)

    def _copies(self, bought: Sequence[int], kind: Kind) -> int:
        return sum(self.fleet.ships[ship].kind == kind.id for ship in bought)


def _load() -> Catalogue:
    data = json.loads(resources.files("fairtable.games.zeeslag").joinpath("starships.json").read_text(encoding="utf-8"))
    kinds = []
    for entry in data["kinds"]:
        shape = Shape.parse(entry["shape"])
        if shape.size != entry["cells"] or entry["ability"] not in (None, *ABILITIES) or (entry["ability"] is None) != (entry["cycle"] == 0):
            raise ValueError(f"starships.json: kind {entry['id']!r} is malformed")
        kinds.append(Kind(entry["id"], entry["name"], entry["name_en"], shape, entry["price"], entry["max"], entry["capital"],
                          entry["ability"], entry["cycle"]))
    ships: list[Ship] = []
    for kind in kinds:
        for copy in range(1, kind.most + 1):
            suffix = f" {copy}" if kind.most > 1 else ""
            ships.append(Ship(len(ships), kind.name + suffix, kind.name_en + suffix, kind.cells, kind.shape, kind.id))
    fleet = Fleet(data["id"], data["name"], data["name_en"], tuple(ships), bought=True)
    fighter = data["fighter"]
    return Catalogue(data["id"], data["name"], data["name_en"], tuple(kinds), fighter["name"], fighter["name_en"], fighter["squadron"], fleet)


CATALOGUE = _load()
SPACE = CATALOGUE.fleet
"""The space fleet: every slot a seat may buy a ship into."""
DEFAULT_MONEY = 500
