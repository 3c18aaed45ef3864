"""drachenherz (Dragonheart): two players, two identical 50-card sets, nine kinds on one board (rule text 001, Dutch).

Options: ``match`` (first to X game wins, 0 = off) or ``sumof`` (X games, highest total, 0 =
off), not both; neither: one game. ``turn_seconds``, ``max_timeouts`` and ``idle_seconds`` as
every timed game.

Rulings this engine relies on (the text wins where it speaks; ``spec/games.md`` has all):

- Each seat's set (``cards.json``: counts and values are the project's ruling) is one pile,
  shuffled by both seats, so nobody, its owner included, knows the order; pile sizes are public.
  Hands of 5, 6 with the dragon; only the mover refills, at the end of its turn.
- A turn lays one or more cards of one kind, never more than the free slots of a slotted
  field; no passing unless the hand is empty. Stacks (chest, fire dragon, princess, troll,
  petrified dragon) act at once; slotted fields (dwarf 4, hero 2, huntress 3, ship 3) act when
  full. Actions are not optional. A princess play takes all chests or all petrified dragons (one
  pile, even with several princesses); a hero play that fills the field takes all princesses
  or all trolls: the move says which (``take``), and it may name only a pile that holds cards
  (an empty pile while the other holds cards would decline the compulsory action); with both
  empty it names none.
- The dragon goes to whoever takes at least one petrified dragon; when it changes owner, a
  public random index picks one of the old owner's hand cards, which goes face down on top of
  its pile at once (its owner knows it, the other seat knows only which handle), before the
  mover refills. It is worth 3 points and wins a tie.
- End: after the third ship mark the other seat plays one last turn; after a seat's pile is
  used up at its refill, the other seat plays, that seat plays its next turn, and the other
  seat a last one; whichever comes first ends the game. Most points wins, a tie goes to the
  dragon's holder, without one it is a draw. Cards in hands, piles or on the board score nothing.
- Who starts the first game of a table: a public random value; then the games alternate.
  ``match``: a drawn game counts for nobody. ``sumof``: totals include the dragon's points;
  equal totals are a draw. A forfeit or too many timeouts lose the game and the match.
- Timer: the late seat plays the first card of its hand alone, taking the first field that holds
  cards where it must choose (chests before petrified dragons, princesses before trolls).
"""

from fairtable.games.drachenherz.catalogue import CARDS, FIELDS, KINDS, MARKS, SPECIAL, field_name, kind_of
from fairtable.games.drachenherz.game import Drachenherz
from fairtable.games.drachenherz.render import card_name, effect
from fairtable.games.registry import register

GAME = register(Drachenherz())

__all__ = [
    "CARDS",
    "FIELDS",
    "GAME",
    "KINDS",
    "MARKS",
    "SPECIAL",
    "card_name",
    "effect",
    "field_name",
    "kind_of",
]
"""What the game's own terminal board draws with: its catalogue, renderer and shape checks."""
