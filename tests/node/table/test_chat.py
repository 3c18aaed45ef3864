"""Chat and rematch between in-process nodes over loopback TCP: lines signed and carried on the
table's links, kept beside the journal and never in the transcript; bad lines dropped; a rematch
offered and accepted with one call each."""

import pytest
import trio
import trio.testing

from fairtable.node.peer.channel import accept_channel, open_channel
from fairtable.node.service import ServiceError
from fairtable.node.table.chat import MAX_LINES, ChatRefused, TableChat
from fairtable.node.table.link import CHAT_BURST, Link, hello
from fairtable.protocol import ChatError, ChatLine, SecretKey
from fairtable.protocol.session.verify import verify
from fairtable.protocol.transcript_file import load
from tests.node.nodes import eventually, running
from tests.node.table.tables import KEYS, live_table, play, signed_genesis

CHAT_BURST_LINES = int(CHAT_BURST)


def said(node, table: str) -> list[tuple[str, str]]:
    return [(line["name"], line["text"]) for line in node.mesh.find(table).update().chat]


async def started(host, guest, game: str = "towers"):
    listing = await host.host(game, "normal", {}, 2)
    await guest.join(host.address, listing.lobby_id)
    update = await host.start(listing.lobby_id)
    await eventually(lambda: guest.mesh.find(update.table) is not None)
    return update.table


async def over(host, guest, table: str) -> None:
    """Both resign (whoever's turn it is goes first), and both hold the finished table."""
    await host.resign(table)
    await guest.resign(table)
    await eventually(lambda: host.settled() and guest.settled())


async def test_a_line_said_at_one_seat_reaches_the_other_and_never_the_transcript(tmp_path):
    async with running(tmp_path, 2, bot=None) as (host, guest):
        table = await started(host, guest)
        await host.chat(table, "good luck, bob")
        await guest.chat(table, "same to you")
        both = [("node-0", "good luck, bob"), ("node-1", "same to you")]
        await eventually(lambda: said(host, table) == both and sorted(said(guest, table)) == sorted(both))
        await over(host, guest, table)
        transcript = await host.transcript(table)
        assert b"good luck" not in transcript and verify(load(transcript)).valid
        assert transcript == await guest.transcript(table)


async def test_a_line_said_after_the_table_settled_still_reaches_the_lower_seat(tmp_path):
    async with running(tmp_path, 2, bot=None) as (host, guest):
        table = await started(host, guest)
        await over(host, guest, table)
        await guest.chat(table, "gg")  # the higher seat dials the lower one for it
        await eventually(lambda: said(host, table) == [("node-1", "gg")])


async def test_the_chat_survives_a_restart_of_the_node(tmp_path):
    async with running(tmp_path, 2, bot=None) as (host, guest):
        table = await started(host, guest)
        await host.chat(table, "hello")
        await eventually(lambda: said(guest, table) == [("node-0", "hello")])
    async with running(tmp_path, 2, bot=None) as (host, guest):  # the same data directories: the same keys
        await eventually(lambda: host.mesh.find(table) is not None)
        assert said(host, table) == [("node-0", "hello")]
        assert said(guest, table) == [("node-0", "hello")]
        await host.chat(table, "again")  # the counter goes on from the file: not a duplicate of line 0
        assert [line.n for line in host.mesh.find(table).chat.lines] == [0, 1]


async def test_bad_lines_are_refused_with_their_reason_and_change_nothing(tmp_path):
    async with running(tmp_path, 2, bot=None) as (host, guest):
        table = await started(host, guest)
        for text, reason in (("", "empty"), ("x" * 301, "at most 300"), ("two\nlines", "control")):
            with pytest.raises(ServiceError, match=reason):
                await host.chat(table, text)
        with pytest.raises(ServiceError, match="no started table"):
            await host.chat("nosuchtable", "hi")
        live = host.mesh.find(table)
        chat = live.chat
        stranger = SecretKey.generate()
        with pytest.raises(ChatRefused, match="signature"):
            chat.take(ChatLine.sign(stranger, live.table_id, 1, 0, "forged"))
        with pytest.raises(ChatRefused, match="another table"):
            chat.take(ChatLine.sign(guest.key, bytes(32), 1, 0, "elsewhere"))
        with pytest.raises(ChatRefused, match="seat 5"):
            chat.take(ChatLine.sign(guest.key, live.table_id, 5, 0, "nobody"))
        assert chat.lines == [] and not (live.files.dir / "chat").exists()


async def test_a_replayed_line_is_dropped_and_a_flood_of_own_lines_is_refused(tmp_path):
    async with running(tmp_path, 2, bot=None) as (host, guest):
        table = await started(host, guest)
        await guest.chat(table, "once")
        await eventually(lambda: said(host, table) == [("node-1", "once")])
        live = host.mesh.find(table)
        assert live.chat.take(live.chat.lines[0]) is False  # a replay: held already
        with pytest.raises(ServiceError, match="at most 1 lines a second"):
            for index in range(10):
                await host.chat(table, f"spam {index}")
        assert len(said(host, table)) < 10


def test_a_table_keeps_at_most_its_lines_per_seat(tmp_path):
    key = SecretKey.generate()
    chat = TableChat(tmp_path, bytes(32), (key.public,), 0, lambda: None)
    for index in range(MAX_LINES):
        chat.say(key, f"line {index}")
    with pytest.raises(ChatRefused, match=f"its {MAX_LINES} lines"):
        chat.say(key, "one more")
    assert len(TableChat(tmp_path, bytes(32), (key.public,), 0, lambda: None).lines) == MAX_LINES


def test_a_chat_line_is_no_envelope_and_reads_back_as_signed():
    key = SecretKey.generate()
    line = ChatLine.sign(key, bytes(32), 0, 3, "hi")
    assert ChatLine.from_value(line.to_value()) == line and line.key == (0, 3)
    with pytest.raises(ChatError, match="array"):
        ChatLine.from_value([line.content])
    assert line.problem(bytes(32), (key.public,)) is None


async def test_a_rematch_is_offered_and_accepted_with_one_call_each_and_starts_alike(tmp_path):
    async with running(tmp_path, 2, bot=None) as (host, guest):
        table = await started(host, guest)
        with pytest.raises(ServiceError, match="once it is over"):
            await guest.rematch(table)
        await over(host, guest, table)
        offered = await guest.rematch(table)  # the guest offers: it hosts the new table
        assert (offered.game, offered.seats, offered.joined) == ("towers", 2, ("node-1",))
        with pytest.raises(ServiceError, match="offered a rematch already"):
            await guest.rematch(table)
        await eventually(lambda: any(line["rematch"] == offered.lobby_id for line in host.mesh.find(table).update().chat))
        await host.rematch(table)
        await eventually(lambda: guest.mesh.find(offered.lobby_id) is not None and host.mesh.find(offered.lobby_id) is not None)
        new = guest.mesh.find(offered.lobby_id).genesis.genesis
        old = guest.mesh.find(table).genesis.genesis
        assert (new.game, new.variant, new.options) == (old.game, old.variant, old.options)
        assert {seat.key for seat in new.seats} == {seat.key for seat in old.seats}
        with pytest.raises(ServiceError, match="accepted the rematch already"):
            await host.rematch(table)


async def test_a_line_reaches_a_seat_through_another_when_the_direct_link_is_down(tmp_path, counting_game):
    genesis = signed_genesis("counting", 3)
    tables = [live_table(tmp_path, genesis, seat) for seat in range(3)]
    tables[0].say("hello, seat 2")
    with trio.fail_after(30):
        await play(tables, [(0, 1), (1, 2)])  # seats 0 and 2 never talk directly
    assert [(line.seat, line.text) for line in tables[2].chat.lines] == [(0, "hello, seat 2")]
    assert tables[2].chat.lines[0].content == tables[0].chat.lines[0].content  # the author's signed bytes, passed on


async def test_a_peers_bad_and_flooding_lines_are_dropped_with_a_log_line_and_the_link_stays(tmp_path, caplog, autojump_clock):
    genesis = signed_genesis("towers", 2)
    table, peer = (live_table(tmp_path, genesis, seat, bot=False) for seat in range(2))
    left, right = trio.testing.memory_stream_pair()
    channels = {}

    async def open_side():
        channels["ours"] = await open_channel(left, KEYS[0], expected=KEYS[1].public)

    async def accept_side():
        channels["rogue"] = await accept_channel(right, KEYS[1])

    async with trio.open_nursery() as nursery:
        nursery.start_soon(open_side)
        nursery.start_soon(accept_side)
    rogue = channels["rogue"]

    def line(n: int, key: SecretKey = KEYS[1], table_id: bytes = genesis.table_id) -> dict:
        return {"t": "chat", "line": ChatLine.sign(key, table_id, 1, n, f"line {n}").to_value()}

    async with trio.open_nursery() as nursery:
        nursery.start_soon(Link(channels["ours"], table, 1, hello(peer), heartbeat=60, who="seat 1").run)
        await rogue.send(line(0, key=SecretKey.generate()))  # forged
        await rogue.send(line(0, table_id=bytes(32)))  # another table's
        await rogue.send({"t": "chat", "line": (b"not a line", b"")})  # malformed
        for n in range(CHAT_BURST_LINES + 5):  # a flood: what is left of the burst (the forged two spent theirs) is kept
            await rogue.send(line(n))
        await rogue.send(line(0))  # a replay
        await trio.sleep(5)  # (mock time) the bucket fills again
        await rogue.send(line(99))
        while not any(held.n == 99 for held in table.chat.lines):  # the link took it: it is still open
            await trio.sleep(0.1)
        nursery.cancel_scope.cancel()
    assert [held.n for held in table.chat.lines] == [*range(CHAT_BURST_LINES - 2), 99]
    logged = caplog.text
    assert "its signature is not seat 1's" in logged and "it belongs to another table" in logged
    assert "a chat line is [bin content, bin signature of 64 bytes]" in logged
    assert logged.count("dropped: more than 2 new lines per second") == 7
