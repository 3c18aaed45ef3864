"""Fairness primitives: the cryptography that replaces a trusted dealer.

Every seat commits to a per-game seed, derives all its secret randomness from it, and
reveals it after the game, so a verifier can recompute every secret step. The modules:

- :mod:`~protocol.fair.seeds`: seeds, their commitments, labelled derivation, unbiased draws;
- :mod:`~protocol.fair.public_random`: public random values from revealed hash chains;
- :mod:`~protocol.fair.private_stream`: a seat's own hidden draws;
- :mod:`~protocol.fair.group` and :mod:`~protocol.fair.mental_deck`: shuffled hidden decks;
- :mod:`~protocol.fair.edwards`, :mod:`~protocol.fair.equal_logs`, :mod:`~protocol.fair.shuffle_proof`
  and :mod:`~protocol.fair.deck_proofs`: the proofs that make a deck's stages and keys checkable
  on receipt (the proof layer of the next protocol version, not yet on the wire);
- :mod:`~protocol.fair.hidden_board`: committed boards opened cell by cell;
- :mod:`~protocol.fair.simultaneous`: commit-then-reveal choices.

All of it is sans-IO and deterministic; ``spec/fairness.md`` describes it byte for byte.
"""
