"""Verifying a whole tournament from its bundle: real transcripts, tampered and forged ones."""

from __future__ import annotations

import pytest

from fairtable.protocol import codec
from fairtable.protocol.errors import ProtocolError
from fairtable.protocol.testing import SelfPlay
from fairtable.protocol.tournament.bundle import COUNTED, INVALID, MISSING, Tournament, verify_bundle
from fairtable.protocol.tournament.record import RecordError
from fairtable.protocol.transcript_file import dump
from tests.protocol.tournament.helpers import DRAWS, KEYS, SHORT, cheating_at, play_tables, signed_record, tournament_file

SIGNED = signed_record(4, SHORT)


@pytest.fixture(scope="module")
def tables() -> dict[bytes, bytes]:
    return play_tables(SIGNED)


def standings_of(report):
    return [(s.participant, s.reached, s.totals) for s in report.progress.standings]


def test_a_bundle_of_real_tables_verifies_through_to_the_champion_and_prizes(tables):
    seen = []
    report = verify_bundle(tournament_file(SIGNED), tables.get, seen.append)
    assert report.complete and report.progress.finished
    assert [c.status for c in report.checks] == [COUNTED] * len(tables) == [c.status for c in seen]
    labels = [c.table.spec.label for c in report.checks]
    assert labels[0] == "group A" and labels[-1] == "final" and all(label.startswith("playoff") for label in labels[1:-1])
    assert report.progress.best_defender and report.progress.top_attacker
    assert sum(s.totals.tables for s in report.progress.standings) == 4 + 2 * (len(tables) - 1)


def test_a_missing_table_is_named_and_the_tournament_stops_before_it(tables):
    final = list(tables)[-1]
    report = verify_bundle(tournament_file(SIGNED), lambda table_id: None if table_id == final else tables[table_id])
    assert not report.complete and not report.progress.finished
    assert [c.status for c in report.checks] == [COUNTED] * (len(tables) - 1) + [MISSING]
    assert report.checks[-1].table.spec.label == "final" and report.checks[-1].table.table_id == final


def test_a_tampered_table_counts_for_nothing_and_is_named(tables):
    group = next(iter(tables))
    data = bytearray(tables[group])
    data[len(data) // 2] ^= 0x01
    report = verify_bundle(tournament_file(SIGNED), {**tables, group: bytes(data)}.get)
    assert [(c.table.spec.label, c.status) for c in report.checks] == [("group A", INVALID)]
    assert report.progress.standings == verify_bundle(tournament_file(SIGNED), lambda _: None).progress.standings


def test_a_forged_result_from_another_genesis_counts_for_nothing_and_is_named(tables):
    """The group's four players sign and play another table (a fresh nonce) and offer its
    result as the group's: it is not the genesis the record calls for."""
    first = verify_bundle(tournament_file(SIGNED), lambda _: None).checks[0].table
    genesis = first.genesis
    other = type(genesis)(genesis.game, genesis.variant, genesis.options, genesis.seats, b"\x07" * 16, tournament=genesis.tournament)
    forged = dump(SelfPlay.of(other, [KEYS[p] for p in first.spec.seats], b"forged").play())
    report = verify_bundle(tournament_file(SIGNED), {**tables, first.table_id: forged}.get)
    assert report.checks[0].status == INVALID and "genesis is not the one" in report.checks[0].detail
    assert standings_of(report) == standings_of(verify_bundle(tournament_file(SIGNED), lambda _: None))


def test_a_seat_that_cheats_at_its_table_loses_it_and_is_named(tables):
    """In the final, seat 0 plays another card than the rules' default and marks it a timeout
    (``cheating_at``): the verifier names it, and the other finalist is champion whatever the points."""
    honest = verify_bundle(tournament_file(SIGNED), tables.get)
    final = honest.checks[-1].table
    report = verify_bundle(tournament_file(SIGNED), {**tables, final.table_id: cheating_at(final)}.get)
    check = report.checks[-1]
    assert check.status == COUNTED and check.detail == "cheating: seat 0" and check.verdict == "violation"
    assert report.progress.champion == final.spec.seats[1]
    assert report.progress.rounds[:-1] == honest.progress.rounds[:-1]


def test_a_tournament_file_round_trips_and_a_wrong_draw_value_is_refused():
    tournament = tournament_file(SIGNED)
    assert Tournament.from_bytes(tournament.to_bytes()) == tournament
    value = codec.decode(tournament.to_bytes())
    bad = codec.encode({**value, "draw": [DRAWS[1]] + list(value["draw"][1:])})
    with pytest.raises(RecordError, match="draw value of participant 0"):
        Tournament.from_bytes(bad)
    with pytest.raises(ProtocolError, match="not a tournament file"):
        Tournament.from_bytes(b"\x01\x02")
