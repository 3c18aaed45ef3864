"""The tournament vector in spec/ is what the code builds, and its parts check out on their own."""

from __future__ import annotations

import json

from fairtable.protocol import codec
from fairtable.protocol.genesis import Genesis
from fairtable.protocol.hashing import digest
from fairtable.protocol.tournament.bundle import Tournament
from tests.protocol.tournament import vector


def test_the_vector_file_is_what_the_code_builds():
    assert vector.PATH.read_text() == vector.render()


def test_the_vector_holds_together():
    data = json.loads(vector.PATH.read_text())
    record = bytes.fromhex(data["record"])
    assert digest("tournament", record).hex() == data["record_id"]
    assert [p["key"] for p in codec.decode(record)["participants"]] == [bytes.fromhex(p["key"]) for p in data["participants"]]
    values = b"".join(bytes.fromhex(p["draw_value"]) for p in data["participants"])
    assert digest("tournament-seed", bytes.fromhex(data["record_id"]) + values).hex() == data["seed"]
    assert Tournament.from_bytes(bytes.fromhex(data["tournament_file"])).seed.hex() == data["seed"]
    assert data["group_order"] == sorted(range(8), key=lambda p: data["group_lots"][p])
    for name in ("by_strength", "tie_in_group_a"):
        for round_ in data[name]["rounds"]:
            for table in round_:
                genesis = Genesis.from_bytes(bytes.fromhex(table["genesis"]))
                assert genesis.table_id.hex() == table["table"]
                assert genesis.tournament is not None and genesis.tournament.tournament.hex() == data["record_id"]
                assert [s.name for s in genesis.seats] == [f"p{p}" for p in table["seats"]]
    assert [r[0]["stage"] for r in data["tie_in_group_a"]["rounds"]][:2] == ["group", "playoff"]


def test_the_byes_scenario_shows_what_spec_tournament_md_says_of_byes():
    """Six qualifiers in a bracket of eight: seeds 7 and 8 are byes, which take no table, no index
    and no number in a label; a player with a bye has still reached that round; a seat named for
    cheating keeps its figures, is out, and the table's note says so."""
    data = json.loads(vector.PATH.read_text())["byes_12"]
    record = bytes.fromhex(data["record"])
    assert digest("tournament", record).hex() == data["record_id"]
    for round_ in data["rounds"]:
        for table in round_:
            assert Genesis.from_bytes(bytes.fromhex(table["genesis"])).table_id.hex() == table["table"]
    labels = [[(table["index"], table["label"]) for table in round_] for round_ in data["rounds"]]
    assert labels[1:] == [[(0, "quarter-final 1"), (1, "quarter-final 2")], [(0, "semi-final 1"), (1, "semi-final 2")], [(0, "final")]]
    first = data["bracket"][0]
    byes = [match for match in first if match[1] is None]
    assert len(byes) == 2 and all(match[2] == match[0] for match in byes)
    standings = {entry["participant"]: entry for entry in data["standings"]}
    bye_holders = [match[0] for match in byes]
    quarter_seats = {p for table in data["rounds"][1] for p in table["seats"]}
    assert not set(bye_holders) & quarter_seats
    assert all(standings[p]["reached"] in ("semi-final", "final", "champion") for p in bye_holders)
    assert all(standings[p]["tables"] == 3 for p in bye_holders)  # the group, the semi-final, the final
    group_c = data["rounds"][0][2]
    assert group_c["outcome"]["note"] == "cheating: seat 0" and group_c["outcome"]["out"] == [0]
    cheat = standings[group_c["seats"][0]]
    assert cheat["out"] and cheat["reached"] == "group" and cheat["points"] == group_c["outcome"]["stats"][0]["points"] > 0
