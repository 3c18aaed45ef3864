"""Moves: their shape, the plays a seat's own knowledge allows, and the timer's default.

A move is ``{"play": [handles]}``: one or more cards of one kind, handles strictly increasing,
plus ``"take": field`` exactly when the play sets off an action that takes one of two fields
(any princess play: ``chest`` or ``fossil``; a hero play that fills the field: ``princess`` or
``troll``) and one of them holds cards: it names a field that holds cards. An empty hand plays
``{"play": []}``. The timer's move adds ``"timeout": true``.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from fairtable.games.contract import GameError, Handle, RuleError
from fairtable.games.drachenherz.board import Board, acts, free
from fairtable.games.drachenherz.catalogue import CARDS, KINDS, Kind, field_name, kind_of
from fairtable.games.drachenherz.state import DrachenherzState
from fairtable.games.rules import unmarked

SHAPE = "a move is {'play': [handles, increasing]}, with 'take': field when the play offers a choice"


@dataclass(frozen=True)
class Parsed:
    """A move value taken apart and shape-checked: the handles laid, the field named, whether the timer played it."""

    play: tuple[Handle, ...]
    take: str | None


def _handle(value: Any) -> bool:
    return type(value) is int


def parse(move: Any) -> Parsed:
    """The parts of a move value (without the timer's marker), or :class:`RuleError` ``drachenherz.move``."""
    if isinstance(move, Mapping) and "play" in move and set(move) <= {"play", "take"}:
        play, take = move["play"], move.get("take")
        if (isinstance(play, (list, tuple)) and all(map(_handle, play)) and list(play) == sorted(set(play))
                and (take is None or isinstance(take, str))):
            return Parsed(tuple(play), take)
    raise RuleError("drachenherz.move", f"{SHAPE}, got {move!r}", "move")


def played(move: Any) -> tuple[Handle, ...]:
    """The handles a move lays (and so shows to everyone); nothing for a malformed move, which
    the rules then refuse."""
    try:
        return parse(unmarked(move)).play
    except RuleError:
        return ()


def takes(board: Board, kind: Kind, count: int) -> tuple[str | None, ...]:
    """The ``take`` values a play of ``count`` cards of ``kind`` may carry: when its action
    takes one of two fields now, each of them that holds cards, else only None.

    Actions are compulsory: naming an empty field while the other holds cards would take
    nothing, so it is no choice; with both empty nothing is taken and nothing is named."""
    if not (kind.choice and acts(board, kind, count)):
        return (None,)
    return tuple(field for field in kind.takes if board[field]) or (None,)


def take_needed(kind: Kind, allowed: tuple[str | None, ...]) -> str:
    """What a play whose ``takes`` are ``allowed`` must say, in words for a refusal."""
    if allowed == (None,):
        return "names no field (nothing to choose, or nothing to take)"
    empty = [field for field in kind.takes if field not in allowed]
    compulsory = f" (the {field_name(empty[0])} hold no cards, and the action is compulsory)" if empty else ""
    return "must take the " + " or the ".join(field_name(field) for field in allowed if field) + compulsory


def value(play: tuple[Handle, ...], take: str | None = None, timeout: bool = False) -> dict:
    """The canonical move value for a play (handles increasing); every move the game lists or the
    timer makes is built here, so equal moves are equal values."""
    move: dict[str, Any] = {"play": list(play)}
    if take is not None:
        move["take"] = take
    if timeout:
        move["timeout"] = True
    return move


def legal(state: DrachenherzState, seat: int) -> tuple[dict, ...]:
    """Every distinct play of the seat's known hand cards: per kind, each multiset of values
    within the free slots (lowest handles first), with each ``take`` it may choose."""
    hand = state.hands[seat]
    if not hand:
        return (value(()),)
    moves: list[dict] = []
    for kind in KINDS.values():
        cards = sorted((CARDS[state.faces[h]].value, h) for h in hand if h in state.faces and kind_of(state.faces[h]) == kind)
        room = free(state.board, kind)
        for count in range(1, min(len(cards), len(cards) if room is None else room) + 1):
            seen: set[tuple[int, ...]] = set()
            for chosen in itertools.combinations(cards, count):
                values = tuple(v for v, _ in chosen)
                if values in seen:
                    continue
                seen.add(values)
                handles = tuple(sorted(h for _, h in chosen))
                moves.extend(value(handles, take) for take in takes(state.board, kind, count))
    return tuple(moves)


def default(state: DrachenherzState, seat: int) -> dict:
    """The timer plays the first card of the hand (the longest held) alone, taking the kind's
    first field that holds cards where the action takes one of two; an empty hand plays nothing."""
    hand = state.hands[seat]
    if not hand:
        return value((), timeout=True)
    if hand[0] not in state.faces:
        raise GameError(f"this state does not know seat {seat}'s hand")
    return value(hand[:1], takes(state.board, kind_of(state.faces[hand[0]]), 1)[0], timeout=True)
