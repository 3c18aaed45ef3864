"""What a spectator may see of a finished table: the reference its every update is checked against."""

from __future__ import annotations

from typing import Any

from fairtable.node.api.jsonvalues import jsonable
from fairtable.protocol.session import TableSession, reveals_of
from fairtable.protocol.transcript_file import load


def public_views(transcript: bytes) -> list[Any]:
    """The spectator's view (``Game.view(state, None)``) after each prefix of the chain, from the
    verifier's state (every seed revealed, so every face known), as the client API sends it."""
    file = load(transcript)
    reveals = reveals_of(file)
    session = TableSession(file.transcript.genesis, seeds=reveals.all_seeds(file.seeds), compositions=reveals.compositions)
    views = [jsonable(session.view())]
    for envelope in file.transcript.envelopes:
        session.accept_linked(envelope)
        views.append(jsonable(session.view()))
    return views


def in_order(seen: list[Any], views: list[Any]) -> bool:
    """Whether every view seen is one of ``views``, in their order (updates coalesce, never go back)."""
    position = 0
    for view in seen:
        while position < len(views) and views[position] != view:
            position += 1
        if position == len(views):
            return False
    return True
