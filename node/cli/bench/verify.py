"""Verification throughput against the cryptography it cannot avoid, measured in the same run.

Bots play the tables first (not timed). Then every transcript is read from its bytes and
verified, in this process (CPU time). The unavoidable work is one Ed25519 verification per
signature (genesis and envelopes) and the scalar multiplications the verifier must redo (every
shuffle stage, every opening and show); their cost is measured with raw library calls in the
same run (the faster of libsodium's and OpenSSL's X25519 ladder). ``ratio`` is the verification
time over that cost: what decoding, the other cryptography, the session and the rules add.

To show where the rest goes, the other cryptographic work the replay counts (``Ops``: entries
checked, card points hashed, scalars derived from seeds, hash-chain links, one hash per
envelope) is timed the same way; ``ratio_to_all_crypto`` sets the verification time against
all of it, and ``python_us_per_envelope`` is what is left per envelope: decoding, the session
and the game's rules, in Python. ``decode_us_per_envelope`` is the decoding alone (records read
into envelopes, links checked, no signature), and ``goal_budget_us_per_envelope`` what the goal
leaves per envelope for all of that once the cryptography is paid.

Then ``fairtable verify``'s driver checks the same files from disk with 1 process and with one
per core (wall time, files per second): ``speedup`` against ``speedup_goal`` = 0.8 × cores. On a
machine whose cores other work shares, the speed-up is bounded by what that work leaves.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from nacl.bindings import crypto_scalarmult

from fairtable.games import registry
from fairtable.node.cli.commands.verify import check_file
from fairtable.node.cli.progress import progress
from fairtable.protocol import TranscriptFile, TranscriptReader, codec, digest, dump, load
from fairtable.protocol.fair import Ops, Stream, chain_link, first_off_curve, hash_to_point, hash_to_points, ladder_scalars, scalar_from
from fairtable.protocol.session import TableSession, revealed_seeds, verify
from fairtable.protocol.testing import SelfPlay

NAME = "verify"
HELP = "transcript verification against raw signature checks and scalar multiplications; 1 and N processes"
GOAL = 1.3
DECK_BATCH = 102
"""Entries per call when timing batched work (checks, card points): a towers deck."""
SPEEDUP_SHARE = 0.8


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", default="towers", help="game to play and verify (default towers)")
    parser.add_argument("--games", type=int, default=50, help="number of tables (default 50)")
    parser.add_argument("--jobs", type=int, default=0, help="processes for the parallel run (default 0: one per core)")


def _group_work(data: bytes) -> Ops:
    """What the replay of one file asks of the group (multiplications, checks, points, derivations)."""
    file = load(data)
    session = TableSession(file.transcript.genesis, seeds=revealed_seeds(file))
    for envelope in file.transcript.envelopes:
        session.accept_linked(envelope)
    return session.ops


def _decoded(data: bytes) -> TranscriptFile:
    """Read a file into envelopes with every link checked but no signature: the decoding alone."""
    reader = TranscriptReader(signed=False)
    reader.feed(data)
    return reader.close()


def _each(count: int, batch: int, work: Callable[[], object]) -> float:
    """CPU seconds for ``count`` items of ``work``, which handles ``batch`` items per call."""
    calls = max(1, -(-count // batch))
    return _cpu(lambda: [work() for _ in range(calls)]) * count / (calls * batch)


def _cpu(function: Callable[[], object]) -> float:
    start = time.process_time()
    function()
    return time.process_time() - start


def _files_per_second(paths: list[Path], jobs: int) -> float:
    """``fairtable verify``'s work on ``paths`` with ``jobs`` processes (wall time, the pool's start included)."""
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        results = list(pool.map(check_file, paths, [True] * len(paths), chunksize=max(1, len(paths) // (jobs * 8))))
    elapsed = time.perf_counter() - start
    if any(result.status for result in results):
        raise AssertionError("benchmark transcript does not verify")
    return len(paths) / elapsed


def run(args: argparse.Namespace) -> dict:
    if args.games < 1 or args.jobs < 0:
        raise SystemExit("bench verify: --games must be positive and --jobs not negative")
    game = registry.get(args.game)
    files = []
    with progress(args.games, "playing the tables (not timed)") as advance:
        for number in range(args.games):
            table = SelfPlay.create(args.game, game.variants[0], {}, game.min_seats, codec.encode(["bench", number]))
            files.append(dump(table.play()))
            advance()
    envelopes = signatures = 0

    def verify_all() -> None:
        nonlocal envelopes, signatures
        for data in files:
            file = load(data)
            report = verify(file)
            if not report.valid:
                raise AssertionError(f"benchmark transcript does not verify: {report.violations[0]}")
            envelopes += len(file.transcript)
            signatures += len(file.transcript) + len(file.transcript.genesis.signatures)

    elapsed = _cpu(verify_all)
    work = [_group_work(data) for data in files]
    multiplications = sum(ops.mults for ops in work)

    key = Ed25519PrivateKey.from_private_bytes(bytes(32))
    public, message = key.public_key(), bytes(200)
    signature = key.sign(message)
    signature_time = _cpu(lambda: [public.verify(signature, message) for _ in range(signatures)])
    point = hash_to_point("bench", b"point")
    scalar = ladder_scalars((5).to_bytes(32, "little"))[0]
    openssl_key = X25519PrivateKey.from_private_bytes(scalar)
    libsodium_time = _cpu(lambda: [crypto_scalarmult(scalar, point) for _ in range(multiplications)])
    openssl_time = _cpu(lambda: [openssl_key.exchange(X25519PublicKey.from_public_bytes(point)) for _ in range(multiplications)])
    unavoidable = signature_time + min(libsodium_time, openssl_time)

    batch = [hash_to_point("bench", bytes([n])) for n in range(DECK_BATCH)]
    datas = [bytes([n]) for n in range(DECK_BATCH)]
    stream = Stream(bytes(32))
    other = {
        "entry_checks": _each(sum(ops.checked for ops in work), DECK_BATCH, lambda: first_off_curve(batch)),
        "card_points": _each(sum(ops.points for ops in work), DECK_BATCH, lambda: hash_to_points("bench", datas)),
        "derived_scalars": _each(sum(ops.derived for ops in work), 1, lambda: scalar_from(stream)),
        "envelope_hashes": _each(envelopes, 1, lambda: digest("envelope", message)),
        "chain_hashes": _each(sum(ops.hashes for ops in work), 1, lambda: chain_link(1, message[:32])),
    }
    crypto = unavoidable + sum(other.values())
    decoding = _cpu(lambda: [_decoded(data) for data in files])

    cores = args.jobs or os.cpu_count() or 1
    with tempfile.TemporaryDirectory(prefix="fairtable-bench-verify-") as root:
        paths = []
        for number, data in enumerate(files):
            paths.append(Path(root) / f"{number}.ftt")
            paths[-1].write_bytes(data)
        one = _files_per_second(paths, 1)
        many = _files_per_second(paths, cores)
    return {
        "game": args.game,
        "games": args.games,
        "envelopes": envelopes,
        "games_per_s": round(args.games / elapsed, 2),
        "envelopes_per_s": round(envelopes / elapsed),
        "verify_cpu_seconds": round(elapsed, 3),
        "signature_verifications": signatures,
        "scalar_multiplications": multiplications,
        "unavoidable_crypto_seconds": round(unavoidable, 3),
        "ratio": round(elapsed / unavoidable, 3),
        "goal": GOAL,
        "other_crypto_seconds": {name: round(seconds, 3) for name, seconds in other.items()},
        "ratio_to_all_crypto": round(elapsed / crypto, 3),
        "python_us_per_envelope": round((elapsed - crypto) / envelopes * 1e6, 1),
        "decode_us_per_envelope": round(decoding / envelopes * 1e6, 1),
        "goal_budget_us_per_envelope": round((GOAL * unavoidable - crypto) / envelopes * 1e6, 1),
        "processes": cores,
        "files_per_s_1_process": round(one, 2),
        "files_per_s_n_processes": round(many, 2),
        "speedup": round(many / one, 3),
        "speedup_goal": round(SPEEDUP_SHARE * cores, 2),
    }
