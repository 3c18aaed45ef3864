"""A seat's private draws (e.g. an "infinite" deck): hidden now, checkable after the game.

Draw ``counter`` of stream ``label`` is read from ``PRF(seed, label, context, counter)``,
where ``context`` is public and not under the drawer's control, typically the hash of the
latest envelope another seat authored. Others cannot predict the draw (they lack the
seed); the drawer cannot bias it (the seed was committed before, and ``context`` did not
exist when it was); and it cannot know its future draws before ``context`` exists.
After the seed reveal the verifier recomputes every draw.
"""

from __future__ import annotations

from fairtable.protocol.errors import UsageError
from fairtable.protocol.fair.errors import FairnessError
from fairtable.protocol.fair.seeds import Seed


def draw(seed: Seed, label: str, context: bytes, counter: int, k: int, count: int = 1) -> tuple[int, ...]:
    """``count`` integers below ``k`` from draw ``counter`` of stream ``label``."""
    if type(counter) is not int or counter < 0:
        raise UsageError(f"a draw counter is a non-negative integer, got {counter!r}")
    if not isinstance(context, bytes):
        raise UsageError("the public context of a draw is bytes")
    stream = seed.stream("private-stream", label, context, counter)
    return tuple(stream.below(k) for _ in range(count))


def check_draw(seed: Seed, label: str, context: bytes, counter: int, k: int, claimed: tuple[int, ...]) -> None:
    """After the seed reveal: raise a :class:`FairnessError` naming the seat if it claimed other values."""
    if tuple(claimed) != draw(seed, label, context, counter, k, len(claimed)):
        detail = f"draw {counter} of stream {label!r} is not what the seed derives"
        raise FairnessError(seed.seat, "private-stream.mismatch", detail)
