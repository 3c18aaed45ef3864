"""Links between live tables over real channels (in memory): relay when a direct link is down, catch-up."""

import pytest
import trio
import trio.testing

from fairtable.node.peer.channel import accept_channel, open_channel
from fairtable.node.table.link import Link, hello
from fairtable.protocol.session.verify import verify
from fairtable.protocol.transcript_file import load
from tests.node.table.tables import KEYS, live_table, reload, signed_genesis

pytestmark = pytest.mark.usefixtures("counting_game")


async def linked(left_table, right_table, heartbeat: float = 0.5) -> None:
    """Run one link between two tables until both hold the finished table."""
    left, right = trio.testing.memory_stream_pair()
    channels = {}

    async def open_side():
        channels["left"] = await open_channel(left, KEYS[left_table.seat], expected=KEYS[right_table.seat].public)

    async def accept_side():
        channels["right"] = await accept_channel(right, KEYS[right_table.seat])

    async with trio.open_nursery() as nursery:
        nursery.start_soon(open_side)
        nursery.start_soon(accept_side)
    async with trio.open_nursery() as nursery:
        for channel, table, other in ((channels["left"], left_table, right_table), (channels["right"], right_table, left_table)):
            link = Link(channel, table, other.seat, hello(other), heartbeat=heartbeat, who=f"seat {other.seat}")
            nursery.start_soon(link.run)


async def play(tables, pairs) -> None:
    """Run the tables' timers and the given links until every link is complete."""
    async with trio.open_nursery() as timers:
        for table in tables:
            timers.start_soon(table.keep_time)
        async with trio.open_nursery() as links:
            for a, b in pairs:
                links.start_soon(linked, tables[a], tables[b])
        timers.cancel_scope.cancel()


async def test_envelopes_reach_a_seat_through_another_when_the_direct_link_is_down(tmp_path):
    genesis = signed_genesis("counting", 3)
    tables = [live_table(tmp_path, genesis, seat) for seat in range(3)]
    with trio.fail_after(30):
        await play(tables, [(0, 1), (1, 2)])  # seats 0 and 2 never talk directly
    assert tables[0].envelopes == tables[1].envelopes == tables[2].envelopes
    assert {envelope.seat for envelope in tables[2].envelopes} == {0, 1, 2}
    assert verify(load((tables[2].files.dir / "transcript.ftt").read_bytes())).valid


async def test_a_full_mesh_of_three_seats_finishes_with_one_chain(tmp_path):
    genesis = signed_genesis("counting", 3)
    tables = [live_table(tmp_path, genesis, seat) for seat in range(3)]
    with trio.fail_after(30):
        await play(tables, [(0, 1), (0, 2), (1, 2)])
    assert tables[0].envelopes == tables[1].envelopes == tables[2].envelopes and tables[0].finished


async def test_a_restarted_seat_catches_up_over_a_new_link(tmp_path):
    genesis = signed_genesis("towers", 2)
    tables = [live_table(tmp_path, genesis, seat) for seat in range(2)]
    with trio.move_on_after(0.05):
        await play(tables, [(0, 1)])
    restarted = [tables[0], reload(tables[1])]
    with trio.fail_after(30):
        await play(restarted, [(0, 1)])
    assert restarted[0].envelopes == restarted[1].envelopes and restarted[1].finished
