"""JSON for the client API: requests parse only into canonical values, replies carry them back.

The node's values are canonical (``spec/wire.md``): no floats, string keys, integers within
64 bits, valid UTF-8. A JSON request is held to the same rules before any field is read,
so nothing a client sends reaches the node in a form the wire could not carry. Outgoing
byte strings (e.g. in violation evidence) become lowercase hex strings.
"""

from __future__ import annotations

import json
from typing import Any

from fairtable.protocol import DEFAULT_LIMITS, INT_MAX, INT_MIN

MAX_DEPTH = DEFAULT_LIMITS.max_depth


class RequestError(Exception):
    """A request the API refuses before acting on it; ``code`` is the stable error code."""

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        super().__init__(message)


def bad_request(message: str) -> RequestError:
    return RequestError("bad_request", message)


def parse(text: str) -> Any:
    """The canonical value of one JSON text, or :class:`RequestError` ``bad_request``."""
    try:
        value = json.loads(text, parse_float=_no_float, parse_constant=_no_constant, object_pairs_hook=_object)
    except RequestError:
        raise
    except RecursionError:
        raise bad_request("JSON nested too deeply") from None
    except ValueError as exc:
        raise bad_request(f"not JSON: {exc}") from None
    _check(value, 0)
    return value


def dumps(value: Any) -> str:
    """One compact JSON text; bytes as lowercase hex, tuples as arrays."""
    return json.dumps(jsonable(value), separators=(",", ":"), allow_nan=False, sort_keys=True)


def jsonable(value: Any) -> Any:
    if isinstance(value, bytes):
        return value.hex()
    if isinstance(value, dict):
        return {key: jsonable(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(item) for item in value]
    return value


def _no_float(text: str) -> Any:
    raise bad_request(f"numbers must be integers, got {text}")


def _no_constant(text: str) -> Any:
    raise bad_request(f"{text} is not a value")


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            raise bad_request(f"duplicate key {key!r}")
        seen.add(key)
    return dict(pairs)


def _check(value: Any, depth: int) -> None:
    """Integers within 64 bits, strings valid UTF-8 (no lone surrogates), nesting within limits."""
    if depth > MAX_DEPTH:
        raise bad_request(f"values nest deeper than {MAX_DEPTH} levels")
    if isinstance(value, bool) or value is None:
        return
    if isinstance(value, int):
        if not INT_MIN <= value <= INT_MAX:
            raise bad_request(f"integer {value} is outside {INT_MIN}..{INT_MAX}")
    elif isinstance(value, str):
        _utf8(value)
    elif isinstance(value, list):
        for item in value:
            _check(item, depth + 1)
    else:
        for key, item in value.items():
            _utf8(key)
            _check(item, depth + 1)


def _utf8(text: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise bad_request("strings must be valid Unicode (no lone surrogates)") from None
