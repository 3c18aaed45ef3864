"""Duel on the game contract: decks (secret, or drafted in public), the duel, the turn order of
each variant, forfeits, moves and views. The rulings it relies on are in the package docstring.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from fairtable.games.contract import (
    BotFactory,
    Deal,
    Dealt,
    Decide,
    Faces,
    Finished,
    Forfeit,
    GameError,
    Handle,
    Move,
    OptionsError,
    PrivateDraw,
    PrivateDrawn,
    Prompt,
    PublicRandom,
    RandomValue,
    Request,
    Result,
    Reveal,
    Revealed,
    Rng,
    RuleError,
    Shuffle,
    Shuffled,
    ShuffleOwned,
    Simultaneous,
    Timeout,
)
from fairtable.games.duel import decklist, decks, draft, render
from fairtable.games.duel.bots import GreedyBot, RandomBot, random_deck
from fairtable.games.duel.catalogue import CARDS, IDS, beats, points
from fairtable.games.duel.decks import HAND_SIZE
from fairtable.games.duel.moves import parse_move
from fairtable.games.duel.results import REASONS, match_result, scores
from fairtable.games.duel.state import RECENT, Duel, DuelState, OwnedDeck, Player
from fairtable.games.duel.views import view
from fairtable.games.faces import learn
from fairtable.games.options import Choice, Flag, Integer, Option
from fairtable.games.rules import Rules, timer_on, unmarked

MAX_TIEBREAKS = 10
"""Rematches or playoffs in a row after which a tie stands, so every match ends."""
COMMON: dict[str, Option] = {"draft": Flag(False)}
MATCH: dict[str, Option] = {
    "rounds": Integer(1, 9, 3),
    "duels": Integer(1, HAND_SIZE, HAND_SIZE),
    "tie": Choice(("rematch", "playoff", "accept"), "rematch"),
    "playoff_attacker": Choice(("defender", "dice"), "defender"),
}
BLIND: dict[str, Option] = {
    "swap_after_round": Flag(False),
    "reshuffle_every": Integer(0, 9, 0),
    "round_starter": Choice(("alternate", "lowest"), "alternate"),
}
FFA: dict[str, Option] = {"cycles": Integer(1, 6, 3)}
VARIANT_OPTIONS: dict[str, dict[str, Option]] = {
    "1v1": {**MATCH, **COMMON},
    "blind": {**MATCH, **BLIND, **COMMON},
    "ffa": {**FFA, **COMMON},
}
SEATS = {"1v1": (2, 2), "blind": (2, 2), "ffa": (3, 6)}
BOTS: dict[str, BotFactory] = {"random": RandomBot, "greedy": GreedyBot}


def _learn(state: DuelState, faces: Faces, allowed: set[Handle]) -> dict[Handle, int]:
    return learn(state.faces, faces, allowed, len(CARDS), "duel.face")


class DuelGame(Rules[DuelState]):
    """The 108-card attack and defence duel: 1v1, blind, free-for-all and draft, each over rounds of
    duels with the rules' points."""
    id = "duel"
    variants = tuple(VARIANT_OPTIONS)
    timed = True
    min_seats = 2
    max_seats = 6
    state_type = DuelState
    options: Mapping[str, Option] = {name: option for options in VARIANT_OPTIONS.values() for name, option in options.items()}
    bots = BOTS
    renderer = render
    reasons = REASONS

    def variant_options(self, variant: str) -> Mapping[str, Option]:
        return VARIANT_OPTIONS[variant]

    def seat_range(self, variant: str) -> tuple[int, int]:
        return SEATS[variant]

    def start(self, variant: str, options: dict[str, Any], seats: int) -> DuelState:
        if options["draft"] and draft.total(seats) > len(IDS):
            most = len(IDS) // decks.DECK_SIZE
            raise OptionsError(f"option 'draft' deals {decks.DECK_SIZE} cards per seat from {len(IDS)}: at most {most} seats, not {seats}")
        if options["draft"] and options.get("swap_after_round"):
            raise OptionsError("option 'swap_after_round' swaps cards of a secret deck; drafted decks are public, so it cannot go with 'draft'")
        players = (Player(),) * seats
        if options["draft"]:
            return DuelState(variant, options, seats, players, "order")
        return DuelState(variant, options, seats, players, "prepare", after="start")

    def random_hidden(self, state: DuelState, seat: int, request: Request, rng: Rng) -> tuple[int, ...]:
        """A random legal composition for the pending deck (a new one, or a rebuilt one)."""
        return random_deck(state, seat, rng)

    def check_composition(self, state: DuelState, seat: int, cards: tuple[int, ...]) -> None:
        """Before the owner commits: the deck it may build now. At the reveal after the game: a
        state that knew the composition (the owner's, the verifier's) names a deck that broke the rules."""
        request = self.pending(state)
        if isinstance(request, ShuffleOwned) and request.owner == seat:
            found = decks.problem(seat, state.players[seat], cards)
        else:
            found = next((RuleError(d.rule, d.flaw) for d in state.decks if d.owner == seat and d.flaw and d.composition == tuple(cards)), None)
        if found is not None:
            raise found

    def read_composition(self, state: DuelState, seat: int, text: str) -> tuple[int, ...]:
        """The deck a deck list (``decklist``: ids, Dutch or English names) names, of the size this
        deck must have, then checked as the node checks the deck it commits."""
        cards = decklist.parse(text, decks.size(state.players[seat]))
        self.check_composition(state, seat, cards)
        return cards

    # ------------------------------------------------------------------ what happens next

    def pending(self, state: DuelState) -> Request:
        step = state.step
        timed = timer_on(state.options)
        if step == "over":
            assert state.result is not None
            return Finished(state.result)
        if step == "order":
            return PublicRandom(state.seats)
        if step == "draft":
            return Decide(draft.picker(_first(state), state.seats, len(state.picks)), timed)
        if step == "start":
            return PublicRandom(state.seats)
        if step == "dice":
            return PublicRandom(2)
        if step == "attack":
            return Decide(_seat(state.attacker), timed)
        if step == "defend":
            return Decide(_seat(state.defender), timed)
        if step == "pick":
            return PublicRandom(len(state.players[_seat(state.attacker)].hand) * len(state.players[_seat(state.defender)].hand))
        if step == "reveal":
            return Reveal(tuple(sorted((_seat(state.attack), _seat(state.defence)))))
        return self._preparation(state)

    def _preparation(self, state: DuelState) -> Request:
        """Decks to build or rebuild (seat by seat), then the cards owed to hands."""
        for seat in state.present:
            player = state.players[seat]
            if player.built and not player.rebuilding:
                continue
            if player.swap and len(player.draws) < decks.SWAPS:
                return PrivateDraw(seat, decks.swap_bound(player), 1, state.next_handle)
            if state.options["draft"]:
                cards = decks.base(player)
                assert cards is not None  # public: the picks (a draft has no swaps)
                return Shuffle(cards, state.next_handle)
            return ShuffleOwned(seat, decks.size(player), IDS, state.next_handle)
        plan = tuple((seat, state.players[seat].deck[: state.players[seat].owed]) for seat in state.present if state.players[seat].owed)
        return Deal(plan)

    # ------------------------------------------------------------------ events

    def present(self, state: DuelState) -> tuple[int, ...]:
        return state.present

    def timeouts(self, state: DuelState) -> tuple[int, ...]:
        return tuple(player.timeouts for player in state.players)

    def with_timeouts(self, state: DuelState, counts: tuple[int, ...]) -> DuelState:
        return dataclasses.replace(state, players=tuple(dataclasses.replace(player, timeouts=count)
                                                        for player, count in zip(state.players, counts)))

    def on_forfeit(self, state: DuelState, event: Forfeit) -> DuelState:
        return _leave(state, event.seat, f"forfeit: {event.reason}")

    def on_random(self, state: DuelState, request: PublicRandom, event: RandomValue) -> DuelState:
        value = event.value
        if state.step == "order":
            return dataclasses.replace(state, first=value, step="draft")
        if state.step == "start":
            state = dataclasses.replace(state, starter=value)
            return _begin_play(state) if state.variant == "ffa" else _begin_round(state, value)
        if state.step == "dice":
            return _begin_round(state, value, playoff=True)
        attacker, defender = state.players[_seat(state.attacker)], state.players[_seat(state.defender)]
        mine, theirs = divmod(value, len(defender.hand))
        return dataclasses.replace(state, step="reveal", attack=attacker.hand[mine], defence=defender.hand[theirs])

    def on_shuffled(self, state: DuelState, request: Shuffle, event: Shuffled) -> DuelState:
        handles = range(request.first_handle, request.first_handle + len(request.cards))
        seat = _building(state)
        state = dataclasses.replace(state, faces=_learn(state, event.faces, set(handles)), next_handle=handles.stop)
        return self._built(state, seat, tuple(handles), tuple(sorted(request.cards)))

    def on_owned_shuffled(self, state: DuelState, request: ShuffleOwned, event: Shuffled) -> DuelState:
        handles = range(request.first_handle, request.first_handle + request.size)
        seat = request.owner
        composition = tuple(event.composition) or None
        found = None if composition is None else decks.problem(seat, state.players[seat], composition)
        record = OwnedDeck(seat, request.first_handle, composition, *((found.rule, found.detail) if found else ("", "")))
        state = dataclasses.replace(state, faces=_learn(state, event.faces, set(handles)), next_handle=handles.stop,
                                    decks=(*state.decks, record))
        return self._built(state, seat, tuple(handles), composition)

    def _built(self, state: DuelState, seat: int, handles: tuple[Handle, ...], composition: tuple[int, ...] | None) -> DuelState:
        player = state.players[seat]
        cards = composition if not player.built else None if composition is None else decks.rebuilt_cards(player, composition)
        if state.options["draft"]:
            cards = player.cards  # public: the picks, unchanged by a reshuffle
        used = () if player.reshuffle else player.used
        state = state.player(seat, deck=handles, cards=cards, used=used, built=True, reshuffle=False, swap=False, regather=False,
                             draws=())
        return _settle(state)

    def on_drawn(self, state: DuelState, request: PrivateDraw, event: PrivateDrawn) -> DuelState:
        handle = request.first_handle
        if set(event.faces) - {handle}:
            raise RuleError("duel.face", f"a swap draw shows handle {handle} only, not {sorted(event.faces)}")
        face = event.faces.get(handle)
        if face is not None and not (type(face) is int and 0 <= face < request.bound):
            raise RuleError("duel.face", f"a swap draw is an index below {request.bound}, got {face!r}")
        player = state.players[request.seat]
        state = state.player(request.seat, draws=(*player.draws, face))
        return dataclasses.replace(state, next_handle=handle + 1)

    def on_dealt(self, state: DuelState, request: Deal, event: Dealt) -> DuelState:
        dealt = {handle for _, handles in request.to for handle in handles}
        state = dataclasses.replace(state, faces=_learn(state, event.faces, dealt))
        for seat, handles in request.to:
            player = state.players[seat]
            state = state.player(seat, hand=player.hand + handles, deck=player.deck[len(handles):], owed=0)
        return _settle(state)

    def on_revealed(self, state: DuelState, request: Reveal, event: Revealed) -> DuelState:
        if set(event.faces) != set(request.handles):
            raise RuleError("duel.face", "the reveal must show exactly the two cards picked")
        state = dataclasses.replace(state, faces=_learn(state, event.faces, set(request.handles)))
        attack, defence = _seat(state.attack), _seat(state.defence)
        state = _play_card(state, _seat(state.attacker), attack)
        state = _play_card(state, _seat(state.defender), defence)
        return _resolve(state, state.faces[attack], state.faces[defence])

    def on_move(self, state: DuelState, request: Decide, event: Move, timeout: Timeout | None = None) -> DuelState:
        seat = request.seat
        kind, value, target = parse_move(event.move)
        if kind != {"draft": "pick", "attack": "attack", "defend": "defend"}[state.step]:
            raise RuleError("duel.move", f"a {state.step} move is due, not {kind!r}", "duel.move:step", step=state.step)
        if timeout:
            expected = self.default_move(state, seat) if kind == "pick" or _knows_hand(state, seat) else None
            if expected is not None and unmarked(expected) != event.move:
                raise RuleError("duel.timeout", f"on timeout the rules play {expected!r}", "timeout")
        if kind == "pick":
            state = self._pick(state, value, event)
        else:
            state = self._card(state, seat, kind, value, target, event)
        if timeout and timeout.final and state.step != "over" and seat in state.present:
            return _leave(state, seat, "timeouts")
        return state

    def _pick(self, state: DuelState, card: int, event: Move) -> DuelState:
        if event.faces:
            raise RuleError("duel.reveal", "a pick shows no hidden card")
        if card not in draft.pool(state.picks):
            picked = {"key": "duel.pick:picked", "card": f"duel.cards.{card}"} if card in IDS else {"key": "duel.pick"}
            raise RuleError("duel.pick", f"{card!r} is not a card left in the pool", **picked)
        picks = (*state.picks, card)
        if len(picks) < draft.total(state.seats):
            return dataclasses.replace(state, picks=picks)
        first = _first(state)
        players = tuple(dataclasses.replace(p, cards=tuple(sorted(draft.picks_of(first, state.seats, picks, seat))))
                        for seat, p in enumerate(state.players))
        return dataclasses.replace(state, picks=picks, players=players, step="prepare", after="start")

    def _card(self, state: DuelState, seat: int, kind: str, handle: int, target: int | None, event: Move) -> DuelState:
        if handle not in state.players[seat].hand:
            raise RuleError("duel.hand", f"handle {handle} is not in seat {seat}'s hand", "duel.hand")
        if set(event.faces) != {handle}:
            raise RuleError("duel.reveal", f"the move must show exactly the face of handle {handle}")
        ffa = state.variant == "ffa"
        if kind == "attack" and ffa != (target is not None):
            raise RuleError("duel.move", "an attack in a free-for-all names its target, in a duel of two it does not",
                            "duel.target" if ffa else "move")
        if target is not None and (target == seat or target not in state.present):
            raise RuleError("duel.target", f"seat {target!r} is no opponent still playing", "duel.target")
        state = dataclasses.replace(state, faces=_learn(state, event.faces, {handle}))
        state = _play_card(state, seat, handle)
        if kind == "defend":
            return _resolve(state, state.faces[_seat(state.attack)], state.faces[handle])
        state = dataclasses.replace(state, attack=handle, defender=target if ffa else state.defender)
        if not state.players[_seat(state.defender)].hand:
            return _resolve(state, state.faces[handle], None)  # a defender without a card loses the duel
        return dataclasses.replace(state, step="defend")

    # ------------------------------------------------------------------ moves

    def moves(self, state: DuelState, request: Decide | Simultaneous, seat: int) -> tuple[Any, ...]:
        if state.step == "draft":
            return tuple({"pick": card} for card in draft.pool(state.picks))
        hand = state.players[seat].hand
        if state.step == "defend":
            return tuple({"defend": handle} for handle in hand)
        if state.variant != "ffa":
            return tuple({"attack": handle} for handle in hand)
        return tuple({"attack": handle, "target": target} for handle in hand for target in state.present if target != seat)

    def prompt(self, state: DuelState, seat: int) -> Prompt | None:
        """Build or rebuild a deck, pick in the draft, attack or defend."""
        if isinstance(self.pending(state), ShuffleOwned):
            return Prompt("duel.rebuild" if state.players[seat].rebuilding else "duel.deck")
        return Prompt(f"duel.{state.step}") if state.step in ("attack", "defend") else Prompt("duel.pick")

    def reveals(self, state: DuelState, move: Any) -> tuple[Handle, ...]:
        """Playing a card shows it to everyone; a pick shows nothing."""
        kind, value, _ = parse_move(unmarked(move))
        return () if kind == "pick" else (value,)

    def default_move(self, state: DuelState, seat: int) -> Any:
        """On timeout: the default pick (``draft.default_pick``); else the weakest card for the
        role (the lowest attack, or the lowest defence; then the lower id, then handle),
        attacking the next opponent in seat order in a free-for-all."""
        if state.step == "draft":
            return {"pick": draft.default_pick(state.picks), "timeout": True}
        if not _knows_hand(state, seat) or not state.players[seat].hand:
            raise GameError(f"this state does not know seat {seat}'s hand")
        role = "defence" if state.step == "defend" else "attack"
        hand = state.players[seat].hand
        handle = min(hand, key=lambda h: (getattr(CARDS[state.faces[h]], role), state.faces[h], h))
        if state.step == "defend":
            return {"defend": handle, "timeout": True}
        move: dict[str, Any] = {"attack": handle, "timeout": True}
        if state.variant == "ffa":
            move["target"] = next(s for s in (*range(seat + 1, state.seats), *range(seat)) if s in state.present)
        return move

    def view(self, state: DuelState, seat: int | None) -> dict:
        return view(state, seat)


# ------------------------------------------------------------------ transitions


def _seat(value: int | None) -> int:
    assert value is not None
    return value


def _first(state: DuelState) -> int:
    return _seat(state.first)


def _knows_hand(state: DuelState, seat: int) -> bool:
    return all(handle in state.faces for handle in state.players[seat].hand)


def _building(state: DuelState) -> int:
    """The seat whose deck the pending (public) shuffle builds."""
    return next(seat for seat in state.present if not state.players[seat].built or state.players[seat].rebuilding)


def _play_card(state: DuelState, seat: int, handle: Handle) -> DuelState:
    """The card leaves the hand; its face joins the public used cards."""
    player = state.players[seat]
    return state.player(seat, hand=tuple(h for h in player.hand if h != handle), used=(*player.used, state.faces[handle]))


def _resolve(state: DuelState, attack: int, defence: int | None) -> DuelState:
    """Score the duel on the table and go on."""
    attacker, defender = _seat(state.attacker), _seat(state.defender)
    won = (2, 0) if defence is None else points(CARDS[attack], CARDS[defence])
    bonus = defence is not None and beats(CARDS[attack], CARDS[defence])
    a, d = state.players[attacker], state.players[defender]
    state = state.player(attacker, points=a.points + won[0], round_points=a.round_points + won[0], attacks_won=a.attacks_won + (won[0] == 2))
    state = state.player(defender, points=d.points + won[1], round_points=d.round_points + won[1], defences_won=d.defences_won + (won[1] == 2))
    record = Duel(state.round, attacker, defender, attack, defence, bonus, won, state.playoff)
    state = dataclasses.replace(state, recent=(*state.recent, record)[-RECENT:], attack=None, defence=None, duel=state.duel + 1)
    if state.variant == "ffa":
        return _refill(state, (attacker, defender))
    if state.playoff:
        return _match_end(state)
    if state.duel == state.options["duels"]:
        return _round_end(state)
    return _duel_step(dataclasses.replace(state, attacker=defender, defender=attacker))


def _duel_step(state: DuelState) -> DuelState:
    """The next duel between ``attacker`` and ``defender``: a decision, or in blind play a pick."""
    if state.variant != "blind":
        return dataclasses.replace(state, step="attack")
    hands = state.players[_seat(state.attacker)].hand, state.players[_seat(state.defender)].hand
    if len(hands[0]) * len(hands[1]) == 1:
        return dataclasses.replace(state, step="reveal", attack=hands[0][0], defence=hands[1][0])
    return dataclasses.replace(state, step="pick")


def _settle(state: DuelState) -> DuelState:
    """Leave ``prepare`` once nothing is left to build or deal: blind cards are laid face down
    from the top of the deck, no request needed."""
    if state.step != "prepare":
        return state
    for seat in state.present:
        player = state.players[seat]
        if not player.built or player.rebuilding:
            return state
    if state.variant == "blind":
        for seat in state.present:
            player = state.players[seat]
            state = state.player(seat, hand=player.hand + player.deck[: player.owed], deck=player.deck[player.owed:], owed=0)
    if any(state.players[seat].owed for seat in state.present):
        return state
    if state.after == "start":
        return dataclasses.replace(state, step="start")
    if state.after == "turn":
        return _next_turn(state)
    return _duel_step(state)


def _begin_round(state: DuelState, attacker: int, playoff: bool = False) -> DuelState:
    """Hands of 6 (a playoff: 1) from each deck, rebuilt first where it cannot supply them. Cards
    a shorter round (``duels`` below 6) left in a hand go back into the deck, which is rebuilt."""
    need = 1 if playoff else HAND_SIZE
    for seat in range(state.seats):
        player = state.players[seat]
        left = len(player.deck) + len(player.hand)
        state = state.player(seat, owed=need, round_points=player.round_points if playoff else 0, hand=(),
                             regather=player.regather or bool(player.hand), reshuffle=player.reshuffle or left < need)
    state = dataclasses.replace(state, step="prepare", after="duel", starter=attacker, attacker=attacker, defender=1 - attacker,
                                duel=0, playoff=playoff, round=state.round + (not playoff))
    return _settle(state)


def _round_end(state: DuelState) -> DuelState:
    a, b = state.players[0].round_points, state.players[1].round_points
    if a != b:
        winner = 0 if a > b else 1
        state = state.player(winner, rounds_won=state.players[winner].rounds_won + 1)
    else:
        state = dataclasses.replace(state, drawn=state.drawn + 1)
    if state.tiebreaks == 0 and state.round < state.options["rounds"]:
        return _next_round(state, (a, b))
    return _match_end(state)


def _next_round(state: DuelState, last: tuple[int, int]) -> DuelState:
    """The other seat starts the next round; in blind play with ``round_starter: lowest`` the
    lower scorer of the last round does (the other seat on a tie)."""
    starter = 1 - _seat(state.starter)
    if state.variant == "blind" and state.options["round_starter"] == "lowest" and last[0] != last[1]:
        starter = 0 if last[0] < last[1] else 1
    return _begin_round(_between_rounds(state), starter)


def _between_rounds(state: DuelState) -> DuelState:
    """Blind play's options after a round: swap cards, and every ``reshuffle_every`` rounds all
    used cards back into the deck."""
    if state.variant != "blind":
        return state
    every = state.options["reshuffle_every"]
    for seat in range(state.seats):
        state = state.player(seat, swap=state.options["swap_after_round"],
                             reshuffle=bool(every) and state.round % every == 0)
    return state


def _match_end(state: DuelState) -> DuelState:
    """The match is decided by points, then rounds won, else by the ``tie`` option."""
    result = match_result(state)
    if result is not None:
        reason = result.reason if state.tiebreaks == 0 else ("playoff" if state.playoff else "rematch")
        return _over(state, Result(result.winners, reason, result.scores))
    tie = state.options["tie"]
    if tie == "accept" or state.tiebreaks >= MAX_TIEBREAKS:
        return _over(state, Result((), "draw" if tie == "accept" else "tie", scores(state)))
    state = _between_rounds(dataclasses.replace(state, tiebreaks=state.tiebreaks + 1))
    if tie == "rematch":
        return _begin_round(state, 1 - _seat(state.starter))
    if state.options["playoff_attacker"] == "dice":
        return dataclasses.replace(state, step="dice")
    return _begin_round(state, 1 - _seat(state.starter), playoff=True)


def _over(state: DuelState, result: Result) -> DuelState:
    return dataclasses.replace(state, step="over", result=result)


# ------------------------------------------------------------------ free-for-all


def _begin_play(state: DuelState) -> DuelState:
    """Every seat draws its hand of 6; the first attacker is the drawn seat."""
    for seat in range(state.seats):
        state = state.player(seat, owed=HAND_SIZE)
    state = dataclasses.replace(state, step="prepare", after="turn", duel=0, round=1)
    return _settle(state)


def _refill(state: DuelState, seats: tuple[int, ...]) -> DuelState:
    """After a duel both duellists draw back to 6, as far as their decks reach."""
    for seat in seats:
        if seat in state.present:
            player = state.players[seat]
            state = state.player(seat, owed=min(HAND_SIZE - len(player.hand), len(player.deck)))
    return _settle(dataclasses.replace(state, step="prepare", after="turn"))


def _next_turn(state: DuelState) -> DuelState:
    """The next seat in order attacks; a seat that left, or holds no card, has no turn. After
    ``cycles`` cycles the points decide."""
    turns = state.options["cycles"] * state.seats
    turn = state.duel
    while turn < turns:
        seat = (_seat(state.starter) + turn) % state.seats
        if seat in state.present and state.players[seat].hand:
            return dataclasses.replace(state, step="attack", attacker=seat, defender=None, duel=turn)
        turn += 1
    return _over(state, _ffa_result(state))


def _ffa_result(state: DuelState, reason: str = "points") -> Result:
    present = state.present
    best = max(state.players[seat].points for seat in present)
    winners = tuple(seat for seat in present if state.players[seat].points == best)
    return Result(winners, reason, scores(state), losers=state.out)


# ------------------------------------------------------------------ leaving


def _leave(state: DuelState, seat: int, reason: str) -> DuelState:
    """A duel of two ends: the other seat wins. A free-for-all goes on without the seat once
    play has begun (before that it ends: nobody wins, the seat loses)."""
    if state.variant != "ffa":
        return _over(state, Result((1 - seat,), reason, scores(state)))
    if state.step in ("order", "draft", "start") or not all(state.players[s].built for s in range(state.seats)):
        return _over(state, Result.forfeit(tuple((s,) for s in range(state.seats)), (seat,), reason, scores(state)))
    state = dataclasses.replace(state, out=(*state.out, seat)).player(seat, owed=0)
    if len(state.present) == 1:
        return _over(state, _ffa_result(state, reason))
    if state.step == "attack" and state.attacker == seat:
        return _next_turn(dataclasses.replace(state, duel=state.duel + 1))
    if state.step == "defend" and state.defender == seat:
        return _resolve(state, state.faces[_seat(state.attack)], None)
    return _settle(state)
