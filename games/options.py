"""Table options as data: each game declares its options, and one validator checks them all.

The host chooses options before the game; they are part of the signed genesis, so a bad one
must be refused with a message naming the option before anyone signs. Unknown options are
refused too: a typo must not silently fall back to a default. ``describe`` gives each
option's schema (type, range or values, default) for listings and clients.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from fairtable.games.contract import OptionsError


@dataclass(frozen=True)
class Choice:
    """One of ``values`` (strings)."""

    values: tuple[str, ...]
    default: str

    def check(self, name: str, value: Any) -> str:
        """``value`` if it is one of the choices, else an :class:`OptionsError` naming the option
        and the choices."""
        if value not in self.values:
            raise OptionsError(f"option {name!r} must be one of {', '.join(self.values)}, got {value!r}")
        return value

    def describe(self, name: str) -> dict:
        """The option's schema for listings and clients."""
        return {"default": self.default, "name": name, "type": "choice", "values": list(self.values)}


@dataclass(frozen=True)
class Integer:
    """An integer in ``lowest .. highest``."""

    lowest: int
    highest: int
    default: int

    def check(self, name: str, value: Any) -> int:
        """``value`` if it is an integer in range (a bool is not), else an :class:`OptionsError`
        naming the range."""
        if type(value) is not int or not self.lowest <= value <= self.highest:
            raise OptionsError(f"option {name!r} must be an integer in {self.lowest}..{self.highest}, got {value!r}")
        return value

    def describe(self, name: str) -> dict:
        """The option's schema for listings and clients."""
        return {"default": self.default, "highest": self.highest, "lowest": self.lowest, "name": name, "type": "integer"}


@dataclass(frozen=True)
class Flag:
    """true or false."""

    default: bool

    def check(self, name: str, value: Any) -> bool:
        """``value`` if it is true or false, else an :class:`OptionsError`."""
        if not isinstance(value, bool):
            raise OptionsError(f"option {name!r} must be true or false, got {value!r}")
        return value

    def describe(self, name: str) -> dict:
        """The option's schema for listings and clients."""
        return {"default": self.default, "name": name, "type": "flag"}


Option = Choice | Integer | Flag

IDLE_SECONDS = 300
"""How long a decision the turn timer does not cover may stay open by default (a game without a
timer, or an untimed decision): every decision a seat can stall on is bounded."""

TIMER: dict[str, Option] = {
    "turn_seconds": Integer(0, 3600, 60),
    "max_timeouts": Integer(1, 100, 3),
    "idle_seconds": Integer(10, 86400, IDLE_SECONDS),
}
"""The turn timer every timed game offers: seconds per decision (0: off), how many
consecutive timeouts lose the game, and how long a decision the timer does not cover (an
untimed one, or any with ``turn_seconds`` 0) may stay open before its seat may be declared
absent: every decision a seat could stall on is bounded."""


def validate(game: str, declared: Mapping[str, Option], options: Any) -> dict[str, Any]:
    """``options`` checked against ``declared``, every option filled in (defaults for the missing)."""
    if not isinstance(options, Mapping):
        raise OptionsError("options must be a map")
    for name in options:
        if name not in declared:
            raise OptionsError(f"unknown option {name!r}; {game} options are: {', '.join(declared)}")
    return {name: option.check(name, options.get(name, option.default)) for name, option in declared.items()}
