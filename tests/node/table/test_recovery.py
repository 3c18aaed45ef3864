"""A node survives what machines do: a full disk, a restart mid-turn, a start that never arrived.

Each failure is injected where it happens (a journal writer that fails, a start message that is
never sent, a node stopped and started on the same data directory); the checks are that no
accepted move is lost, nothing is signed twice, and both sides end on one verified chain.
"""

from __future__ import annotations

import errno
import logging
import os

import pytest
import trio

from fairtable.node.table.journal import JournalError, TableFiles
from fairtable.node.table.live import Outcome, Timing
from fairtable.protocol.session.verify import verify
from fairtable.protocol.transcript_file import load
from tests.node.nodes import eventually, running
from tests.node.table.tables import held, live_table, play, reload, settle, signed_genesis, wire

pytestmark = pytest.mark.usefixtures("counting_game")


class FullDisk:
    """A journal writer that writes ``room`` more bytes, then fails the way a full disk does:
    first a short write, then ``ENOSPC``; ``free()`` makes room again."""

    def __init__(self, room: int) -> None:
        self.room = room

    def __call__(self, fd: int, data: bytes) -> int:
        if self.room <= 0:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        written = os.write(fd, data[: self.room])
        self.room -= written
        return written

    def free(self) -> None:
        self.room = 1 << 30


def on_full_disk(tmp_path, genesis, seat, room: int, **options):
    disk = FullDisk(room)
    files = TableFiles(tmp_path / f"node-{seat}", genesis.table_id, writer=disk)
    return live_table(tmp_path, genesis, seat, files=files, **options), disk


@pytest.mark.parametrize("restart", [False, True], ids=["same process", "restarted"])
async def test_a_full_disk_stalls_the_table_and_nothing_is_signed_twice_or_lost(tmp_path, autojump_clock, restart):
    genesis = signed_genesis("counting", 2)
    table, disk = on_full_disk(tmp_path, genesis, 0, room=1200, bot=False)
    other = live_table(tmp_path, genesis, 1, bot=False)
    settle([table, other])
    while table.stalled is None and not table.finished:
        if table.session.awaiting_decision():
            try:
                table.play(1)
            except JournalError:
                assert table.stalled  # the move could not be kept, so it was not sent
        elif other.session.awaiting_decision():
            other.play(1)
        settle([table, other])
    assert table.stalled and "No space left" in table.stalled
    assert not table.update().your_turn
    journaled = table.files.load_journal()[0].placed
    assert [e.hash for e in journaled] == [e.hash for e in table.envelopes]  # memory holds what the disk holds
    assert all(e.hash != other_e.hash for e in table.envelopes[len(other.envelopes):] for other_e in other.envelopes)
    disk.free()
    if restart:
        table = reload(table)
    else:
        with trio.move_on_after(5):
            await table.keep_time()
    assert table.stalled is None
    while not table.finished:
        settle([table, other])
        for seat_table in (table, other):
            if seat_table.session.awaiting_decision():
                seat_table.play(1)
                settle([table, other])
    assert table.envelopes == other.envelopes
    assert not table.violations() and not other.violations()
    assert verify(load(table.transcript_bytes())).valid


async def test_a_node_restarted_mid_turn_keeps_its_deadline(tmp_path, autojump_clock):
    genesis = signed_genesis("counting", 2, {"turn_seconds": 10})
    tables = [live_table(tmp_path, genesis, seat, bot=False) for seat in range(2)]
    settle(tables)
    assert tables[0].deadline() == pytest.approx(10)
    await trio.sleep(7)
    restarted = reload(tables[0])
    assert restarted.deadline() == pytest.approx(3)
    assert tables[1].replica.claim_time() == pytest.approx(restarted.replica.slot.since + 10 + 30)


async def test_when_the_due_seat_and_another_claimant_are_gone_the_claim_waits_for_it(tmp_path, autojump_clock):
    """A seat cut off alone can never declare the others absent: its claim takes the slot only once
    every other present seat has claimed too (session.md §10)."""
    genesis = signed_genesis("counting", 3, {"turn_seconds": 5})
    tables = [live_table(tmp_path, genesis, seat, bot=False) for seat in range(3)]
    settle(tables)
    with trio.move_on_after(300):
        await wire(tables, cut=frozenset({0, 1}))
    assert not tables[2].finished and all(e.kind == "commit" for e in tables[2].envelopes)
    assert [(e.seat, e.body) for e in tables[2].replica.off_chain()] == [(2, {"seat": 0})]  # its claim waits
    await wire(tables, cut=frozenset({0}))  # seat 1 is back: it claims too, and the game ends without seat 0
    claims = [e for e in tables[2].envelopes if e.kind == "absent"]
    assert [(c.seat, c.body["seat"]) for c in claims] == [(1, 0)]  # the lower claimant's claim holds the slot
    assert tables[1].envelopes == tables[2].envelopes and tables[2].finished
    report = verify(load(tables[2].transcript_bytes()))
    assert report.valid and [(a.seat, a.claimants) for a in report.absences] == [(0, (1, 2))]


async def _started_without_announcement(host, guest, monkeypatch):
    async def crash_before_announcing(table, guests):
        return None

    monkeypatch.setattr(host.lobby_host, "_announce", crash_before_announcing)
    listing = await host.host("counting", "normal", {}, 2)
    await guest.join(host.address, listing.lobby_id)
    await host.start(listing.lobby_id)
    return listing


async def test_a_guest_that_never_heard_the_start_gets_the_table_from_the_hosts_first_link(tmp_path, monkeypatch):
    async with running(tmp_path, 2) as (host, guest):
        await _started_without_announcement(host, guest, monkeypatch)
        await eventually(lambda: guest.tables and host.settled() and guest.settled())
        (table_id,) = host.tables
        assert host.tables[table_id].envelopes == guest.tables[table_id].envelopes
        assert verify(load(guest.tables[table_id].transcript_bytes())).valid


async def test_a_host_that_crashed_after_journaling_the_start_starts_it_everywhere_after_restart(tmp_path, monkeypatch):
    async with running(tmp_path, 1, bot="random") as (guest,):
        async with trio.open_nursery() as nursery:
            from fairtable.node.node import Node, NodeConfig
            from tests.node.nodes import FAST

            config = NodeConfig(data=tmp_path / "host", name="host", bot="random", **FAST)
            async with trio.open_nursery() as doomed:
                host = await doomed.start(Node(config).run)
                monkeypatch.setattr(host.mesh, "_dial", _never)  # the host dies before it reaches anyone
                await _started_without_announcement(host, guest, monkeypatch)
                doomed.cancel_scope.cancel()
            assert not guest.tables and host.tables
            monkeypatch.undo()
            restarted = await nursery.start(Node(NodeConfig(data=tmp_path / "host", name="host", bot="random",
                                                            port=int(host.address.rsplit(":", 1)[1]), **FAST)).run)
            await eventually(lambda: guest.tables and restarted.settled() and guest.settled())
            (table_id,) = restarted.tables
            assert restarted.tables[table_id].envelopes == guest.tables[table_id].envelopes
            nursery.cancel_scope.cancel()


async def _never(*args, **kwargs):
    await trio.sleep_forever()


async def test_a_finished_table_keeps_redialling_a_peer_that_is_away_until_both_hold_one_chain(tmp_path, caplog, monkeypatch):
    """The guest signs its envelope for a slot but never gets it out, then is away past every
    deadline; the host declares it absent and finishes. When the guest is back (after more redials
    than a finished table used to make), its own envelope for the claimed slot takes it back
    (session.md §10): the host, whose seed was revealed on top of the claim, stops the game, and
    both end on one chain whose report shows the timing fork and names nobody.

    The guest's links send nothing until it is back, so it certainly holds an envelope the host
    lacks when it goes: otherwise whether there is a claim to refute would depend on where in its
    turn the guest happened to be stopped."""
    from fairtable.node.node import Node, NodeConfig
    from fairtable.node.table.link import Link
    from fairtable.node.table.live import Timing
    from tests.node.nodes import FAST

    caplog.set_level(logging.DEBUG, logger="fairtable.node")
    guest_seat = 1
    back_again = trio.Event()
    send_loop = Link._send_loop

    async def mute_the_guest(link: Link) -> None:
        if link.table.seat == guest_seat and not back_again.is_set():
            await trio.sleep_forever()
        await send_loop(link)

    monkeypatch.setattr(Link, "_send_loop", mute_the_guest)

    def config(name: str, port: int = 0) -> NodeConfig:
        return NodeConfig(data=tmp_path / name, name=name, bot="random", port=port, timing=Timing(grace=0.3), **FAST)

    async with trio.open_nursery() as nursery:
        host = await nursery.start(Node(config("host")).run)
        async with trio.open_nursery() as away:
            guest = await away.start(Node(config("guest")).run)
            listing = await host.host("counting", "normal", {"turn_seconds": 1}, 2)
            await guest.join(host.address, listing.lobby_id)
            await host.start(listing.lobby_id)
            await eventually(lambda: guest.tables)
            (unsent,) = guest.tables.values()
            assert unsent.seat == guest_seat
            await eventually(lambda: any(e.seat == guest_seat for e in unsent.envelopes))
            away.cancel_scope.cancel()  # the guest goes away holding an envelope the host never got
        (table,) = host.tables.values()
        await eventually(lambda: table.finished)  # the guest is declared absent; the table ends without it
        assert guest_seat not in {e.seat for e in table.envelopes}  # nothing of the guest ever arrived
        with trio.fail_after(30):
            while sum("not reachable" in r.getMessage() for r in caplog.records) < 8:  # more than the old 5 redials
                await trio.sleep(0.05)
        back_again.set()
        back = await nursery.start(Node(config("guest", int(guest.address.rsplit(":", 1)[1]))).run)
        await eventually(lambda: host.settled() and back.settled())
        assert back.tables[table.table_id].envelopes == table.envelopes
        files = [node.tables[table.table_id].files.dir / "transcript.ftt" for node in (host, back)]
        assert files[0].read_bytes() == files[1].read_bytes()  # the evidence each held alone is shared
        assert [e.kind for e in table.envelopes].count("dispute") == 1
        report = verify(load(table.transcript_bytes()))
        assert report.violations == ()
        assert [(f.seat, f.claimants, f.held_by, f.exposed) for f in report.timing] == [(1, (0,), "seat", (0,))]
        nursery.cancel_scope.cancel()


@pytest.mark.parametrize("stalled_seat", [0, 1])
async def test_a_node_whose_disk_fills_mid_game_resumes_by_itself_and_judges_nobody_for_it(tmp_path, autojump_clock, caplog,
                                                                                            stalled_seat):
    """Two bot nodes over a link; one's disk fills mid-game and has room again 2.5 s later. It says
    so to its client, moves again by itself, is not declared absent and declares nobody absent,
    and no traceback reaches the log for a condition the node handles."""
    caplog.set_level(logging.DEBUG, logger="fairtable.node")
    genesis = signed_genesis("counting", 2, {"turn_seconds": 5})
    timing = Timing(grace=10)
    tables = [live_table(tmp_path, genesis, seat, timing=timing) for seat in range(2)]
    tables[stalled_seat], disk = on_full_disk(tmp_path, genesis, stalled_seat, room=900, timing=timing)
    stalled = tables[stalled_seat]
    shown = []

    async def free_the_disk_later() -> None:
        while stalled.stalled is None:
            await stalled.wait_change(stalled.version)
        shown.append(stalled.update())
        await trio.sleep(2.5)
        disk.free()

    async with trio.open_nursery() as nursery:
        nursery.start_soon(free_the_disk_later)
        with trio.fail_after(300):
            await play(tables, [(0, 1)])
    assert shown and shown[0].stalled.startswith("disk full: waiting") and not shown[0].your_turn
    assert tables[0].envelopes == tables[1].envelopes and tables[0].finished
    assert not [e for table in tables for e in held(table) if e.kind == "absent"]
    assert not [r.getMessage() for r in caplog.records if r.exc_info]
    assert verify(load(stalled.transcript_bytes())).valid


async def test_a_node_back_from_a_stall_hears_what_it_missed_before_it_judges(tmp_path, autojump_clock):
    """Seat 1 moves in time, but seat 0's disk is full and cannot keep it; when seat 0 writes
    again, seat 1's deadline plus grace is long past. Seat 0 waits a grace for the envelope to be
    sent again instead of declaring seat 1 absent at once."""
    genesis = signed_genesis("counting", 3, {"turn_seconds": 5})
    timing = Timing(grace=10)
    judge, disk = on_full_disk(tmp_path, genesis, 0, room=1 << 30, bot=False, timing=timing)
    tables = [judge, *(live_table(tmp_path, genesis, seat, bot=False, timing=timing) for seat in (1, 2))]
    settle(tables)
    judge.play(1)
    settle(tables)
    tables[1].play(2)
    move = tables[1].envelopes[-1]
    disk.room = 0
    async with trio.open_nursery() as nursery:
        nursery.start_soon(judge.keep_time)
        assert judge.offer(move).outcome is Outcome.HELD and judge.stalled
        await trio.sleep(20)  # past seat 1's deadline plus grace
        disk.free()
        while judge.stalled is not None:
            await judge.wait_change(judge.version)
        await trio.sleep(1)
        assert not [e for e in held(judge) if e.kind == "absent"]
        assert judge.offer(move).outcome is Outcome.ACCEPTED  # the peer sends it again
        nursery.cancel_scope.cancel()
    assert not [e for e in held(judge) if e.kind == "absent"]
