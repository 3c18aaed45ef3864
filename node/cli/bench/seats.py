"""How the costs of a table grow with its seats: 2, 4, 8 and 16 (the most a genesis allows).

No game takes 16 seats, so this measures the protocol's own work for a deck of ``--cards``
cards (CPU time, best of ``--rounds``):

- ``shuffle``: every stage, each through the codec and the live checks, ``(2n − 1)·m``
  multiplications: linear in seats × cards;
- ``deal``: one card to every seat (every other seat's key message for it, decoded and checked,
  then the recipient's opening): ``n`` openings, ``n·(n − 1)`` key messages;
- ``move``: one move envelope sealed by its seat, then decoded and its signature verified by
  every other seat, as each node does: linear in seats;
- ``verify``: the deck recomputed from every seed (the verifier's share of a shuffle).

``exponent`` is the least-squares slope of log(time) over log(seats); ``per_seat_card_us`` the
shuffle's time over seats × cards, which stays flat when the shuffle is linear in both.
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable

from fairtable.protocol import Envelope, SecretKey, codec, digest
from fairtable.protocol.fair import (
    Deck,
    DeckKeys,
    GameRef,
    Seed,
    check_keys,
    check_stage,
    key_body,
    open_positions,
    run_stage,
    stage_body,
    verify_deck,
)

NAME = "seats"
HELP = "shuffle, deal, one move and verification for 2, 4, 8 and 16 seats, with the growth exponent"
SEATS = (2, 4, 8, 16)
TOLERANCE = 0.05
"""``goal`` is the exponent of the shuffle's multiplication count ``2n − 1`` (about 1.12 over 2..16
seats) plus this: a shuffle linear in its multiplications, none of its other work growing faster."""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--cards", type=int, default=52, help="cards in the deck (default 52)")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each measurement; the best counts")


def _best(function: Callable[[], object], rounds: int) -> float:
    best = math.inf
    for _ in range(rounds):
        start = time.process_time()
        function()
        best = min(best, time.process_time() - start)
    return best


def exponent(seats: tuple[int, ...], seconds: list[float]) -> float:
    """The slope of log(seconds) over log(seats), least squares."""
    xs, ys = [math.log(n) for n in seats], [math.log(s) for s in seconds]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)


def _measure(n: int, cards: int, rounds: int) -> dict[str, float]:
    game = GameRef(digest("bench", b"seats"), n)
    seeds = {seat: Seed(game, seat, digest("bench", bytes([seat]))) for seat in range(n)}
    deck = Deck.public(game, "bench", range(n), range(cards))
    len(deck.lookup)  # card points are a deck's fixed cost (cached), not the shuffle's

    def shuffle() -> tuple[dict[int, DeckKeys], list[tuple[bytes, ...]]]:
        keys = {seat: DeckKeys.derive(seeds[seat], deck) for seat in range(n)}
        entries, stages = deck.initial(), []
        for stage in deck.stages:
            output = run_stage(deck, stage.index, keys[stage.seat], entries)
            entries = check_stage(deck, stage.index, codec.decode(codec.encode(stage_body(deck, stage.index, output))))
            stages.append(entries)
        return keys, stages

    keys, stages = shuffle()
    final = stages[-1]

    def deal() -> None:
        for recipient in range(n):
            published = {}
            for seat in range(n):
                if seat != recipient:
                    body = codec.decode(codec.encode(key_body(deck, keys[seat], [recipient])))
                    published[seat] = check_keys(deck, seat, body)
            published[recipient] = {recipient: keys[recipient].position_keys[recipient]}
            open_positions(deck, {recipient: final[recipient]}, published)

    secrets = [SecretKey.from_seed(digest("bench", bytes([seat, 1]))) for seat in range(n)]
    body = {"move": {"play": 17, "target": n - 1}}

    def move() -> None:
        wire = Envelope.seal(secrets[0], game.table, 100, digest("bench", b"prev"), 0, "move", body).to_wire()
        for _seat in range(1, n):
            if not Envelope.from_wire(wire).verify(secrets[0].public):
                raise AssertionError("benchmark envelope does not verify")

    return {
        "shuffle": _best(shuffle, rounds),
        "deal": _best(deal, rounds),
        "move": _best(move, rounds),
        "verify": _best(lambda: verify_deck(deck, seeds, stages, {}), rounds),
    }


def run(args: argparse.Namespace) -> dict:
    if args.cards < max(SEATS) or args.rounds < 1:
        raise SystemExit(f"bench seats: --cards must be at least {max(SEATS)} (a card for every seat) and --rounds positive")
    measured = {n: _measure(n, args.cards, args.rounds) for n in SEATS}
    figures: dict = {"cards": args.cards, "seats": list(SEATS)}
    for phase in ("shuffle", "deal", "move", "verify"):
        seconds = [measured[n][phase] for n in SEATS]
        figures[f"{phase}_ms"] = [round(s * 1e3, 3) for s in seconds]
        figures[f"{phase}_exponent"] = round(exponent(SEATS, seconds), 3)
    figures["per_seat_card_us"] = [round(measured[n]["shuffle"] / (n * args.cards) * 1e6, 2) for n in SEATS]
    figures["ratio"] = figures["shuffle_exponent"]
    figures["goal"] = round(exponent(SEATS, [2 * n - 1 for n in SEATS]) + TOLERANCE, 3)
    return figures
