"""An in-process table: N seats, each with its own session and bot, no network.

Every seat signs its own envelopes and every seat's session checks every envelope, exactly
as nodes would over TCP, so a self-played transcript is a real one. A run seeded with
``seed`` is reproducible: keys, secrets, the nonce and the bots' choices all derive from it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from fairtable.games import bots as game_bots
from fairtable.games import registry
from fairtable.games.contract import Bot, Game, Rng
from fairtable.games.seeded import SeededRng
from fairtable.protocol import codec
from fairtable.protocol.envelope import Envelope
from fairtable.protocol.genesis import PROTOCOL_VERSION, Genesis, Seat, SignedGenesis
from fairtable.protocol.hashing import digest
from fairtable.protocol.identity import SecretKey
from fairtable.protocol.session.table import TableSession
from fairtable.protocol.transcript_file import TranscriptFile

Tamper = Callable[[int, str, Any], tuple[str, Any]]
"""``(seat, kind, body) -> (kind, body)``: how a test makes the due seat send something other
than its honest message, to see the others refuse it."""
MAX_ENVELOPES = 100_000
"""Where :meth:`SelfPlay.play` gives up: a game that never ends is a bug, not a long game."""

__all__ = ["MAX_ENVELOPES", "SelfPlay", "Tamper", "derive", "make_bot"]


def derive(seed: bytes, label: str, index: int) -> bytes:
    """Per-purpose bytes from a self-play seed (``label``: key, secret, nonce, bot; ``index``: the
    seat), so one seed reproduces a whole run and no two purposes share bytes."""
    return digest(f"selfplay/{label}", codec.encode([seed, index]))


@dataclass
class SelfPlay:
    """One table played in-process. ``tamper`` lets a test make a seat send something else."""

    genesis: SignedGenesis
    keys: tuple[SecretKey, ...]
    sessions: tuple[TableSession, ...]
    bots: tuple[Bot, ...]
    evidence: list[Envelope] = field(default_factory=list)
    """Signed envelopes off the chain that the transcript file carries (other seats' absence claims)."""
    default_version: ClassVar[int] = PROTOCOL_VERSION
    """The protocol version of the tables :meth:`create` makes: the current one (every deck proved).
    The test suite's one switch to version 2 (``version_2_tables`` in its conftest) sets it for a
    test whose subject is not the deck, to spare it the proofs' CPU."""

    @classmethod
    def create(cls, game_id: str, variant: str, options: Mapping[str, Any], seat_count: int,
               seed: bytes, bot_kinds: Sequence[str] | None = None, forgetting: bool = False,
               version: int | None = None) -> SelfPlay:
        """``forgetting``: the seats' sessions forget past games (``TableSession.forgetting``), so a
        caller that writes each envelope out as it is played can play a match of any length.
        ``version``: the genesis' protocol version (default :attr:`default_version`)."""
        version = cls.default_version if version is None else version
        keys = tuple(SecretKey.from_seed(derive(seed, "key", seat)) for seat in range(seat_count))
        seats = tuple(Seat(key.public, f"bot-{seat}") for seat, key in enumerate(keys))
        genesis = Genesis(game_id, variant, dict(options), seats, derive(seed, "nonce", 0)[:16], version)
        return cls.of(genesis, keys, seed, bot_kinds, forgetting)

    @classmethod
    def of(cls, genesis: Genesis, keys: Sequence[SecretKey], seed: bytes, bot_kinds: Sequence[str] | None = None,
           forgetting: bool = False) -> SelfPlay:
        """A given genesis played by the holders of ``keys`` (in seat order)."""
        game = registry.get(genesis.game)
        signed = SignedGenesis(genesis, tuple(genesis.sign(key) for key in keys))
        sessions = tuple(TableSession(signed, seat=seat, secret=derive(seed, "secret", seat), forgetting=forgetting)
                         for seat in range(len(keys)))
        kinds = list(bot_kinds or ["random"] * len(keys))
        bots = tuple(make_bot(game, kind, SeededRng(derive(seed, "bot", seat))) for seat, kind in enumerate(kinds))
        return cls(signed, tuple(keys), sessions, bots)

    @property
    def finished(self) -> bool:
        """True once the table has a result (as the first seat's session sees it; all seats agree)."""
        return self.sessions[0].finished

    def next_message(self) -> tuple[int, str, Any]:
        """The seat due to speak and what its node would send.

        Before that, as a node does, the first seat whose session found cheating it cannot
        pin on one seat (a card that opens to no card) stops the game with a dispute.
        """
        slot = self.sessions[0].slot
        assert slot is not None, "the table is finished"
        for seat, session in enumerate(self.sessions):
            if session.disputable and not session.disputes and session.violations:
                return seat, *session.dispute_body(session.violations[0])
        session = self.sessions[slot.seat]
        outgoing = session.outgoing() or session.decide(game_bots.decision(self.bots[slot.seat], session.game, session.state, slot.seat))
        return slot.seat, *outgoing

    def seal(self, seat: int, kind: str, body: Any) -> Envelope:
        """Sign ``kind`` and ``body`` as ``seat`` for the next slot of the chain, whoever is due: how a
        test makes a seat speak out of turn or say something its session would not."""
        reference = self.sessions[0]
        return Envelope.seal(self.keys[seat], self.genesis.table_id, len(reference.envelopes), reference.head, seat, kind, body)

    def deliver(self, envelope: Envelope) -> None:
        """Every session checks and accepts the envelope (raises ``Rejected`` if any refuses it)."""
        for session in self.sessions:
            session.receive(envelope)

    def absence_claims(self) -> list[Envelope]:
        """Every other present seat's claim that the due seat is absent, lowest seat first: nodes
        sign them each by its own clock, and with three or more seats a claim takes its slot only
        once all of them are in (``spec/session.md`` §10)."""
        reference = self.sessions[0]
        assert reference.slot is not None, "the table is finished"
        due = reference.slot.seat
        return [self.seal(seat, *self.sessions[seat].absence_claim_body())
                for seat in range(len(self.sessions)) if seat != due and seat not in reference.absent]

    def claim_absent(self) -> Envelope:
        """The due seat is declared absent: the lowest claimant's claim takes the slot, the others'
        go with the transcript file as the evidence that makes it final."""
        first, *others = self.absence_claims()
        self.deliver(first)
        self.evidence.extend(others)
        return first

    def step(self, tamper: Tamper | None = None) -> Envelope:
        """Play one envelope: the due seat's message (rewritten by ``tamper`` if given), sealed and
        delivered to every session; raises ``Rejected`` when a session refuses it."""
        seat, kind, body = self.next_message()
        if tamper is not None:
            kind, body = tamper(seat, kind, body)
        envelope = self.seal(seat, kind, body)
        self.deliver(envelope)
        return envelope

    def play(self, tamper: Tamper | None = None) -> TranscriptFile:
        """Step until the table is finished and return its transcript file; raises ``RuntimeError``
        past ``MAX_ENVELOPES`` rather than loop forever on a game that never ends."""
        while not self.finished:
            if len(self.sessions[0].envelopes) >= MAX_ENVELOPES:
                raise RuntimeError(f"no result after {MAX_ENVELOPES} envelopes")
            self.step(tamper)
        return self.transcript_file()

    def transcript_file(self) -> TranscriptFile:
        """The table so far as a transcript file, with the evidence envelopes a verifier needs."""
        return TranscriptFile(self.sessions[0].transcript(), evidence=tuple(self.evidence))


def make_bot(game: Game, kind: str, rng: Rng) -> Bot:
    """The game's declared bot ``kind``; ``greedy`` falls back to random for a game without one."""
    return game_bots.heuristic(game, rng) if kind == "greedy" else game_bots.make(game, kind, rng)
