"""Whether a node can be dialled: its relays dial it back (AutoNAT v1), and one rule over their answers.

py-libp2p's AutoNAT client changes its verdict only once four servers agree, which a node with
one or two relays never sees. The rule here (``spec/node.md``, "Reachability") takes every
configured relay that answered: **public** when at least one dialled the node back and none
could not; **private** when any answered that it could not (the dial failed, or it refused
because no address the node named is where the relay sees it come from: the node is behind a
NAT); **unknown** when none answered. A "no" wins because a wrong "public" costs guests a
timeout on every direct address, a wrong "private" costs nothing (the node holds its relay
slots either way), and the known false "yes" is one relay on the node's own network.

A relay that lies can only change this verdict, which orders what the node announces and
what it says; it never changes which key a dialler expects, so it never reaches another seat.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass

import trio

PUBLIC = "public"
PRIVATE = "private"
UNKNOWN = "unknown"

OK = 0
DIAL_ERROR = 100
DIAL_REFUSED = 101
"""AutoNAT v1 response statuses that are a relay's word on the node; any other (a bad request, an
internal error) or no answer at all is none."""

RECHECK_SECONDS = 600.0
"""How often a node asks again when nothing changed: a home router's address rarely changes sooner."""
UNKNOWN_RECHECK_SECONDS = 30.0
"""How often it asks again while no relay has answered (the relays may be away at the start)."""
LOOK_SECONDS = 5.0
"""How often it compares its own direct addresses with those last checked (local, no traffic)."""


def verdict(answers: Iterable[int | None]) -> str:
    """The node's reachability from each configured relay's answer (a status, or None for no answer)."""
    said = [answer for answer in answers if answer in (OK, DIAL_ERROR, DIAL_REFUSED)]
    if any(answer != OK for answer in said):
        return PRIVATE
    return PUBLIC if said else UNKNOWN


@dataclass(frozen=True)
class Reachability:
    """What a node learnt: its :func:`verdict`, the direct addresses a relay reached, the relays it holds."""

    status: str
    reached: tuple[str, ...] = ()
    relays: tuple[str, ...] = ()

    def line(self) -> str:
        """One line for the log and the user."""
        through = f"reached through relay {', '.join(self.relays)}" if self.relays else "no relay reservation held yet"
        if self.status == PUBLIC:
            return f"reachable directly at {', '.join(self.reached)} (relays kept as spares)"
        if self.status == PRIVATE:
            return f"behind a NAT: {through}"
        return f"reachability unknown (no relay answered a dial-back): {through}"


async def watch(check: Callable[[Sequence[str]], Awaitable[Reachability]], addresses: Callable[[], list[str]],
                known: Reachability, changed: Callable[[Reachability], None]) -> None:
    """Ask again (``check``) every :data:`RECHECK_SECONDS`, every :data:`UNKNOWN_RECHECK_SECONDS` while the
    status is unknown, and at the next look once the direct ``addresses`` differ from those last checked;
    ``changed`` gets each new :class:`Reachability` whose status or reached addresses differ. Runs until cancelled."""
    checked, since = addresses(), trio.current_time()
    while True:
        await trio.sleep(LOOK_SECONDS)
        now, current = trio.current_time(), addresses()
        wait = UNKNOWN_RECHECK_SECONDS if known.status == UNKNOWN else RECHECK_SECONDS
        if current == checked and now - since < wait:
            continue
        learnt = await check(current)
        checked, since = current, trio.current_time()
        if (learnt.status, learnt.reached) != (known.status, known.reached):
            changed(learnt)
        known = learnt
