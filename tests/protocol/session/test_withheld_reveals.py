"""Withholding what a game requires after its end never keeps a result (spec/session.md §5–§7).

In every game and at every place the game requires a reveal (an owned deck's composition, the
seed with the boards and choices it opens, zeeslag's full opening), a seat first signs a lie only
its seed or its deck would show (a stage not built from its seed, a false key, a renege, an
illegal fleet, a deck it may not hold), then goes silent and is declared absent. It forfeits
whatever the result was (with its team), the live seats and the verifier agree on that result,
the verifier says what the missing seed leaves unproven, and no honest seat is named: not as a
suspect, and not for a dispute only the missing seed could judge.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from fairtable.games.contract import Result
from fairtable.games.duel.catalogue import IDS
from fairtable.games.shengji import game as shengji_rules
from fairtable.protocol.envelope import Envelope
from fairtable.protocol.fair import private_stream
from fairtable.protocol.fair.mental_deck import Deck
from fairtable.protocol.session import owned
from fairtable.protocol.session.errors import Violation
from fairtable.protocol.session.table import WITHHELD_REASON
from fairtable.protocol.session.verify import VALID, VIOLATION, Report
from fairtable.protocol.testing import SelfPlay, Tamper
from tests.games.shengji.test_cheats import renege_due
from tests.protocol.session import withheld_vector
from tests.protocol.session.tables import all_seeds, file_bytes, play_until, slot_is, towers, verify_bytes
from tests.protocol.session.test_cheats import dispute_a_false_key
from tests.protocol.session.test_reveal_after_game import commit_illegal_fleet, full_opening_of, resign
from tests.protocol.session.test_zeeslag_session import zeeslag

pytestmark = pytest.mark.usefixtures("version_2_tables")
"""Version 2 tables: the subject is a withheld seed, the vehicle version 2's cheats that live seats
accept (a stage not from the seed), and ``withheld.json`` is of such a table."""


def declare_absent(table: SelfPlay, kind: str, seat: int) -> Envelope:
    """Play to ``seat``'s ``kind`` slot and declare it absent there, by the lowest other present
    seat (the claim the finality rule places when every other seat claimed; the others' claims go
    with the file as evidence)."""
    play_until(table, slot_is(kind, seat=seat))
    return table.claim_absent()


def verified(table: SelfPlay) -> Report:
    """Play to the end; the verifier's report, whose result every live seat holds too."""
    table.play()
    report = verify_bytes(file_bytes(table))
    assert all(session.result == report.result for session in table.sessions)
    return report


def assert_nobody_honest_named(report: Report, cheater: int) -> None:
    assert report.status in (VALID, VIOLATION)
    for violation in report.violations:
        assert violation.seat == cheater or (violation.seat is None and set(violation.suspects) == {cheater}), violation


def assert_withheld(table: SelfPlay, report: Report, cheater: int, played: Result | None = None) -> None:
    """The cheater's team lost by withholding; the teams left that had won the ``played`` game
    keep their win, else the one team left (if one) won; nobody honest is named."""
    teams = table.sessions[0].teams
    losing = next(team for team in teams if cheater in team)
    left = [team for team in teams if team != losing]
    kept = [team for team in left if played is not None and set(team) <= set(played.winners)]
    result = report.result
    assert result is not None and result.reason == WITHHELD_REASON
    assert result.winners == (tuple(sorted(s for team in kept for s in team)) or (left[0] if len(left) == 1 else ()))
    assert not set(losing) & set(result.winners)
    assert (0, cheater) in [(unproven.game, unproven.seat) for unproven in report.unproven]
    assert_nobody_honest_named(report, cheater)


# ---------------------------------------------------------------- a stage not built from the seed


def swapped_stage(cheater: int) -> Tamper:
    """The cheater's first stage with two entries swapped: a permutation its seed does not
    dictate. At a plain shuffle no live seat can tell; at a stage that also keys each position
    (a lock), the two positions open to no card."""
    done: list[bool] = []

    def tamper(seat: int, kind: str, body: Any) -> tuple[str, Any]:
        if seat == cheater and kind == "deck" and not done:
            done.append(True)
            entries = list(body["entries"])
            entries[0], entries[1] = entries[1], entries[0]
            body = dict(body, entries=entries)
        return kind, body
    return tamper


def cheat_then_withhold_seed(table: SelfPlay, cheater: int) -> tuple[Result | None, Report]:
    """The result as played (before the seed round), and the report once the cheater withheld its seed."""
    play_until(table, slot_is("seed", seat=cheater), 20000, swapped_stage(cheater))
    played = table.sessions[0].result
    declare_absent(table, "seed", cheater)
    return played, verified(table)


@pytest.mark.parametrize("cheater", [0, 1])
def test_towers_a_stage_not_from_the_seed_then_a_withheld_seed_forfeits(cheater):
    table = towers(b"withheld-stage")
    played, report = cheat_then_withhold_seed(table, cheater)
    assert_withheld(table, report, cheater, played)
    if cheater == 0:  # a plain shuffle: another permutation looks like any other, so it is unproven
        assert played.winners == (0,) and report.status == VALID  # it had won
    else:  # a shuffle-lock keys each position: swapped entries open to no card, and only the seat without a seed is suspected
        assert {(v.seat, v.rule, v.suspects) for v in report.violations} == {(None, "deck.no-card", (1,))}


def test_with_every_seed_the_same_stage_is_named():
    """The control: the lie above is there to be found, by the seed the cheater withheld."""
    table = towers(b"withheld-stage")
    table.play(swapped_stage(0))
    report = verify_bytes(file_bytes(table))
    assert {(v.seat, v.rule) for v in report.violations} == {(0, "deck.stage-mismatch")} and not report.unproven


@pytest.mark.parametrize("cheater", [0, 1])
def test_drachenherz_a_stage_not_from_the_seed_then_a_withheld_seed_forfeits(cheater):
    table = SelfPlay.create("drachenherz", "standard", {}, 2, b"withheld-dh", ["greedy", "random"])
    played, report = cheat_then_withhold_seed(table, cheater)
    assert_withheld(table, report, cheater, played)
    assert played.winners == (0,) or played.reason == "disputed"  # seat 0's shuffle passes unseen; seat 1's lock is disputed


@pytest.mark.parametrize("game, options, seats", [("drachenherz", {"match": 2}, 2), ("shengji", {"deals": 2}, 4)])
def test_a_seed_withheld_after_one_deal_of_a_match_forfeits_the_match(game, options, seats):
    variant = "standard"
    table = SelfPlay.create(game, variant, options, seats, b"withheld-match")
    cheater = 0  # its first stage is a plain shuffle: no live seat can tell
    play_until(table, slot_is("seed", seat=cheater), 20000, swapped_stage(cheater))
    assert table.sessions[0].deal_results and table.sessions[0].result is None  # the match was to go on
    claim = declare_absent(table, "seed", cheater)
    report = verified(table)
    assert {e.kind for e in table.sessions[0].envelopes[claim.seq + 1:]} <= {"seed"}  # no next deal
    assert len(report.deals) == 1
    assert_withheld(table, report, cheater)


# ---------------------------------------------------------------- cards not drawn from the seed


def own_draws(patched: pytest.MonkeyPatch, cheater: int) -> None:
    """The cheater's node draws its private cards by a rule of its own (the infinite deck's
    faces are accepted live as long as they are cards: only the seed shows them false)."""
    real = private_stream.draw

    def draw(seed, label, context, counter, bound, count=1):
        return tuple((counter + i) % bound for i in range(count)) if seed.seat == cheater else real(seed, label, context, counter, bound, count)
    patched.setattr(private_stream, "draw", draw)


def test_towers_infinite_cards_not_drawn_from_the_seed_then_a_withheld_seed_forfeits(monkeypatch):
    table = towers(b"withheld-draws", variant="infinite")
    with monkeypatch.context() as patched:
        own_draws(patched, 0)
        play_until(table, slot_is("seed", seat=0))
    declare_absent(table, "seed", 0)
    report = verified(table)
    assert_withheld(table, report, 0)
    assert report.status == VALID


def test_with_the_seed_the_same_draws_are_named(monkeypatch):
    table = towers(b"withheld-draws", variant="infinite")
    with monkeypatch.context() as patched:
        own_draws(patched, 0)
        table.play()
    report = verify_bytes(file_bytes(table))
    assert report.violations and {(v.seat, v.rule) for v in report.violations} == {(0, "private-stream.mismatch")}


# ---------------------------------------------------------------- a false key, disputed by the honest recipient


def test_a_false_key_disputed_then_a_withheld_seed_names_the_cheater_as_the_only_suspect():
    table = towers(b"withheld-key")
    cheater, _, dispute = dispute_a_false_key(table)
    declare_absent(table, "seed", cheater)
    report = verified(table)
    assert_withheld(table, report, cheater)
    assert "session.false-dispute" not in [v.rule for v in report.violations]
    # the card that opens to no card proves someone lied; only the seat without a seed can have
    assert [(v.seat, v.suspects) for v in report.violations] == [(None, (cheater,))]
    assert [(d.index, d.seat) for d in report.unjudged] == [(dispute.seq, 1 - cheater)]


def test_a_false_key_disputed_with_every_seed_names_the_cheater_and_judges_the_dispute():
    table = towers(b"withheld-key")
    cheater, _, _ = dispute_a_false_key(table)
    report = verified(table)
    assert [(v.seat, v.rule) for v in report.violations] == [(cheater, "deck.key-mismatch")]
    assert report.result == Result((), "disputed") and not report.unjudged and not report.unproven


def test_a_dispute_is_judged_false_only_with_every_seed():
    table = towers(b"withheld-false-dispute")
    play_until(table, slot_is("move"))
    accuser = 1 - table.sessions[0].slot.seat
    made_up = Violation(3, None, "deck.no-card", "made up", None, (0, 1))
    dispute = table.seal(accuser, *table.sessions[accuser].dispute_body(made_up))
    table.deliver(dispute)
    declare_absent(table, "seed", accuser)  # the accuser withholds the seed that would judge it
    report = verified(table)
    assert_withheld(table, report, accuser)
    assert report.violations == () and [(d.index, d.seat, d.rule) for d in report.unjudged] == [(dispute.seq, accuser, "deck.no-card")]
    # the seed it withheld, found later (the file's seeds record), judges the dispute false
    judged = verify_bytes(file_bytes(table, seeds=all_seeds(table, b"withheld-false-dispute")))
    assert [(v.seat, v.rule) for v in judged.violations] == [(accuser, "session.false-dispute")] and not judged.unjudged
    assert judged.result == report.result  # the chain decides the result: the accuser withheld its seed there


def test_a_transcript_that_stops_before_the_seeds_judges_no_dispute():
    table = towers(b"withheld-false-dispute")
    play_until(table, slot_is("move"))
    accuser = 1 - table.sessions[0].slot.seat
    made_up = Violation(3, None, "deck.no-card", "made up", None, (0, 1))
    table.deliver(table.seal(accuser, *table.sessions[accuser].dispute_body(made_up)))
    play_until(table, slot_is("seed", seat=1))
    report = verify_bytes(file_bytes(table))
    assert report.status == "incomplete" and report.violations == () and len(report.unjudged) == 1


# ---------------------------------------------------------------- a renege only the full hands show


def test_shengji_a_renege_then_a_withheld_seed_forfeits_the_team(monkeypatch):
    table = SelfPlay.create("shengji", "standard", {"deals": 1}, 4, b"shengji-cheats", ["greedy", "random", "greedy", "random"])
    play_until(table, renege_due)
    cheater = table.sessions[0].slot.seat
    own = table.sessions[cheater]
    state = own.state
    lead = shengji_rules.lead_of(state)
    card = next(h for h in state.hands[cheater] if state.order.suit(state.faces[h]) != lead.suit)
    renege = table.seal(cheater, "move", own.run.move_body(cheater, {"play": card}, (card,)))
    for other, session in enumerate(table.sessions):
        if other != cheater:
            session.receive(renege)  # nobody else can tell
    with monkeypatch.context() as patched:  # the cheater's node runs the rules without the follow check
        patched.setattr(shengji_rules, "follow_fault", lambda *args: None)
        own.receive(renege)
    declare_absent(table, "seed", cheater)
    report = verified(table)
    assert_withheld(table, report, cheater)
    assert report.result.winning_teams == tuple(i for i, team in enumerate(table.sessions[0].teams) if cheater not in team)


# ---------------------------------------------------------------- zeeslag: an illegal fleet kept closed


def test_zeeslag_an_illegal_fleet_withheld_with_the_seed_forfeits():
    """The cheater resigns during its full opening, which leaves its fleet for the seed reveal
    to open; then it withholds the seed."""
    table = zeeslag(b"withheld-fleet", {"water_ring": False})
    commit_illegal_fleet(table, 1)
    play_until(table, full_opening_of(1))
    resign(table, 1)
    play_until(table, slot_is("seed", seat=1))
    assert table.sessions[1].outgoing()[1]["boards"]  # the seed would open the fleet
    declare_absent(table, "seed", 1)
    report = verified(table)
    assert_withheld(table, report, 1)
    assert report.result.winners == (0,)


@pytest.mark.parametrize("seats, seed", [(2, b"withheld-fleet0"), (3, b"withheld-salvo0")], ids=["duel", "salvos"])
def test_zeeslag_an_illegal_fleet_withheld_at_the_full_opening_loses(seats, seed):
    table = SelfPlay.create("zeeslag", "duel", {"water_ring": False}, seats, seed)
    commit_illegal_fleet(table, 1)
    play_until(table, full_opening_of(1))
    assert table.sessions[0].state.outcome.winners == (1,)  # it had won
    declare_absent(table, "open", 1)
    report = verified(table)
    assert 1 not in report.result.winners
    assert_nobody_honest_named(report, 1)
    assert (0, 1) in [(u.game, u.seat) for u in report.unproven]


def test_zeeslag_salvos_an_illegal_fleet_withheld_with_the_seed_forfeits():
    table = SelfPlay.create("zeeslag", "duel", {"water_ring": False}, 3, b"withheld-salvo0")
    commit_illegal_fleet(table, 1)
    play_until(table, full_opening_of(1))
    resign(table, 1)
    declare_absent(table, "seed", 1)
    report = verified(table)
    assert_withheld(table, report, 1)


# ---------------------------------------------------------------- duel: a secret deck it may not hold


def commit_a_deck_with_a_copy(table: SelfPlay, seat: int, copy: int, monkeypatch) -> None:
    """The owner's node commits 20 cards, card ``IDS[copy]`` twice (each card may be in a deck once)."""
    play_until(table, lambda t: t.sessions[seat].decision_kind == "deck")
    session = table.sessions[seat]
    cards = tuple(sorted((IDS[copy], *IDS[:19])))
    with monkeypatch.context() as patched:
        patched.setattr(Deck, "check_composition", lambda deck, chosen: tuple(sorted(chosen)))
        body = owned.choose(session.run, session.run.decks[-1], cards)
    table.deliver(table.seal(seat, "deck", body))


@pytest.mark.parametrize("variant, seats, cheater, copy, seed", [("1v1", 2, 1, 6, b"withheld-deck"), ("ffa", 3, 0, 8, b"withheld-deck11")])
def test_duel_a_deck_with_a_copy_then_a_withheld_composition_forfeits(variant, seats, cheater, copy, seed, monkeypatch):
    table = SelfPlay.create("duel", variant, {}, seats, seed, ["greedy", "random", "greedy"][:seats])
    commit_a_deck_with_a_copy(table, cheater, copy, monkeypatch)
    play_until(table, slot_is("composition", seat=cheater))
    assert not table.sessions[0].disputes  # the second copy was never dealt: nobody could see it
    played = table.sessions[0].result
    declare_absent(table, "composition", cheater)
    report = verified(table)
    assert_withheld(table, report, cheater, played)
    assert not any(e.seat == cheater for e in table.sessions[0].envelopes if e.kind in ("composition", "seed"))
    if variant == "ffa":
        assert played.winners == (cheater,)  # it had won; now nobody does (two seats are left)


def test_duel_ffa_a_loser_that_withholds_its_seed_cannot_take_the_win_from_the_winner():
    """Three seats play for themselves: the withholder loses, and the seat that won keeps its
    win (were it "nobody wins unless one seat is left", any loser could void the game by going
    silent after it)."""
    table = SelfPlay.create("duel", "ffa", {}, 3, b"withheld-deck", ["greedy", "random", "greedy"])
    played, report = cheat_then_withhold_seed(table, 1)
    assert played.winners == (0,)
    assert_withheld(table, report, 1, played)
    assert report.result.winners == (0,) and set(report.result.teams) <= {(0,), (1,), (2,)}


def test_duel_a_stage_not_from_the_seed_then_a_withheld_seed_after_the_composition_forfeits():
    table = SelfPlay.create("duel", "1v1", {}, 2, b"withheld-duel-seed", ["greedy", "random"])
    played, report = cheat_then_withhold_seed(table, 0)
    assert played.winners == (0,)  # it had won
    assert_withheld(table, report, 0, played)


# ---------------------------------------------------------------- the spec's vector


def test_the_withheld_seed_vector_is_what_the_code_builds():
    assert withheld_vector.PATH.read_text() == withheld_vector.render(), "regenerate with: python -m tests.regenerate"


def test_the_withheld_seed_vector_reports_the_forfeit_the_spec_states():
    vector = json.loads(withheld_vector.PATH.read_text())
    report = verify_bytes(bytes.fromhex(vector["file"])).to_value()
    assert {key: report[key] for key in withheld_vector.REPORTED} == vector["report"]
    assert vector["played"]["winners"] == [1] and vector["report"]["result"]["winners"] == [0]
