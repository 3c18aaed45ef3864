"""Golden playthroughs: one short seeded game per registered game and variant, played through
real table sessions, recorded step by step as OpenSpiel keeps its playthroughs.

Each recording (``spec/vectors/games/<game>-<variant>.json``) lists every game event in order:
the envelope that completed it and its seat and kind, the request it answered, the event as the
verifier sees it (every face known), and a digest of each seat's view and of the spectator's
view after that envelope. Its transcript (``<game>-<variant>.ftt``) is stored beside it. A
change to the rules, the session, the wire or the bots shows as a changed step; if the change
is meant, regenerate and review the diff:

    python -m tests.golden            # rewrite every recording
    python -m tests.golden towers     # only towers' variants
    python -m tests.regenerate        # these and every other recorded vector (after a protocol change)

``tests/test_golden.py`` fails when a registered game or variant has no recording, or when a
replay from the recorded seed differs from it. A game whose modes the variant's default table
does not reach (more seats, an option) lists further cases in :data:`MODES`, recorded as
``<game>-<variant>-<mode>``.
"""

from __future__ import annotations

import hashlib
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fairtable.games import registry, values
from fairtable.games.contract import Event, Request
from fairtable.protocol import codec
from fairtable.protocol.hashing import digest
from fairtable.protocol.session.table import TableSession, game_seed
from fairtable.protocol.testing import SelfPlay, derive
from fairtable.protocol.transcript_file import dump

DIRECTORY = Path(__file__).resolve().parent.parent / "spec" / "vectors" / "games"
BOTS = "greedy"
"""Every seat plays the game's greedy bot (shorter games than random play)."""
VERSION = 2
"""The recordings are of protocol version 2 tables, kept byte for byte: they pin the rules and the
session; version 3 adds only the deck's proofs, which the session tests play in every game."""
OPTIONS = {"shengji": {"deals": 1}}
"""Options other than the defaults, for games whose default is a long match: one deal of it."""


MODES: dict[str, tuple[tuple[str, str, int, dict], ...]] = {
    "zeeslag": (("duel", "salvo", 3, {"shots": 3}), ("duel", "teams", 4, {"shots": 3, "teams": 2}), ("space", "salvo", 3, {"money": 200})),
}
"""Per game: ``(variant, mode, seats, options)`` of each further recording."""


@dataclass(frozen=True)
class Case:
    """One recording: a variant's default table (its fewest seats, :data:`OPTIONS`), or a mode."""

    game: str
    variant: str
    seats: int
    options: dict = field(default_factory=dict, hash=False)
    mode: str = ""

    @property
    def name(self) -> str:
        return f"{self.game}-{self.variant}" + (f"-{self.mode}" if self.mode else "")


def cases() -> list[Case]:
    found = []
    for game in registry.ids():
        rules = registry.get(game)
        found += [Case(game, variant, rules.seat_range(variant)[0], OPTIONS.get(game, {})) for variant in rules.variants]
        found += [Case(game, variant, seats, options, mode) for variant, mode, seats, options in MODES.get(game, ())]
    return found


def _typed(thing: Request | Event, key: str) -> dict:
    return {key: type(thing).__name__, **values.to_value(thing)}


def view_digest(view: Any) -> str:
    return digest("golden/view", codec.encode(view)).hex()[:16]


def record(case: Case) -> tuple[dict, bytes]:
    """The recording and the transcript of the seeded game of ``case``."""
    game_id, variant, seats = case.game, case.variant, case.seats
    game = registry.get(game_id)
    seed = "/".join(("golden", game_id, variant, *((case.mode,) if case.mode else ()))).encode()
    table = SelfPlay.create(game_id, variant, case.options, seats, seed, [BOTS] * seats, version=VERSION)
    seeds = {(g, seat): game_seed(derive(seed, "secret", seat), g) for g in range(64) for seat in range(seats)}
    verifier = TableSession(table.genesis, seeds=seeds)
    steps = []
    while not table.finished:
        before = verifier.state
        envelope = table.step()
        events = verifier.receive(envelope)
        views = [view_digest(session.view()) for session in table.sessions] + [view_digest(table.sessions[0].view(None))]
        for event in events:
            steps.append({"envelope": envelope.seq, "seat": envelope.seat, "kind": envelope.kind,
                          "request": _typed(game.pending(before), "type"), "event": _typed(event, "type"), "views": views})
            before = game.apply(before, event)
    transcript = dump(table.transcript_file())
    result = table.sessions[0].result
    assert result is not None
    recording = {
        "bots": [BOTS] * seats,
        "deals": [deal.to_value() for deal in table.sessions[0].deal_results],
        "envelopes": len(table.sessions[0].envelopes),
        "game": game_id,
        "options": case.options,
        "result": result.to_value(),
        "seats": seats,
        "seed": seed.decode(),
        "steps": steps,
        "table": table.genesis.table_id.hex(),
        "transcript": f"{case.name}.ftt",
        "transcript_sha256": hashlib.sha256(transcript).hexdigest(),
        "variant": variant,
    }
    return json.loads(json.dumps(recording)), transcript


def write(case: Case, directory: Path = DIRECTORY) -> Path:
    recording, transcript = record(case)
    directory.mkdir(parents=True, exist_ok=True)
    (directory / recording["transcript"]).write_bytes(transcript)
    path = directory / f"{case.name}.json"
    path.write_text(dumps(recording))
    return path


def dumps(recording: dict) -> str:
    """Stable JSON, one step a line, so a drift reads as a small diff."""
    head = {key: value for key, value in recording.items() if key != "steps"}
    lines = [json.dumps(step, sort_keys=True, separators=(",", ":")) for step in recording["steps"]]
    body = json.dumps(head, sort_keys=True, indent=1)[:-2]
    return body + ',\n "steps": [\n' + ",\n".join(lines) + "\n ]\n}\n"


def main(argv: list[str]) -> int:
    wanted = set(argv)
    for case in cases():
        if not wanted or case.game in wanted:
            path = write(case)
            print(f"{path}  {len(json.loads(path.read_text())['steps'])} steps")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

