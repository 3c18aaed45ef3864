"""shengji (Tractor, "Cardavia"): four seats in two teams, two packs, levels 2 to A (rule text 003, Dutch).

Seats 0+2 and 1+3 are partners; play goes seat + 1 ("counter-clockwise"). Options: ``start``
(both teams' first level, 2..14, default 2), ``target`` (the first team past it wins, default
14, the ace), ``deals`` (0: no limit; else the match ends after that many deals, the higher
level winning, equal levels the team that would deal next), and the turn timer.

Rulings this engine relies on (the text wins where it speaks; ``spec/games.md`` has all):

- One joint shuffle of 108 cards a deal: 25 to each seat, the last 8 the kitty, dealt to the
  dealer only once the dealer is known. Declaration comes after the deal, as the text and the
  rulings say: one round in seat order from the dealer (the first deal: a seat drawn by public
  random value). A seat declares by showing (revealing to everyone) cards it holds: a level
  card (its suit trump), two identical level cards, two small jokers, two big jokers (joker
  pairs: no trump suit); each declaration must be stronger than the standing one; three passes
  after a declaration end the round. Nobody declares: the kitty is revealed and the suit of
  its first non-joker card (in deck order) is trump.
- The first deal's dealer is the first seat that declared ("de eerste verklaarder wordt de
  eerste deler"), or the starting seat when nobody declared; the dealer's team defends.
- The dealer takes the kitty and buries 8 cards, one decision per card; they stay hidden
  until the deal's last trick, then are revealed for the kitty bonus.
- Trump: big joker, small joker, trump-suit level cards, off-suit level cards (equal), the
  trump suit A..2. Tractors skip the level rank; in trump the chain is A, off-suit level
  pair, trump-suit level pair, small-joker pair, big-joker pair; two different off-suit level
  pairs never form one. Leads: a single, a pair or a tractor; no throws.
- A follower plays its cards one decision at a time; the follow rule (the led effective
  suit; as many pairs as it can against a pair or tractor; short: all of the suit, then
  free; void: free) is checked against the whole hand wherever the hand is known (the seat's
  own node, the verifier), so a renege is named by the verifier with the trick and the cards.
- Only the lead's shape wins: in the led suit, or all in trump against a plain lead; equal
  strength, the earlier play. Points: 5s 5, 10s and kings 10 (200). Attackers winning the
  last trick add the buried points x 2 x the cards each seat played in it.
- Levels: attackers 0 -> defenders +3; 5-35 +2; 40-75 +1 (in all three, the dealer's partner
  deals next); 80-115 the attackers take over without promotion; from 120 +1 per 40 beyond
  80; after a takeover the seat after the old dealer deals.
- Timer: a late seat passes, or buries/leads/follows with its lowest allowed card.
"""

from fairtable.games.registry import register
from fairtable.games.shengji.catalogue import CARDS
from fairtable.games.shengji.game import Shengji
from fairtable.games.shengji.render import code

GAME = register(Shengji())

__all__ = [
    "CARDS",
    "GAME",
    "code",
    "render",
]
"""What the game's own terminal board draws with: its catalogue, renderer and shape checks."""
