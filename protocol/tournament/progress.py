"""The tournament computed from its record, its seed and the outcomes of verified tables.

Rounds follow one another: the groups; a playoff round if a group's qualifying line falls
inside a tie; knock-out rounds until two remain; the final. A round's tables are known only
once every table of the round before has an outcome, and they follow from those outcomes
alone. :func:`progress` returns the rounds so far (with each table's outcome where known),
the standings, the bracket and the prizes: what every node shows and what ``verify`` checks.

Ranking rules (``spec/tournament.md``): in a group, seats that lost by leaving or cheating
rank last, the others by points; players tied across the qualifying line play one 1v1
round, each pair of them once, ranked by the points of that round, then by lot. Qualifiers
are seeded group winners first, then runners-up, each by group points, then by lot; byes
(for 3 or 6 qualifiers) go to the top seeds; seed 1 and 2 can meet only in the final. A
knock-out table that ends undecided goes to the seat with more defences won, then more
attacks won, then the higher seed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from fairtable.games.duel.results import SeatStats, prize_winners
from fairtable.protocol.genesis import Genesis
from fairtable.protocol.tournament import draw
from fairtable.protocol.tournament.record import SignedRecord
from fairtable.protocol.tournament.results import Outcome
from fairtable.protocol.tournament.structure import GROUP_SIZE, Format, TableSpec

GROUP_NAMES = "ABCD"
ROUND_NAMES = {2: "final", 4: "semi-final", 8: "quarter-final"}


@dataclass(frozen=True)
class Table:
    """One table of the tournament: where it stands in the rounds, the genesis it must have, and
    its outcome once a verified transcript gives one."""

    spec: TableSpec
    genesis: Genesis
    outcome: Outcome | None = None

    @property
    def table_id(self) -> bytes:
        """The id its genesis hashes to: how the bundle finds this table's transcript."""
        return self.genesis.table_id

    def to_value(self) -> dict:
        """The table as plain values (id in hex, outcome or None), for the client API and reports."""
        spec = self.spec
        return {"round": spec.round, "index": spec.index, "stage": spec.stage, "label": spec.label, "seats": list(spec.seats),
                "table": self.table_id.hex(), "outcome": None if self.outcome is None else self.outcome.to_value()}


@dataclass(frozen=True)
class Totals:
    """A participant's running sums over the tables they finished: the ranking and prize figures."""

    points: int = 0
    attacks_won: int = 0
    defences_won: int = 0
    tables: int = 0

    def plus(self, stats: SeatStats) -> Totals:
        """These totals with one more table's figures added (totals are values, never updated in place)."""
        return Totals(self.points + stats.points, self.attacks_won + stats.attacks_won,
                      self.defences_won + stats.defences_won, self.tables + 1)


@dataclass(frozen=True)
class Standing:
    """Where one participant stands: how far they got, their totals, and whether they are out."""

    participant: int
    reached: str
    """How far the participant got: ``group``, ``playoff``, a knock-out round's name, ``final`` or ``champion``."""
    totals: Totals
    out: bool
    """Eliminated (or, while the tournament runs, not in it any more)."""


@dataclass(frozen=True)
class Progress:
    """The tournament as far as verified outcomes carry it: rounds so far, standings, the
    knock-out bracket, and the champion and prize winners once the final is counted."""

    rounds: tuple[tuple[Table, ...], ...]
    standings: tuple[Standing, ...]
    bracket: tuple[tuple[tuple[int | None, int | None, int | None], ...], ...]
    """Knock-out rounds so far, each a list of (higher seed, lower seed, winner); None is a bye or not yet known."""
    champion: int | None
    best_defender: tuple[int, ...] = field(default=())
    top_attacker: tuple[int, ...] = field(default=())

    @property
    def finished(self) -> bool:
        """True once the final has a winner."""
        return self.champion is not None

    @property
    def current(self) -> tuple[Table, ...]:
        """The tables being played now (of the last round, without an outcome)."""
        return tuple(t for t in self.rounds[-1] if t.outcome is None) if self.rounds else ()

    def tables(self) -> tuple[Table, ...]:
        """Every table of every round so far, in round order: what a bundle must hold."""
        return tuple(t for round_ in self.rounds for t in round_)

    def to_value(self) -> dict:
        """The progress as plain values (participants by index): what the client API sends and
        what ``fairtable tournament status`` and ``fairtable verify`` show."""
        return {
            "rounds": [[table.to_value() for table in round_] for round_ in self.rounds],
            "standings": [{"participant": s.participant, "reached": s.reached, "out": s.out, "points": s.totals.points,
                           "attacks_won": s.totals.attacks_won, "defences_won": s.totals.defences_won,
                           "tables": s.totals.tables} for s in self.standings],
            "bracket": [[list(match) for match in round_] for round_ in self.bracket],
            "champion": self.champion, "finished": self.finished,
            "best_defender": list(self.best_defender), "top_attacker": list(self.top_attacker),
        }


class _Builder:
    def __init__(self, signed: SignedRecord, seed: bytes, outcomes: Mapping[bytes, Outcome]) -> None:
        self.record = signed.record
        self.fmt = Format.of(self.record)
        self.seed = seed
        self.outcomes = outcomes
        self.rounds: list[tuple[Table, ...]] = []
        self.reached = {p: "group" for p in range(len(self.record.participants))}
        self.out: set[int] = set()
        self.bracket: list[tuple[tuple[int | None, int | None, int | None], ...]] = []

    def round(self, stage: str, labelled: list[tuple[str, tuple[int, ...]]]) -> tuple[Table, ...] | None:
        """Add a round of tables; its tables with outcomes, or None while any is unfinished."""
        number = len(self.rounds)
        tables = []
        for index, (label, seats) in enumerate(labelled):
            spec = TableSpec(number, index, stage, label, seats)
            genesis = spec.genesis(self.record, self.fmt)
            tables.append(Table(spec, genesis, self.outcomes.get(genesis.table_id)))
        self.rounds.append(tuple(tables))
        return None if any(t.outcome is None for t in tables) else tuple(tables)

    def lot(self, label: str, participant: int) -> bytes:
        return draw.lot(self.seed, label, participant)

    # ------------------------------------------------------------ groups

    def groups(self) -> list[tuple[int, ...]] | None:
        order = draw.shuffled(self.seed, "groups", range(self.fmt.participants))
        groups = [order[i:i + GROUP_SIZE] for i in range(0, len(order), GROUP_SIZE)]
        played = self.round("group", [(f"group {GROUP_NAMES[g]}", seats) for g, seats in enumerate(groups)])
        if played is None:
            return None
        rankings = []
        for table in played:
            assert table.outcome is not None
            left = set(table.outcome.out)
            self.out.update(table.spec.seats[s] for s in left)
            scored = [(table.spec.seats[s], s in left, table.outcome.stats[s].points) for s in range(len(table.spec.seats))]
            scored.sort(key=lambda row: (row[1], -row[2], self.lot("group", row[0])))
            rankings.append(scored)
        return self.qualify(rankings)

    def qualify(self, rankings: list[list[tuple[int, bool, int]]]) -> list[tuple[int, ...]] | None:
        """Each group's qualifiers in order, after a playoff round where a tie crosses the line."""
        advance = self.fmt.advance
        playoffs: list[tuple[str, tuple[int, ...]]] = []
        ties: list[tuple[int, list[int], int]] = []  # group, tied players, spots among them
        for g, ranking in enumerate(rankings):
            line, below = ranking[advance - 1], ranking[advance]
            if line[1] or below[1] or line[2] != below[2]:
                continue  # the line falls between different points (or at players who left)
            tied = [row[0] for row in ranking if not row[1] and row[2] == line[2]]
            spots = advance - sum(1 for row in ranking[:advance] if row[0] not in tied)
            ties.append((g, tied, spots))
            pairs = [(a, b) for i, a in enumerate(tied) for b in tied[i + 1:]]
            playoffs += [(f"playoff {GROUP_NAMES[g]}{n + 1}" if len(pairs) > 1 else f"playoff {GROUP_NAMES[g]}", pair)
                         for n, pair in enumerate(pairs)]
        qualified = [[row[0] for row in ranking[:advance] if not row[1]] for ranking in rankings]
        if not playoffs:
            return [tuple(q) for q in qualified]
        for _, tied, _ in ties:
            for p in tied:
                self.reached[p] = "playoff"
        played = self.round("playoff", playoffs)
        if played is None:
            return None
        earned: dict[int, int] = {}
        for table in played:
            assert table.outcome is not None
            for s, p in enumerate(table.spec.seats):
                earned[p] = earned.get(p, 0) + (0 if s in table.outcome.out else table.outcome.stats[s].points)
        for g, tied, spots in ties:
            ahead = [p for p in qualified[g] if p not in tied]
            ranked = sorted(tied, key=lambda p: (-earned.get(p, 0), self.lot("playoff", p)))
            qualified[g] = ahead + ranked[:spots]
        return [tuple(q) for q in qualified]

    # ------------------------------------------------------------ knock-out

    def seeded(self, qualified: list[tuple[int, ...]]) -> list[int]:
        points = {}
        for table in self.rounds[0]:
            assert table.outcome is not None
            points.update({p: table.outcome.stats[s].points for s, p in enumerate(table.spec.seats)})
        seeds: list[int] = []
        for place in range(self.fmt.advance):
            tier = [q[place] for q in qualified if len(q) > place]
            seeds += sorted(tier, key=lambda p: (-points[p], self.lot("seeding", p)))
        return seeds

    def knockout(self, seeds: list[int]) -> int | None:
        size = 1
        while size < len(seeds):
            size *= 2
        slots: list[int | None] = [seeds[s - 1] if s <= len(seeds) else None for s in _bracket_order(size)]
        while len(slots) > 1:
            name = ROUND_NAMES.get(len(slots), f"round of {len(slots)}")
            for p in slots:
                if p is not None:
                    self.reached[p] = name
            pairs = [(slots[i], slots[i + 1]) for i in range(0, len(slots), 2)]
            matches = [(a, b) for a, b in pairs if a is not None and b is not None]
            labels = [f"{name} {n + 1}" if len(matches) > 1 else name for n in range(len(matches))]
            tables: tuple[Table, ...] = ()
            if matches:
                self.round("final" if len(slots) == 2 else "knockout", list(zip(labels, matches)))
                tables = self.rounds[-1]
            results = {table.spec.seats: _match_winner(table.outcome, table.spec.seats) for table in tables if table.outcome is not None}
            row, advanced = [], []
            for a, b in pairs:
                winner = (a if b is None else b) if a is None or b is None else results.get((a, b))
                row.append((a, b, winner))
                advanced.append(winner)
                if a is not None and b is not None and (a, b) in results:
                    self.out.update(p for p in (a, b) if p != winner)
            self.bracket.append(tuple(row))
            if len(results) < len(tables):
                return None
            slots = advanced
        if slots[0] is not None:
            self.reached[slots[0]] = "champion"
        return slots[0]


def _bracket_order(size: int) -> list[int]:
    """Seed numbers by bracket position: 1 v size, and seeds 1 and 2 in opposite halves."""
    order = [1]
    while len(order) < size:
        n = 2 * len(order)
        order = [s for seed in order for s in (seed, n + 1 - seed)]
    return order


def _match_winner(outcome: Outcome, seats: tuple[int, ...]) -> int | None:
    """The participant who goes on from a 1v1 table; None when both lost it (both cheated)."""
    present = [s for s in (0, 1) if s not in outcome.out]
    if not present:
        return None
    if len(present) == 1:
        return seats[present[0]]
    if len(outcome.winners) == 1:
        return seats[outcome.winners[0]]
    a, b = outcome.stats
    if (a.defences_won, a.attacks_won) != (b.defences_won, b.attacks_won):
        return seats[0] if (a.defences_won, a.attacks_won) > (b.defences_won, b.attacks_won) else seats[1]
    return seats[0]


def progress(signed: SignedRecord, seed: bytes, outcomes: Mapping[bytes, Outcome]) -> Progress:
    """The tournament as far as ``outcomes`` (by table id, from verified transcripts) carry it."""
    builder = _Builder(signed, seed, outcomes)
    champion = None
    qualified = builder.groups()
    if qualified is not None:
        champion = builder.knockout(builder.seeded(qualified))
    totals = {p: Totals() for p in builder.reached}
    for table in (t for round_ in builder.rounds for t in round_):
        if table.outcome is not None:
            for s, p in enumerate(table.spec.seats):
                totals[p] = totals[p].plus(table.outcome.stats[s])
    depth = {"group": 0, "playoff": 1, "round of 16": 2, "quarter-final": 3, "semi-final": 4, "final": 5, "champion": 6}
    if qualified is not None:
        builder.out.update(p for p in builder.reached if p not in {q for group in qualified for q in group})
    standings = tuple(sorted(
        (Standing(p, builder.reached[p], totals[p], p in builder.out and p != champion) for p in builder.reached),
        key=lambda s: (-depth[s.reached], -s.totals.points, builder.lot("standings", s.participant))))
    best_defender: tuple[int, ...] = ()
    top_attacker: tuple[int, ...] = ()
    if champion is not None:
        best_defender = prize_winners({player: t.defences_won for player, t in totals.items()})
        top_attacker = prize_winners({player: t.attacks_won for player, t in totals.items()})
    return Progress(tuple(builder.rounds), standings, tuple(builder.bracket), champion, best_defender, top_attacker)
