"""Builds ``spec/vectors/transcript.json``: a short real game, so the vector is a transcript
that ``fairtable verify`` finds valid, not merely a well-linked chain.

Two fixed keys play towers with the infinite deck: both commit, both reveal for who starts,
the starter makes one move (showing its private draw's face), the other seat signs the draw
message that seeds the starter's next card, then resigns; both reveal their seeds. Every seat
secret is fixed, so the bytes are reproducible. ``python -m tests.protocol.transcript_vector``
rewrites the file; ``test_transcript.py`` checks that it equals what the code builds now.
"""

from __future__ import annotations

import json

from fairtable.protocol import transcript_file as tf
from fairtable.protocol.envelope import Envelope
from fairtable.protocol.genesis import Genesis, Seat, SignedGenesis, TournamentTable
from fairtable.protocol.identity import SecretKey
from fairtable.protocol.session.table import TableSession, game_seed
from tests.paths import VECTORS

PATH = VECTORS / "transcript.json"
KEY_SEEDS = (bytes([1]) * 32, bytes([2]) * 32)
SECRETS = (bytes([0x11]) * 32, bytes([0x22]) * 32)
NAMES = ("Alise", "Bruno")


def build() -> dict:
    keys = tuple(SecretKey.from_seed(seed) for seed in KEY_SEEDS)
    genesis = Genesis("towers", "infinite", {"battlefield": "crystal_garden", "turn_seconds": 60},
                      tuple(Seat(key.public, name) for key, name in zip(keys, NAMES)), bytes(range(16)))
    signed = SignedGenesis(genesis, tuple(genesis.sign(key) for key in keys))
    sessions = tuple(TableSession(signed, seat=seat, secret=secret) for seat, secret in enumerate(SECRETS))
    moved = False
    while not sessions[0].finished:
        slot = sessions[0].slot
        session = sessions[slot.seat]
        outgoing = session.outgoing()
        if outgoing is None and not moved:
            outgoing, moved = session.move_body(session.legal_moves()[0]), True
        elif outgoing is None:
            outgoing = session.resign_body()
        kind, body = outgoing
        envelope = Envelope.seal(keys[slot.seat], signed.table_id, len(session.envelopes), session.head, slot.seat, kind, body)
        for each in sessions:
            each.receive(envelope)
    envelopes = sessions[0].envelopes
    seeds = (tf.RevealedSeed(0, 0, game_seed(SECRETS[0], 0)),)
    return {
        "description": "A two-seat towers game (infinite deck) that verifies: genesis, its table id and signatures, "
                       "every envelope (commitments, who starts, a move, a draw message, a resignation, both seed reveals), "
                       "and the whole transcript file, with a seeds record repeating seat 0's seed.",
        "seeds": [seed.hex() for seed in KEY_SEEDS],
        "genesis": genesis.encoded.hex(),
        "table_id": signed.table_id.hex(),
        "genesis_signatures": [signature.hex() for signature in signed.signatures],
        "signed_genesis": tf.codec.encode(signed.to_value()).hex(),
        "tournament_genesis": tournament_genesis(genesis),
        "envelopes": [
            {"seq": e.seq, "seat": e.seat, "kind": e.kind, "content": e.content.hex(), "signature": e.signature.hex(),
             "wire": e.to_wire().hex(), "hash": e.hash.hex()}
            for e in envelopes
        ],
        "revealed_seeds": [[seed.game, seed.seat, seed.seed.hex()] for seed in seeds],
        "result": sessions[0].result.to_value(),
        "file": tf.dump(tf.TranscriptFile(sessions[0].transcript(), seeds)).hex(),
    }


def tournament_genesis(genesis: Genesis) -> dict:
    """The same genesis as table 1 of round 2 of a tournament: only the optional key differs."""
    place = TournamentTable(bytes(range(32)), 2, 1)
    named = Genesis(genesis.game, genesis.variant, genesis.options, genesis.seats, genesis.nonce, tournament=place)
    return {"tournament": {"id": place.tournament.hex(), "round": place.round, "table": place.table},
            "genesis": named.encoded.hex(), "table_id": named.table_id.hex()}


def render() -> str:
    return json.dumps(build(), indent=1) + "\n"


if __name__ == "__main__":
    PATH.write_text(render())
