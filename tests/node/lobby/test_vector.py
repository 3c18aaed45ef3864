"""The lobby vector in spec/ is what the code builds, and each of its exchanges holds together:
every message parses as its type, the record is the one signed, and the start's signatures and
reveals start it for the guest as for the host."""

from __future__ import annotations

import json

import pytest

from fairtable.node.lobby.tables import TableKind
from fairtable.node.peer.messages import PEER_VERSION, parse
from fairtable.node.tournament.lobby import TournamentKind
from fairtable.protocol import codec
from fairtable.protocol.genesis import SignedGenesis
from fairtable.protocol.tournament.bundle import Tournament
from tests.node.lobby import vector

KINDS = {"table": TableKind(None), "tournament": TournamentKind(lambda *_: None)}


def test_the_vector_file_is_what_the_code_builds():
    assert vector.PATH.read_text() == vector.render()


@pytest.mark.parametrize("name", sorted(KINDS))
def test_each_exchange_parses_and_starts_its_record(name):
    data = json.loads(vector.PATH.read_text())
    assert data["version"] == PEER_VERSION
    kind, exchange = KINDS[name], data["kinds"][name]
    messages = [parse(codec.decode(bytes.fromhex(m["bytes"])), m["value"]["t"]) for m in exchange["messages"]]
    assert [m["t"] for m in messages] == ["list", "offers", "join", "joined", "ping", "sign", "signature", "start"]
    record = kind.parse_record(messages[5]["record"])
    assert record.encoded.hex() == exchange["record"] and record.signed_id.hex() == exchange["signed_id"]
    kind.parse_listing(messages[3]["offer"], "192.0.2.1:7400")
    assert kind.commit_problem(messages[2]["commit"]) is None
    start = messages[7]
    started = kind.started(record, tuple(start["sigs"]), tuple(start["reveals"]))
    assert isinstance(started, SignedGenesis if name == "table" else Tournament)
    assert start["sigs"][1] == messages[6]["sig"] and start["reveals"][1] == messages[6]["reveal"]
