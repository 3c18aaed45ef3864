"""Orders drawn from the tournament's seed: the groups, and the lot that settles what no
result settles. Each order is labelled, so one seed gives independent orders."""

from __future__ import annotations

from collections.abc import Sequence

from fairtable.protocol.hashing import digest


def lot(seed: bytes, label: str, participant: int) -> bytes:
    """The participant's lot for ``label``: a lower lot ranks first."""
    return digest("tournament-lot", seed + label.encode() + b"\0" + participant.to_bytes(2, "big"))


def shuffled(seed: bytes, label: str, participants: Sequence[int]) -> tuple[int, ...]:
    """``participants`` ordered by their lots (a uniformly random order no participant chose)."""
    return tuple(sorted(participants, key=lambda p: lot(seed, label, p)))
