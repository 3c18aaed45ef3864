"""Crashes, suspends and partitions at chosen moments, between real node processes.

Each test breaks a two-node towers game at one moment (around the genesis and the start,
mid-game) in one way (kill -9, SIGSTOP, a cut cable), lets it heal, and requires what a player
needs: both nodes end on one identical chain that verifies, and nobody lost the table.

Tables of three and four (shengji, zeeslag salvos, duel free-for-all) are broken the same ways,
for one seat or two, early, mid-game, in the seed round and at the last envelope
(``process_tables.py`` judges them). The normal suite runs a few of them; the whole matrix runs
with ``FAIRTABLE_FAULT_MATRIX=1``, each scenario ``FAIRTABLE_FAULT_REPEAT`` times.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

import pytest
import trio

from tests.node.cables import Cable
from tests.node.nodes import free_port, listening_address, node_process
from tests.node.process_tables import FREE_FOR_ALL, SALVOS, SHENGJI, Game, ProcessTable, moments, problems, reverted
from tests.node.test_processes import PLAY, assert_same_valid_transcripts, finish, journal_length


def wait_for(condition, seconds: float = 60) -> None:
    """Poll until ``condition()`` holds (a guard against hanging, not a timing assertion)."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("the condition never held")
        time.sleep(0.002)


def table_files(data: Path, name: str) -> list[Path]:
    return list((data / "tables").glob(f"*/{name}"))


@pytest.mark.parametrize("victim, moment", [
    ("host", "journal"),   # the host journaled the table and died before anyone heard the start
    ("guest", "secret"),   # the guest was about to sign (or had signed) and died before the start reached it
])
def test_a_node_killed_around_the_start_still_gets_the_table_started_everywhere(tmp_path, victim, moment):
    ports = {"host": free_port(), "guest": free_port()}
    bots = {"host": "random", "guest": "greedy"}
    host = node_process(tmp_path / "host", "host", "--port", str(ports["host"]), "--bot", "random", "--host-table", "towers", *PLAY)
    address = listening_address(host)
    guest = node_process(tmp_path / "guest", "guest", "--port", str(ports["guest"]), "--bot", "greedy", "--join", address, *PLAY)
    processes = {"host": host, "guest": guest}
    try:
        wait_for(lambda: table_files(tmp_path / victim, moment))
        processes[victim].send_signal(signal.SIGKILL)
        processes[victim].communicate()
        # a guest that died before its signature reached the host finds the table not started and
        # joins again; one whose signature made it gets the table from the host's first link
        again = ("--join", address) if victim == "guest" else ()
        processes[victim] = node_process(tmp_path / victim, victim, "--port", str(ports[victim]), "--bot", bots[victim], *again, *PLAY)
        finish(*processes.values())
    finally:
        for process in processes.values():
            process.kill()
    assert_same_valid_transcripts(tmp_path / "host", tmp_path / "guest")


def test_a_node_suspended_mid_game_resumes_on_the_same_chain(tmp_path):
    host = node_process(tmp_path / "host", "host", "--bot", "random", "--host-table", "towers", *PLAY)
    address = listening_address(host)
    guest = node_process(tmp_path / "guest", "guest", "--bot", "greedy", "--join", address, *PLAY)
    try:
        wait_for(lambda: journal_length(tmp_path / "guest") >= 20)
        os.kill(guest.pid, signal.SIGSTOP)
        time.sleep(3)  # longer than three heartbeats: the host closes the link and redials
        os.kill(guest.pid, signal.SIGCONT)
        finish(host, guest)
    finally:
        host.kill(), guest.kill()
    assert_same_valid_transcripts(tmp_path / "host", tmp_path / "guest")


async def test_a_partition_mid_game_heals_into_one_chain(tmp_path):
    guest_port = free_port()
    cable = Cable(guest_port)
    async with trio.open_nursery() as nursery:
        proxy_port = await nursery.start(cable.serve)
        host = node_process(tmp_path / "host", "host", "--bot", "random", "--host-table", "towers", *PLAY)
        address = listening_address(host)
        guest = node_process(tmp_path / "guest", "guest", "--port", str(guest_port), "--advertise", f"127.0.0.1:{proxy_port}",
                             "--bot", "greedy", "--join", address, *PLAY)
        try:
            with trio.fail_after(60):
                while journal_length(tmp_path / "guest") < 20:
                    await trio.sleep(0.002)
            cable.cut()
            await trio.sleep(2)
            cable.mend()
            await trio.to_thread.run_sync(partial(finish, host, guest))
        finally:
            host.kill(), guest.kill()
        nursery.cancel_scope.cancel()
    assert cable.connections >= 2
    assert_same_valid_transcripts(tmp_path / "host", tmp_path / "guest")


# ------------------------------------------------------------------ three and four seats

FAULT_SECONDS = 7.0
"""How long a seat stays down, frozen or cut off: past a timed decision's deadline plus the grace
(``process_tables.TIMERS``, ``GRACE``), not past an untimed one's."""
FAULTS = ("kill-one", "kill-two", "stop-one", "cut-one", "cut-two")
GAMES = (SHENGJI, SALVOS, FREE_FOR_ALL)
MOMENTS = ("early", "middle", "seeds", "last")


def victims(fault: str, game: Game) -> tuple[int, ...]:
    """One seat: the last; two seats: the lowest and the one after it (the claimant order matters)."""
    return (game.seats - 1,) if fault.endswith("-one") else (0, 1)


Action = Callable[[ProcessTable, tuple[int, ...]], object]
ACTIONS: dict[str, tuple[Action, Action]] = {
    "kill": (lambda table, seats: [table.kill(s) for s in seats], lambda table, seats: [table.restart(s) for s in seats]),
    "stop": (lambda table, seats: [table.stop(s) for s in seats], lambda table, seats: [table.cont(s) for s in seats]),
    "cut": (lambda table, seats: table.partition(*seats), lambda table, seats: table.heal()),
}
"""How each kind of fault breaks the victims' seats, and how it ends."""


async def run_with_fault(root: Path, game: Game, fault: str, moment: str) -> ProcessTable:
    """Play ``game`` among node processes, break it by ``fault`` at ``moment``, heal, and let it end."""
    async with trio.open_nursery() as nursery:
        table = ProcessTable(root, game, nursery)
        try:
            await table.start()
            await table.until(moments(game)[moment])
            seats = victims(fault, game)
            breaks, mends = ACTIONS[fault.split("-")[0]]
            breaks(table, seats)
            await trio.sleep(FAULT_SECONDS)
            mends(table, seats)
            await table.finish()
        finally:
            for seat in table.seats:
                seat.process.kill()
        nursery.cancel_scope.cancel()
    return table


MATRIX = [(game, fault, moment) for game in GAMES for fault in FAULTS for moment in MOMENTS]
EVERY_RUN = [
    (SALVOS, "cut-one", "middle"),
    (SHENGJI, "stop-one", "middle"),
    (SHENGJI, "cut-two", "seeds"),
    (FREE_FOR_ALL, "kill-one", "middle"),
    (FREE_FOR_ALL, "cut-two", "last"),
]
"""What the normal suite runs; ``FAIRTABLE_FAULT_MATRIX=1`` runs every game, fault and moment
(``FAIRTABLE_FAULT_REPEAT=N`` each N times)."""
SCENARIOS = MATRIX if os.environ.get("FAIRTABLE_FAULT_MATRIX") else EVERY_RUN
REPEAT = int(os.environ.get("FAIRTABLE_FAULT_REPEAT", "1"))


@pytest.mark.parametrize("game, fault, moment", SCENARIOS, ids=[f"{g.name}-{f}-{m}" for g, f, m in SCENARIOS])
@pytest.mark.parametrize("round_", range(REPEAT), ids=lambda n: f"run{n}")
async def test_a_table_of_three_or_four_ends_on_one_valid_chain_after_a_fault(tmp_path, game, fault, moment, round_):
    table = await run_with_fault(tmp_path, game, fault, moment)
    found = problems(table)
    assert not found, f"after {fault} of {victims(fault, game)} at {moment} ({[reverted(d) for d in table.datas]} envelopes " \
                      "reverted per seat):\n" + "\n".join(found)
