"""``--options``: the one parser of table options for every command that takes them.

A user writes either a JSON object (``'{"turn_seconds": 30}'``) or ``key=value`` pairs, given
several times or comma-separated (``turn_seconds=30,fleet=ten``). Each value is read as the
game declares its option (``Game.options_for``), so ``water_ring=off`` is the flag ``false``
and ``turn_seconds=30`` the integer 30; whether the value is allowed is the game's own check,
made where the table is set up.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from fairtable.games import Choice, Flag, Integer, Option

FLAG_WORDS = {"true": True, "yes": True, "on": True, "1": True, "false": False, "no": False, "off": False, "0": False}


def parse_options(texts: Sequence[str], declared: Mapping[str, Option]) -> dict[str, Any]:
    """The options the texts name; ValueError saying which text is wrong and how."""
    options: dict[str, Any] = {}
    for text in texts:
        text = text.strip()
        if text[:1] in ("{", "[", '"'):
            try:
                value = json.loads(text)
            except ValueError as exc:
                raise ValueError(f"--options is not JSON: {exc}") from None
            if not isinstance(value, dict):
                raise ValueError("--options must be a JSON object or key=value pairs, e.g. turn_seconds=30")
            options.update(value)
            continue
        for pair in filter(None, (part.strip() for part in text.split(","))):
            name, equals, raw = pair.partition("=")
            name = name.strip()
            if not equals or not name:
                raise ValueError(f"--options {pair!r}: write key=value (e.g. turn_seconds=30) or a JSON object")
            options[name] = _value(name, raw.strip(), declared)
    return options


def parse_tournament_options(texts: Sequence[str], stages: Mapping[str, Mapping[str, Option]]) -> dict[str, Any]:
    """Tournament options: ``advance=1`` and ``STAGE.OPTION=value`` (``group.cycles=2``), each
    stage's values read as its table declares them (``stages``), or a JSON object."""
    options: dict[str, Any] = {}
    for text in texts:
        if text.strip()[:1] in ("{", "[", '"'):
            options.update(parse_options([text], {}))
            continue
        for pair in filter(None, (part.strip() for part in text.split(","))):
            name, equals, raw = pair.partition("=")
            stage, dot, option = name.strip().partition(".")
            if not equals or not name.strip():
                raise ValueError(f"--options {pair!r}: write advance=1 or STAGE.OPTION=value (e.g. group.cycles=2) or a JSON object")
            if not dot:
                options[stage] = _value(stage, raw.strip(), {"advance": Integer(1, 2, 2)})
            elif stage not in stages:
                raise ValueError(f"--options {pair!r}: no stage {stage!r} (stages: {', '.join(stages)})")
            else:
                options.setdefault(stage, {})[option] = _value(option, raw.strip(), stages[stage])
    return options


def _value(name: str, raw: str, declared: Mapping[str, Option]) -> Any:
    option = declared.get(name)
    if option is None:
        known = ", ".join(declared) or "none"
        raise ValueError(f"--options: no option {name!r} (options: {known})")
    if isinstance(option, Integer):
        try:
            return int(raw)
        except ValueError:
            raise ValueError(f"--options {name}={raw}: {name} is an integer {option.lowest}..{option.highest}") from None
    if isinstance(option, Flag):
        if raw.lower() not in FLAG_WORDS:
            raise ValueError(f"--options {name}={raw}: {name} is true or false (yes/no, on/off, 1/0)")
        return FLAG_WORDS[raw.lower()]
    assert isinstance(option, Choice)
    return raw
