"""Learning faces from an event, the one check every card game makes on what it is told."""

from __future__ import annotations

from collections.abc import Container

from fairtable.games.contract import Face, Faces, Handle, RuleError


def learn(known: Faces, faces: Faces, allowed: Container[Handle], catalogue: int, rule: str) -> dict[Handle, Face]:
    """``known`` plus ``faces``, which must name only ``allowed`` handles and card ids below
    ``catalogue``, and agree with what is known already; else :class:`RuleError` ``rule``."""
    learnt = dict(known)
    for handle, face in faces.items():
        if handle not in allowed:
            raise RuleError(rule, f"handle {handle} is not part of this event")
        if type(face) is not int or not 0 <= face < catalogue:
            raise RuleError(rule, f"{face!r} is not a card id")
        if learnt.get(handle, face) != face:
            raise RuleError(rule, f"handle {handle} is known to be card {learnt[handle]}, not {face}")
        learnt[handle] = face
    return learnt
