"""Verification throughput against its floor: the cryptography it cannot avoid, counted in the
replay and priced with raw library calls in the same run.

Bots play the tables first (not timed). Then every transcript is read from its bytes and
verified, in this process (CPU time). The floor is the work a verifier must do, priced one call
at a time at the C library's own cost (libsodium through its ``cffi`` functions, no wrapper;
OpenSSL for signatures), so ``ratio`` (verification time over the floor) says how far from the
limit verification is, and ``python_us_per_envelope`` what is left per envelope: decoding, the
session and the game's rules, in Python. ``goal_budget_us_per_envelope`` is what the goal leaves
per envelope for all of that.

What the floor counts (``floor_counts``, gathered by a replay of every file):

- one Ed25519 verification per signature (genesis and envelopes);
- the deck's own multiplications (``Ops.mults``: openings, shows), on the table's group (edwards25519
  at protocol version 3, else the faster of libsodium's and OpenSSL's X25519 ladder);
- the proof layer's group work (``ProofOps``: multiplications, fixed-base ones, additions). A
  verifier that knows a stage's author's seed has two sound ways to check a proved stage: verify
  its proofs and recompute its entries (§5.7 needs them), or prove it again from the seed and
  compare the bytes (fairness.md §12.8). Per card the second costs less in every term (shuffle
  5 multiplications, 3 fixed-base and 5 additions against 6 + 1, 1 and 7; lock 3 against 4 + 1
  and 2 additions), so the replay takes it wherever the seed is known and the floor counts what it
  does; a stage whose bytes differ is verified, and counted so;
- the other cryptography the replay counts (``Ops``): entries checked, card points hashed,
  scalars derived from seeds, hash-chain links, one hash per envelope.

Left out of the floor, so the ratio errs high: the proofs' Fiat–Shamir hashing (challenges and
nonces read from SHA-512 streams, and the encodings they hash), a few per cent of a proved deck.

Then ``fairtable verify``'s driver checks the same files from disk with 1 process and with one
per core (wall time, files per second): ``speedup`` against ``speedup_goal`` = 0.8 × cores, and
``busy_cores`` the CPU the workers used over that wall time (cores kept busy). Last a tournament
bundle (``bench.bundle``: the largest the format takes, ``--bundle``) is verified the same two
ways: ``bundle_speedup`` against the same goal and against ``bundle_speedup_bound``, what its
rounds allow (a round's tables wait for the round before). On a machine whose cores other work
shares, every speed-up is bounded by what that work leaves (``load``).
"""

from __future__ import annotations

import argparse
import os
import resource
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import astuple, dataclass, fields
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from nacl.bindings.crypto_scalarmult import ffi, lib  # the cffi module itself: libsodium with no wrapper

from fairtable.games import registry
from fairtable.node.cli.bench import bundle, floor
from fairtable.node.cli.commands.verify import check_file
from fairtable.node.cli.progress import progress
from fairtable.protocol import TranscriptFile, TranscriptReader, codec, digest, dump, load
from fairtable.protocol.fair import Stream, chain_link, first_off_curve, hash_to_point, hash_to_points, ladder_scalars, scalar_from
from fairtable.protocol.session import TableSession, revealed_seeds, verify
from fairtable.protocol.testing import SelfPlay
from fairtable.protocol.tournament import SIZES

NAME = "verify"
HELP = "transcript verification against its floor (signatures, group work, hashes, priced raw); 1 and N processes"
GOAL = 1.3
DECK_BATCH = 102
"""Entries per call when timing batched work (checks, card points): a towers deck."""
SPEEDUP_SHARE = 0.8
REPEAT = 200
"""Calls per primitive when pricing one."""


@dataclass(frozen=True)
class Counts:
    """The floor's work, one field per priced primitive: how many in a replay, or the seconds one costs."""

    signatures: float = 0
    deck_multiplications: float = 0
    proof_multiplications: float = 0
    proof_base_multiplications: float = 0
    proof_additions: float = 0
    entry_checks: float = 0
    card_points: float = 0
    derived_scalars: float = 0
    envelope_hashes: float = 0
    chain_hashes: float = 0

    def __add__(self, other: Counts) -> Counts:
        return Counts(*(a + b for a, b in zip(astuple(self), astuple(other))))


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", default="towers", help="game to play and verify (default towers)")
    parser.add_argument("--games", type=int, default=64, help="number of tables (default 64)")
    parser.add_argument("--jobs", type=int, default=0, help="processes for the parallel run (default 0: one per core)")
    parser.add_argument("--bundle", type=int, default=max(SIZES), metavar="PARTICIPANTS",
                        help=f"participants of the tournament bundle verified too (one of {', '.join(map(str, SIZES))}; 0: none)")


def _counted(data: bytes) -> Counts:
    """What the replay of one file asks of the cryptography, as the floor counts it."""
    file = load(data)
    session = TableSession(file.transcript.genesis, seeds=revealed_seeds(file))
    for envelope in file.transcript.envelopes:
        session.accept_linked(envelope)
    ops, proofs = session.ops, session.proof_ops
    envelopes = len(file.transcript)
    return Counts(envelopes + len(file.transcript.genesis.signatures), ops.mults, proofs.mults, proofs.base_mults, proofs.adds,
                  ops.checked, ops.points, ops.derived, envelopes, ops.hashes)


def _decoded(data: bytes) -> TranscriptFile:
    """Read a file into envelopes with every link checked but no signature: the decoding alone."""
    reader = TranscriptReader(signed=False)
    reader.feed(data)
    return reader.close()


def _cpu(function: Callable[[], object]) -> float:
    start = time.process_time()
    function()
    return time.process_time() - start


def _each(work: Callable[[], object], batch: int = 1) -> float:
    """CPU seconds per item of ``work``, which handles ``batch`` items per call: the best of 3 rounds."""
    return min(_cpu(lambda: [work() for _ in range(max(1, REPEAT // batch))]) for _ in range(3)) / (max(1, REPEAT // batch) * batch)


def _prices(proved: bool) -> Counts:
    """Seconds per unit of each floor count (as a :class:`Counts` of floats), from raw calls in this run;
    the group's at :func:`.floor.prices`, as ``bench deck`` prices them."""
    group = floor.prices()
    datas = [bytes([n]) for n in range(DECK_BATCH)]
    if proved:
        deck_multiplication, card_point = group["mults"], group["points"]
    else:
        scalar = (5).to_bytes(32, "little")
        u = hash_to_point("bench", b"point")
        key = X25519PrivateKey.from_private_bytes(ladder_scalars(scalar)[0])
        out = ffi.new("unsigned char[]", 32)
        deck_multiplication = min(_each(lambda: lib.crypto_scalarmult(out, scalar, u)),
                                  _each(lambda: key.exchange(X25519PublicKey.from_public_bytes(u))))
        card_point = _each(lambda: hash_to_points("bench", datas), DECK_BATCH)
    signer = Ed25519PrivateKey.from_private_bytes(bytes(32))
    public, message = signer.public_key(), bytes(200)
    signature = signer.sign(message)
    batch = [hash_to_point("bench", bytes([n])) for n in range(DECK_BATCH)]
    stream = Stream(bytes(32))
    return Counts(
        _each(lambda: public.verify(signature, message)),
        deck_multiplication,
        group["mults"],
        group["base_mults"],
        group["adds"],
        _each(lambda: first_off_curve(batch), DECK_BATCH),
        card_point,
        _each(lambda: scalar_from(stream)),
        _each(lambda: digest("envelope", message)),
        _each(lambda: chain_link(1, message[:32])),
    )


def _files_per_second(paths: list[Path], jobs: int) -> tuple[float, float]:
    """``fairtable verify``'s work on ``paths`` with ``jobs`` processes: files per second (wall
    time, the pool's start included) and the cores its workers kept busy meanwhile."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        results = list(pool.map(check_file, paths, [True] * len(paths), chunksize=max(1, len(paths) // (jobs * 8))))
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if any(result.status for result in results):
        raise AssertionError("benchmark transcript does not verify")
    busy = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return len(paths) / elapsed, busy / elapsed


def run(args: argparse.Namespace) -> dict:
    if args.games < 1 or args.jobs < 0 or args.bundle not in (0, *SIZES):
        raise SystemExit(f"bench verify: --games must be positive, --jobs not negative, --bundle one of 0, {', '.join(map(str, SIZES))}")
    game = registry.get(args.game)
    files = []
    with progress(args.games, "playing the tables (not timed)") as advance:
        for number in range(args.games):
            table = SelfPlay.create(args.game, game.variants[0], {}, game.min_seats, codec.encode(["bench", number]))
            files.append(dump(table.play()))
            advance()
    envelopes = 0

    def verify_all() -> None:
        nonlocal envelopes
        for data in files:
            file = load(data)
            report = verify(file)
            if not report.valid:
                raise AssertionError(f"benchmark transcript does not verify: {report.violations[0]}")
            envelopes += len(file.transcript)

    elapsed = _cpu(verify_all)
    counts = sum((_counted(data) for data in files), Counts())
    prices = _prices(load(files[0]).transcript.genesis.genesis.version >= 3)
    floor = {field.name: getattr(counts, field.name) * getattr(prices, field.name) for field in fields(Counts)}
    floor_seconds = sum(floor.values())
    decoding = _cpu(lambda: [_decoded(data) for data in files])

    cores = args.jobs or os.cpu_count() or 1
    with tempfile.TemporaryDirectory(prefix="fairtable-bench-verify-") as root:
        paths = []
        for number, data in enumerate(files):
            paths.append(Path(root) / f"{number}.ftt")
            paths[-1].write_bytes(data)
        one, _ = _files_per_second(paths, 1)
        many, busy_cores = _files_per_second(paths, cores)
        tournament = _bundle(Path(root) / "bundle", args.bundle, cores) if args.bundle else {}
    return {
        "game": args.game,
        "games": args.games,
        "envelopes": envelopes,
        "games_per_s": round(args.games / elapsed, 2),
        "envelopes_per_s": round(envelopes / elapsed),
        "verify_cpu_seconds": round(elapsed, 3),
        "floor_counts": {name: getattr(counts, name) for name in floor},
        "floor_seconds_by_part": {name: round(seconds, 4) for name, seconds in floor.items()},
        "floor_seconds": round(floor_seconds, 3),
        "ratio": round(elapsed / floor_seconds, 3),
        "goal": GOAL,
        "python_us_per_envelope": round((elapsed - floor_seconds) / envelopes * 1e6, 1),
        "decode_us_per_envelope": round(decoding / envelopes * 1e6, 1),
        "goal_budget_us_per_envelope": round((GOAL - 1) * floor_seconds / envelopes * 1e6, 1),
        "processes": cores,
        "files_per_s_1_process": round(one, 2),
        "files_per_s_n_processes": round(many, 2),
        "speedup": round(many / one, 3),
        "speedup_goal": round(SPEEDUP_SHARE * cores, 2),
        "busy_cores": round(busy_cores, 2),
        **tournament,
    }


def _bundle(folder: Path, participants: int, cores: int) -> dict:
    """The tournament bundle's figures: its tables by round, 1 and N processes, the speed-up its rounds allow."""
    rounds = bundle.play(folder, participants)
    one, _ = bundle.seconds(folder, 1)
    many, busy_cores = bundle.seconds(folder, cores)
    return {
        "bundle_participants": participants,
        "bundle_tables_by_round": rounds,
        "bundle_seconds_1_process": round(one, 3),
        "bundle_seconds_n_processes": round(many, 3),
        "bundle_speedup": round(one / many, 3),
        "bundle_speedup_goal": round(SPEEDUP_SHARE * cores, 2),
        "bundle_speedup_bound": round(bundle.bound(rounds, cores), 3),
        "bundle_busy_cores": round(busy_cores, 2),
    }
