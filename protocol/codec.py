"""Canonical msgpack: exactly one byte string per value, and a decoder that accepts nothing else.

Everything fairtable hashes or signs is encoded here, so two honest implementations must
produce identical bytes for identical values. The value model is deliberately small:
``None``, ``bool``, ``int`` (-2**63 .. 2**64-1), ``str`` (UTF-8), ``bytes``, arrays
(``list``/``tuple`` in, ``tuple`` out) and maps with ``str`` keys. Floats and extension
types do not exist on the wire.

Canonical form (see ``spec/wire.md``): every integer, length and count uses its shortest
msgpack form (non-negative integers always in the unsigned family), strings are ``str``
and byte strings ``bin``, map keys are unique strings sorted by their UTF-8 bytes.

Encoding uses the ``msgpack`` library, after a walk that sorts keys and refuses what the
wire cannot carry. Decoding is our own strict parser, because the canonical rules and
the precise error messages (with byte offsets) are the point: it raises only
:class:`CodecError`, never allocates more than the input it has seen, and refuses deep
nesting before descending. :func:`decode` lets msgpack's C decoder read first, for speed:
its value stands only when it is plainly within the limits and its canonical encoding is
the input itself; every other input goes to the strict parser.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import Any

import msgpack

from fairtable.protocol.errors import ProtocolError

Value = None | bool | int | str | bytes | tuple | list | dict

INT_MIN = -(1 << 63)
INT_MAX = (1 << 64) - 1
"""The wire's integer range is msgpack's: int64 below zero, uint64 above; anything wider has
no single encoding and is refused."""


@dataclass(frozen=True)
class Limits:
    """Bounds a decoder enforces; a value outside them is refused before it is built."""

    max_size: int = 1 << 20
    max_depth: int = 32
    max_items: int = 1 << 16
    max_str: int = 1 << 16
    max_bin: int = 1 << 20


DEFAULT_LIMITS = Limits()
"""The limits of a value with no tighter ones of its own; records and files pass their own."""


class CodecError(ProtocolError):
    """Bytes that are not the canonical encoding of a value within the limits."""

    def __init__(self, message: str, offset: int | None = None) -> None:
        self.offset = offset
        super().__init__(message if offset is None else f"{message} (at byte {offset})")


class Incomplete(CodecError):
    """The input ends before the value does; a stream reader waits for more bytes."""


# ---------------------------------------------------------------- encoding


def canonical(value: Any, limits: Limits = DEFAULT_LIMITS, _depth: int = 0) -> Value:
    """Return ``value`` with maps key-sorted, or raise :class:`CodecError` naming what cannot be encoded."""
    if value is None or isinstance(value, (bool, bytes)):
        return value
    if isinstance(value, int):
        if not INT_MIN <= value <= INT_MAX:
            raise CodecError(f"integer {value} is outside the wire range -2**63 .. 2**64-1")
        return value
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise CodecError(f"string is not encodable as UTF-8: {exc.reason}") from None
        return value
    if _depth >= limits.max_depth:
        raise CodecError(f"nesting deeper than {limits.max_depth} levels")
    if isinstance(value, (list, tuple)):
        return [canonical(item, limits, _depth + 1) for item in value]
    if isinstance(value, dict):
        for key in value:
            if not isinstance(key, str):
                raise CodecError(f"map key {key!r} is not a string")
        return {key: canonical(value[key], limits, _depth + 1) for key in sorted(value, key=_key_bytes)}
    if isinstance(value, (bytearray, memoryview)):
        return bytes(value)
    kind = "floats" if isinstance(value, float) else f"values of type {type(value).__name__}"
    raise CodecError(f"{kind} cannot be encoded; the wire carries nil, bool, int, str, bin, array and map")


def _key_bytes(key: str) -> bytes:
    try:
        return key.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise CodecError(f"map key is not encodable as UTF-8: {exc.reason}") from None


def encode(value: Any, limits: Limits = DEFAULT_LIMITS) -> bytes:
    """The one canonical encoding of ``value``."""
    data = msgpack.packb(canonical(value, limits), use_bin_type=True)
    if len(data) > limits.max_size:
        raise CodecError(f"encoding of {len(data)} bytes exceeds the limit of {limits.max_size}")
    return data


# ---------------------------------------------------------------- decoding

_U16 = struct.Struct(">H").unpack_from
_U32 = struct.Struct(">I").unpack_from
_U64 = struct.Struct(">Q").unpack_from
_I8 = struct.Struct(">b").unpack_from
_I16 = struct.Struct(">h").unpack_from
_I32 = struct.Struct(">i").unpack_from
_I64 = struct.Struct(">q").unpack_from

# For each fixed-width integer marker: (reader, width, smallest canonical value test, description).
_UINTS = {0xCC: (None, 1, 0x80), 0xCD: (_U16, 2, 0x100), 0xCE: (_U32, 4, 0x10000), 0xCF: (_U64, 8, 0x100000000)}
_INTS = {0xD0: (_I8, 1, -0x20), 0xD1: (_I16, 2, -0x80), 0xD2: (_I32, 4, -0x8000), 0xD3: (_I64, 8, -0x80000000)}
_LEN = {1: None, 2: _U16, 4: _U32}
# Variable-length markers: marker -> (kind, width of the length field, smallest canonical length).
_SIZED = {
    0xC4: ("bin", 1, 0), 0xC5: ("bin", 2, 0x100), 0xC6: ("bin", 4, 0x10000),
    0xD9: ("str", 1, 0x20), 0xDA: ("str", 2, 0x100), 0xDB: ("str", 4, 0x10000),
    0xDC: ("array", 2, 0x10), 0xDD: ("array", 4, 0x10000),
    0xDE: ("map", 2, 0x10), 0xDF: ("map", 4, 0x10000),
}
_FORBIDDEN = {
    0xC1: "byte 0xc1 is never used in msgpack",
    0xCA: "floats are not allowed", 0xCB: "floats are not allowed",
    **{m: "extension types are not allowed" for m in (0xC7, 0xC8, 0xC9, 0xD4, 0xD5, 0xD6, 0xD7, 0xD8)},
}


class _Parser:
    __slots__ = ("data", "end", "limits", "pos", "size_bounded")

    def __init__(self, data: bytes, offset: int, limits: Limits) -> None:
        self.data = data
        self.pos = offset
        self.limits = limits
        self.end = min(len(data), offset + limits.max_size)
        self.size_bounded = offset + limits.max_size < len(data)

    def short(self, at: int, what: str) -> CodecError:
        if self.size_bounded:
            return CodecError(f"{what} would exceed the size limit of {self.limits.max_size} bytes", at)
        return Incomplete(f"input ends inside {what}", at)

    def take(self, n: int, at: int, what: str) -> int:
        start = self.pos
        if start + n > self.end:
            raise self.short(at, what)
        self.pos = start + n
        return start

    def value(self, depth: int) -> Value:
        data = self.data
        at = self.pos
        if at >= self.end:
            raise self.short(at, "a value")
        marker = data[at]
        self.pos = at + 1
        if marker <= 0x7F:
            return marker
        if marker >= 0xE0:
            return marker - 0x100
        if marker <= 0x8F:
            return self.map(marker & 0x0F, depth, at)
        if marker <= 0x9F:
            return self.array(marker & 0x0F, depth, at)
        if marker <= 0xBF:
            return self.string(marker & 0x1F, at)
        if marker == 0xC0:
            return None
        if marker == 0xC2:
            return False
        if marker == 0xC3:
            return True
        if marker in _UINTS:
            reader, width, smallest = _UINTS[marker]
            start = self.take(width, at, "an integer")
            number = data[start] if reader is None else reader(data, start)[0]
            if number < smallest:
                raise CodecError(f"integer {number} is not in its shortest form", at)
            return number
        if marker in _INTS:
            reader, width, largest_excluded = _INTS[marker]
            number = reader(data, self.take(width, at, "an integer"))[0]
            if number >= 0:
                raise CodecError(f"non-negative integer {number} is encoded as signed", at)
            if number >= largest_excluded:
                raise CodecError(f"integer {number} is not in its shortest form", at)
            return number
        if marker in _SIZED:
            kind, width, smallest = _SIZED[marker]
            start = self.take(width, at, f"a {kind} length")
            reader = _LEN[width]
            count = data[start] if reader is None else reader(data, start)[0]
            if count < smallest:
                raise CodecError(f"{kind} length {count} is not in its shortest form", at)
            if kind == "bin":
                return self.binary(count, at)
            if kind == "str":
                return self.string(count, at)
            if kind == "array":
                return self.array(count, depth, at)
            return self.map(count, depth, at)
        raise CodecError(_FORBIDDEN[marker], at)

    def binary(self, count: int, at: int) -> bytes:
        if count > self.limits.max_bin:
            raise CodecError(f"bin of {count} bytes exceeds the limit of {self.limits.max_bin}", at)
        start = self.take(count, at, f"a bin of {count} bytes")
        return self.data[start : start + count]

    def string(self, count: int, at: int) -> str:
        if count > self.limits.max_str:
            raise CodecError(f"str of {count} bytes exceeds the limit of {self.limits.max_str}", at)
        start = self.take(count, at, f"a str of {count} bytes")
        try:
            return self.data[start : start + count].decode("utf-8")
        except UnicodeDecodeError as exc:
            raise CodecError(f"invalid UTF-8 in str: {exc.reason}", start + exc.start) from None

    def container(self, kind: str, count: int, per_item: int, depth: int, at: int) -> None:
        if count > self.limits.max_items:
            raise CodecError(f"{kind} of {count} items exceeds the limit of {self.limits.max_items}", at)
        if depth >= self.limits.max_depth:
            raise CodecError(f"nesting deeper than {self.limits.max_depth} levels", at)
        if self.pos + count * per_item > self.end:
            raise self.short(at, f"a {kind} of {count} items")

    def array(self, count: int, depth: int, at: int) -> tuple:
        self.container("array", count, 1, depth, at)
        return tuple([self.value(depth + 1) for _ in range(count)])

    def map(self, count: int, depth: int, at: int) -> dict:
        self.container("map", count, 2, depth, at)
        result: dict[str, Value] = {}
        previous: str | None = None
        for _ in range(count):
            key_at = self.pos
            key = self.value(depth + 1)
            if not isinstance(key, str):
                raise CodecError(f"map key {key!r} is not a string", key_at)
            if previous is not None and key <= previous:
                problem = "duplicate map key" if key == previous else "map keys out of order at key"
                raise CodecError(f"{problem} {key!r}", key_at)
            result[key] = self.value(depth + 1)
            previous = key
        return result


def decode_prefix(data: bytes, offset: int = 0, limits: Limits = DEFAULT_LIMITS) -> tuple[Value, int]:
    """Decode the one value starting at ``offset``; return it and the offset just after it.

    Raises :class:`Incomplete` when ``data`` ends first and the value could still fit the
    size limit, so a stream reader can wait for more bytes.
    """
    parser = _Parser(bytes(data), offset, limits)
    return parser.value(0), parser.pos


def decode(data: bytes, limits: Limits = DEFAULT_LIMITS) -> Value:
    """Decode exactly one canonical value spanning all of ``data``."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise CodecError(f"expected bytes, got {type(data).__name__}")
    if len(data) > limits.max_size:
        raise CodecError(f"input of {len(data)} bytes exceeds the size limit of {limits.max_size}")
    fast = _read_canonical(data, limits)
    if fast is not _UNDECIDED:
        return fast
    value, end = decode_prefix(data, 0, limits)
    if end != len(data):
        raise CodecError(f"{len(data) - end} trailing bytes after the value", end)
    return value


_UNDECIDED = object()
_SCALARS = frozenset({type(None), bool, int, str, bytes})


def _read_canonical(data: bytes, limits: Limits) -> Any:
    """The value, when msgpack's C decoder reads one that lies well inside the limits and whose
    canonical encoding is ``data`` itself; else ``_UNDECIDED``, and the strict parser decides.

    The canonical encoding is unique, so ``encode(value) == data`` accepts exactly what the strict
    parser accepts; anything else (an error, a float, an extension, a limit approached) goes to the
    strict parser, which is the one place that decides and names what is wrong. For a value
    whose keys are sorted, msgpack's packer writes the canonical encoding (:func:`encode`).
    """
    try:
        size = len(data)  # no length may promise more than the input holds: nothing is allocated beyond it
        value = msgpack.unpackb(data, use_list=False, raw=False, strict_map_key=True, max_ext_len=0,
                                max_str_len=min(limits.max_str, size), max_bin_len=min(limits.max_bin, size),
                                max_array_len=min(limits.max_items, size), max_map_len=min(limits.max_items, size // 2))
    except Exception:  # whatever msgpack refuses, the strict parser names
        return _UNDECIDED
    if not _plain(value, limits.max_depth - 1) or msgpack.packb(value, use_bin_type=True) != data:
        return _UNDECIDED
    return value


def _plain(value: Any, room: int) -> bool:
    """Wire types only, map keys strings in canonical order, containers nested fewer than ``room`` deep."""
    kind = type(value)
    if kind is not tuple and kind is not dict:
        return kind in _SCALARS
    if room <= 0:
        return False
    items: Any = value
    if kind is dict:
        keys = list(value)
        for key in keys:
            if type(key) is not str:
                return False
        if keys != sorted(keys):
            return False
        items = value.values()
    for item in items:  # scalars checked here: most items are, and a call each would cost more than the check
        inner = type(item)
        if inner is tuple or inner is dict:
            if not _plain(item, room - 1):
                return False
        elif inner not in _SCALARS:
            return False
    return True
