"""The argument parser every ``fairtable`` command uses: an unknown flag is named first.

argparse reports a missing argument before an unknown one, so ``fairtable verify --bogus``
said "the following arguments are required: FILE" and never mentioned ``--bogus``, the actual
mistake. This parser remembers the words it was given and, when it must report an error,
names a flag it does not know instead, as ``unrecognized arguments`` does once nothing is missing.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any, NoReturn


class Parser(argparse.ArgumentParser):
    """An :class:`argparse.ArgumentParser` whose errors name an unknown flag before anything else;
    subcommand parsers made from it are of this class too."""

    def parse_known_args(  # type: ignore[override]  # typeshed's overloads only type the namespace argparse returns
            self, args: Sequence[str] | None = None, namespace: Any = None) -> tuple[Any, list[str]]:
        self._words = list(sys.argv[1:] if args is None else args)
        return super().parse_known_args(args, namespace)

    def error(self, message: str) -> NoReturn:
        unknown = self.unknown_flags()
        if unknown:
            message = f"unrecognized arguments: {' '.join(unknown)}"
        super().error(message)

    def unknown_flags(self) -> list[str]:
        """The words this parser was given that look like flags and are none of its own (nor an
        abbreviation of one), up to ``--``; a subcommand's words belong to its parser."""
        unknown: list[str] = []
        for word in getattr(self, "_words", ()):
            if word == "--":
                break
            if self._subcommand(word):
                break
            if not word.startswith("-") or word == "-" or self._negative_number_matcher.match(word):
                continue
            flag = word.split("=", 1)[0]
            if not any(option.startswith(flag) for option in self._option_string_actions):
                unknown.append(flag)
        return unknown

    def _subcommand(self, word: str) -> bool:
        return any(isinstance(action, argparse._SubParsersAction) and word in action.choices
                   for action in self._actions)
