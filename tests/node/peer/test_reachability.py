"""The rule over the relays' dial-back answers, the line a node says, and when it asks again (mock clock).
The dial-backs themselves: tests/node/peer/test_p2p.py (one machine) and tests/node/test_natworld.py (behind NATs)."""

import pytest
import trio

from fairtable.node.peer.reachability import (
    DIAL_ERROR,
    DIAL_REFUSED,
    LOOK_SECONDS,
    OK,
    PRIVATE,
    PUBLIC,
    RECHECK_SECONDS,
    UNKNOWN,
    UNKNOWN_RECHECK_SECONDS,
    Reachability,
    verdict,
    watch,
)

BAD_REQUEST, INTERNAL_ERROR = 200, 300


@pytest.mark.parametrize("answers, status", [
    ([OK], PUBLIC),
    ([OK, None], PUBLIC),  # a relay away has no word
    ([OK, INTERNAL_ERROR], PUBLIC),  # nor one that failed to answer properly
    ([OK, DIAL_ERROR], PRIVATE),  # one relay on the node's own network reaches it where a guest cannot
    ([DIAL_REFUSED], PRIVATE),  # none of its addresses is where the relay sees it come from: a NAT
    ([DIAL_ERROR, DIAL_ERROR], PRIVATE),
    ([], UNKNOWN),
    ([None, BAD_REQUEST], UNKNOWN),
])
def test_any_relay_that_could_not_dial_back_makes_the_node_private_and_one_that_did_with_none_against_public(answers, status):
    assert verdict(answers) == status


def test_the_line_says_how_the_node_is_reached():
    assert Reachability(PUBLIC, ("/ip4/198.51.100.7/tcp/7401",), ("R",)).line() == \
        "reachable directly at /ip4/198.51.100.7/tcp/7401 (relays kept as spares)"
    assert Reachability(PRIVATE, (), ("R1", "R2")).line() == "behind a NAT: reached through relay R1, R2"
    assert Reachability(UNKNOWN).line() == "reachability unknown (no relay answered a dial-back): no relay reservation held yet"


async def test_a_node_asks_again_periodically_sooner_while_unknown_and_at_once_when_its_addresses_change(autojump_clock):
    start = trio.current_time()
    asked: list[tuple[float, list[str]]] = []
    told: list[tuple[float, str]] = []
    addresses = ["/ip4/10.0.1.2/tcp/7401"]
    answers = iter([PRIVATE, PRIVATE, PUBLIC, PUBLIC])

    async def check(direct):
        asked.append((trio.current_time() - start, list(direct)))
        return Reachability(next(answers))

    async def move_at(seconds: float) -> None:
        await trio.sleep_until(start + seconds)
        addresses[0] = "/ip4/198.51.100.7/tcp/7401"

    async with trio.open_nursery() as nursery:
        nursery.start_soon(move_at, 1002)  # between two looks
        with trio.move_on_after(1700):
            await watch(check, lambda: list(addresses), Reachability(UNKNOWN),
                        lambda learnt: told.append((trio.current_time() - start, learnt.status)))
        nursery.cancel_scope.cancel()
    # looks every 5 s: unknown, asked again at 30; private for 600 s, at 630; moved at 1002, seen at the look at
    # 1005 and asked at once; then 600 s again
    assert (LOOK_SECONDS, UNKNOWN_RECHECK_SECONDS, RECHECK_SECONDS) == (5, 30, 600)
    assert [when for when, _ in asked] == [30, 630, 1005, 1605]
    assert asked[2][1] == ["/ip4/198.51.100.7/tcp/7401"]
    assert told == [(30, PRIVATE), (1005, PUBLIC)], "said only when it changed"
