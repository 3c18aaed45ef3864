"""The request table: every kind of request a game may make, the event that answers it, and
the :class:`~fairtable.games.rules.Rules` handler that event goes to.

It is the one place a request kind is declared. The rules base routes events by it
(:meth:`Rules.apply <fairtable.games.rules.Rules.apply>`), the local referee fulfils each kind
with plain randomness (``games.referee``), and the table session fulfils each kind with
cryptography (``protocol.session.rounds``); both of those check at import that they cover every
row, so a kind added here and forgotten there fails at once, naming the kind.

Adding a request kind: its request and event dataclasses in ``games.contract``, a row here, a
``Rules.on_*`` handler that refuses by default, a fulfilment in the referee and in the session
flow (each names the message kinds it uses), and its prose in ``spec/session.md``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from fairtable.games.contract import (
    Chosen,
    CommitHidden,
    Committed,
    Deal,
    DealStarted,
    Dealt,
    Decide,
    Move,
    NextDeal,
    Opened,
    OpenHidden,
    OpenSums,
    PrivateDraw,
    PrivateDrawn,
    PublicRandom,
    RandomValue,
    Reveal,
    Revealed,
    Show,
    Shown,
    Shuffle,
    Shuffled,
    ShuffleOwned,
    Simultaneous,
    Summed,
)


@dataclass(frozen=True)
class RequestKind:
    """One row of the request table: ``request`` is answered by ``event``, which the rules base
    hands to its method named ``handler`` as ``handler(state, request, event)``."""

    request: type
    event: type
    handler: str


REQUESTS: tuple[RequestKind, ...] = (
    RequestKind(Decide, Move, "on_move"),
    RequestKind(Shuffle, Shuffled, "on_shuffled"),
    RequestKind(ShuffleOwned, Shuffled, "on_owned_shuffled"),
    RequestKind(Deal, Dealt, "on_dealt"),
    RequestKind(Show, Shown, "on_shown"),
    RequestKind(Reveal, Revealed, "on_revealed"),
    RequestKind(PublicRandom, RandomValue, "on_random"),
    RequestKind(PrivateDraw, PrivateDrawn, "on_drawn"),
    RequestKind(CommitHidden, Committed, "on_committed"),
    RequestKind(OpenHidden, Opened, "on_opened"),
    RequestKind(OpenSums, Summed, "on_summed"),
    RequestKind(Simultaneous, Chosen, "on_chosen"),
    RequestKind(NextDeal, DealStarted, "on_deal_started"),
)
"""Every request kind, in the order ``spec/session.md`` describes them."""

_BY_REQUEST: Mapping[type, RequestKind] = {row.request: row for row in REQUESTS}


def kind_of(request: object) -> RequestKind | None:
    """The table's row for ``request`` (an instance), or None when it is no request a game may make."""
    return _BY_REQUEST.get(type(request))


def answers(event: object, request: object) -> str | None:
    """The name of the handler ``event`` goes to while ``request`` is pending, or None when the
    event does not answer that request (the rules base then refuses it as out of sequence)."""
    row = kind_of(request)
    return row.handler if row is not None and type(event) is row.event else None


def missing(covered: Iterable[type]) -> tuple[str, ...]:
    """The names of the request kinds a fulfiller (the referee, the session flow) does not cover:
    each checks itself with this at import, so a new row cannot be forgotten quietly."""
    have = set(covered)
    return tuple(row.request.__name__ for row in REQUESTS if row.request not in have)


def check_covers(fulfiller: str, covered: Iterable[type]) -> None:
    """Raise at import when ``fulfiller`` cannot fulfil every request kind of :data:`REQUESTS`."""
    lacking = missing(covered)
    if lacking:
        raise TypeError(f"{fulfiller} cannot fulfil these request kinds of games.requests.REQUESTS: {', '.join(lacking)}")
