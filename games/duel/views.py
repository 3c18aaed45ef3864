"""What a seat (or a spectator) sees of a duel match, as a canonical value for every client.

A seat's view depends only on what the seat knows: its own hand (in blind play not even
that: the cards lie face down), its own deck composition and swap draws, and everything
played. Nobody's view holds another seat's composition before the game ends.
"""

from __future__ import annotations

from typing import Any

from fairtable.games.duel import decks, draft
from fairtable.games.duel.catalogue import BEATS, BONUS, CARDS, attack_value, beats, points
from fairtable.games.duel.state import Duel, DuelState, Player

OPTIONS_SHOWN = ("rounds", "tie", "playoff_attacker", "swap_after_round", "reshuffle_every", "round_starter", "cycles", "draft")


def _player(state: DuelState, seat: int, player: Player) -> dict:
    return {
        "attacks_won": player.attacks_won,
        "deck": len(player.deck),
        "defences_won": player.defences_won,
        "hand": len(player.hand),
        "out": seat in state.out,
        "points": player.points,
        "round_points": player.round_points,
        "rounds_won": player.rounds_won,
        "timeouts": player.timeouts,
        "used": list(player.used),
    }


def _duel(duel: Duel) -> dict:
    value = CARDS[duel.attack].attack if duel.defence is None else attack_value(CARDS[duel.attack], CARDS[duel.defence])
    return {"attack": duel.attack, "attacker": duel.attacker, "bonus": duel.bonus, "defence": duel.defence,
            "defender": duel.defender, "playoff": duel.playoff, "points": list(duel.points), "round": duel.round, "value": value}


def _facing(attack: int | None, card: int | None) -> dict | None:
    """The attack on the table against ``card`` of the defender's hand, as the rules compare them
    (``attack_value``, with the bonus when its type beats the card's) and the points it would give."""
    if attack is None or card is None:
        return None
    return {"attack": attack_value(CARDS[attack], CARDS[card]), "bonus": beats(CARDS[attack], CARDS[card]),
            "points": list(points(CARDS[attack], CARDS[card]))}


def _draft(state: DuelState) -> dict | None:
    if not state.options["draft"] or state.first is None:
        return None
    done = len(state.picks) == draft.total(state.seats)
    return {
        "first": state.first,
        "next": None if done else draft.picker(state.first, state.seats, len(state.picks)),
        "picks": [list(draft.picks_of(state.first, state.seats, state.picks, seat)) for seat in range(state.seats)],
        "pool": list(draft.pool(state.picks)),
    }


def _own(state: DuelState, seat: int, attack: int | None) -> dict[str, Any]:
    player = state.players[seat]
    blind = state.variant == "blind"
    drawn = decks.drawn_cards(player.cards or (), player.draws) if player.draws and player.cards is not None else None
    base = decks.base(player) if player.built else None
    return {
        "deck_base": None if base is None else list(base),
        "deck_cards": None if player.cards is None else list(player.cards),
        "deck_choices": None if (allowed := decks.choices(player)) is None else list(allowed),
        "deck_size": decks.size(player),
        "hand_cards": [{"card": card, "facing": _facing(attack if seat == state.defender else None, card), "handle": handle}
                       for handle in player.hand for card in [None if blind else state.faces.get(handle)]],
        "swap_draws": None if drawn is None else list(drawn),
    }


def view(state: DuelState, seat: int | None) -> dict:
    """What ``seat`` (None: a spectator) sees, as a canonical value for clients: the public match
    plus the seat's own hand, composition and swap draws; never another seat's composition."""
    attack = None if state.attack is None or state.step != "defend" else state.faces.get(state.attack)
    own = _own(state, seat, attack) if seat is not None else {"deck_base": None, "deck_cards": None, "deck_choices": None, "deck_size": None,
                                                      "hand_cards": None, "swap_draws": None}
    return {
        "attack": attack,
        "attacker": state.attacker,
        "beats": dict(BEATS),
        "bonus": BONUS,
        "cycle": state.duel // state.seats + 1 if state.variant == "ffa" else None,
        "defender": state.defender,
        "draft": _draft(state),
        "duel": state.duel,
        "options": {name: state.options[name] for name in OPTIONS_SHOWN if name in state.options},
        "players": [_player(state, index, player) for index, player in enumerate(state.players)],
        "playoff": state.playoff,
        "recent": [_duel(duel) for duel in state.recent],
        "result": None if state.result is None else state.result.to_value(),
        "round": state.round,
        "rounds_drawn": state.drawn,
        "seat": seat,
        "starter": state.starter,
        "step": state.step,
        "tiebreaks": state.tiebreaks,
        "variant": state.variant,
        **own,
    }
