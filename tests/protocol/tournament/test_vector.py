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
