"""``--join INVITE``: a host that cannot be reached yet is asked again; a refusal asking again cannot
change (no such table, full, another version, another key) stops the node with one clear line."""

from __future__ import annotations

import subprocess
import sys

import pytest
import trio

from fairtable.node.cli import control
from fairtable.node.lobby.exchange import OTHER_KEY, JoinRefused
from fairtable.node.lobby.invite import Invite, write_invite
from fairtable.node.service import ServiceError, TableUpdate
from tests.node.nodes import running
from tests.paths import ROOT

INVITE = Invite("192.0.2.7:7400", "b71c0e", "Z5NG-N48B-8BB8-8ZSX-KJS2-VP24")


class Answers:
    """A service whose ``join`` fails as told, then succeeds."""

    def __init__(self, *failures: Exception, seated: tuple[str, ...] = ()) -> None:
        self.failures = list(failures)
        self.seated = seated
        self.calls = 0

    async def my_tables(self) -> tuple[TableUpdate, ...]:
        return tuple(TableUpdate(lobby_id, "ab" * 32, "towers", "normal", 1, (), "playing") for lobby_id in self.seated)

    async def join(self, peer: str, lobby_id: str, fingerprint: str | None = None) -> None:
        self.calls += 1
        if self.failures:
            raise self.failures.pop(0)


async def test_unreachable_hosts_and_a_stale_seat_are_asked_again_until_the_join_holds(autojump_clock, capsys):
    service = Answers(ServiceError("cannot reach 192.0.2.7:7400: refused"), ServiceError("joining at 192.0.2.7:7400 failed: closed"),
                      JoinRefused("seated", "192.0.2.7:7400 refused: you already sit at table b71c0e"))
    await control.join_invite(service, INVITE)  # type: ignore[arg-type]
    assert service.calls == 4 and "joined table b71c0e" in capsys.readouterr().out


async def test_a_node_started_again_with_the_same_join_and_already_seated_asks_nobody():
    service = Answers(JoinRefused("started", "table b71c0e has already started"), seated=("b71c0e",))
    await control.join_invite(service, INVITE)  # type: ignore[arg-type]
    assert service.calls == 0


@pytest.mark.parametrize("refusal", sorted(control.FINAL_REFUSALS))
async def test_a_refusal_asking_again_cannot_change_ends_the_join_at_once(autojump_clock, refusal):
    service = Answers(ServiceError("cannot reach 192.0.2.7:7400: refused"), JoinRefused(refusal, f"refused: {refusal}"))
    with pytest.raises(JoinRefused, match=f"refused: {refusal}"):
        await control.join_invite(service, INVITE)  # type: ignore[arg-type]
    assert service.calls == 2


async def test_a_host_refusing_the_join_tells_its_code_and_another_key_is_a_refusal_too(tmp_path):
    async with running(tmp_path, 3) as (host, guest, stranger):
        lobby = await host.host("towers", "normal", {}, 2)
        with pytest.raises(JoinRefused) as unknown:
            await guest.join(host.address, "deadbeef", host.key.public.fingerprint)
        with pytest.raises(JoinRefused) as other:
            await guest.join(host.address, lobby.lobby_id, stranger.key.public.fingerprint)
        await stranger.join(host.address, lobby.lobby_id)
        with pytest.raises(JoinRefused) as full:
            await guest.join(host.address, lobby.lobby_id, host.key.public.fingerprint)
    assert (unknown.value.refusal, other.value.refusal, full.value.refusal) == ("unknown", OTHER_KEY, "full")


async def test_node_join_with_an_invite_to_a_table_nobody_offers_stops_with_one_line(tmp_path):
    async with running(tmp_path, 1) as (host,):
        invite = write_invite("deadbeef", host.key.public, host.address)
        argv = [sys.executable, "-m", "fairtable.node.cli", "node", "--data", str(tmp_path / "guest"), "--port", "0",
                "--discovery", "off", "--join", invite, "--until-done"]
        done = await trio.to_thread.run_sync(lambda: subprocess.run(argv, capture_output=True, text=True, cwd=ROOT,
                                                                    stdin=subprocess.DEVNULL, timeout=60))
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines()[-1] == (f"fairtable node: --join: {host.address} refused: "
                                                    "no table 'deadbeef' is offered here")
