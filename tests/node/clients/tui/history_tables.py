"""A finished table as a stub connection shows it: a golden transcript's history and replay steps,
built by the node's own code (``node.table.history``) from the verifier's replay of the file."""

from __future__ import annotations

import base64
import functools
from pathlib import Path
from typing import Any

from fairtable.node.replay import LEFT_OUT, Replay, replay_chunks
from fairtable.node.table.history import entries, replay_step
from fairtable.node.table.notices import FORCED, Notice
from tests.node.clients.tui.tables import table_at

VECTORS = Path(__file__).parents[4] / "spec" / "vectors" / "games"


@functools.cache
def record(name: str) -> Replay:
    return replay_chunks([(VECTORS / f"{name}.ftt").read_bytes()])


def history_of(name: str, forced: int | None = None) -> list[dict]:
    """The ``history`` entries of the golden table ``name``; ``forced``: the entry at that position
    marked as a move this node played for its seat (the log's ``forced``)."""
    steps = [step for step in record(name).steps if step.kind not in LEFT_OUT]
    notices = [] if forced is None else [Notice(FORCED, steps[forced].seat, steps[forced].index, "Played for you.")]
    return entries(steps, notices)


def finished(name: str = "towers-normal", forced: int | None = None) -> tuple[dict, dict[str, Any]]:
    """The finished table's last update (seat 0's) and the stub's answers: ``transcript``,
    ``history`` and ``replay_step`` (for whichever ``index`` is asked)."""
    replayed = record(name)
    game, variant = replayed.report.game, replayed.report.variant
    last = replayed.steps[-1]
    update = {**table_at(game, variant, len(replayed.names), 3), "seats": list(replayed.names), "phase": "finished",
              "table": replayed.file.transcript.genesis.table_id.hex(), "view": last.views[0], "your_turn": False,
              "legal_moves": [], "move_texts": [], "decision": None, "clocks": None, "clock": None,
              "result": replayed.report.result.to_value() if replayed.report.result else None}
    answers = {
        "transcript": {"transcript": base64.b64encode((VECTORS / f"{name}.ftt").read_bytes()).decode()},
        "history": {"entries": history_of(name, forced), "replay": True, "result": replayed.to_value()["result_text"]},
        "replay_step": lambda table, index: replay_step(replayed, index, 0),
    }
    return update, answers
