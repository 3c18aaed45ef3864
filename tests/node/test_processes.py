"""Whole node processes over loopback TCP: a full game, kill -9 and restart, a dropped connection."""

import json
import subprocess
import sys
import time
from functools import partial
from pathlib import Path

import pytest
import trio

from fairtable.node.clients.apiclient import ApiError, connect
from fairtable.node.table.journal import JournalError, peek
from fairtable.protocol.session.verify import verify_chunks
from fairtable.protocol.transcript_file import TranscriptReader
from tests.node.nodes import free_port, listening_address, node_process
from tests.node.spectating import in_order, public_views
from tests.paths import EXAMPLES

PLAY = ("--bot-delay", "0.02", "--until-done")


def transcript(data: Path) -> bytes:
    (found,) = (data / "tables").glob("*/transcript.ftt")
    return found.read_bytes()


def journal_length(data: Path) -> int:
    """Envelopes on the chain of a live node's journal (read only; a torn last record is simply not counted)."""
    for path in (data / "tables").glob("*/journal"):
        try:
            placed = peek(path).placed
        except JournalError:
            return 0
        return placed[-1].seq + 1 if placed else 0
    return 0


def finish(*processes: subprocess.Popen) -> None:
    for process in processes:
        process.communicate(timeout=90)
        assert process.returncode == 0


def assert_same_valid_transcripts(*datas: Path) -> bytes:
    files = [transcript(data) for data in datas]
    assert all(file == files[0] for file in files)
    report = verify_chunks([files[0]])
    assert report.valid and report.result is not None
    return files[0]


def test_the_demo_plays_a_full_game_between_two_node_processes(tmp_path):
    completed = subprocess.run([sys.executable, "-m", "fairtable.node.cli", "demo", "--out", str(tmp_path)],
                               capture_output=True, text=True, timeout=120)
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert "identical     yes" in completed.stdout and "VALID / VALID" in completed.stdout
    assert (tmp_path / "host.ftt").read_bytes() == (tmp_path / "guest-1.ftt").read_bytes()
    assert verify_chunks([(tmp_path / "host.ftt").read_bytes()]).valid


@pytest.mark.parametrize("victim", ["host", "guest"])
def test_a_node_killed_mid_game_restarts_from_its_journal_and_the_game_completes(tmp_path, victim):
    ports = {"host": free_port(), "guest": free_port()}
    bots = {"host": "random", "guest": "greedy"}
    host = node_process(tmp_path / "host", "host", "--port", str(ports["host"]), "--bot", "random",
                        "--host-table", "towers", *PLAY)
    address = listening_address(host)
    guest = node_process(tmp_path / "guest", "guest", "--port", str(ports["guest"]), "--bot", "greedy", "--join", address, *PLAY)
    processes = {"host": host, "guest": guest}
    try:
        deadline = time.monotonic() + 60
        while journal_length(tmp_path / victim) < 12 and time.monotonic() < deadline:
            time.sleep(0.005)
        processes[victim].kill()
        processes[victim].communicate()
        at_kill = journal_length(tmp_path / victim)
        assert at_kill >= 12
        processes[victim] = node_process(tmp_path / victim, victim, "--port", str(ports[victim]), "--bot", bots[victim], *PLAY)
        finish(*processes.values())
    finally:
        for process in processes.values():
            process.kill()
    file = assert_same_valid_transcripts(tmp_path / "host", tmp_path / "guest")
    reader = TranscriptReader()
    reader.feed(file)
    assert len(reader.transcript) > at_kill  # the game went on after the restart
    assert "reloaded" in (tmp_path / f"{victim}.log").read_text()


async def test_a_dropped_connection_is_redialled_and_the_game_completes(tmp_path):
    guest_port, proxy_port = free_port(), free_port()
    connections = []

    async def pipe(source, sink, budget):
        try:
            while True:
                data = await source.receive_some(4096)
                if not data:
                    break
                await sink.send_all(data)
                budget[0] -= len(data)
                if budget[0] < 0:
                    break
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass
        await trio.aclose_forcefully(source)
        await trio.aclose_forcefully(sink)

    async def relay(client):
        connections.append(client)
        server = await trio.open_tcp_stream("127.0.0.1", guest_port)
        budget = [8000 if len(connections) == 1 else 1 << 40]  # cut during the shuffle, which alone is longer
        async with trio.open_nursery() as nursery:
            nursery.start_soon(pipe, client, server, budget)
            nursery.start_soon(pipe, server, client, budget)

    async with trio.open_nursery() as nursery:
        listeners = await trio.open_tcp_listeners(proxy_port, host="127.0.0.1")
        nursery.start_soon(trio.serve_listeners, relay, listeners)
        host = node_process(tmp_path / "host", "host", "--bot", "random", "--host-table", "towers", *PLAY)
        address = listening_address(host)
        guest = node_process(tmp_path / "guest", "guest", "--port", str(guest_port), "--advertise", f"127.0.0.1:{proxy_port}",
                             "--bot", "greedy", "--join", address, *PLAY)
        try:
            await trio.to_thread.run_sync(partial(finish, host, guest))
        finally:
            host.kill(), guest.kill()
        nursery.cancel_scope.cancel()
    assert len(connections) >= 2
    assert_same_valid_transcripts(tmp_path / "host", tmp_path / "guest")


def test_the_demo_plays_zeeslag_with_committed_fleets(tmp_path):
    completed = subprocess.run([sys.executable, "-m", "fairtable.node.cli", "demo", "--game", "zeeslag", "--out", str(tmp_path)],
                               capture_output=True, text=True, timeout=120)
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert "zeeslag (duel)" in completed.stdout and "VALID / VALID" in completed.stdout
    data = (tmp_path / "host.ftt").read_bytes()
    assert data == (tmp_path / "guest-1.ftt").read_bytes()
    report = verify_chunks([data])
    assert report.valid and report.result.winners
    reader = TranscriptReader()
    reader.feed(data)
    kinds = [envelope.kind for envelope in reader.transcript.envelopes]
    assert kinds.count("hidden") == 2 and "open" in kinds  # fleets committed, shots answered by openings


def test_the_example_bot_plays_through_the_client_api_of_a_real_node(tmp_path):
    host = node_process(tmp_path / "host", "host", "--bot", "greedy", "--host-table", "towers", *PLAY)
    address = listening_address(host)
    api_port = free_port()
    player = node_process(tmp_path / "player", "player", "--api-port", str(api_port), "--until-done")
    try:
        assert " listening on " in player.stdout.readline()
        assert f"ws://127.0.0.1:{api_port}/" in player.stdout.readline()
        table_line = next(line for line in iter(host.stdout.readline, "") if line.startswith("hosting table "))
        lobby = table_line.split()[2].rstrip(":")
        bot = subprocess.run(
            [sys.executable, str(EXAMPLES / "bot_client.py"),
             "--api", f"ws://127.0.0.1:{api_port}/", "--token-file", str(tmp_path / "player" / "api-token"),
             "--join", address, lobby, "--seed", "7"],
            capture_output=True, text=True, timeout=120,
        )
        assert bot.returncode == 0, bot.stdout + bot.stderr
        assert "game over" in bot.stdout.lower()
        finish(host, player)
    finally:
        host.kill(), player.kill()
    assert_same_valid_transcripts(tmp_path / "host", tmp_path / "player")


@pytest.mark.parametrize("variant, seats, options, kinds", [
    ("duel", 3, {"fleet": "ten"}, {"choice", "reveal", "open"}),  # salvos of three
    ("duel", 4, {"fleet": "ten", "teams": 2}, {"choice", "reveal", "open"}),  # two teams of two
    ("shared", 3, {"fleet": "ten"}, {"choice", "reveal", "pair", "shares"}),  # the shared sea's hidden owners
], ids=["salvo-3", "teams-4", "shared-3"])
def test_the_demo_plays_zeeslag_for_three_or_more_over_tcp(tmp_path, variant, seats, options, kinds):
    completed = subprocess.run([sys.executable, "-m", "fairtable.node.cli", "demo", "--game", "zeeslag", "--variant", variant,
                                "--seats", str(seats), "--options", json.dumps(options), "--out", str(tmp_path)],
                               capture_output=True, text=True, timeout=120)
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert f"zeeslag ({variant}), {seats} seats" in completed.stdout and " / ".join(["VALID"] * seats) in completed.stdout
    files = [(tmp_path / name).read_bytes() for name in ("host.ftt", *(f"guest-{n}.ftt" for n in range(1, seats)))]
    assert all(data == files[0] for data in files)
    report = verify_chunks([files[0]])
    assert report.valid and (report.result.winners or report.result.reason == "sunk")  # the last fleets may sink at once: a draw
    if options.get("teams"):
        assert report.result.teams == ((0, 2), (1, 3))
        names = ("host", "guest-1", "guest-2", "guest-3")
        said = " and ".join(names[seat] for seat in report.result.winners)  # a team's win names its players, never its number
        assert not report.result.winners or f"result        {said} won" in completed.stdout
    reader = TranscriptReader()
    reader.feed(files[0])
    assert kinds <= {envelope.kind for envelope in reader.transcript.envelopes}


def test_the_demo_plays_a_shengji_match_between_four_node_processes(tmp_path):
    """Four processes, teams 0+2 and 1+3, two deals with fresh seeds: the kitty dealt to the dealer
    only, the buried cards revealed at the end, every transcript identical and valid."""
    completed = subprocess.run([sys.executable, "-m", "fairtable.node.cli", "demo", "--game", "shengji", "--seats", "4",
                                "--options", '{"deals": 2}', "--out", str(tmp_path)], capture_output=True, text=True, timeout=120)
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert "shengji (standard), 4 seats" in completed.stdout and "VALID / VALID / VALID / VALID" in completed.stdout
    data = (tmp_path / "host.ftt").read_bytes()
    assert all((tmp_path / f"guest-{n}.ftt").read_bytes() == data for n in (1, 2, 3))
    report = verify_chunks([data])
    assert report.valid and len(report.deals) == 2 and report.result.teams == ((0, 2), (1, 3))
    reader = TranscriptReader()
    reader.feed(data)
    kinds = [envelope.kind for envelope in reader.transcript.envelopes]
    assert kinds.count("commit") == 8 and kinds.count("seed") == 8  # fresh seeds for each deal


async def test_a_spectator_node_watches_a_live_four_seat_shengji_table_and_sees_only_the_public_view(tmp_path):
    """Four seat processes play shengji; a fifth node watches through a guest's node (not the host's)
    and every update it gives its client is the public view of some prefix of the chain, in order."""
    host = node_process(tmp_path / "host", "host", "--bot", "random", "--host-table", "shengji", "--seats", "4", "--options", "deals=1",
                        "--bot-delay", "0.05", "--until-done")
    address = listening_address(host)
    watched = node_process(tmp_path / "guest-1", "guest-1", "--bot", "random", "--bot-delay", "0.05", "--join", address)
    guests = [node_process(tmp_path / f"guest-{n}", f"guest-{n}", "--bot", "random", "--join", address, *PLAY) for n in (2, 3)]
    api_port = free_port()
    spectator = node_process(tmp_path / "spectator", "spectator", "--api-port", str(api_port))
    processes = [host, watched, *guests, spectator]
    try:
        watched_address = listening_address(watched)
        assert " listening on " in spectator.stdout.readline()
        table_line = next(line for line in iter(host.stdout.readline, "") if line.startswith("hosting table "))
        lobby = table_line.split()[2].rstrip(":")
        token = (tmp_path / "spectator" / "api-token").read_text().strip()
        updates = []
        with trio.fail_after(120):
            async with connect(f"ws://127.0.0.1:{api_port}/", token) as client:
                await client.request("subscribe")
                while True:  # until the watched guest has the started table
                    try:
                        first = (await client.request("watch", peer=watched_address, table=lobby))["update"]
                        break
                    except ApiError as exc:
                        assert "sits at no started table" in str(exc), exc
                        await trio.sleep(0.1)
                assert first["watching"] and first["seat"] is None and len(first["seats"]) == 4
                async for event in client.events:
                    updates.append(event)
                    if event["phase"] == "finished":
                        break
        await trio.to_thread.run_sync(partial(finish, host, *guests))
    finally:
        for process in processes:
            process.kill()
    assert {event["lobby_id"] for event in updates} == {lobby}
    assert all(event["seat"] is None and event["watching"] and event["legal_moves"] == [] and not event["your_turn"]
               and event["decision"] is None for event in updates)
    views = public_views(transcript(tmp_path / "host"))
    assert len(updates) > 50 and in_order([event["view"] for event in updates], views)
    assert updates[-1]["view"] == views[-1] and updates[-1]["result"] is not None


def test_the_demo_plays_a_drachenherz_match_of_several_games_over_tcp(tmp_path):
    completed = subprocess.run([sys.executable, "-m", "fairtable.node.cli", "demo", "--game", "drachenherz", "--options", '{"match": 2}',
                                "--out", str(tmp_path)], capture_output=True, text=True, timeout=120)
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert "drachenherz (standard)" in completed.stdout and "VALID / VALID" in completed.stdout
    data = (tmp_path / "host.ftt").read_bytes()
    assert data == (tmp_path / "guest-1.ftt").read_bytes()
    report = verify_chunks([data])
    assert report.valid and report.result.reason == "match" and max(report.result.scores) == 2
    games = len(report.deals)
    assert games >= 2 and sum(deal.winners == report.result.winners for deal in report.deals) == 2
    reader = TranscriptReader()
    reader.feed(data)
    kinds = [envelope.kind for envelope in reader.transcript.envelopes]
    # Each game: fresh seeds, and both seats' 50-card piles shuffled by both seats (3 stages each).
    assert kinds.count("commit") == kinds.count("seed") == 2 * games and kinds.count("deck") == 6 * games


@pytest.mark.parametrize("flags, seats", [((), 2), (("--variant", "ffa", "--seats", "4"), 4)])
def test_the_demo_plays_duel_with_secret_decks_over_tcp(tmp_path, flags, seats):
    completed = subprocess.run([sys.executable, "-m", "fairtable.node.cli", "demo", "--game", "duel", *flags, "--out", str(tmp_path)],
                               capture_output=True, text=True, timeout=120)
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert "VALID / " * (seats - 1) + "VALID" in completed.stdout
    names = ["host", *(f"guest-{n}" for n in range(1, seats))]
    data = [(tmp_path / f"{name}.ftt").read_bytes() for name in names]
    assert all(content == data[0] for content in data)
    report = verify_chunks([data[0]])
    assert report.valid and report.result.winners and len(report.result.scores) == 3 * seats
    reader = TranscriptReader()
    reader.feed(data[0])
    kinds = [envelope.kind for envelope in reader.transcript.envelopes]
    assert kinds.count("composition") >= seats  # every secret deck revealed after play and checked


@pytest.mark.parametrize("seats, kinds", [(2, {"move", "open"}), (3, {"choice", "reveal", "open"})], ids=["duel-2", "salvo-3"])
def test_the_demo_plays_the_zeeslag_space_battle_over_tcp(tmp_path, seats, kinds):
    completed = subprocess.run([sys.executable, "-m", "fairtable.node.cli", "demo", "--game", "zeeslag", "--variant", "space",
                                "--seats", str(seats), "--out", str(tmp_path)], capture_output=True, text=True, timeout=120)
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert f"zeeslag (space), {seats} seats" in completed.stdout and " / ".join(["VALID"] * seats) in completed.stdout
    files = [(tmp_path / name).read_bytes() for name in ("host.ftt", *(f"guest-{n}.ftt" for n in range(1, seats)))]
    assert all(data == files[0] for data in files)
    report = verify_chunks([files[0]])
    assert report.valid and (report.result.winners or report.result.reason == "sunk")  # the last fleets may sink at once: a draw
    reader = TranscriptReader()
    reader.feed(files[0])
    sent = [envelope.kind for envelope in reader.transcript.envelopes]
    assert kinds <= set(sent) and sent.count("hidden") >= seats  # fleets bought and committed, answered by openings
