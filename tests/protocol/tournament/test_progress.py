"""Pairing, advancement, ties, the bracket and prizes for every size, from outcomes alone."""

from __future__ import annotations

import pytest

from fairtable.games.duel.results import SeatStats
from fairtable.protocol.tournament.progress import Table, progress
from fairtable.protocol.tournament.results import Outcome
from tests.protocol.tournament.helpers import by_strength, play_out, seed_of, signed_record

STAGES_OF = {  # (participants, advance) -> the stages of the rounds, in order, and tables per round
    (4, 2): [("group", 1), ("final", 1)],
    (8, 1): [("group", 2), ("final", 1)],
    (8, 2): [("group", 2), ("knockout", 2), ("final", 1)],
    (12, 1): [("group", 3), ("knockout", 1), ("final", 1)],
    (12, 2): [("group", 3), ("knockout", 2), ("knockout", 2), ("final", 1)],
    (16, 1): [("group", 4), ("knockout", 2), ("final", 1)],
    (16, 2): [("group", 4), ("knockout", 4), ("knockout", 2), ("final", 1)],
}


@pytest.mark.parametrize("count, advance", sorted(STAGES_OF))
def test_every_size_runs_groups_then_knock_out_to_the_strongest(count, advance):
    signed = signed_record(count, {"advance": advance})
    done, _ = play_out(signed)
    assert [(r[0].spec.stage, len(r)) for r in done.rounds] == STAGES_OF[(count, advance)]
    groups = done.rounds[0]
    assert sorted(p for t in groups for p in t.spec.seats) == list(range(count))
    assert all(len(t.spec.seats) == 4 and t.genesis.variant == "ffa" for t in groups)
    assert done.champion == count - 1  # the strongest wins every table
    assert done.standings[0].participant == count - 1 and done.standings[0].reached == "champion"
    finalists = done.rounds[-1][0].spec.seats
    assert done.standings[1].participant in finalists and done.standings[1].reached == "final"
    qualified = {p for r in done.rounds[1:] for t in r for p in t.spec.seats}
    assert len(qualified) == count // 4 * advance
    winners = {max(t.spec.seats) for t in groups}
    assert winners <= qualified  # every group winner goes on
    ids = [t.table_id for t in done.tables()]
    assert len(set(ids)) == len(ids)
    assert all(t.genesis.tournament.tournament == signed.record_id and t.genesis.tournament.round == t.spec.round for t in done.tables())


def test_byes_go_to_the_top_seeds_and_seeds_one_and_two_meet_only_in_the_final():
    signed = signed_record(12, {"advance": 2})
    done, _ = play_out(signed)
    first = done.bracket[0]
    byes = [a for a, b, _ in first if b is None]
    group_points = {p: o.stats[s].points for t in done.rounds[0] if (o := t.outcome) for s, p in enumerate(t.spec.seats)}
    winners = sorted((max(t.spec.seats) for t in done.rounds[0]), key=lambda p: -group_points[p])
    assert byes == [winners[0], winners[1]] or sorted(byes) == sorted(winners[:2])
    assert {done.rounds[-1][0].spec.seats[0], done.rounds[-1][0].spec.seats[1]} == set(winners[:2])


def test_tables_follow_from_results_only_and_the_same_inputs_give_the_same_geneses():
    signed = signed_record(8)
    done, outcomes = play_out(signed)
    again = progress(signed, seed_of(signed), outcomes)
    assert [t.genesis.encoded for t in again.tables()] == [t.genesis.encoded for t in done.tables()]
    partial = progress(signed, seed_of(signed), {})
    assert len(partial.rounds) == 1 and not partial.finished and len(partial.current) == 2


def test_another_seed_draws_other_groups():
    signed = signed_record(16)
    first = progress(signed, seed_of(signed), {})
    other = progress(signed, b"\x01" * 32, {})
    assert [t.spec.seats for t in first.rounds[0]] != [t.spec.seats for t in other.rounds[0]]


# ------------------------------------------------------------------ ties


def group_points(points_of: dict[int, int]):
    """Group tables score by ``points_of`` (participant -> points, else its index: no tie); 1v1 tables by strength."""
    def decide(table: Table) -> Outcome:
        if table.spec.stage != "group":
            return by_strength(table)
        stats = tuple(SeatStats(points_of.get(p, p), 0, 0) for p in table.spec.seats)
        return Outcome(stats, (), (), "points")
    return decide


def first_group(signed):
    return progress(signed, seed_of(signed), {}).rounds[0][0].spec.seats


@pytest.mark.parametrize("line_points, tied, tables", [
    ((30, 20, 20, 10), 2, 1),  # two tied across the line of 2: one playoff
    ((30, 20, 20, 20), 3, 3),  # three tied for one spot: each pair once
    ((20, 20, 20, 20), 4, 6),  # everyone level: six playoffs for two spots
])
def test_a_tie_across_the_qualifying_line_is_played_off_in_one_round(line_points, tied, tables):
    signed = signed_record(8, {"advance": 2})
    seats = first_group(signed)
    points = dict(zip(seats, line_points))
    done, _ = play_out(signed, group_points(points))
    playoff = done.rounds[1]
    assert playoff[0].spec.stage == "playoff" and len(playoff) == tables
    assert all(len(t.spec.seats) == 2 and t.genesis.variant == "1v1" and t.genesis.options["rounds"] == 1 for t in playoff)
    contenders = {p for t in playoff for p in t.spec.seats}
    assert len(contenders) == tied
    semis = {p for t in done.rounds[2] for p in t.spec.seats}
    group_goes_on = semis & set(seats)
    assert len(group_goes_on) == 2
    if line_points[0] > line_points[1]:
        assert seats[0] in group_goes_on
    strongest_tied = max(contenders)
    assert strongest_tied in group_goes_on  # by_strength: the strongest takes the playoff


@pytest.mark.parametrize("line_points", [(30, 30, 20, 10), (30, 20, 10, 10), (40, 30, 30, 30)])
def test_a_tie_that_does_not_cross_the_line_needs_no_playoff(line_points):
    signed = signed_record(8, {"advance": 2 if line_points[2] != 30 else 1})
    seats = first_group(signed)
    done, _ = play_out(signed, group_points(dict(zip(seats, line_points))))
    assert done.rounds[1][0].spec.stage != "playoff"


def test_a_playoff_that_ties_again_goes_by_lot_never_by_seat_order():
    signed = signed_record(8, {"advance": 1})
    seats = first_group(signed)
    points = dict(zip(seats, (20, 20, 10, 0)))

    def decide(table: Table) -> Outcome:
        if table.spec.stage == "playoff":
            return Outcome((SeatStats(5, 0, 0), SeatStats(5, 0, 0)), (), (), "draw")
        return group_points(points)(table)

    done, _ = play_out(signed, decide)
    finalist = next(p for p in done.rounds[2][0].spec.seats if p in seats[:2])
    again, _ = play_out(signed, decide)
    assert finalist in seats[:2] and next(p for p in again.rounds[2][0].spec.seats if p in seats[:2]) == finalist


def test_players_who_left_a_group_rank_last_whatever_their_points():
    signed = signed_record(4, {"advance": 2})
    seats = first_group(signed)

    def decide(table: Table) -> Outcome:
        if table.spec.stage == "group":
            return Outcome(tuple(SeatStats(p, 0, 0) for p in (40, 30, 20, 10)), (0,), (0,), "points")
        return by_strength(table)

    done, _ = play_out(signed, decide)
    assert set(done.rounds[1][0].spec.seats) == {seats[1], seats[2]}
    assert next(s for s in done.standings if s.participant == seats[0]).out


def test_an_undecided_knock_out_goes_to_defences_then_attacks_then_the_higher_seed():
    signed = signed_record(4, {"advance": 2})
    figures = iter([(SeatStats(9, 1, 3), SeatStats(9, 2, 2)), (SeatStats(9, 2, 2), SeatStats(9, 3, 2)),
                    (SeatStats(9, 2, 2), SeatStats(9, 2, 2))])
    for expected_seat in (0, 1, 0):
        stats = next(figures)

        def decide(table: Table, stats=stats) -> Outcome:
            return by_strength(table) if table.spec.stage == "group" else Outcome(stats, (), (), "tie")

        done, _ = play_out(signed, decide)
        assert done.champion == done.rounds[-1][0].spec.seats[expected_seat]


def test_a_knock_out_both_seats_lost_sends_nobody_on_and_the_other_half_wins_by_bye():
    signed = signed_record(8, {"advance": 2})

    def decide(table: Table) -> Outcome:
        if table.spec.label == "semi-final 1":
            return Outcome((SeatStats(0, 0, 0),) * 2, (), (0, 1), "cheating: seat 0, seat 1")
        return by_strength(table)

    done, _ = play_out(signed, decide)
    semi_2 = next(t for t in done.rounds[1] if t.spec.label == "semi-final 2")
    assert len(done.rounds) == 2 and done.champion == max(semi_2.spec.seats)
    assert done.bracket[-1] == ((None, done.champion, done.champion),)


def test_prizes_go_to_the_most_defences_and_attacks_won_and_are_shared_on_a_tie():
    signed = signed_record(4, {"advance": 2})
    seats = first_group(signed)

    def decide(table: Table) -> Outcome:
        if table.spec.stage == "group":
            figures = {seats[0]: SeatStats(30, 1, 7), seats[1]: SeatStats(20, 5, 1), seats[2]: SeatStats(10, 5, 0),
                       seats[3]: SeatStats(5, 0, 6)}
            return Outcome(tuple(figures[p] for p in table.spec.seats), (), (), "points")
        return Outcome((SeatStats(6, 0, 0), SeatStats(4, 0, 0)), (0,), (), "points")

    done, _ = play_out(signed, decide)
    assert done.best_defender == (seats[0],)
    assert done.top_attacker == tuple(sorted(seats[1:3]))
    unfinished = progress(signed, seed_of(signed), {})
    assert unfinished.best_defender == () and unfinished.top_attacker == ()


def test_nobody_takes_a_prize_of_a_kind_no_duel_of_which_was_won():
    signed = signed_record(4, {"advance": 2})
    seats = first_group(signed)

    def decide(table: Table) -> Outcome:
        if table.spec.stage == "group":
            figures = {seats[0]: SeatStats(30, 0, 7), seats[1]: SeatStats(20, 0, 1), seats[2]: SeatStats(10, 0, 0),
                       seats[3]: SeatStats(5, 0, 6)}
            return Outcome(tuple(figures[p] for p in table.spec.seats), (), (), "points")
        return Outcome((SeatStats(6, 0, 0), SeatStats(4, 0, 0)), (0,), (), "points")

    done, _ = play_out(signed, decide)
    assert done.champion is not None and done.top_attacker == ()  # no attack won anywhere: no prize at 0
    assert done.best_defender == (seats[0],)
