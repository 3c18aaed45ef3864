"""Envelope throughput against raw Ed25519 from ``cryptography``, measured in the same run.

The ratio is the time to decode and verify a typical ~200-byte envelope over the time of
one raw signature verification: what the wire format costs beyond the crypto it needs.
"""

from __future__ import annotations

import argparse

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from fairtable.protocol import Envelope, SecretKey, digest, label_prefix

NAME = "wire"
HELP = "envelope sign+encode and decode+verify rates against raw Ed25519"
GOAL = 1.3


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seconds", type=float, default=0.6, help="time to spend on each measurement")


def typical_envelope(secret: SecretKey) -> Envelope:
    """A move-sized envelope: about 200 bytes on the wire."""
    table = digest("bench", b"table")
    body = {"card": 57, "move": "play", "target": 1}
    return Envelope.seal(secret, table, 1234, digest("bench", b"prev"), 1, "move", body)


def run(args: argparse.Namespace) -> dict:
    from fairtable.node.cli.bench import time_per_call

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

    raw_sign = time_per_call(lambda: raw_private.sign(message), args.seconds)
    raw_verify = time_per_call(lambda: raw_public.verify(signature, message), args.seconds)
    sealed = time_per_call(seal, args.seconds)
    opened = time_per_call(open_and_verify, args.seconds)
    return {
        "envelope_bytes": len(wire),
        "sign_encode_per_s": round(1 / sealed),
        "decode_verify_per_s": round(1 / opened),
        "raw_ed25519_sign_per_s": round(1 / raw_sign),
        "raw_ed25519_verify_per_s": round(1 / raw_verify),
        "ratio": round(opened / raw_verify, 3),
        "goal": GOAL,
    }
