"""Card effects as data: the step types ``cards.json`` is written in, and the one interpreter.

Each card's ``effect`` is a list of steps applied in order to the two players' numbers
(:class:`Side`). The vocabulary is just wide enough for the 102 cards, so every card is
one line of data a reader can check against the Latvian text:

- ``{"change": stat, "by": n, "who": w}``: gain or lose ``n`` (``+n mūrim``, ``zaudē``);
- ``{"damage": n, "who": w}``: normal damage, the wall first and the rest to the tower;
  with ``"only": "tower"`` it bypasses the wall (``... tornim``), with ``"only": "wall"``
  it hits the wall alone and never spills over (``Grūdieni``);
- ``{"if": [left, op, right], "then": [...], "else": [...]}``: ``op`` is ``<``, ``>`` or
  ``==`` (the texts' comparisons are strict); an operand is an integer or ``[who, stat]``
  with ``who`` ``self`` or ``enemy``;
- ``{"equalize": stat, "who": w}``: ``w``'s stat becomes the larger of the two players'
  (``Tehnoloģiju zādzība`` for yourself, ``Paritāte`` for all);
- ``{"swap": stat}``: the players exchange the stat (``Maiņa``);
- ``{"steal": resource, "amount": n}``: the enemy loses ``n`` and you gain half of what it
  actually lost, rounded up (``Zaglis``).

``who`` is ``self``, ``enemy``, ``all`` (``visiem``: you too) or ``lower_wall`` (the
player with the lower wall; both when the walls are equal, ``Gruntsūdeņi``). Nothing
ever drops below 0.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

RESOURCES = ("ore", "mana", "soldiers")
PRODUCERS = ("mines", "monasteries", "barracks")
STATS = ("tower", "wall") + RESOURCES + PRODUCERS
WHO = ("self", "enemy", "all", "lower_wall")


@dataclass(frozen=True)
class Side:
    """One player's public numbers."""

    tower: int
    wall: int
    ore: int
    mana: int
    soldiers: int
    mines: int
    monasteries: int
    barracks: int

    def produced(self) -> Side:
        """The side after the start-of-turn income: each resource grows by its producers."""
        return dataclasses.replace(
            self, ore=self.ore + self.mines, mana=self.mana + self.monasteries, soldiers=self.soldiers + self.barracks
        )


@dataclass(frozen=True)
class Change:
    """Step: ``who`` gains (or, negative, loses) ``by`` of ``stat``."""

    stat: str
    by: int
    who: str


@dataclass(frozen=True)
class Damage:
    """Step: ``amount`` damage to ``who``, the wall first unless ``only`` names the tower or the wall."""

    amount: int
    who: str
    only: str | None


@dataclass(frozen=True)
class If:
    """Step: ``then`` when ``left op right`` holds for the mover, else ``otherwise``."""

    left: Any
    op: str
    right: Any
    then: tuple[Step, ...]
    otherwise: tuple[Step, ...]


@dataclass(frozen=True)
class Equalize:
    """Step: ``who``'s ``stat`` becomes the larger of the two players'."""

    stat: str
    who: str


@dataclass(frozen=True)
class Swap:
    """Step: the players exchange ``stat``."""

    stat: str


@dataclass(frozen=True)
class Steal:
    """Step: the enemy loses ``amount`` of ``stat``; the mover gains half of what it actually lost, rounded up."""

    stat: str
    amount: int


Step = Change | Damage | If | Equalize | Swap | Steal
Sides = tuple[Side, ...]


# ------------------------------------------------------------------ parsing the data file


def parse(steps: Any) -> tuple[Step, ...]:
    """Steps from their JSON form; raises ``ValueError`` naming what is malformed."""
    if not isinstance(steps, list):
        raise ValueError(f"an effect is a list of steps, got {steps!r}")
    return tuple(_parse_step(step) for step in steps)


def _parse_step(step: Any) -> Step:
    if not isinstance(step, dict):
        raise ValueError(f"a step is a map, got {step!r}")
    keys = set(step)
    if keys == {"change", "by", "who"}:
        return Change(_stat(step["change"]), _int(step["by"]), _who(step["who"]))
    if keys in ({"damage", "who"}, {"damage", "who", "only"}):
        only = step.get("only")
        if only not in (None, "tower", "wall"):
            raise ValueError(f"damage 'only' must be 'tower' or 'wall', got {only!r}")
        return Damage(_int(step["damage"]), _who(step["who"]), only)
    if keys in ({"if", "then"}, {"if", "then", "else"}):
        test = step["if"]
        if not (isinstance(test, list) and len(test) == 3 and test[1] in ("<", ">", "==")):
            raise ValueError(f"a test is [left, '<'|'>'|'==', right], got {test!r}")
        return If(_operand(test[0]), test[1], _operand(test[2]), parse(step["then"]), parse(step.get("else", [])))
    if keys == {"equalize", "who"} and step["who"] in ("self", "all"):
        return Equalize(_stat(step["equalize"]), step["who"])
    if keys == {"swap"}:
        return Swap(_stat(step["swap"]))
    if keys == {"steal", "amount"} and step["steal"] in RESOURCES:
        return Steal(step["steal"], _int(step["amount"]))
    raise ValueError(f"unknown effect step {step!r}")


def _stat(name: Any) -> str:
    if name not in STATS:
        raise ValueError(f"unknown stat {name!r}")
    return name


def _who(name: Any) -> str:
    if name not in WHO:
        raise ValueError(f"unknown 'who' {name!r}")
    return name


def _int(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"expected an integer, got {value!r}")
    return value


def _operand(value: Any) -> Any:
    if isinstance(value, list) and len(value) == 2 and value[0] in ("self", "enemy"):
        return (value[0], _stat(value[1]))
    return _int(value)


# ------------------------------------------------------------------ applying


def resolve(steps: tuple[Step, ...], sides: Sides, seat: int) -> Sides:
    """The sides after ``seat`` resolves ``steps``."""
    board = list(sides)
    _run(steps, board, seat)
    return (board[0], board[1])


def _run(steps: tuple[Step, ...], board: list[Side], seat: int) -> None:
    enemy = 1 - seat
    for step in steps:
        if isinstance(step, Change):
            for target in _targets(step.who, board, seat):
                _add(board, target, step.stat, step.by)
        elif isinstance(step, Damage):
            for target in _targets(step.who, board, seat):
                _damage(board, target, step.amount, step.only)
        elif isinstance(step, If):
            _run(step.then if _holds(step, board, seat) else step.otherwise, board, seat)
        elif isinstance(step, Equalize):
            top = max(getattr(side, step.stat) for side in board)
            for target in _targets(step.who, board, seat):
                _add(board, target, step.stat, top - getattr(board[target], step.stat))
        elif isinstance(step, Swap):
            mine, theirs = getattr(board[seat], step.stat), getattr(board[enemy], step.stat)
            _add(board, seat, step.stat, theirs - mine)
            _add(board, enemy, step.stat, mine - theirs)
        else:
            lost = _add(board, enemy, step.stat, -step.amount)
            _add(board, seat, step.stat, (lost + 1) // 2)


def _targets(who: str, board: list[Side], seat: int) -> tuple[int, ...]:
    if who == "self":
        return (seat,)
    if who == "enemy":
        return (1 - seat,)
    if who == "all":
        return (seat, 1 - seat)
    low = min(side.wall for side in board)
    return tuple(target for target in (seat, 1 - seat) if board[target].wall == low)


def _add(board: list[Side], target: int, stat: str, by: int) -> int:
    """Add ``by`` (never below 0); returns how much was actually lost."""
    before = getattr(board[target], stat)
    after = max(0, before + by)
    board[target] = dataclasses.replace(board[target], **{stat: after})
    return before - after


def _damage(board: list[Side], target: int, amount: int, only: str | None) -> None:
    if only is not None:
        _add(board, target, only, -amount)
        return
    absorbed = _add(board, target, "wall", -amount)
    _add(board, target, "tower", absorbed - amount)


def _holds(test: If, board: list[Side], seat: int) -> bool:
    left, right = _value(test.left, board, seat), _value(test.right, board, seat)
    return left < right if test.op == "<" else left > right if test.op == ">" else left == right


def _value(operand: Any, board: list[Side], seat: int) -> int:
    if isinstance(operand, int):
        return operand
    who, stat = operand
    return getattr(board[seat if who == "self" else 1 - seat], stat)
