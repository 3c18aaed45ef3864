"""Envelope throughput against raw Ed25519 from ``cryptography``, measured in the same run.

The ratio is the CPU time to decode and verify a typical ~200-byte envelope over the time of
one raw signature verification: what the wire format costs beyond the crypto it needs (the
floor). The four measurements (raw sign, seal, raw verify, decode+verify) run in alternation,
one short batch each per round, so that a change of CPU speed or a neighbour's load meets them
alike; each figure is its best round, ``ratio`` the best decode+verify over the best raw verify,
and ``ratio_spread`` the lowest and highest ratio of one round's two batches.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from functools import partial

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from fairtable.node.cli.bench.timing import timed
from fairtable.protocol import Envelope, SecretKey, digest, label_prefix

NAME = "wire"
HELP = "envelope sign+encode and decode+verify rates against raw Ed25519"
GOAL = 1.3
BATCH_SECONDS = 0.01
"""CPU time of one batch: long against the clock's resolution, short against a neighbour's bursts."""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seconds", type=float, default=0.6, help="CPU time to spend on each measurement")


def typical_envelope(secret: SecretKey) -> Envelope:
    """A move-sized envelope: about 200 bytes on the wire."""
    table = digest("bench", b"table")
    body = {"card": 57, "move": "play", "target": 1}
    return Envelope.seal(secret, table, 1234, digest("bench", b"prev"), 1, "move", body)


def _repeat(function: Callable[[], object], calls: int) -> None:
    for _ in range(calls):
        function()


def alternating(functions: dict[str, Callable[[], object]], seconds: float) -> list[dict[str, float]]:
    """CPU seconds per call of each function, one batch of each per round, for about ``seconds`` each."""
    calls = {name: max(1, round(BATCH_SECONDS / timed(partial(_repeat, f, 20))[0] * 20)) for name, f in functions.items()}
    rounds = max(3, round(seconds / BATCH_SECONDS))
    return [{name: timed(partial(_repeat, f, calls[name]))[0] / calls[name] for name, f in functions.items()} for _ in range(rounds)]


def run(args: argparse.Namespace) -> dict:
    if args.seconds <= 0:
        raise SystemExit("bench wire: --seconds must be positive")
    secret = SecretKey.from_seed(bytes(32))
    envelope = typical_envelope(secret)
    wire = envelope.to_wire()
    key = secret.public
    raw_private = Ed25519PrivateKey.from_private_bytes(bytes(32))
    raw_public = raw_private.public_key()
    message = label_prefix("envelope") + envelope.content
    signature = raw_private.sign(message)

    def seal() -> bytes:
        return Envelope.seal(secret, envelope.table, envelope.seq, envelope.prev, 1, "move", envelope.body).to_wire()

    def open_and_verify() -> None:
        if not Envelope.from_wire(wire).verify(key):
            raise AssertionError("benchmark envelope does not verify")

    rounds = alternating({
        "raw_sign": lambda: raw_private.sign(message),
        "seal": seal,
        "raw_verify": lambda: raw_public.verify(signature, message),
        "open": open_and_verify,
    }, args.seconds)
    best = {name: min(r[name] for r in rounds) for name in rounds[0]}
    spread = [r["open"] / r["raw_verify"] for r in rounds]
    return {
        "envelope_bytes": len(wire),
        "sign_encode_per_s": round(1 / best["seal"]),
        "decode_verify_per_s": round(1 / best["open"]),
        "raw_ed25519_sign_per_s": round(1 / best["raw_sign"]),
        "raw_ed25519_verify_per_s": round(1 / best["raw_verify"]),
        "decode_verify_us": round(best["open"] * 1e6, 2),
        "floor_us": round(best["raw_verify"] * 1e6, 2),
        "rounds": len(rounds),
        "ratio": round(best["open"] / best["raw_verify"], 3),
        "ratio_spread": [round(min(spread), 3), round(max(spread), 3)],
        "goal": GOAL,
    }
