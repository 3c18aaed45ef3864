"""Rules throughput: whole random-vs-random games through the local referee, full knowledge.

This is the cost of the game itself, without cryptography or network: the ceiling for
live validation and for the verifier's replay. ``--seats`` and ``--options`` measure any
table the game allows (a salvo game of five, say). The lockstep figure runs each seat's
partial-knowledge state beside the full one, as every node's validation will. When the
game has its own heuristic bot, its win rate against the random bot is reported too; in a
game with teams the heuristic bot plays every seat of one team (partners, not one seat
beside a random partner).
"""

from __future__ import annotations

import argparse
import random
import time

from fairtable.games import GameError, RandomBot, heuristic, random_bot, referee, registry
from fairtable.node.cli.options import parse_options
from fairtable.node.cli.progress import progress

NAME = "rules"
HELP = "random-vs-random games and moves per second for one game's rules (full knowledge)"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help="game id, e.g. towers")
    parser.add_argument("--variant", help="variant (default: the game's first)")
    parser.add_argument("--seats", type=int, help="seats (default: the fewest the variant allows)")
    parser.add_argument("--options", action="append", default=[],
                        help="table options: key=value (repeat, or comma-separate) or a JSON object, e.g. deals=1 (default: the game's)")
    parser.add_argument("--seconds", type=float, default=1.0, help="time to spend on each measurement")
    parser.add_argument("--duel-games", type=int, default=200, help="heuristic-vs-random games for the win rate (0: skip)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game")


def _rate(play, seconds: float) -> tuple[int, int, float]:
    """Games and moves played by ``play(seed)`` in about ``seconds``, and the time taken."""
    games = moves = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or not games:
        moves += play(games).moves
        games += 1
    return games, moves, time.perf_counter() - start


def run(args: argparse.Namespace) -> dict:
    game = registry.get(args.game)
    variant = args.variant or game.variants[0]
    seats = args.seats or game.seat_range(variant)[0]
    try:
        options = parse_options(args.options, game.options_for(variant))
        checked = game.options_of(game.setup(variant, options, seats))
    except ValueError as exc:
        raise SystemExit(f"fairtable bench rules: {exc}") from None
    except GameError as exc:
        raise SystemExit(f"fairtable bench rules: {exc}") from None
    teams = game.teams(variant, checked, seats)

    def random_game(index: int, lockstep: bool = False) -> referee.Played:
        rng = random.Random(args.seed + index)
        return referee.play(game, variant, options, [random_bot(game, rng) for _ in range(seats)], rng, lockstep=lockstep)

    games, moves, elapsed = _rate(random_game, args.seconds)
    lock_games, _, lock_elapsed = _rate(lambda index: random_game(index, lockstep=True), args.seconds)
    figures = {
        "game": game.id,
        "variant": variant,
        "seats": seats,
        "options": options,
        "games": games,
        "games_per_s": round(games / elapsed, 1),
        "moves_per_s": round(moves / elapsed),
        "moves_per_game": round(moves / games, 1),
        "lockstep_games_per_s": round(lock_games / lock_elapsed, 1),
    }
    probe = heuristic(game, random.Random(0))
    if args.duel_games and not isinstance(probe, RandomBot):
        wins = 0
        with progress(args.duel_games, "heuristic against random (not timed)") as advance:
            for index in range(args.duel_games):
                rng = random.Random(args.seed + index)
                team = next(team for team in teams if index % seats in team)
                bots = [heuristic(game, rng) if seat in team else random_bot(game, rng) for seat in range(seats)]
                wins += index % seats in referee.play(game, variant, options, bots, rng).result.winners
                advance()
        figures.update(heuristic_bot=type(probe).__name__, duel_games=args.duel_games, heuristic_win_rate=round(wins / args.duel_games, 3))
    return figures
