"""Simultaneous choices: every seat commits, then every seat reveals.

The commitment is ``H("fair/choice", [table, game, seat, round, salt, choice])``. The salt,
derived from the seed for this round, hides low-entropy choices ("fire at B4") until the
reveal; binding the seat stops a seat from copying another's commitment and revealing the
same choice. Nobody sees a choice before all are committed, so nobody can respond to one.
"""

from __future__ import annotations

import hmac
from collections.abc import Mapping
from typing import Any

from fairtable.protocol.codec import Value, encode
from fairtable.protocol.fair.errors import FairnessError
from fairtable.protocol.fair.seeds import GameRef, Seed
from fairtable.protocol.hashing import digest

SALT_SIZE = 32


def choice_salt(seed: Seed, round_id: str) -> bytes:
    """The salt hiding a seat's committed choice in round ``round_id``, derived from its seed so
    the verifier can recompute and check the commitment after the game."""
    return seed.key("choice/salt", round_id)


def _commitment(game: GameRef, seat: int, round_id: str, salt: bytes, choice: Value) -> bytes:
    return digest("fair/choice", encode([game.table, game.index, seat, round_id, salt, choice]))


def commit_body(seed: Seed, round_id: str, choice: Value) -> dict:
    """The canonical body of the commit message."""
    commitment = _commitment(seed.game, seed.seat, round_id, choice_salt(seed, round_id), choice)
    return {"commitment": commitment, "round": round_id}


def reveal_body(seed: Seed, round_id: str, choice: Value) -> dict:
    """The canonical body of the reveal message."""
    return {"choice": choice, "round": round_id, "salt": choice_salt(seed, round_id)}


def check_commit(seat: int, round_id: str, body: Any) -> bytes:
    """The commitment in a commit message; a :class:`FairnessError` names the seat if malformed."""
    if not (isinstance(body, dict) and set(body) == {"commitment", "round"} and body["round"] == round_id
            and isinstance(body["commitment"], bytes) and len(body["commitment"]) == 32):
        detail = f"a commitment for round {round_id!r} is the map {{commitment, round}}"
        raise FairnessError(seat, "choice.malformed", detail)
    return body["commitment"]


def check_reveals(
    game: GameRef, round_id: str, commitments: Mapping[int, bytes], reveals: Mapping[int, Any]
) -> dict[int, Value]:
    """Every seat's choice once all have revealed; the first seat (by number) whose reveal is
    missing (absent or None), malformed, or not opening its commitment is named."""
    choices: dict[int, Value] = {}
    for seat in sorted(commitments):
        body = reveals.get(seat)
        if body is None:
            raise FairnessError(seat, "choice.withheld", f"no reveal for round {round_id!r}")
        if not (isinstance(body, dict) and set(body) == {"choice", "round", "salt"} and body["round"] == round_id
                and isinstance(body["salt"], bytes) and len(body["salt"]) == SALT_SIZE):
            detail = f"a reveal for round {round_id!r} is the map {{choice, round, salt}}"
            raise FairnessError(seat, "choice.malformed", detail)
        expected = _commitment(game, seat, round_id, body["salt"], body["choice"])
        if not hmac.compare_digest(expected, commitments[seat]):
            raise FairnessError(seat, "choice.mismatch", f"the reveal for round {round_id!r} does not open the commitment")
        choices[seat] = body["choice"]
    return choices


def check_salt(seed: Seed, round_id: str, salt: bytes) -> None:
    """After the seed reveal: the salt used must be the derived one (nothing else may be random)."""
    if not hmac.compare_digest(choice_salt(seed, round_id), salt):
        detail = f"the salt of round {round_id!r} is not derived from the seed"
        raise FairnessError(seed.seat, "choice.salt-mismatch", detail)
