"""towers: two towers, three resources and a 102-card deck (the Latvian rule text, 004).

Variants are the deck kinds, since the host picks one and the table list shows it:
``normal`` (each card once; the discard pile is reshuffled into a new deck when the deck
runs out) and ``infinite`` (every new card is drawn uniformly from all 102, privately,
so duplicates happen). Options: ``battlefield`` (default ``archmage_citadel``, the
classic 20/5 start with targets 50/150), ``turn_seconds`` (0..3600, default 60, 0 = no
timer), ``max_timeouts`` (1..100, default 3).

Rulings this engine relies on (the text wins where it speaks; ``spec/games.md`` has all):

- Cards are read literally: ``visiem`` includes you; damage without a target is normal
  damage to the enemy (wall first); ``... tornim`` bypasses walls; ``bojājumi jums`` is
  normal damage to you; a clause with no target is yours; comparisons are strict;
  ``Grūdieni`` hits walls only; ``Gruntsūdeņi`` hits both players on equal walls and its
  tower loss is a loss, not damage; ``Zaglis`` gives half of what the enemy actually
  lost, rounded up, per resource; no card is undiscardable.
- Nothing goes below 0; producers may reach 0.
- A turn: income equal to producers, then play an affordable card (paying its colour's
  resource) or discard any card, then refill to 6. "Play again": refill, then act again
  without income. "Draw a card, discard a card, play again": draw 1, discard 1 of your
  choice (any card, the new one too), refill, act again.
- Victory is checked after every card played or discarded (so income that reaches the
  resource target wins with the turn's first card): own tower at the target, any own
  resource at the target, or the enemy tower at 0. Both seats at once: a draw.
- Who starts: a public random value. Played and discarded cards are public.
- Timer: the late seat's card is discarded automatically: the most expensive card it
  cannot afford, else the cheapest; ties by the lower catalogue id, then handle.
  ``max_timeouts`` consecutive timeouts lose, checked before victory.
"""

from fairtable.games.registry import register
from fairtable.games.towers.catalogue import BATTLEFIELDS, CARDS
from fairtable.games.towers.effects import PRODUCERS, RESOURCES
from fairtable.games.towers.game import Towers
from fairtable.games.towers.render import effect_text

GAME = register(Towers())

__all__ = [
    "BATTLEFIELDS",
    "CARDS",
    "GAME",
    "PRODUCERS",
    "RESOURCES",
    "effect_text",
]
"""What the game's own terminal board draws with: its catalogue, renderer and shape checks."""
