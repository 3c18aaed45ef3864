"""Typed conversion between game states (frozen dataclasses) and canonical wire values.

Games keep their states as frozen dataclasses of ints, strings, tuples, mappings and
nested dataclasses. This module turns such a state into a canonical value (maps with
string keys; integer-keyed mappings as sorted ``[key, value]`` pairs, so nothing depends
on dict order) and back, driven by the dataclass type hints, so no game hand-writes it.
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from collections.abc import Mapping
from typing import Any, Union


def to_value(obj: Any) -> Any:
    """``obj`` (a game state or part of one) as a canonical wire value; raises ``TypeError`` for a
    type the wire cannot carry (a float, a set), so no state ever hashes differently on two nodes."""
    if obj is None or isinstance(obj, (bool, int, str, bytes)):
        return obj
    if dataclasses.is_dataclass(obj):
        return {f.name: to_value(getattr(obj, f.name)) for f in dataclasses.fields(obj) if f.init}
    if isinstance(obj, (tuple, list)):
        return [to_value(item) for item in obj]
    if isinstance(obj, Mapping):
        if all(isinstance(key, str) for key in obj):
            return {key: to_value(obj[key]) for key in sorted(obj)}
        return [[key, to_value(obj[key])] for key in sorted(obj)]
    raise TypeError(f"cannot convert {type(obj).__name__} to a wire value")


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def from_value(tp: Any, value: Any) -> Any:
    """Rebuild a value of type ``tp`` from :func:`to_value`'s output (arrays may be tuples or lists)."""
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if tp is Any:
        return value
    if origin in (Union, types.UnionType):
        if value is None and type(None) in args:
            return None
        (inner,) = [arg for arg in args if arg is not type(None)]
        return from_value(inner, value)
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        hints = _hints(tp)
        fields = [f for f in dataclasses.fields(tp) if f.init]
        return tp(**{f.name: from_value(hints[f.name], value[f.name]) for f in fields})
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(from_value(args[0], item) for item in value)
        return tuple(from_value(arg, item) for arg, item in zip(args, value))
    if origin in (dict, Mapping, typing.Mapping) or tp in (dict, Mapping):
        key_type, item_type = args or (Any, Any)
        if isinstance(value, dict):
            return {key: from_value(item_type, item) for key, item in value.items()}
        return {from_value(key_type, key): from_value(item_type, item) for key, item in value}
    if tp in (int, str, bytes, bool, type(None)):
        return value
    raise TypeError(f"cannot rebuild type {tp!r} from a wire value")
