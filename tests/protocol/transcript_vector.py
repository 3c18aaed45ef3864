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
from collections.abc import Callable
from dataclasses import dataclass

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
VERSION = 2
"""The vector's table is of protocol version 2, as recorded: at version 3 only the genesis' number
would differ (towers ``infinite`` deals from private draws, no deck; ``fairness/proved_stage.json`` pins
a version 3 stage)."""


@dataclass(frozen=True)
class Table:
    """The vector's table: the seats' keys, the signed genesis and each seat's session."""

    keys: tuple[SecretKey, ...]
    genesis: SignedGenesis
    sessions: tuple[TableSession, ...]

    @classmethod
    def create(cls) -> Table:
        keys = tuple(SecretKey.from_seed(seed) for seed in KEY_SEEDS)
        genesis = Genesis("towers", "infinite", {"battlefield": "crystal_garden", "turn_seconds": 60},
                          tuple(Seat(key.public, name) for key, name in zip(keys, NAMES)), bytes(range(16)), VERSION)
        signed = SignedGenesis(genesis, tuple(genesis.sign(key) for key in keys))
        return cls(keys, signed, tuple(TableSession(signed, seat=seat, secret=secret) for seat, secret in enumerate(SECRETS)))

    def send(self, seat: int, kind: str, body: object) -> None:
        """``seat`` signs the next envelope; every session accepts it."""
        head = self.sessions[0]
        envelope = Envelope.seal(self.keys[seat], self.genesis.table_id, len(head.envelopes), head.head, seat, kind, body)
        for session in self.sessions:
            session.receive(envelope)

    def play(self, stop: Callable[[TableSession], bool] = lambda session: False) -> None:
        """The starter makes its first legal move, then the next seat to decide resigns; everything
        else is what the seeds dictate. Until the table is finished or ``stop`` holds."""
        moved = False
        while not self.sessions[0].finished and not stop(self.sessions[0]):
            slot = self.sessions[0].slot
            session = self.sessions[slot.seat]
            outgoing = session.outgoing()
            if outgoing is None and not moved:
                outgoing, moved = session.move_body(session.legal_moves()[0]), True
            elif outgoing is None:
                outgoing = session.resign_body()
            self.send(slot.seat, *outgoing)


def build() -> dict:
    table = Table.create()
    table.play()
    signed, genesis, sessions = table.genesis, table.genesis.genesis, table.sessions
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
    named = Genesis(genesis.game, genesis.variant, genesis.options, genesis.seats, genesis.nonce, genesis.version, tournament=place)
    return {"tournament": {"id": place.tournament.hex(), "round": place.round, "table": place.table},
            "genesis": named.encoded.hex(), "table_id": named.table_id.hex()}


def render() -> str:
    return json.dumps(build(), indent=1) + "\n"


if __name__ == "__main__":
    PATH.write_text(render())
