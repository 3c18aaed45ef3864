"""A transcript told as a story, step by step: what ``fairtable export`` writes and the replay viewer shows.

The verdict is the verifier's own (:func:`~protocol.session.verify.verify`). The steps come
from the verifier's table session (every revealed seed fed in) stepping through the file's
chain: after each envelope that is a move, a commitment, an opening, a choice, a stopper or
the place of a finding, a step holds what a spectator sees then and, from the same state,
what each seat saw (every hand and board, as far as the revealed seeds open them). Each move
is written in the game's own notation (``describe_move`` in the game's render module, see
``spec/games.md``), so no rule is written twice: rules, knowledge and words all come from the
game. The verifier resolves forks with the file's evidence; the steps follow the chain as the
file holds it, and each finding is shown at the step of its envelope index.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from fairtable.games import Chosen, DealStarted, Event, Faces, Forfeit, Game, Move, Revealed, describe, player, seated
from fairtable.node.api.jsonvalues import jsonable
from fairtable.protocol import Envelope, ProtocolError, TranscriptFile
from fairtable.protocol.session import (
    ABSENT,
    DISPUTE,
    HIDDEN,
    MOVE,
    OPEN,
    RESIGN,
    REVEAL,
    Rejected,
    Report,
    TableSession,
    Violation,
    revealed_seeds,
    reveals_of,
    verify,
)
from fairtable.protocol.session import load_for_verification as load

FORMAT = "fairtable-export"
VERSION = 1
"""The version of the readable record (``spec/export.md``); it changes only when its lines do."""
STEP_KINDS = frozenset({MOVE, HIDDEN, OPEN, REVEAL, RESIGN, ABSENT, DISPUTE})
"""Envelope kinds a person sees as something happening; the rest (commitments, shuffle stages,
keys, random reveals, seeds) are the machinery, shown only where a finding or the end falls."""
FINDING = "finding"
"""The kind of a step past the replayed chain: a refused envelope, or one owed and missing."""
LEFT_OUT = frozenset({"start", "end", OPEN, FINDING})
"""Steps the record's move list leaves out: the header and result say how it starts and ends, an
opening's content is in the words of the move it answers (``B7: hit``), and a finding has its own line."""


@dataclass
class Step:
    """The table after envelope ``index`` (-1: before any). ``number`` counts moves from 1."""

    index: int
    seat: int | None
    kind: str
    text: str
    spectator: dict
    views: tuple[dict, ...]
    number: int | None = None
    violations: list[int] = field(default_factory=list)
    """Positions in the report's ``violations`` of the findings at this step."""

    def to_value(self, views: bool) -> dict:
        value: dict[str, Any] = {"index": self.index, "kind": self.kind, "number": self.number, "seat": self.seat,
                                 "text": self.text, "violations": list(self.violations)}
        if views:
            value["spectator"] = self.spectator
            value["views"] = list(self.views)
        return value


@dataclass(frozen=True)
class Replay:
    """A verified transcript and its steps."""

    file: TranscriptFile
    report: Report
    steps: tuple[Step, ...]
    options: dict
    names: tuple[str, ...]

    @property
    def seeds_revealed(self) -> bool:
        """Whether every seat's seed of the first game is in the file, so hidden cards and boards open."""
        return all((0, seat) in revealed_seeds(self.file) for seat in range(len(self.names)))

    def to_value(self, views: bool = False) -> dict:
        """The record as a JSON-ready value (``--json`` of ``fairtable export``; with ``views``, the viewer's)."""
        report = self.report
        genesis = self.file.transcript.genesis
        return jsonable({
            "damage": report.damage,
            "date": None,
            "envelopes": report.envelopes,
            "format": FORMAT,
            "game": report.game,
            "options": self.options,
            "owed": [owed.to_value() for owed in report.owed],
            "result": None if report.result is None else report.result.to_value(),
            "result_text": describe(report.result, self.names),
            "seats": [{"fingerprint": fingerprint, "name": name, "seat": seat}
                      for seat, (name, fingerprint) in enumerate(zip(self.names, report.seats))],
            "seeds_revealed": self.seeds_revealed,
            "status": report.status,
            "steps": [step.to_value(views) for step in self.steps],
            "table": genesis.table_id.hex(),
            "valid": report.valid,
            "variant": report.variant,
            "version": VERSION,
            "violations": [violation.to_value() for violation in report.violations],
        })


def replay_chunks(chunks: Iterable[bytes]) -> Replay:
    """Read, verify and step through a transcript; :class:`~protocol.errors.ProtocolError` for
    bytes that are no readable transcript (or name a table this node cannot set up)."""
    return replay(*load(chunks))


def replay(file: TranscriptFile, broken: ProtocolError | None = None) -> Replay:
    report = verify(file, broken)
    genesis = file.transcript.genesis
    names = tuple(seat.name for seat in genesis.genesis.seats)
    reveals = reveals_of(file)
    session = TableSession(genesis, seeds=reveals.all_seeds(file.seeds), compositions=reveals.compositions)
    options = dict(session.game.options_of(session.state))
    story = Story(session, names, {violation.index for violation in report.violations})
    with seated(names):  # the game's own words name the players too
        for envelope in file.transcript.envelopes:
            if not story.add(envelope):
                break
        steps = story.close()
    for position, violation in enumerate(report.violations):
        _step_at(steps, violation).violations.append(position)
    return Replay(file, report, tuple(steps), options, names)


def describe_move(game: Game, before: dict, move: Any, after: dict) -> str:
    """``move`` in the game's notation: its renderer's ``describe_move(before, move, after)`` (the
    mover's view before, the spectator's once the move's consequences are known), else its
    ``move_line``, else the move as JSON. ``move`` is as a client sends it (arrays as lists)."""
    renderer = game.renderer
    describer = getattr(renderer, "describe_move", None)
    if describer is not None:
        return str(describer(before, move, after))
    if renderer is not None:
        return renderer.move_line(before, move)
    return json.dumps(jsonable(move), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


class Story:
    """Collects the steps while the session replays; a move's words wait for the next move (or the
    end), when what it led to (a hit, a sunk ship) is known."""

    def __init__(self, session: TableSession, names: tuple[str, ...], marked: set[int], views: bool = True) -> None:
        self.session = session
        self.game = session.game
        self.names = names
        self.marked = marked
        self.views = views
        """Whether each step keeps what the spectator and every seat saw (the viewer's), or only its words."""
        self.steps = [self._step(-1, None, "start", "the table is set")]
        self.waiting: list[tuple[Step, dict, Any]] = []
        self.moves = 0
        self.stopped = False
        """Whether the session refused an envelope: the findings then say how the chain ends."""

    def add(self, envelope: Envelope) -> bool:
        """Replay one envelope; False once the session refuses it (the findings say why)."""
        before = self.session.state
        try:
            events = self.session.accept_linked(envelope)
        except Rejected:
            self.stopped = True
            return False
        index, seat, kind = envelope.seq, envelope.seat, envelope.kind
        moves = [event for event in events if isinstance(event, Move)]
        if moves:
            self._settle(self.game.view(before, None))
        texts = [text for event in events for text in self._event_texts(before, event)]
        if kind in STEP_KINDS or texts or index in self.marked:
            said = self._kind_text(envelope) if kind in STEP_KINDS or not texts else ""
            step = self._step(index, seat, kind, "; ".join(filter(None, [said, *texts])))
            if moves and kind == MOVE:
                self.moves += 1
                step.number = self.moves
                self.waiting.append((step, self.game.view(_knowing(before, moves[0].faces), seat), jsonable(moves[0].move)))
            self.steps.append(step)
        return True

    def close(self) -> list[Step]:
        """The steps, the last one saying how the transcript ends (unless a refused envelope ended it)."""
        self._settle(self.game.view(self.session.state, None))
        if self.stopped:
            return self.steps
        count = len(self.session.envelopes)
        end = "game over: " + describe(self.session.result, self.names) if self.session.finished else "the transcript ends here"
        if self.steps[-1].index == count - 1 and self.steps[-1].kind not in (MOVE, "start"):
            self.steps[-1].text = f"{self.steps[-1].text}; {end}" if self.steps[-1].text else end
        else:
            last = self.session.envelopes[-1] if self.session.envelopes else None
            self.steps.append(self._step(count - 1, None if last is None else last.seat, "end", end))
        return self.steps

    def told(self) -> list[Step]:
        """The steps so far, without ending the story: a move still waiting for what it led to is
        told as far as the table knows it now (a live table's history; the next move may add to it)."""
        after = self.game.view(self.session.state, None)
        said = {id(step): self._words(step, before, move, after) for step, before, move in self.waiting}
        return [dataclasses.replace(step, text=said[id(step)]) if id(step) in said else step for step in self.steps]

    def _settle(self, after: dict) -> None:
        for step, before, move in self.waiting:
            step.text = self._words(step, before, move, after)
        self.waiting = []

    def _words(self, step: Step, before: dict, move: Any, after: dict) -> str:
        words = f"{self._who(step.seat)}: {describe_move(self.game, before, move, after)}"
        return f"{words}; {step.text}" if step.text else words

    def _step(self, index: int, seat: int | None, kind: str, text: str) -> Step:
        if not self.views:
            return Step(index, seat, kind, text, {}, ())
        state = self.session.state
        views = tuple(self.game.view(state, s) for s in range(self.session.seat_count))
        return Step(index, seat, kind, text, self.game.view(state, None), views)

    def _who(self, seat: int | None) -> str:
        return "the table" if seat is None else player(seat, None, self.names)

    def _kind_text(self, envelope: Envelope) -> str:
        who, body = self._who(envelope.seat), envelope.body
        if envelope.kind == HIDDEN:
            return f"{who} commits its hidden data"
        if envelope.kind == OPEN:
            cells = body.get("cells", ()) if isinstance(body, dict) else ()
            return f"{who} opens {len(cells)} hidden cell{'s' if len(cells) != 1 else ''}"
        if envelope.kind == REVEAL:
            return f"{who} reveals its choice"
        if envelope.kind == RESIGN:
            return f"{who} resigns"
        if envelope.kind == ABSENT and isinstance(body, dict):
            absent = body.get("seat")
            return f"{who} declares {player(absent, None, self.names) if isinstance(absent, int) else absent} absent"
        if envelope.kind == DISPUTE and isinstance(body, dict):
            return f"{who} disputes envelope {body.get('index')} ({body.get('rule')})"
        return "" if envelope.kind == MOVE else f"{who} sends {envelope.kind!r}"

    def _event_texts(self, before: Any, event: Event) -> list[str]:
        """Words for what an envelope caused besides its own kind: forfeits, a new deal, the
        simultaneous choices once revealed (each in the game's notation), and what cards turned
        over decided (the renderer's ``describe_reveal(before, after)``, spectator views)."""
        if isinstance(event, Forfeit):
            return [f"{self._who(event.seat)} forfeits ({event.reason})"]
        if isinstance(event, Revealed):
            words = getattr(self.game.renderer, "describe_reveal", None)
            said = None if words is None else words(self.game.view(before, None), self.game.view(self.session.state, None))
            return [] if said is None else [str(said)]
        if isinstance(event, DealStarted):
            return [f"deal {len(self.session.deal_results) + 1} begins"]
        if isinstance(event, Chosen):
            seats = getattr(self.game.pending(before), "seats", ())
            after = self.game.view(self.session.state, None)
            return [f"{self._who(seat)}: {describe_move(self.game, self.game.view(before, seat), jsonable(choice), after)}"
                    for seat, choice in zip(seats, event.choices) if choice is not None]
        return []


def _knowing(state: Any, faces: Faces) -> Any:
    """``state`` also knowing the ``faces`` a move showed (the contract's ``faces`` of a game
    state): a node's own story names the card another seat played, as the verifier's does."""
    known = getattr(state, "faces", None)
    if not faces or known is None or not dataclasses.is_dataclass(state) or isinstance(state, type):
        return state
    return dataclasses.replace(state, faces={**known, **faces})


def _step_at(steps: list[Step], violation: Violation) -> Step:
    """The step of the finding's envelope; a finding past the replayed chain (a refused envelope,
    a missing message) gets a step of its own at the end."""
    for step in steps:
        if step.index == violation.index:
            return step
    if violation.index > steps[-1].index:
        text = f"envelope {violation.index} does not continue the game"
        step = Step(violation.index, violation.seat, FINDING, text, steps[-1].spectator, steps[-1].views)
        steps.append(step)
        return step
    return next(step for step in reversed(steps) if step.index <= violation.index)
