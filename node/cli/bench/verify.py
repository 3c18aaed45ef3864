"""Verification throughput against the cryptography it cannot avoid, measured in the same run.

Bots play the tables first (not timed). Then every transcript is read from its bytes and
verified. The unavoidable work is one Ed25519 verification per signature (genesis and
envelopes) and the scalar multiplications the verifier must redo (every shuffle stage and
every opening); their cost is measured with raw library calls in the same run. The ratio
is the verification time over that cost: what decoding, the session and the rules add.
"""

from __future__ import annotations

import argparse
import time

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from nacl.bindings import crypto_scalarmult_ed25519_noclamp

from fairtable.games import registry
from fairtable.node.cli.progress import progress
from fairtable.protocol import codec
from fairtable.protocol.fair.group import hash_to_point
from fairtable.protocol.session.table import TableSession
from fairtable.protocol.session.verify import revealed_seeds, verify
from fairtable.protocol.testing import SelfPlay
from fairtable.protocol.transcript_file import dump, load

NAME = "verify"
HELP = "transcript verification against raw signature checks and scalar multiplications"
GOAL = 1.5


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", default="towers", help="game to play and verify (default towers)")
    parser.add_argument("--games", type=int, default=50, help="number of tables (default 50)")


def _multiplications(data: bytes) -> int:
    file = load(data)
    session = TableSession(file.transcript.genesis, seeds=revealed_seeds(file))
    for envelope in file.transcript.envelopes:
        session.accept_linked(envelope)
    return session.ops.mults


def run(args: argparse.Namespace) -> dict:
    if args.games < 1:
        raise SystemExit("bench verify: --games must be positive")
    game = registry.get(args.game)
    files = []
    with progress(args.games, "playing the tables (not timed)") as advance:
        for number in range(args.games):
            table = SelfPlay.create(args.game, game.variants[0], {}, game.min_seats, codec.encode(["bench", number]))
            files.append(dump(table.play()))
            advance()
    envelopes = signatures = 0
    start = time.perf_counter()
    for data in files:
        file = load(data)
        report = verify(file)
        if not report.valid:
            raise AssertionError(f"benchmark transcript does not verify: {report.violations[0]}")
        envelopes += len(file.transcript)
        signatures += len(file.transcript) + len(file.transcript.genesis.signatures)
    elapsed = time.perf_counter() - start
    multiplications = sum(_multiplications(data) for data in files)

    key = Ed25519PrivateKey.from_private_bytes(bytes(32))
    public, message = key.public_key(), bytes(200)
    signature = key.sign(message)
    start = time.perf_counter()
    for _ in range(signatures):
        public.verify(signature, message)
    signature_time = time.perf_counter() - start
    point, scalar = hash_to_point("bench", b"point"), (5).to_bytes(32, "little")
    start = time.perf_counter()
    for _ in range(multiplications):
        crypto_scalarmult_ed25519_noclamp(scalar, point)
    multiplication_time = time.perf_counter() - start
    unavoidable = signature_time + multiplication_time
    return {
        "game": args.game,
        "games": args.games,
        "envelopes": envelopes,
        "games_per_s": round(args.games / elapsed, 2),
        "envelopes_per_s": round(envelopes / elapsed),
        "verify_seconds": round(elapsed, 3),
        "signature_verifications": signatures,
        "scalar_multiplications": multiplications,
        "unavoidable_crypto_seconds": round(unavoidable, 3),
        "ratio": round(elapsed / unavoidable, 3),
        "goal": GOAL,
    }
