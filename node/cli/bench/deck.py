"""Mental deck cost against raw libsodium scalar multiplication, measured in the same run.

One table in one process: every seat's shuffle and lock passes (with the live checks of
each stage message), every card dealt, one card opened publicly, then the whole deck
verified from the revealed seeds. The ratio is the shuffle's time over its number of
scalar multiplications times the cost of one: what the protocol adds beyond the
multiplications it cannot avoid.

The cost of one multiplication is measured as a batch of as many raw libsodium calls as
the shuffle makes, timed in alternation with the shuffle rounds, best of each, so that a
change of CPU speed during the run affects both sides alike.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import TypeVar

from nacl.bindings import crypto_scalarmult_ed25519_noclamp

from fairtable.protocol import codec
from fairtable.protocol.fair.group import Ops
from fairtable.protocol.fair.mental_deck import (
    Deck,
    DeckKeys,
    check_keys,
    check_stage,
    key_body,
    open_position,
    open_positions,
    run_stage,
    stage_body,
    verify_deck,
)
from fairtable.protocol.fair.seeds import GameRef, Seed
from fairtable.protocol.hashing import digest

NAME = "deck"
HELP = "mental deck shuffle, deal and verification against raw scalar multiplication"
GOAL = 1.2


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seats", type=int, default=4, help="seats shuffling the deck")
    parser.add_argument("--cards", type=int, default=108, help="cards in the deck")
    parser.add_argument("--rounds", type=int, default=7, help="runs of each phase and of the baseline; the best counts")


T = TypeVar("T")


def _timed(function: Callable[[], T]) -> tuple[float, T]:
    start = time.perf_counter()
    result = function()
    return time.perf_counter() - start, result


def _best_time(function: Callable[[], object], rounds: int) -> float:
    return min(_timed(function)[0] for _ in range(rounds))


def run(args: argparse.Namespace) -> dict:
    if args.seats < 1 or args.cards < 1 or args.rounds < 1:
        raise SystemExit("bench deck: --seats, --cards and --rounds must be positive")
    game = GameRef(digest("bench", b"table"), 0)
    seats = range(args.seats)
    seeds = {seat: Seed(game, seat, digest("bench", seat.to_bytes(4, "big"))) for seat in seats}
    deck = Deck.public(game, "bench", seats, range(args.cards))
    points_time, _ = _timed(lambda: deck.lookup)

    def shuffle(ops: Ops) -> tuple[dict[int, DeckKeys], list[tuple[bytes, ...]], list[float]]:
        """Every seat's secrets and stages; the times of the derivations, then of each stage."""
        derive_time, keys = _timed(lambda: {seat: DeckKeys.derive(seeds[seat], deck) for seat in seats})
        entries, stages, times = deck.initial(), [], [derive_time]
        for stage in deck.stages:
            start = time.perf_counter()
            output = run_stage(deck, stage.index, keys[stage.seat], entries, ops)
            entries = check_stage(deck, stage.index, codec.decode(codec.encode(stage_body(deck, stage.index, output))))
            times.append(time.perf_counter() - start)
            stages.append(entries)
        return keys, stages, times

    shuffle_ops = Ops()
    keys, stages, times = shuffle(shuffle_ops)
    shuffle_mults = shuffle_ops.mults
    final = stages[-1]
    scalar, points = keys[0].deck_key, [final[i % deck.size] for i in range(shuffle_mults)]
    batch_time = float("inf")
    for _ in range(args.rounds):
        batch_time = min(batch_time, _timed(lambda: [crypto_scalarmult_ed25519_noclamp(scalar, p) for p in points])[0])
        times = min(times, shuffle(Ops())[2], key=sum)
    mult = batch_time / shuffle_mults
    shuffle_time = sum(times)

    def holder(position: int) -> int:
        return position % args.seats

    def deal(ops: Ops) -> dict[int, dict[int, bytes]]:
        published: dict[int, dict[int, bytes]] = {seat: {} for seat in seats}
        for recipient in seats:
            positions = [p for p in range(deck.size) if holder(p) == recipient]
            if not positions:
                continue
            for seat in seats:
                if seat != recipient:
                    body = codec.decode(codec.encode(key_body(deck, keys[seat], positions)))
                    published[seat].update(check_keys(deck, seat, body))
            shown = {seat: published[seat] for seat in seats if seat != recipient}
            shown[recipient] = dict(enumerate(keys[recipient].position_keys))
            open_positions(deck, {position: final[position] for position in positions}, shown, None, ops)
        return published

    deal_ops = Ops()
    published = deal(deal_ops)
    deal_time = _best_time(lambda: deal(Ops()), args.rounds)

    def reveal(ops: Ops) -> None:
        body = codec.decode(codec.encode(key_body(deck, keys[holder(0)], [0])))
        published[holder(0)].update(check_keys(deck, holder(0), body))
        open_position(deck, 0, final[0], {seat: published[seat][0] for seat in seats}, None, ops)

    reveal_ops = Ops()
    reveal_time, _ = _timed(lambda: reveal(reveal_ops))

    verify_ops = Ops()
    verify_deck(deck, seeds, stages, published, ops=verify_ops)
    verify_time = _best_time(lambda: verify_deck(deck, seeds, stages, published), args.rounds)

    return {
        "seats": args.seats,
        "cards": args.cards,
        "mult_us": round(mult * 1e6, 2),
        "card_points_ms": round(points_time * 1e3, 2),
        "shuffle_ms": round(shuffle_time * 1e3, 2),
        "shuffle_mults": shuffle_mults,
        "derive_ms": round(times[0] * 1e3, 2),
        "stages": [
            {
                "stage": stage.index,
                "kind": stage.kind,
                "seat": stage.seat,
                "ms": round(seconds * 1e3, 2),
                "mults": deck.size,
                "ratio": round(seconds / (deck.size * mult), 3),
            }
            for stage, seconds in zip(deck.stages, times[1:])
        ],
        "deal_ms": round(deal_time * 1e3, 2),
        "deal_mults": deal_ops.mults,
        "reveal_ms": round(reveal_time * 1e3, 3),
        "reveal_mults": reveal_ops.mults,
        "verify_ms": round(verify_time * 1e3, 2),
        "verify_mults": verify_ops.mults,
        "deal_ratio": round(deal_time / (deal_ops.mults * mult), 3),
        "verify_ratio": round(verify_time / (verify_ops.mults * mult), 3),
        "ratio": round(shuffle_time / (shuffle_mults * mult), 3),
        "goal": GOAL,
    }
