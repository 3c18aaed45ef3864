"""A proved deck's proof work node by node, with the proof functions alone (no bodies, no codec).

Each stage is proved once (its author's CPU) and verified once, a time every other node spends
too; every seat commits to its keys, every node checks the others' commitments as points and
their published keys against them. What ``fairtable bench deck`` reports as
``proof_primitives_cpu_ms_per_node`` and ``bench seats`` as the proof-carrying shuffle.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from fairtable.node.cli.bench.timing import timed
from fairtable.protocol.fair import (
    Deck,
    DeckKeys,
    Entries,
    KeyCommitments,
    ProofOps,
    Seed,
    card_points,
    check_key,
    check_points,
    commit_keys,
    prove_stage,
    verify_stage,
)


@dataclass
class ProofRun:
    """One run: each node's CPU seconds, each stage's (prove, verify) seconds, the work counted in
    each, every stage's entries and every seat's commitments."""

    per_node: dict[int, float]
    times: list[tuple[float, float]]
    work: list[tuple[ProofOps, ProofOps]]
    stages: list[Entries]
    commitments: dict[int, KeyCommitments]


def _check_commitments(commitments: dict[int, KeyCommitments]) -> None:
    for c in commitments.values():
        check_points([c.deck_key, *c.position_keys])


def _check_published_keys(deck: Deck, keys: dict[int, DeckKeys], commitments: dict[int, KeyCommitments]) -> None:
    for seat in deck.seats:
        for position, key in enumerate(keys[seat].position_keys):
            check_key(deck, commitments[seat], position, key)


def proof_run(deck: Deck, seeds: dict[int, Seed], keys: dict[int, DeckKeys]) -> ProofRun:
    """Prove and verify every stage of ``deck`` once, and count each node's share."""
    seats = deck.seats
    own: dict[int, float] = {}
    commitments: dict[int, KeyCommitments] = {}
    for seat in seats:
        own[seat], commitments[seat] = timed(partial(commit_keys, keys[seat]))
    check_time, _ = timed(partial(_check_commitments, commitments))
    points_time, entries = timed(partial(card_points, deck))
    times, work, stages = [], [], []
    for stage in deck.stages:
        prove_ops, verify_ops = ProofOps(), ProofOps()
        seat, inputs = stage.seat, entries
        prove_time, proven = timed(partial(prove_stage, deck, stage.index, seeds[seat], keys[seat], commitments[seat], inputs, prove_ops))
        verify_time, _ = timed(partial(verify_stage, deck, stage.index, inputs, proven, commitments[seat], verify_ops))
        times.append((prove_time, verify_time))
        work.append((prove_ops, verify_ops))
        entries = proven.entries
        stages.append(entries)
    key_time, _ = timed(partial(_check_published_keys, deck, keys, commitments))
    per_node = {}
    for seat in seats:
        proving = sum(p for stage, (p, _) in zip(deck.stages, times) if stage.seat == seat)
        verifying = sum(v for stage, (_, v) in zip(deck.stages, times) if stage.seat != seat)
        checks = (check_time + key_time) * (len(seats) - 1) / len(seats)
        per_node[seat] = own[seat] + points_time + proving + verifying + checks
    return ProofRun(per_node, times, work, stages, commitments)


def best_run(deck: Deck, seeds: dict[int, Seed], keys: dict[int, DeckKeys], rounds: int) -> ProofRun:
    """The run of ``rounds`` whose busiest node spent least."""
    return min((proof_run(deck, seeds, keys) for _ in range(rounds)), key=lambda run: max(run.per_node.values()))
