"""How a proved table's costs grow with its seats: 2, 4, 8 and 16 (the most a genesis allows).

No game takes 16 seats, so this measures the protocol's own work for a proved deck (protocol
version 3, fairness.md §12) of each ``--cards`` size, CPU time, best of ``--rounds``:

- ``shuffle_proof``: the busiest node's share of the shuffle, its own stages proved and every
  other seat's verified, with the commitments and every other seat's keys checked
  (:mod:`.proved`); its work is that node's group operations (:func:`.floor.node_work`);
- ``deal``: one card to every seat: every other seat's key message for it, decoded and checked
  against the sender's commitment (a fixed-base multiplication), then the recipient's opening;
  work: the ``n·(n − 1)`` key checks and the openings' multiplications;
- ``move``: one move envelope sealed by its seat, then decoded and its signature verified by
  every other seat, as each node does; work: one signature and ``n − 1`` verifications, in µs of
  raw Ed25519 timed in the same run (``ed25519_sign_us``, ``ed25519_verify_us``): a signature costs
  less than a verification, so a count of signatures alone would grow slower than the work;
- ``verify``: the deck recomputed from every seed as the verifier does at version 3 (every stage
  proved again from its author's seed and compared byte for byte, so no proof is verified);
  work: those proofs' group operations and the commitments'.

Each phase's ``exponent`` is the least-squares slope of log(time) over log(seats), beside the
exponent of its counted work (``work_exponent``): a phase grows no faster than the work it must
do when the first is not above the second. ``ratio`` is the largest quotient of the two over
every phase and deck size, ``goal`` 1 plus the measurement's tolerance.
"""

from __future__ import annotations

import argparse
import math
from functools import partial

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from fairtable.node.cli.bench.floor import node_work
from fairtable.node.cli.bench.proved import best_run
from fairtable.node.cli.bench.timing import best_time
from fairtable.node.cli.bench.wire import alternating
from fairtable.protocol import Envelope, SecretKey, codec, digest
from fairtable.protocol.fair import (
    Deck,
    DeckKeys,
    Entries,
    GameRef,
    KeyCommitments,
    Ops,
    ProofOps,
    Seed,
    card_points,
    check_key,
    check_keys,
    commit_keys,
    key_body,
    open_positions,
    prove_stage,
)

NAME = "seats"
HELP = "proved shuffle, deal, one move and verification for 2, 4, 8 and 16 seats, with growth exponents against the work's"
SEATS = (2, 4, 8, 16)
PHASES = ("shuffle_proof", "deal", "move", "verify")
TOLERANCE = 0.1
"""How far a phase's exponent may exceed its work's on a shared machine: ``goal`` is 1 plus this."""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--cards", type=int, nargs="+", default=[52, 108], help="cards in each deck (default 52 108)")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each measurement; the best counts")


def exponent(seats: tuple[int, ...], values: list[float]) -> float:
    """The slope of log(values) over log(seats), least squares."""
    xs, ys = [math.log(n) for n in seats], [math.log(v) for v in values]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)


def _deal(deck: Deck, keys: dict[int, DeckKeys], commitments: dict[int, KeyCommitments], final: tuple[bytes, ...], ops: Ops) -> None:
    """Position ``r`` to seat ``r``: every other seat's key for it, decoded and checked, then opened."""
    for recipient in deck.seats:
        published = {}
        for seat in deck.seats:
            if seat != recipient:
                body = codec.decode(codec.encode(key_body(deck, keys[seat], [recipient])))
                published[seat] = check_keys(deck, seat, body)
                check_key(deck, commitments[seat], recipient, published[seat][recipient])
        published[recipient] = {recipient: keys[recipient].position_keys[recipient]}
        open_positions(deck, {recipient: final[recipient]}, published, None, ops)


def _move(game: GameRef, n: int, secrets: list[SecretKey]) -> None:
    body = {"move": {"play": 17, "target": n - 1}}
    wire = Envelope.seal(secrets[0], game.table, 100, digest("bench", b"prev"), 0, "move", body).to_wire()
    for _seat in range(1, n):
        if not Envelope.from_wire(wire).verify(secrets[0].public):
            raise AssertionError("benchmark envelope does not verify")


def _measure(n: int, cards: int, rounds: int, ed25519: dict[str, float]) -> dict[str, tuple[float, float]]:
    """Each phase's best CPU seconds and its counted work, for ``n`` seats and ``cards`` cards."""
    game = GameRef(digest("bench", b"seats"), n)
    seeds = {seat: Seed(game, seat, digest("bench", bytes([seat]))) for seat in range(n)}
    deck = Deck.public(game, "bench", range(n), range(cards), proved=True)
    len(deck.lookup)  # card points are a deck's fixed cost (cached), not a phase's
    keys = {seat: DeckKeys.derive(seeds[seat], deck) for seat in range(n)}
    run = best_run(deck, seeds, keys, rounds)
    busiest = max(run.per_node, key=run.per_node.__getitem__)
    final = run.stages[-1]
    deal_ops, verify_ops = Ops(), ProofOps()
    _deal(deck, keys, run.commitments, final, deal_ops)
    _recompute(deck, seeds, run.stages, verify_ops)
    secrets = [SecretKey.from_seed(digest("bench", bytes([seat, 1]))) for seat in range(n)]
    return {
        "shuffle_proof": (run.per_node[busiest], node_work(deck, busiest).group_ops),
        "deal": (best_time(partial(_deal, deck, keys, run.commitments, final, Ops()), rounds), n * (n - 1) + deal_ops.mults),
        "move": (best_time(partial(_move, game, n, secrets), rounds), round(ed25519["sign"] + (n - 1) * ed25519["verify"], 2)),
        "verify": (best_time(partial(_recompute, deck, seeds, run.stages, ProofOps()), rounds),
                   verify_ops.mults + verify_ops.base_mults + verify_ops.adds),
    }


def _recompute(deck: Deck, seeds: dict[int, Seed], stages: list[Entries], ops: ProofOps) -> None:
    """Every stage proved again from its author's seed, as the verifier produces it, and compared."""
    keys = {seat: DeckKeys.derive(seeds[seat], deck) for seat in deck.seats}
    commitments = {seat: commit_keys(keys[seat], ops) for seat in deck.seats}
    entries = card_points(deck)
    for stage, published in zip(deck.stages, stages):
        seat = stage.seat
        entries = prove_stage(deck, stage.index, seeds[seat], keys[seat], commitments[seat], entries, ops).entries
        if entries != published:
            raise AssertionError(f"stage {stage.index} differs from its recomputation")


def run(args: argparse.Namespace) -> dict:
    if min(args.cards) < max(SEATS) or args.rounds < 1:
        raise SystemExit(f"bench seats: every --cards must be at least {max(SEATS)} (a card for every seat) and --rounds positive")
    ed25519 = _ed25519_us()
    decks = []
    for cards in args.cards:
        measured = {n: _measure(n, cards, args.rounds, ed25519) for n in SEATS}
        figures: dict = {"cards": cards}
        for phase in PHASES:
            seconds, work = [measured[n][phase][0] for n in SEATS], [measured[n][phase][1] for n in SEATS]
            figures[f"{phase}_ms"] = [round(s * 1e3, 3) for s in seconds]
            figures[f"{phase}_exponent"] = round(exponent(SEATS, seconds), 3)
            figures[f"{phase}_work"] = work
            figures[f"{phase}_work_exponent"] = round(exponent(SEATS, work), 3)
        decks.append(figures)
    quotients = [d[f"{phase}_exponent"] / d[f"{phase}_work_exponent"] for d in decks for phase in PHASES]
    return {
        "seats": list(SEATS),
        "ed25519_sign_us": ed25519["sign"],
        "ed25519_verify_us": ed25519["verify"],
        "decks": decks,
        "ratio": round(max(quotients), 3),
        "goal": 1 + TOLERANCE,
    }


def _ed25519_us() -> dict[str, float]:
    """Microseconds of one raw Ed25519 signature and one verification (``cryptography``), the best of alternating rounds."""
    secret = Ed25519PrivateKey.from_private_bytes(digest("bench", b"seats-key"))
    public, message = secret.public_key(), bytes(133)
    signature = secret.sign(message)
    rounds = alternating({"sign": partial(secret.sign, message), "verify": partial(public.verify, signature, message)}, 0.1)
    return {name: round(min(r[name] for r in rounds) * 1e6, 2) for name in ("sign", "verify")}
