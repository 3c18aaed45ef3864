"""Journal batches (``spec/node.md``, Journal): envelopes that arrive together are written with one
fsync, with what the seat answers at once, and nothing of any of them leaves the node before it."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest
import trio
import trio.testing

from fairtable.node.peer.channel import Channel, accept_channel, open_channel
from fairtable.node.peer.messages import message
from fairtable.node.table.journal import TableFiles
from fairtable.node.table.link import MAX_BATCH, Link, hello
from fairtable.node.table.live import LiveTable, Outcome
from fairtable.protocol import Envelope
from tests.node.table.tables import KEYS, live_table, reload, settle, signed_genesis

pytestmark = pytest.mark.usefixtures("counting_game")


class Disk:
    """A journal writer that keeps each write's bytes, or refuses them as a full disk does."""

    def __init__(self) -> None:
        self.writes: list[bytes] = []
        self.full = False

    def __call__(self, fd: int, data: bytes) -> int:
        if self.full:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        self.writes.append(data)
        return os.write(fd, data)


def burst_for_a_bot(tmp_path, disk: Disk) -> tuple[list[LiveTable], LiveTable, list]:
    """Three seats of counting: seats 0 and 1 move while seat 2's bot hears nothing, so both moves
    reach it together (a sync after a reconnect, or a peer's batch sent in one write)."""
    genesis = signed_genesis("counting", 3)
    people = [live_table(tmp_path, genesis, seat, bot=False) for seat in (0, 1)]
    bot = live_table(tmp_path, genesis, 2, files=TableFiles(tmp_path / "node-2", genesis.table_id, writer=disk))
    settle([*people, bot])
    people[0].play(1)
    settle(people)
    people[1].play(2)
    settle(people)
    burst = list(people[1].envelopes[len(bot.envelopes):])
    assert [(e.seat, e.kind) for e in burst] == [(0, "move"), (1, "move")]
    return people, bot, burst


async def test_envelopes_that_arrive_together_are_one_journal_batch_with_the_bots_answer(tmp_path):
    disk = Disk()
    _, bot, burst = burst_for_a_bot(tmp_path, disk)
    before, version = len(disk.writes), bot.version
    assert [o.outcome for o in bot.offer_all(burst)] == [Outcome.ACCEPTED, Outcome.ACCEPTED]
    reply = bot.envelopes[-1]
    assert list(bot.envelopes[-3:-1]) == burst and reply.seat == 2 and reply.kind == "move"
    assert len(disk.writes) == before + 1  # one write, one fsync
    assert all(e.content in disk.writes[-1] for e in (*burst, reply))
    assert bot.version > version
    assert reload(bot).envelopes == bot.envelopes


async def test_what_the_bot_plays_on_an_envelope_inside_a_batch_waits_for_the_batch(tmp_path):
    """The bot answers the first envelope of a batch at once; its answer is written with the rest, in one batch."""
    genesis = signed_genesis("counting", 2)
    disk = Disk()
    person = live_table(tmp_path, genesis, 0, bot=False)
    bot = live_table(tmp_path, genesis, 1, files=TableFiles(tmp_path / "node-1", genesis.table_id, writer=disk))
    settle([person, bot])
    person.play(1)
    move = person.envelopes[-1]
    ahead = Envelope.seal(KEYS[0], genesis.table_id, move.seq + 3, bytes(32), 0, move.kind, move.body)
    before = len(disk.writes)
    assert [o.outcome for o in bot.offer_all([move, ahead])] == [Outcome.ACCEPTED, Outcome.HELD]
    reply = bot.envelopes[-1]
    assert reply.seat == 1 and bot.envelopes[-2] == move
    assert len(disk.writes) == before + 1 and all(e.content in disk.writes[-1] for e in (move, reply, ahead))
    restarted = reload(bot)
    assert restarted.envelopes == bot.envelopes and ahead in restarted.replica.off_chain()


async def test_an_envelope_held_and_placed_in_one_batch_is_written_once(tmp_path):
    """The replica holds what it receives before it places it; the journal writes the envelope once."""
    disk = Disk()
    _, bot, burst = burst_for_a_bot(tmp_path, disk)
    bot.offer_all(burst)
    reply = bot.envelopes[-1]
    assert [disk.writes[-1].count(e.content) for e in (*burst, reply)] == [1, 1, 1]
    assert not bot.files.load_journal()[0].kept and not reload(bot).replica.off_chain()


async def _channels() -> tuple[Channel, Channel]:
    """The bot's end (seat 2) and its peer's (seat 1) of one channel over memory streams."""
    left, right = trio.testing.memory_stream_pair()
    ends: dict[str, Channel] = {}

    async def bot_side() -> None:
        ends["bot"] = await accept_channel(right, KEYS[2])

    async def peer_side() -> None:
        ends["peer"] = await open_channel(left, KEYS[1], expected=KEYS[2].public)

    async with trio.open_nursery() as nursery:
        nursery.start_soon(bot_side)
        nursery.start_soon(peer_side)
    return ends["bot"], ends["peer"]


async def _envelopes_heard(peer: Channel, seconds: float) -> list[int]:
    """The sequence numbers of the envelopes the bot's node sends its peer within ``seconds``."""
    heard = []
    with trio.move_on_after(seconds):
        while True:
            value = await peer.receive()
            if value["t"] == "env":
                heard.append(Envelope.from_value(value["env"]).seq)
    return heard


async def test_a_burst_on_a_link_is_one_fsync_and_nothing_of_it_leaves_before_the_fsync(tmp_path, autojump_clock):
    """The disk refuses the burst's batch (as a crash before its fsync would leave it): the peer hears
    nothing of it, the table holds what the journal holds, the chain before it, and once the disk
    takes the burst again the answer goes out."""
    disk = Disk()
    people, bot, burst = burst_for_a_bot(tmp_path, disk)
    held = len(bot.envelopes)
    bot_end, peer = await _channels()
    sent = [message("env", env=e.to_value()) for e in burst]
    async with trio.open_nursery() as nursery:
        nursery.start_soon(Link(bot_end, bot, 1, hello(people[1]), heartbeat=100, who="seat 1").run)
        nursery.start_soon(bot.keep_time)
        disk.full = True
        await peer.send_all(sent)
        assert await _envelopes_heard(peer, 1) == []
        assert len(bot.files.load_journal()[0].placed) == len(bot.envelopes) == held  # what a restart finds
        disk.full = False
        before = len(disk.writes)
        await peer.send_all(sent)  # the peer's link sends what the bot's sync says it lacks
        assert await _envelopes_heard(peer, 1) == [held + 2]
        assert len(disk.writes) == before + 1 and all(e.content in disk.writes[-1] for e in burst)
        nursery.cancel_scope.cancel()
    assert reload(bot).envelopes == bot.envelopes


def test_the_spec_states_how_many_messages_one_batch_takes():
    spec = (Path(__file__).parents[3] / "spec" / "node.md").read_text()
    assert f"up to {MAX_BATCH} envelopes in one write" in spec and f"already read from the stream (up to {MAX_BATCH})" in spec
