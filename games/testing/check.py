"""The contract check every game runs: seeded random playouts through the referee, with the
invariants a table session relies on checked along the way.

A game that passes :func:`check_game` can be served by the table session and the verifier:

- **it ends and it is deterministic**: the same seed gives the same events and result;
- **live knowledge agrees with full knowledge**: the playout runs the referee in lockstep, so
  each seat's own partial state accepts the same events, asks for the same next request and
  shows the same public view and own view as the verifier's; a view that depends on a face the
  seat cannot know (a leak) shows as a :class:`~fairtable.games.referee.Divergence`;
- **legal moves and apply agree both ways** on sampled states: every sampled legal move is
  accepted; a move that is not legal (another state's move, another seat's, a malformed
  value), or a legal move sent by a seat that is not deciding, is refused with a
  :class:`~fairtable.games.contract.RuleError`, whose words :meth:`~fairtable.games.contract.Game.explain`
  gives alike (and the catalogue prints); seats that are not asked list no moves;
- **values round-trip**: states through ``to_value``/``from_value`` (and ``wire``, e.g. the
  canonical codec, which this layer may not import), views encode, and a move read back from
  the wire is applied like the original;
- **replays agree**: the verifier's events replayed from a fresh setup give the final state,
  and each seat's own events give that seat's state.

A game adds its own invariants with ``invariants(state, request)`` (called on every full
state) and ``finished(played)`` (called on each finished playout, seat states included).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from fairtable.games import referee
from fairtable.games.bots import random_bot
from fairtable.games.contract import (
    Bot,
    Chosen,
    Dealt,
    Decide,
    Face,
    Game,
    Handle,
    Move,
    PrivateDrawn,
    Request,
    Revealed,
    Rng,
    RuleError,
    Shown,
    Shuffled,
    Simultaneous,
)
from fairtable.games.seeded import SeededRng
from fairtable.games.texts import say
from fairtable.games.values import to_value

Invariants = Callable[[Any, Request], None]
"""A game's own check of a full-knowledge state and its pending request; raises on a breach."""
Finished = Callable[[referee.Played], None]
"""A game's own check of a finished playout (its result, each seat's knowledge)."""
BotMaker = Callable[[Game, Rng, int], Bot]
"""Makes seat ``n``'s bot from the playout's ``rng``."""

MALFORMED: tuple[Any, ...] = (None, -1, "?", {"?": 0}, (), 10**9)
"""Moves no game accepts: one is offered as a non-legal move at each sampled decision. Moves are
compared as canonical values (a tuple and a list with the same items are one move)."""


class Flaky:
    """A bot that sometimes lets its timer run out (when the request is timed), so the rules'
    default move and timeout counting are played too; otherwise it asks ``bot``."""

    def __init__(self, bot: Bot, rng: Rng, every: int = 8) -> None:
        self.bot, self.rng, self.every = bot, rng, every

    def choose(self, game: Game, state: Any, seat: int) -> Any:
        """``referee.TIMEOUT`` one time in ``every`` when the request is timed, else ``bot``'s move."""
        request = game.pending(state)
        timed = isinstance(request, (Decide, Simultaneous)) and request.timed
        if timed and self.rng.randrange(self.every) == 0:
            return referee.TIMEOUT
        return self.bot.choose(game, state, seat)

    def commit(self, game: Game, state: Any, seat: int, request: Request) -> Any:
        """``bot``'s hidden data or deck: committing is never late."""
        return self.bot.commit(game, state, seat, request)  # type: ignore[attr-defined]


def flaky_random(game: Game, rng: Rng, seat: int) -> Bot:
    """The default players: the game's random bot, letting its timer run out now and then."""
    return Flaky(random_bot(game, rng), rng)


def plain_random(game: Game, rng: Rng, seat: int) -> Bot:
    """The game's random bot, never late (for tables without a timer)."""
    return random_bot(game, rng)


@dataclass(frozen=True)
class Sampling:
    """How much of each playout is probed: about ``states`` states, evenly spaced (every state of
    a shorter game), each with at most ``moves`` legal and ``wrong`` non-legal moves.

    ``complete``: the game's ``legal_moves`` lists every move ``apply`` accepts, so any other
    move seen in the game is offered as a wrong one. A game that lists one move per class of
    equivalent ones (drachenherz: one play per multiset of card values; shengji: one copy of
    each card) sets it false; then only malformed moves are offered."""

    states: int = 60
    moves: int = 3
    wrong: int = 3
    complete: bool = True


def check_game(
    game: Game,
    variant: str,
    seats: int,
    options: Mapping[str, Any] | None = None,
    *,
    seeds: Iterable[int] = (0, 1),
    bots: BotMaker = flaky_random,
    invariants: Invariants | None = None,
    finished: Finished | None = None,
    wire: Callable[[Any], Any] = lambda value: value,
    sampling: Sampling = Sampling(),
    max_steps: int = 20_000,
) -> list[referee.Played]:
    """Play one seeded game per seed and check the contract on it (see the module docstring);
    raises ``AssertionError`` (or the game's own error) naming what broke. Returns the playouts."""
    options = dict(options or {})
    playouts = []
    for seed in seeds:
        played = _play(game, variant, seats, options, seed, bots, max_steps, lockstep=True)
        again = _play(game, variant, seats, options, seed, bots, max_steps, lockstep=False)
        assert again.events == played.events and again.result == played.result, f"{game.id} {variant}: seed {seed} is not deterministic"
        _walk(game, variant, seats, options, played, SeededRng.of(seed), invariants, wire, sampling)
        for seat, (events, state) in enumerate(zip(played.seat_events, played.seat_states)):
            assert len(events) == len(played.events), f"seat {seat} was told of {len(events)} events, not {len(played.events)}"
            assert referee.replay(game, variant, options, seats, events) == state, f"seat {seat}'s events do not replay to its state"
        if finished is not None:
            finished(played)
        playouts.append(played)
    return playouts


def _play(game: Game, variant: str, seats: int, options: Mapping[str, Any], seed: int, bots: BotMaker, max_steps: int,
          lockstep: bool) -> referee.Played:
    rng = SeededRng.of(seed)
    players = [bots(game, rng, seat) for seat in range(seats)]
    return referee.play(game, variant, options, players, rng, lockstep=lockstep, max_steps=max_steps)


FACED = (Shuffled, Dealt, Shown, Revealed, PrivateDrawn, Move)
"""The events that carry faces: in the verifier's events, every face of the game as it becomes known."""


def _walk(game: Game, variant: str, seats: int, options: Mapping[str, Any], played: referee.Played, rng: Rng,
          invariants: Invariants | None, wire: Callable[[Any], Any], sampling: Sampling) -> None:
    """Replay the verifier's events from a fresh setup, checking each state on the way."""
    faces: dict[Handle, Face] = {}
    """The face of each handle as far as the game has gone (a match may use a handle again in its next deal)."""
    seen: list[Any] = [event.move for event in played.events if isinstance(event, Move)]
    stride = max(1, len(played.events) // sampling.states)
    state = game.setup(variant, options, seats)
    for index, event in enumerate(played.events):
        request = game.pending(state)
        if invariants is not None:
            invariants(state, request)
        if isinstance(event, Move) and isinstance(request, Decide):
            legal = [to_value(move) for move in game.legal_moves(state, event.seat)]
            default = to_value(game.default_move(state, event.seat)) if request.timed else None
            played_move = to_value(event.move)
            assert not legal or played_move in legal or played_move == default, f"event {index} plays {event.move!r}, not a legal move"
        if isinstance(event, Chosen) and isinstance(request, Simultaneous):
            for seat, choice in zip(request.seats, event.choices):
                if seat not in event.defaults and seat not in event.absent:
                    game.check_choice(state, seat, choice)
        if index % stride == 0:
            asked = request.seats if isinstance(request, Simultaneous) else (request.seat,) if isinstance(request, Decide) else ()
            for seat in range(seats):
                if seat not in asked:
                    assert game.legal_moves(state, seat) == (), f"seat {seat} lists moves at event {index} though {request!r} is pending"
            _probe(game, state, request, seats, faces, seen, rng, sampling, index)
            value = game.to_value(state)
            assert game.from_value(wire(value)) == state, f"the state before event {index} does not round-trip"
            for seat in (*range(seats), None):
                wire(game.view(state, seat))
            if isinstance(event, Move):
                again = Move(event.seat, wire(event.move), event.faces)
                assert game.apply(state, again) == game.apply(state, event), f"move {event.move!r} read back from the wire differs"
        state = game.apply(state, event)
        if isinstance(event, FACED):
            faces.update(event.faces)
    assert state == played.state, "replaying the verifier's events gives another final state"
    assert game.from_value(wire(game.to_value(state))) == state, "the final state does not round-trip"
    for seat in (*range(seats), None):
        wire(game.view(state, seat))


def _probe(game: Game, state: Any, request: Request, seats: int, faces: Mapping[Handle, Face], seen: Sequence[Any],
           rng: Rng, sampling: Sampling, index: int) -> None:
    """``legal_moves`` and ``apply`` agree both ways at this state: sampled legal moves are accepted;
    sampled moves played elsewhere in the game but not legal here, and a malformed one, are refused."""
    if isinstance(request, Simultaneous):
        for seat in request.seats:
            for choice in _sample(game.legal_moves(state, seat), sampling.moves, rng):
                game.check_choice(state, seat, choice)
                assert game.explain(state, seat, choice) is None, f"{game.id} explains the legal choice {choice!r} as refused"
        return
    if not isinstance(request, Decide):
        return
    seat = request.seat
    legal = game.legal_moves(state, seat)
    if not legal:
        return  # a decision too large to list (a salvo, an answer): the game checks it in apply
    other = (seat + 1) % seats
    for move in _sample(legal, sampling.moves, rng):
        event = _move(game, state, seat, move, faces)
        game.apply(state, event)
        assert game.explain(state, seat, move) is None, f"{game.id} explains its legal move {move!r} as refused"
        _refused(game, state, Move(other, move, event.faces), f"seat {other}'s move {move!r} while seat {seat} decides")
    allowed = [to_value(move) for move in (*legal, *((game.default_move(state, seat),) if request.timed else ()))]
    distinct = {repr(to_value(move)): move for move in seen} if sampling.complete else {}
    others = [move for move in distinct.values() if to_value(move) not in allowed]
    malformed = MALFORMED[index % len(MALFORMED)]
    for move in (*_sample(others, sampling.wrong, rng), *((malformed,) if to_value(malformed) not in allowed else ())):
        _refused(game, state, _move(game, state, seat, move, faces), f"seat {seat}'s non-legal move {move!r} at event {index}")


def _move(game: Game, state: Any, seat: int, move: Any, faces: Mapping[Handle, Face]) -> Move:
    """``move`` by ``seat`` with the faces it shows, as the session would deliver it."""
    try:
        shown = game.reveals(state, move)
    except Exception:  # a malformed move may not even name its cards: the game refuses it in apply
        shown = ()
    return Move(seat, move, {h: faces[h] for h in shown if h in faces})


def _refused(game: Game, state: Any, event: Move, what: str) -> None:
    """``apply`` refuses ``event``, and :meth:`~Game.explain` gives its words: the same refusal, whose
    message the language catalogue has and can print."""
    try:
        game.apply(state, event)
    except RuleError as error:
        explained = game.explain(state, event.seat, event.move)
        assert explained == error.refusal, f"{game.id} explains {what} as {explained}, but apply refuses it as {error.refusal}"
        say(error.refusal)
        return
    raise AssertionError(f"{game.id} accepted {what}")


def _sample(items: Sequence[Any], count: int, rng: Rng) -> list[Any]:
    if len(items) <= count:
        return list(items)
    return [items[i] for i in sorted(referee.shuffled(range(len(items)), rng)[:count])]
