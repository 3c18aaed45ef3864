"""A list indexed from 0 that can forget its oldest items.

A live table keeps every envelope of its chain (it serves them to peers and rebuilds forks from
them), so it never forgets. The verifier streaming a long transcript keeps only what a later
check can still read (``spec/session.md`` §7, Memory): its memory then stays bounded however long the
transcript is. Reading a forgotten item raises ``IndexError`` rather than answering wrongly.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Generic, TypeVar, overload

T = TypeVar("T")


class Recent(Sequence[T], Generic[T]):
    """Items by their index since the first one; those before :attr:`first` are forgotten."""

    __slots__ = ("_held", "first")

    def __init__(self) -> None:
        self.first = 0
        self._held: list[T] = []

    def __len__(self) -> int:
        return self.first + len(self._held)

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> list[T]: ...

    def __getitem__(self, index: int | slice) -> T | list[T]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))] if self.first else self._held[index]
        return self._held[self._position(index)]

    def __setitem__(self, index: int, item: T) -> None:
        self._held[self._position(index)] = item

    def __delitem__(self, index: slice) -> None:
        """Drop every item from ``index.start`` on (all this list is asked to drop)."""
        start, stop, step = index.indices(len(self))
        if stop != len(self) or step != 1:
            raise ValueError("only a tail can be dropped")
        del self._held[self._position(start) if start < len(self) else len(self._held):]

    def __iter__(self) -> Iterator[T]:
        if self.first:
            raise IndexError(f"items before {self.first} were forgotten")
        return iter(self._held)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Recent):
            return self.first == other.first and self._held == other._held
        return isinstance(other, list) and not self.first and self._held == other

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Recent(first={self.first}, {self._held!r})"

    def append(self, item: T) -> None:
        """Add ``item`` at the end; earlier items keep their indices, forgotten or not."""
        self._held.append(item)

    def held(self) -> list[T]:
        """The items still held, oldest first (index :attr:`first` on)."""
        return self._held

    def forget_before(self, index: int) -> None:
        """Forget every item before ``index``."""
        if index > self.first:
            del self._held[:index - self.first]
            self.first = index

    def _position(self, index: int) -> int:
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(f"index {index} out of range ({len(self)} items)")
        if index < self.first:
            raise IndexError(f"item {index} was forgotten (items before {self.first} are)")
        return index - self.first
