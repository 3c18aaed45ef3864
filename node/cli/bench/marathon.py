"""The memory bench's match: deal after deal of the toy game counting to :data:`TARGET` by 1 to 3.

No real game's match runs to 100,000 envelopes (shengji ends when a team reaches its target
level, a few thousand envelopes in), and counting (``fairtable.games.testing.counting``) costs
only signatures and hashes (no shuffles), so a 100,000-envelope transcript is played and
verified in minutes. It is registered only in the bench's own child processes
(:func:`register`), never listed.
"""

from __future__ import annotations

from fairtable.games import registry
from fairtable.games.testing import COUNTING

GAME = COUNTING.id
TARGET = 100
"""Each deal's count: about 50 moves, so the match is mostly moves, not commit and seed rounds."""
PER_DEAL = TARGET // 2 + 4
"""About how many envelopes a deal takes: its moves, two commits and two seeds."""


def options(deals: int) -> dict[str, int]:
    """The table options of a match of ``deals`` deals."""
    return {"deals": deals, "target": TARGET}


def register() -> None:
    registry.register(COUNTING)
