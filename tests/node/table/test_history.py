"""The table's history (the export's move list, told live over the chain, marked where no hand played) and every seat's clock."""

import re

import pytest
import trio

from fairtable.node.cli.commands.export import text
from fairtable.node.replay import replay_chunks
from fairtable.node.table.history import History
from fairtable.node.table.live import Timing
from tests.node.table.tables import live_table, settle, signed_genesis, wire


def exported_moves(table) -> list[str]:
    """The ``moves:`` lines of ``fairtable export`` for the table's transcript file."""
    lines = text(replay_chunks([(table.files.dir / "transcript.ftt").read_bytes()])).splitlines()
    start = lines.index("moves:") + 1
    return lines[start:lines.index("", start)]


def lines_of(entries) -> list[str]:
    return [f"{entry['n']}. {entry['text']}" if entry["n"] is not None else f"   {entry['text']}" for entry in entries]


async def finished(tmp_path, game, options, variant="normal", human=None):
    genesis = signed_genesis(game, 2, options, variant)
    tables = [live_table(tmp_path, genesis, seat, bot=seat != human, timing=Timing(grace=5.0)) for seat in range(2)]
    await wire(tables)
    return tables


async def test_the_history_of_a_finished_table_is_the_exports_move_list_with_the_timers_moves_marked(tmp_path, autojump_clock):
    tables = await finished(tmp_path, "towers", {"turn_seconds": 5, "max_timeouts": 2}, human=1)
    expected = exported_moves(tables[0])
    for table in tables:
        entries = await table.history_entries()
        assert lines_of(entries) == expected
        marked = [entry for entry in entries if entry["mark"] == "default"]
        assert marked and all(entry["seat"] == 1 and "(timeout)" in entry["text"] for entry in marked)
        assert all(entry["mark"] is None for entry in entries if entry["seat"] == 0)
    assert [entry["n"] for entry in await tables[0].history_entries() if entry["n"] is not None][:3] == [1, 2, 3]


async def test_the_only_legal_moves_a_node_played_are_marked_forced_on_that_node(tmp_path, autojump_clock):
    tables = await finished(tmp_path, "zeeslag", {"turn_seconds": 5, "max_timeouts": 100}, variant="duel", human=1)
    expected = exported_moves(tables[0])
    assert [lines_of(await table.history_entries()) for table in tables] == [expected, expected]
    forced = [entry for entry in await tables[1].history_entries() if entry["mark"] == "forced"]
    assert forced and all(entry["seat"] == 1 and entry["n"] is not None for entry in forced)
    assert not any(entry["mark"] == "forced" for entry in await tables[0].history_entries())  # its bot chose, even the one answer


async def test_the_history_told_as_the_chain_grows_names_every_move_as_the_verifier_does(tmp_path):
    tables = await finished(tmp_path, "duel", {}, variant="1v1")
    expected = exported_moves(tables[1])
    chain = list(tables[1].envelopes)
    history = History(tables[1].replica.fresh_session, tables[1].names)
    for length in range(0, len(chain) + 1, 7):
        told = history.steps(chain[:length])
        settled = lines_of({"n": step.number, "text": step.text} for step in told[:-1])  # the last may learn more
        assert settled == expected[:len(settled)]
    assert lines_of({"n": s.number, "text": s.text} for s in history.steps(chain)) == expected
    shorter = history.steps(chain[:len(chain) // 2])  # a fork cut the chain: told again from the start
    assert lines_of({"n": s.number, "text": s.text} for s in shorter[:-1]) == expected[:len(shorter) - 1]


async def test_a_card_hidden_from_a_seat_stays_hidden_in_its_history_until_the_verifier_names_it(tmp_path):
    genesis = signed_genesis("shengji", 4, {"deals": 1}, "standard")
    tables = [live_table(tmp_path, genesis, seat) for seat in range(4)]
    await wire(tables)
    expected = exported_moves(tables[0])
    assert [lines_of(await table.history_entries()) for table in tables] == [expected] * 4  # finished: the verifier's words
    chain = list(tables[0].envelopes)
    for table in tables:  # while it was played: this seat's knowledge
        told = lines_of({"n": s.number, "text": s.text} for s in History(table.replica.fresh_session, table.names).steps(chain))
        hidden = [line for line, seen in zip(expected, told) if line != seen]
        assert len(told) == len(expected) and all(": bury " in line for line in hidden)
        assert all(re.fullmatch(r"\d+\. seat-\d: bury \?+", seen) for line, seen in zip(expected, told) if line != seen)
        buried_by_me = any(f"seat-{table.seat}: bury" in line for line in expected)
        assert (not hidden) == buried_by_me, (table.seat, hidden)


async def test_the_history_from_an_envelope_on_holds_only_the_entries_from_it(tmp_path, autojump_clock):
    tables = await finished(tmp_path, "towers", {"turn_seconds": 5, "max_timeouts": 2}, human=1)
    entries = await tables[0].history_entries()
    middle = entries[len(entries) // 2]["index"]
    assert await tables[0].history_entries(middle) == [entry for entry in entries if entry["index"] >= middle]
    assert await tables[0].history_entries(10**6) == []


@pytest.mark.usefixtures("counting_game")
async def test_every_seats_clock_is_in_the_table_event_the_due_ones_running_then_its_grace(tmp_path, autojump_clock):
    genesis = signed_genesis("counting", 2, {"turn_seconds": 5})
    due, other = live_table(tmp_path, genesis, 0, bot=False, timing=Timing(grace=7.0)), live_table(tmp_path, genesis, 1, timing=Timing(grace=7.0))
    settle([due, other])
    start = trio.current_time()
    assert other.update().clocks == [{"grace": 7.0, "running": True, "seat": 0, "turn": 5.0},
                                     {"grace": 7.0, "running": False, "seat": 1, "turn": 5.0}]
    await trio.sleep_until(start + 8)  # the due seat's node is silent (its timer does not run here)
    assert other.update().clocks[0] == {"grace": 4.0, "running": True, "seat": 0, "turn": 0.0}
