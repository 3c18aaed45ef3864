"""Fairness primitives: the cryptography that replaces a trusted dealer.

Every seat commits to a per-game seed, derives all its secret randomness from it, and
reveals it after the game, so a verifier can recompute every secret step. The modules:

- :mod:`~protocol.fair.seeds`: seeds, their commitments, labelled derivation, unbiased draws;
- :mod:`~protocol.fair.public_random`: public random values from revealed hash chains;
- :mod:`~protocol.fair.private_stream`: a seat's own hidden draws;
- :mod:`~protocol.fair.group` and :mod:`~protocol.fair.mental_deck`: shuffled hidden decks;
- :mod:`~protocol.fair.edwards`, :mod:`~protocol.fair.equal_logs`, :mod:`~protocol.fair.shuffle_proof`
  and :mod:`~protocol.fair.deck_proofs`: the proofs that make a deck's stages and keys checkable
  on receipt (the proof layer of protocol version 3, fairness.md §12);
- :mod:`~protocol.fair.hidden_board`: committed boards opened cell by cell;
- :mod:`~protocol.fair.simultaneous`: commit-then-reveal choices.

All of it is sans-IO and deterministic; ``spec/fairness.md`` describes it byte for byte.
"""

from fairtable.protocol.fair.deck_proofs import KeyCommitments, card_points, check_key, commit_keys, prove_stage, stage_work, verify_stage
from fairtable.protocol.fair.edwards import ProofOps, check_points
from fairtable.protocol.fair.group import Ops, first_off_curve, hash_to_point, hash_to_points, ladder_scalars, scalar_from
from fairtable.protocol.fair.mental_deck import (
    LOCK,
    SHUFFLE,
    Deck,
    DeckKeys,
    Entries,
    check_keys,
    check_stage,
    key_body,
    open_position,
    open_positions,
    run_stage,
    stage_body,
    verify_deck,
)
from fairtable.protocol.fair.public_random import chain_link
from fairtable.protocol.fair.seeds import GameRef, Seed, Stream

__all__ = [
    "LOCK",
    "SHUFFLE",
    "Deck",
    "DeckKeys",
    "Entries",
    "GameRef",
    "KeyCommitments",
    "Ops",
    "ProofOps",
    "Seed",
    "Stream",
    "card_points",
    "chain_link",
    "check_key",
    "check_keys",
    "check_points",
    "check_stage",
    "commit_keys",
    "first_off_curve",
    "hash_to_point",
    "hash_to_points",
    "key_body",
    "ladder_scalars",
    "open_position",
    "open_positions",
    "prove_stage",
    "run_stage",
    "scalar_from",
    "stage_body",
    "stage_work",
    "verify_deck",
    "verify_stage",
]
