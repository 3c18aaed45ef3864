"""A relay reservation is kept for as long as the node runs: a relay away is tried again after a
doubling wait up to a cap, a held reservation is renewed once a third of its term is left, and
one whose connection ended is made again at the next look (mock clock; the libp2p side is
tests/node/peer/test_p2p.py and the NAT world)."""

import trio

from fairtable.node.peer.errors import ChannelError
from fairtable.node.peer.reservations import Schedule, Term, keep

SCHEDULE = Schedule(every=5.0, cap=60.0)


async def test_a_relay_away_is_tried_again_doubling_to_the_cap_renewed_before_its_term_and_again_once_lost(autojump_clock):
    start = trio.current_time()
    tries: list[float] = []
    held: dict[str, Term] = {}

    async def reserve(relay: str) -> None:
        now = trio.current_time() - start
        tries.append(now)
        if now < 200:  # the relay is away until then
            raise ChannelError("relay away")
        held[relay] = (now, now + 300)

    def term(relay: str) -> Term | None:
        return held.get(relay)

    async def lose_connection_at(seconds: float) -> None:
        await trio.sleep_until(start + seconds)
        held.clear()

    async with trio.open_nursery() as nursery:
        nursery.start_soon(lose_connection_at, 632)
        with trio.move_on_after(700):
            await keep("relay", reserve, term, lambda: trio.current_time() - start, SCHEDULE)
    # away: 5, then waits of 5, 10, 20, 40, 60, 60; held at 200 for 300 s, renewed with 100 s left
    # (at the first look after 400), again at 610; the connection lost at 632 is reserved at the next look
    assert tries == [5, 10, 20, 40, 80, 140, 200, 405, 610, 635]


def test_a_reservation_is_due_when_none_is_held_or_a_third_of_its_term_is_left():
    assert SCHEDULE.due(0, None)
    assert not SCHEDULE.due(1000, (0, 3600)) and SCHEDULE.due(2401, (0, 3600))
    assert SCHEDULE.due(15, (0, 21)), "at least two looks before the end, however short the term"
    assert [SCHEDULE.retry_after(n) for n in range(1, 7)] == [5, 10, 20, 40, 60, 60]
