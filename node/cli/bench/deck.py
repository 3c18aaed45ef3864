"""Mental deck cost against its floors, measured in the same run.

``ratio`` (goal 1.5) is the proof-carrying deck of protocol version 3 (fairness.md §12) against
the least it can cost: ``proof_cpu_ms_per_node`` is the wired path, the whole deck through the
session's own deck code (``walk_deck``), each seat with its own game and only its own seed, every
stage body built (proved), encoded, decoded and checked on receipt by every seat (every other
seat's proofs verified), then every seat's key for every position checked by every other seat
against its commitment: the busiest node's CPU. ``floor_ms`` is that node's group operations
(``floor_work``: its proving, the others' verifying, its commitments, the others' keys, the card
points, the hash blocks that become scalars; :mod:`.floor` says what and why), each priced at the
raw library call timed in the same run (``floor_prices_us``), rounds alternating with the walks.
``primitives_floor_ratio`` is the same node's work with the proof functions alone
(``proof_primitives_cpu_ms_per_node``: prove, verify, check commitments and keys; no bodies, no
codec) over the same floor. ``proof_unproven_ms_per_node`` is the walk at protocol version 2 (no
proofs), ``proof_overhead`` the one over the other, ``proof_ratio`` the wired figure over the
older goal (``proof_goal_ms``: 150 ms for 2×52, 1 s for 4×108, ``proof_goal`` = 1), and
``proof_stages`` each stage's times and multiplications per card.

The unproven deck of version 2 (u-coordinates, §5): one table in one process, every seat's
shuffle and lock passes (with the live checks of each stage message), every card dealt, one card
opened publicly, then the whole deck verified from the revealed seeds. Two baselines, each a
batch of as many raw library calls as the shuffle makes multiplications:

- ``edwards_ratio``: against libsodium's Edwards multiplication (``crypto_scalarmult_ed25519_noclamp``):
  what the u-coordinate group bought, goal 0.45;
- ``ladder_ratio``: against the fastest raw X25519 ladder of the two libraries (libsodium's
  ``crypto_scalarmult``, OpenSSL's through ``cryptography`` with a prebuilt key): what the
  protocol and the point checks add to the multiplications it cannot avoid, goal 1.2.

``edwards_floor_ratio`` and ``ladder_floor_ratio`` set the same baselines against the least a
sound unproven shuffle can cost: the raw ladder for every multiplication plus the point checks
every received entry needs (fairness.md §1.1), timed as a raw batch (``point_check_us`` per entry).
The batches are timed in alternation with the shuffle rounds; each ratio is the best shuffle over
the best batch, and ``*_spread`` the lowest and highest ratio of a round to the batch beside it.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from nacl.bindings import crypto_core_ed25519_from_uniform, crypto_scalarmult, crypto_scalarmult_ed25519_noclamp

from fairtable.node.cli.bench.floor import Prices, cheapest, node_work, priced, prices
from fairtable.node.cli.bench.proved import best_run
from fairtable.node.cli.bench.timing import best_time, timed
from fairtable.protocol import codec, digest
from fairtable.protocol.fair import (
    Deck,
    DeckKeys,
    GameRef,
    Ops,
    Seed,
    check_keys,
    check_stage,
    first_off_curve,
    key_body,
    ladder_scalars,
    open_position,
    open_positions,
    run_stage,
    stage_body,
    verify_deck,
)
from fairtable.protocol.session import walk_deck

NAME = "deck"
HELP = "mental deck shuffle, deal and verification against raw scalar multiplication"
GOAL = 1.5
"""The proved deck's CPU per node over its floor (issue 39)."""
EDWARDS_GOAL = 0.45
LADDER_GOAL = 1.2
PROOF_GOALS_MS = {(2, 52): 150, (4, 108): 1000}
"""CPU per node for a deck proved and verified by every node, by (seats, cards) (issue 30)."""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seats", type=int, default=4, help="seats shuffling the deck")
    parser.add_argument("--cards", type=int, default=108, help="cards in the deck")
    parser.add_argument("--rounds", type=int, default=7, help="runs of each phase and of the baseline; the best counts")


def run(args: argparse.Namespace) -> dict:
    if args.seats < 1 or args.cards < 1 or args.rounds < 1:
        raise SystemExit("bench deck: --seats, --cards and --rounds must be positive")
    game = GameRef(digest("bench", b"table"), 0)
    seats = range(args.seats)
    seeds = {seat: Seed(game, seat, digest("bench", seat.to_bytes(4, "big"))) for seat in seats}
    deck = Deck.public(game, "bench", seats, range(args.cards))
    points_time, _ = timed(lambda: deck.lookup)

    def shuffle(ops: Ops) -> tuple[dict[int, DeckKeys], list[tuple[bytes, ...]], list[float]]:
        """Every seat's secrets and stages; the times of the derivations, then of each stage."""
        derive_time, keys = timed(lambda: {seat: DeckKeys.derive(seeds[seat], deck) for seat in seats})
        entries, stages, times = deck.initial(), [], [derive_time]
        for stage in deck.stages:
            start = time.process_time()
            output = run_stage(deck, stage.index, keys[stage.seat], entries, ops)
            entries = check_stage(deck, stage.index, codec.decode(codec.encode(stage_body(deck, stage.index, output))))
            times.append(time.process_time() - start)
            stages.append(entries)
        return keys, stages, times

    shuffle_ops = Ops()
    keys, stages, times = shuffle(shuffle_ops)
    shuffle_mults = shuffle_ops.mults
    final = stages[-1]
    scalar = keys[0].deck_key
    edwards = [crypto_core_ed25519_from_uniform(digest("bench", i.to_bytes(4, "big"))) for i in range(deck.size)]
    edwards_points = [edwards[i % deck.size] for i in range(shuffle_mults)]
    clamped = ladder_scalars(scalar)[0]  # a scalar of the size the shuffle uses (the first factor in the window)
    points = [final[i % deck.size] for i in range(shuffle_mults)]
    openssl_key = X25519PrivateKey.from_private_bytes(clamped)
    checked_stages = shuffle_ops.checked // deck.size
    baselines = {
        "point_checks": lambda: [first_off_curve(final) for _ in range(checked_stages)],
        "edwards": lambda: [crypto_scalarmult_ed25519_noclamp(scalar, p) for p in edwards_points],
        "libsodium_x25519": lambda: [crypto_scalarmult(clamped, p) for p in points],
        "openssl_x25519": lambda: [openssl_key.exchange(X25519PublicKey.from_public_bytes(p)) for p in points],
    }
    batch = {name: float("inf") for name in baselines}
    edwards_spread, ladder_spread = [], []
    for _ in range(args.rounds):
        round_batch = {name: timed(function)[0] for name, function in baselines.items()}
        round_times = shuffle(Ops())[2]
        edwards_spread.append(sum(round_times) / round_batch["edwards"])
        ladder_spread.append(sum(round_times) / min(round_batch["libsodium_x25519"], round_batch["openssl_x25519"]))
        batch = {name: min(batch[name], seconds) for name, seconds in round_batch.items()}
        times = min(times, round_times, key=sum)
    mult = batch["edwards"] / shuffle_mults
    ladder = min(batch["libsodium_x25519"], batch["openssl_x25519"]) / shuffle_mults
    floor = ladder * shuffle_mults + batch["point_checks"]
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
    deal_time = best_time(lambda: deal(Ops()), args.rounds)

    def reveal(ops: Ops) -> None:
        body = codec.decode(codec.encode(key_body(deck, keys[holder(0)], [0])))
        published[holder(0)].update(check_keys(deck, holder(0), body))
        open_position(deck, 0, final[0], {seat: published[seat][0] for seat in seats}, None, ops)

    reveal_ops = Ops()
    reveal_time, _ = timed(lambda: reveal(reveal_ops))

    verify_ops = Ops()
    verify_deck(deck, seeds, stages, published, ops=verify_ops)
    verify_time = best_time(lambda: verify_deck(deck, seeds, stages, published), args.rounds)

    proofs = _proofs(deck, seeds, keys, args.rounds)
    return {
        **proofs,
        "seats": args.seats,
        "cards": args.cards,
        "edwards_mult_us": round(mult * 1e6, 2),
        "libsodium_x25519_us": round(batch["libsodium_x25519"] / shuffle_mults * 1e6, 2),
        "openssl_x25519_us": round(batch["openssl_x25519"] / shuffle_mults * 1e6, 2),
        "card_points_ms": round(points_time * 1e3, 2),
        "shuffle_ms": round(shuffle_time * 1e3, 2),
        "shuffle_mults": shuffle_mults,
        "per_mult_us": round(shuffle_time / shuffle_mults * 1e6, 2),
        "derive_ms": round(times[0] * 1e3, 2),
        "stages": [
            {
                "stage": stage.index,
                "kind": stage.kind,
                "seat": stage.seat,
                "ms": round(seconds * 1e3, 2),
                "mults": deck.size,
                "ladder_ratio": round(seconds / (deck.size * ladder), 3),
            }
            for stage, seconds in zip(deck.stages, times[1:])
        ],
        "deal_ms": round(deal_time * 1e3, 2),
        "deal_mults": deal_ops.mults,
        "reveal_ms": round(reveal_time * 1e3, 3),
        "reveal_mults": reveal_ops.mults,
        "verify_ms": round(verify_time * 1e3, 2),
        "verify_mults": verify_ops.mults,
        "deal_ladder_ratio": round(deal_time / (deal_ops.mults * ladder), 3),
        "verify_ladder_ratio": round(verify_time / (verify_ops.mults * ladder), 3),
        "edwards_ratio": round(shuffle_time / (shuffle_mults * mult), 3),
        "edwards_ratio_spread": [round(min(edwards_spread), 3), round(max(edwards_spread), 3)],
        "edwards_goal": EDWARDS_GOAL,
        "ladder_ratio": round(shuffle_time / (shuffle_mults * ladder), 3),
        "ladder_ratio_spread": [round(min(ladder_spread), 3), round(max(ladder_spread), 3)],
        "ladder_goal": LADDER_GOAL,
        "checked_entries": shuffle_ops.checked,
        "point_check_us": round(batch["point_checks"] / max(1, shuffle_ops.checked) * 1e6, 2),
        "edwards_floor_ratio": round(floor / (shuffle_mults * mult), 3),
        "ladder_floor_ratio": round(floor / (shuffle_mults * ladder), 3),
    }


def _walked(seats: int, cards: int, version: int) -> dict[int, float]:
    """Each node's CPU seconds for one deck walked through the session code at ``version``."""
    cpu = dict.fromkeys(range(seats), 0.0)

    def on_behalf(seat: int, work: Callable[[], Any]) -> Any:
        seconds, result = timed(work)
        cpu[seat] += seconds
        return result

    walk_deck(seats, cards, version, on_behalf)
    return cpu


def _against_floor(deck: Deck, rounds: int) -> dict:
    """The wired proved deck against its floor (:mod:`.floor`): each round prices the raw calls,
    then walks the deck, so a change of CPU speed meets both; the best walk over the cheapest
    prices is ``ratio``, each round's walk over its own prices the spread."""
    seats, m = len(deck.seats), deck.size
    best: dict[int, float] = {}
    price: Prices = {}
    spread = []
    for _ in range(rounds):
        round_price = prices()
        cpu = _walked(seats, m, 3)
        busiest = max(cpu, key=cpu.__getitem__)
        spread.append(cpu[busiest] / priced(node_work(deck, busiest), round_price))
        price = cheapest(price, round_price) if price else round_price
        if not best or cpu[busiest] < max(best.values()):
            best = cpu
    busiest = max(best, key=best.__getitem__)
    work = node_work(deck, busiest)
    floor = priced(work, price)
    return {
        "proof_cpu_ms_per_node": round(best[busiest] * 1e3, 1),
        "floor_ms": round(floor * 1e3, 1),
        "floor_work": {**vars(work), "group_ops": work.group_ops},
        "floor_prices_us": {name: round(seconds * 1e6, 2) for name, seconds in price.items()},
        "ratio": round(best[busiest] / floor, 3),
        "ratio_spread": [round(min(spread), 3), round(max(spread), 3)],
        "goal": GOAL,
    }


def _proofs(deck: Deck, seeds: dict[int, Seed], keys: dict[int, DeckKeys], rounds: int) -> dict:
    """The proof-carrying deck: per stage the time and work to prove and to verify, and the CPU of the busiest node."""
    seats = deck.seats
    best = best_run(deck, seeds, keys, rounds)
    per_node, times, work = best.per_node, best.times, best.work
    busiest = max(per_node, key=per_node.__getitem__)
    goal = PROOF_GOALS_MS.get((len(seats), deck.size))
    unproven = min(max(_walked(len(seats), deck.size, 2).values()) for _ in range(rounds))
    wired = _against_floor(deck, rounds)
    cpu_ms = wired["proof_cpu_ms_per_node"]
    m = deck.size
    return {
        **wired,
        "proof_unproven_ms_per_node": round(unproven * 1e3, 2),
        "proof_overhead": round(cpu_ms / (unproven * 1e3), 1),
        "proof_primitives_cpu_ms_per_node": round(per_node[busiest] * 1e3, 1),
        "primitives_floor_ratio": round(per_node[busiest] * 1e3 / wired["floor_ms"], 3),
        "proof_goal_ms": goal,
        "proof_ratio": round(cpu_ms / goal, 3) if goal else None,
        "proof_goal": 1.0,
        "proof_deck_prove_ms": round(sum(p for p, _ in times) * 1e3, 1),
        "proof_deck_verify_ms": round(sum(v for _, v in times) * 1e3, 1),
        "proof_stages": [
            {
                "stage": stage.index,
                "kind": stage.kind,
                "seat": stage.seat,
                "prove_ms": round(p * 1e3, 2),
                "verify_ms": round(v * 1e3, 2),
                "prove_mults_per_card": round(prove.mults / m, 2),
                "prove_base_mults_per_card": round(prove.base_mults / m, 2),
                "verify_mults_per_card": round(verify.mults / m, 2),
                "verify_base_mults_per_card": round(verify.base_mults / m, 2),
                "verify_adds_per_card": round(verify.adds / m, 2),
            }
            for stage, (p, v), (prove, verify) in zip(deck.stages, times, work)
        ],
    }
