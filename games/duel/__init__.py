"""duel: 108 cards of three types, secret 20-card decks, duels of attack against defence
(the Dutch rule text, 000, and the rulings).

Variants: ``1v1`` (the classic match of two), ``blind`` (the cards lie face down, unknown to
their owner too, and are turned over at random) and ``ffa`` (free-for-all, 3 to 6 seats,
personal scores). Option ``draft`` replaces secret decks with a public snake draft. The
catalogue is ``cards.json`` (``catalogue.py``); ``spec/games.md`` has every option and rule id.

Decks: without a draft each seat chooses 20 distinct cards (``ShuffleOwned``: known to the
owner only, shuffled by every seat so nobody knows the order, revealed and checked after the
game). A deck that must be rebuilt (the used cards back in, or cards swapped in blind play) is
a new secret deck the owner chooses again, checked by its node and by the verifier, the only
states that know enough.

Rulings this engine relies on (the text wins where it speaks):

- A duel: the attacker plays a card, then the defender, having seen it, answers with one;
  attack above defence gives the attacker 2 points, equal 1 each, below the defender 2. The
  attacker alone gets +50 attack when its type beats the defender's (Mare > Terra > Aria >
  Mare). Played cards leave the game (they return only when a deck is rebuilt with them).
- 1v1 and blind: a round is 6 duels with the attacker alternating (3 attacks each) from a
  hand of 6 drawn at its start; a deck that cannot supply the hand first takes its used cards
  back and is reshuffled. Option ``rounds`` (default 3); option ``duels`` (default 6) shortens a
  round (the tournament's knock-out: 3 rounds of 3), the cards left in a hand going back into the
  deck, rebuilt, at the next round. The first attacker is a public random
  value; each later round starts with the other seat. A round that ends level on points is
  drawn: nobody wins it (``DuelState.drawn`` counts them, so "rounds won 1–1" after three rounds
  says why). The match goes to the most points, then the most rounds won, then option ``tie``: ``rematch`` (another round), ``playoff`` (one more
  duel, each drawing 1 card; the attacker is the seat that defended the last round's first
  duel, or with ``playoff_attacker: dice`` a public random value), or ``accept`` (a draw). A
  tie-break that ties again is played again, the other seat attacking first: for a playoff this
  is the ruling applied to the playoff just played (a round of one duel, whose defender attacks
  next), so neither seat attacks every playoff; ``dice`` draws anew before each. After 10 in a
  row the draw stands (reason ``tie``), so every match ends.
- Prizes (best defender, top attacker; ``results.prize_winners``): the most duels of the kind
  won, shared on a tie, and nobody's when nobody won one (the rulings are silent; players
  expect no prize for 0).
- Blind: each duel a public random value picks one face-down card of each seat, and both are
  turned over at once. ``round_starter: lowest`` lets the lower scorer of the last round attack
  first (the other seat on a tie). ``swap_after_round``: after each round every seat privately
  draws 2 random cards from those outside its deck and may swap up to 2 cards left in its deck
  for them. ``reshuffle_every`` N: after every N-th round the used cards go back into the deck
  (the text's "games" are read as rounds: one table is one match).
- FFA: from a random first seat, in seat order, each seat attacks an opponent of its choice;
  the defender answers; ``cycles`` (default 3; 2 is the quick variant) times round the table.
  Both duellists draw back to 6 after each duel as far as their decks reach; a defender with
  no card loses the duel, an attacker with none has no turn. The most points win; a tie at the
  top shares the win. A seat that leaves during play is out (it loses); the others play on.
- Draft: the first picker is a public random value, then snake order, picks public; at most 5
  seats (20 cards each from 108). The drafted decks are public, so ``swap_after_round``, which
  swaps secretly, cannot be combined with a draft.
- Timer: a decision not made in time plays the rules' default: the weakest card for the role
  (lowest attack, or lowest defence; then the lower id, then handle), attacking the next
  opponent in seat order; in the draft the pool's best card. ``max_timeouts`` consecutive
  timeouts lose (in a free-for-all: the seat is out).
"""

from fairtable.games.duel.catalogue import CARDS, attack_value, points
from fairtable.games.duel.decklist import DeckListError, parse
from fairtable.games.duel.game import DuelGame
from fairtable.games.duel.render import drawn, duel_line, standing, title, triangle
from fairtable.games.registry import register

GAME = register(DuelGame())

__all__ = [
    "CARDS",
    "GAME",
    "DeckListError",
    "attack_value",
    "drawn",
    "duel_line",
    "parse",
    "points",
    "standing",
    "title",
    "triangle",
]
"""What the game's own terminal board draws with: its catalogue, renderer and shape checks."""
