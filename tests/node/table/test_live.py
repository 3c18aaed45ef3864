"""The node's table logic without a network: timers (on a mock clock), absence, forks, equivocation, journal."""

import logging
import os
import re

import pytest
import trio
import trio.testing

from fairtable.games import say
from fairtable.node.table.journal import TableFiles
from fairtable.node.table.live import Outcome, Timing
from fairtable.protocol.envelope import Envelope
from fairtable.protocol.session.verify import verify
from fairtable.protocol.transcript_file import load
from tests.node.table.tables import KEYS, live_table, reload, settle, signed_genesis, wire

pytestmark = pytest.mark.usefixtures("counting_game")


def moves_of(table, seat):
    return [e.body["move"] for e in table.envelopes if e.kind == "move" and e.seat == seat]


async def test_two_bots_finish_with_one_chain_and_a_valid_transcript(tmp_path):
    genesis = signed_genesis("towers", 2)
    tables = [live_table(tmp_path, genesis, seat) for seat in range(2)]
    await wire(tables)
    assert tables[0].envelopes == tables[1].envelopes
    saved = (tables[0].files.dir / "transcript.ftt").read_bytes()
    assert saved == (tables[1].files.dir / "transcript.ftt").read_bytes()
    assert verify(load(saved)).valid


async def test_a_late_seats_own_node_plays_the_default_move_and_too_many_timeouts_lose(tmp_path, autojump_clock):
    genesis = signed_genesis("towers", 2, {"turn_seconds": 5, "max_timeouts": 2})
    tables = [live_table(tmp_path, genesis, 0), live_table(tmp_path, genesis, 1, bot=False)]
    await wire(tables)
    late = moves_of(tables[0], 1)
    assert late and all(move["timeout"] is True for move in late)
    assert tables[0].session.result.reason == "timeouts"
    assert tables[0].session.result.winners == (0,)
    assert tables[0].envelopes == tables[1].envelopes


async def test_the_turn_timer_waits_turn_seconds_before_moving(tmp_path, autojump_clock):
    genesis = signed_genesis("counting", 2, {"turn_seconds": 7})
    human, other = live_table(tmp_path, genesis, 0, bot=False), live_table(tmp_path, genesis, 1)
    settle([human, other])
    assert human.session.awaiting_decision() and len(human.envelopes) == 2
    assert human.deadline() == pytest.approx(7)
    start = trio.current_time()
    with trio.move_on_after(6.9):
        await human.keep_time()
    assert len(human.envelopes) == 2
    with trio.move_on_after(0.2):
        await human.keep_time()
    assert human.envelopes[-1].body["move"] == 1 and trio.current_time() - start >= 7
    assert len(human.envelopes) == 3


async def test_a_silent_seat_is_declared_absent_after_turn_time_and_grace(tmp_path, autojump_clock):
    genesis = signed_genesis("towers", 2, {"turn_seconds": 5})
    tables = [live_table(tmp_path, genesis, 0, timing=Timing(grace=30)), live_table(tmp_path, genesis, 1)]
    start = trio.current_time()
    await wire(tables, cut=frozenset({1}))
    present = tables[0]
    claim = next(e for e in present.envelopes if e.kind == "absent")
    assert claim.seat == 0 and claim.body == {"seat": 1}
    assert trio.current_time() - start >= 30
    assert present.session.result.winners == (0,) and "absent" in present.session.result.reason
    report = verify(load((present.files.dir / "transcript.ftt").read_bytes()))
    assert report.valid  # a forfeit on the claimant's word, not a finding against the absent seat
    assert {"index": claim.seq, "kind": "absent", "latest": False, "seat": 1,
            "text": "seat-1 stopped answering: you declared them absent."} in present.update().log


async def test_a_resignation_asked_out_of_turn_is_announced_at_once_and_again_when_it_goes_out(tmp_path, autojump_clock):
    genesis = signed_genesis("towers", 2)
    tables = [live_table(tmp_path, genesis, 0, bot=False), live_table(tmp_path, genesis, 1)]
    tables[0].resign()  # the commitments come first: no slot of the play yet, nothing is sent
    (waiting,) = tables[0].update().log
    assert waiting["kind"] == "resigning" and waiting["text"].startswith("You resign: your resignation goes out at your next turn")
    await wire(tables)
    resignation = next(e for e in tables[0].envelopes if e.kind == "resign")
    assert tables[0].session.result.winners == (1,)
    assert [notice["kind"] for notice in tables[0].update().log] == ["resigning", "resigned"]
    assert tables[0].update().log[1] == {"index": resignation.seq, "kind": "resigned", "latest": False, "seat": 0, "text": "You resigned."}
    assert tables[1].update().log == ({"index": resignation.seq, "kind": "resigned", "latest": False, "seat": 0, "text": "seat-0 resigned."},)


async def test_every_other_seat_claims_at_the_deadline_plus_grace_by_its_own_clock(tmp_path, autojump_clock):
    genesis = signed_genesis("counting", 4, {"turn_seconds": 5})
    tables = [live_table(tmp_path, genesis, seat, bot=False) for seat in range(4)]
    settle(tables)
    since = tables[0].replica.slot.since
    assert all(table.session.slot.seat == 0 and table.session.slot.decision for table in tables)
    assert [t.replica.claim_time() for t in tables] == [None, since + 35, since + 35, since + 35]
    assert tables[0].deadline() == pytest.approx(5)


async def test_a_late_seats_envelope_takes_back_the_slot_claimed_while_it_was_cut_off_naming_nobody(tmp_path, autojump_clock):
    genesis = signed_genesis("counting", 2, {"turn_seconds": 5})
    claimant, late = live_table(tmp_path, genesis, 0, bot=False, timing=Timing(grace=10)), live_table(tmp_path, genesis, 1, bot=False)
    settle([claimant, late])
    claimant.play(2)
    settle([claimant, late])
    # seat 1 is due; the link is down: seat 1 plays late, seat 0 declares it absent meanwhile
    with trio.move_on_after(16):
        await claimant.keep_time()
    assert claimant.envelopes[3].kind == "absent"
    late.play(3)
    move = late.envelopes[3]
    # the link comes back before the claim settled: both sides end on the late seat's chain
    assert late.offer(claimant.envelopes[3]).outcome is Outcome.OUTRANKED
    assert claimant.offer(move).outcome is Outcome.ACCEPTED
    settle([claimant, late])
    assert claimant.envelopes == late.envelopes and claimant.envelopes[3] == move
    assert claimant.violations() == [] and [(f.index, f.seat, f.held_by) for f in claimant.replica.timing_forks()] == [(3, 1, "seat")]
    assert any(e.kind == "absent" for e in load(claimant.transcript_bytes()).evidence)
    assert reload(claimant).envelopes == late.envelopes


async def test_two_envelopes_from_one_seat_for_one_slot_are_kept_as_proof(tmp_path):
    genesis = signed_genesis("counting", 2)
    tables = [live_table(tmp_path, genesis, seat, bot=False) for seat in range(2)]
    settle(tables)
    tables[0].play(1)
    first = tables[0].envelopes[2]
    second = Envelope.seal(KEYS[0], genesis.table_id, 2, first.prev, 0, "move", {"faces": [], "keys": [], "move": 3})
    assert tables[1].offer(first).outcome is Outcome.ACCEPTED
    assert tables[1].offer(second).outcome in (Outcome.ACCEPTED, Outcome.CONFLICT)
    assert [proof.check() for proof in tables[1].replica.proofs()] == [0]
    assert [v.rule for v in tables[1].violations()] == ["chain.equivocation"]
    assert [v.rule for v in reload(tables[1]).violations()] == ["chain.equivocation"]  # kept in the journal


async def test_bad_envelopes_are_refused_and_change_nothing(tmp_path):
    genesis = signed_genesis("counting", 2)
    host, target = (live_table(tmp_path, genesis, seat, bot=False) for seat in range(2))
    own = host.envelopes[0]
    forged = Envelope(own.table, own.seq, own.prev, own.seat, own.kind, own.body, bytes(64), own.content)
    stranger = live_table(tmp_path / "x", signed_genesis("counting", 3), 0).envelopes[0]
    assert target.offer(forged).outcome is Outcome.INVALID
    assert target.offer(stranger).outcome is Outcome.INVALID
    assert target.envelopes == []
    assert target.offer(own).outcome is Outcome.ACCEPTED
    assert target.offer(own).outcome is Outcome.DUPLICATE
    assert target.offer(forged).outcome is Outcome.DUPLICATE  # same content as what we hold: nothing to do
    assert len(target.envelopes) == 2  # seat 1 answered with its own commitment
    wrong_kind = Envelope.seal(KEYS[0], genesis.table_id, 2, target.session.head, 0, "commit", {})
    out_of_turn = Envelope.seal(KEYS[1], genesis.table_id, 2, target.session.head, 1, "move", {})
    malformed = Envelope.seal(KEYS[0], genesis.table_id, 2, target.session.head, 0, "move", {"move": 9})
    assert target.offer(wrong_kind).outcome is Outcome.REFUSED
    assert target.offer(out_of_turn).outcome is Outcome.REFUSED
    assert target.offer(malformed).outcome is Outcome.CONFLICT  # seat 0's second envelope for the slot
    assert target.offer(Envelope.seal(KEYS[0], genesis.table_id, 500, bytes(32), 0, "move", {})).outcome is Outcome.HELD
    assert len(target.envelopes) == 2
    assert {v.rule for v in target.violations()} == {"session.wrong-kind", "session.out-of-turn", "session.malformed",
                                                     "chain.equivocation"}


async def test_envelopes_ahead_are_buffered_until_the_gap_fills(tmp_path):
    genesis = signed_genesis("counting", 3)
    first, second, observer = (live_table(tmp_path, genesis, seat, bot=False) for seat in range(3))
    settle([first, second])
    assert observer.offer(first.envelopes[1]).outcome is Outcome.HELD
    assert observer.offer(first.envelopes[0]).outcome is Outcome.ACCEPTED
    assert observer.envelopes[:2] == first.envelopes[:2] and observer.envelopes[2].seat == 2


async def test_a_reloaded_journal_continues_the_same_chain_and_cuts_a_torn_tail(tmp_path, caplog):
    genesis = signed_genesis("towers", 2)
    tables = [live_table(tmp_path, genesis, seat) for seat in range(2)]
    with trio.move_on_after(0.05):
        await wire(tables)
    for table in tables:
        with open(table.files.dir / "journal", "ab") as journal:
            journal.write(b"\x92\xa8envelope\x92\xc4")  # a record cut off mid-write
    restarted = [reload(table) for table in tables]
    for before, after in zip(tables, restarted):
        assert after.envelopes == before.envelopes
    cut = [record for record in caplog.records if "were cut off" in record.getMessage()]
    assert [record.levelname for record in cut] == ["WARNING", "WARNING"]  # damage is not routine: not at INFO
    assert f"damaged after {len(tables[0].envelopes)} envelopes: its last 12 bytes" in cut[0].getMessage()
    for table in restarted:  # and the player hears of it, in the table's log
        (notice,) = [notice for notice in table.update().log if notice["kind"] == "repaired"]
        assert notice["text"].startswith("Your node found this table's journal damaged after ") and "were cut off" in notice["text"]
    await wire(restarted)
    assert restarted[0].envelopes == restarted[1].envelopes and restarted[0].finished
    assert verify(load((restarted[0].files.dir / "transcript.ftt").read_bytes())).valid


async def test_a_seat_without_a_player_places_at_random_and_forced_answers_play_themselves(tmp_path, autojump_clock):
    genesis = signed_genesis("zeeslag", 2, {"turn_seconds": 5, "max_timeouts": 100}, variant="duel")
    tables = [live_table(tmp_path, genesis, 0), live_table(tmp_path, genesis, 1, bot=False)]
    await wire(tables)
    session = tables[0].session
    assert session.finished and verify(load(tables[1].transcript_bytes())).valid
    answers = [e.body["move"] for e in tables[0].envelopes if e.seat == 1 and e.kind == "move" and "sunk" in e.body["move"]]
    shots = [e.body["move"] for e in tables[0].envelopes if e.seat == 1 and e.kind == "move" and "shoot" in e.body["move"]]
    assert answers and all("timeout" not in answer for answer in answers)  # forced: answered at once, no timer
    assert shots and all(shot.get("timeout") is True for shot in shots)  # chosen moves waited for the timer
    assert any(e.seat == 1 and e.kind == "hidden" for e in tables[0].envelopes)
    # nothing happened to seat 1 unannounced: its log names each answer, each timer's shot and the fleet placed for it
    log = tables[1].update().log
    kinds = [notice["kind"] for notice in log]
    assert kinds.count("forced") == len(answers) and kinds.count("default") == len(shots) + 1
    # in the game's notation, as a transcript says it: "not sunk", "sunk: Cruiser at A1 A2 A3", never a word to type
    forced = [notice["text"] for notice in log if notice["kind"] == "forced"]
    assert all(re.fullmatch(r"Played for you, your only legal move: (not sunk|sunk: .+)\.", text) for text in forced), forced
    assert any(text.endswith(": not sunk.") for text in forced) and not any("none" in text for text in forced), forced
    assert "Your timer ran out: a random legal one was sent for you." in [notice["text"] for notice in log]
    assert [notice["index"] for notice in log] == sorted(notice["index"] for notice in log)  # in the order they happened
    # the other seat reads the timer's moves off the chain, by the player's name
    theirs = [notice for notice in tables[0].update().log if notice["kind"] == "default"]
    assert len(theirs) == len(shots) and theirs[0] == {"index": theirs[0]["index"], "kind": "default", "latest": False, "seat": 1,
                                                       "text": "seat-1's timer ran out: the rules' default was played for them."}
    # a board marks the move itself while it is its seat's latest: one entry a seat at most, on both nodes alike for the chain's
    latest = max(e.seq for e in tables[0].envelopes if e.seat == 1 and e.kind in ("move", "choice"))
    marked = [notice for notice in log if notice["latest"]]
    assert [notice["index"] for notice in marked] == [latest] and marked[0]["kind"] in ("default", "forced")
    assert [notice["index"] for notice in tables[0].update().log if notice["latest"]] == ([latest] if marked[0]["kind"] == "default" else [])


async def test_a_restarted_seat_still_opens_the_fleet_it_committed(tmp_path, autojump_clock):
    genesis = signed_genesis("zeeslag", 2, {"turn_seconds": 5, "max_timeouts": 100}, variant="duel")
    tables = [live_table(tmp_path, genesis, 0), live_table(tmp_path, genesis, 1, bot=False)]
    with trio.move_on_after(40):
        await wire(tables)
    assert any(e.kind == "open" and e.seat == 1 for e in tables[1].envelopes) and not tables[1].finished
    restarted = reload(tables[1])
    assert restarted.session.run.hidden.own(1) == tables[1].session.run.hidden.own(1) is not None
    await wire([tables[0], restarted])
    assert restarted.finished and restarted.envelopes == tables[0].envelopes
    assert verify(load(restarted.transcript_bytes())).valid


async def test_a_node_disputes_a_deal_that_opens_to_no_card_and_the_verifier_names_the_cheater(tmp_path, autojump_clock):
    genesis = signed_genesis("towers", 2, version=2)  # version 3 refuses the wrong key on receipt (deck.bad-key)
    tables = [live_table(tmp_path, genesis, 0), live_table(tmp_path, genesis, 1)]
    cheater = tables[1].session.run
    honest_keys_body = type(cheater).keys_body

    def wrong_keys(run, seat, handles):
        body = honest_keys_body(run, seat, handles)
        record, position = run.handles[handles[0]]
        body["keys"][0][1] = record.keys_of(seat).position_keys[(position + 1) % record.deck.size]
        return body

    tables[1].session.run.keys_body = wrong_keys.__get__(cheater)
    await wire(tables)
    session = tables[0].session
    assert session.result.reason == "disputed"
    assert [envelope.kind for envelope in tables[0].envelopes].count("dispute") == 1
    dispute = next(envelope for envelope in tables[0].envelopes if envelope.kind == "dispute")
    assert dispute.seat == 0
    report = verify(load(tables[0].transcript_bytes()))
    assert [(v.seat, v.rule) for v in report.violations] == [(1, "deck.key-mismatch")]


@pytest.mark.usefixtures("blind_game")
async def test_silent_seats_get_a_random_deck_and_marked_default_choices_from_their_own_timers(tmp_path, autojump_clock):
    genesis = signed_genesis("blind", 2, {"turn_seconds": 5}, variant="plain")
    tables = [live_table(tmp_path, genesis, seat, bot=False) for seat in range(2)]
    with trio.move_on_after(3):  # the decks are chosen by the timers; restart one seat meanwhile
        await wire(tables)
    tables[1] = reload(tables[1])
    await wire(tables)
    assert tables[0].envelopes == tables[1].envelopes and tables[0].finished
    choices = [e for e in tables[0].envelopes if e.kind == "choice"]
    assert choices and all(e.body.get("default") is True for e in choices)
    assert verify(load(tables[1].transcript_bytes())).valid


async def test_a_node_disputes_a_share_it_can_read_as_false_and_the_verifier_names_its_sender(tmp_path, autojump_clock, monkeypatch):
    """Zeeslag's shared sea: seat 1's node claims an impossible value for a border cell; the other
    candidate decodes the share, disputes, and the seed reveal pins the share on seat 1."""
    from fairtable.protocol.fair import masked_sum
    from fairtable.protocol.session.summing import SumRound

    honest = SumRound.shares_body

    def false_share(self, seat):
        body = honest(self, seat)
        if seat == 1:
            index, share = body["shares"][0]
            record = self.records[index]
            value = self.book.run.hidden.own(seat)["ships"][dict(record.terms)[seat]]
            body["shares"][0][1] = (share + 2 - value) % masked_sum.modulus(len(record.terms), record.bound)  # claims 2
        return body

    monkeypatch.setattr(SumRound, "shares_body", false_share)
    genesis = signed_genesis("zeeslag", 3, {"fleet": "ten"}, variant="shared")
    tables = [live_table(tmp_path, genesis, seat) for seat in range(3)]
    await wire(tables)
    assert tables[0].session.result.reason == "disputed"
    disputes = [envelope for envelope in tables[0].envelopes if envelope.kind == "dispute"]
    assert len(disputes) == 1 and disputes[0].seat != 1
    report = verify(load(tables[0].transcript_bytes()))
    assert {(v.seat, v.rule) for v in report.violations} == {(1, "sum.bad-share")}


async def test_a_cheat_caught_live_is_shown_to_the_client_and_exported_as_a_proof_anyone_checks(tmp_path):
    genesis = signed_genesis("counting", 2)
    tables = [live_table(tmp_path, genesis, seat, bot=False) for seat in range(2)]
    settle(tables)
    cheat = Envelope.seal(KEYS[0], genesis.table_id, 2, tables[1].session.head, 0, "move", {"faces": [], "keys": [], "move": 9})
    assert tables[1].offer(cheat).outcome is Outcome.REFUSED
    (shown,) = tables[1].update().violations
    assert (shown["seat"], shown["rule"]) == (0, "counting.move") and "evidence" in shown
    proof = load(tables[1].proof_bytes(0))
    assert len(proof.transcript) == 2 and proof.evidence == (cheat,)
    assert (0, "counting.move") in [(v.seat, v.rule) for v in verify(proof).violations]
    assert [v.rule for v in reload(tables[1]).violations()] == ["counting.move"]  # the evidence is journaled


async def test_a_bots_reply_is_journaled_in_one_batch_with_the_envelope_it_answers(tmp_path):
    """One fsync for both, and nothing of either leaves the node before both are on disk."""
    genesis = signed_genesis("counting", 2)
    batches: list[bytes] = []

    def writer(fd: int, data: bytes) -> int:
        batches.append(data)
        return os.write(fd, data)

    person = live_table(tmp_path, genesis, 0, bot=False)
    bot = live_table(tmp_path, genesis, 1, files=TableFiles(tmp_path / "node-1", genesis.table_id, writer=writer))
    settle([person, bot])
    person.play(1)
    move = person.envelopes[-1]
    version, before = bot.version, len(batches)
    assert bot.offer(move).outcome is Outcome.ACCEPTED
    reply = bot.envelopes[-1]
    assert bot.envelopes[-2] == move and reply.seat == 1 and reply.kind == "move"  # answered at once
    assert len(batches) == before + 1 and move.content in batches[-1] and reply.content in batches[-1]
    assert bot.version > version
    assert reload(bot).envelopes == bot.envelopes


async def _frozen_past_the_deadline(tmp_path, mock_clock, nursery, *, answered: bool):
    """Seat 1 is due; seat 0's node freezes past seat 1's deadline plus grace. If seat 1 answered
    in time, its envelope waits in seat 0's socket and is read only after seat 0's timers fired."""
    genesis = signed_genesis("counting", 2, {"turn_seconds": 5})
    judge, due = live_table(tmp_path, genesis, 0, bot=False, timing=Timing(grace=10)), live_table(tmp_path, genesis, 1, bot=False)
    settle([judge, due])
    judge.play(2)
    settle([judge, due])
    nursery.start_soon(judge.keep_time)
    await trio.testing.wait_all_tasks_blocked()
    mock_clock.jump(1)
    if answered:
        due.play(3)
    mock_clock.jump(100)
    await trio.testing.wait_all_tasks_blocked()  # the judge's timers run first
    return judge, due


def claims(table):
    return [e for e in [*table.envelopes, *table.replica.off_chain()] if e.kind == "absent"]


async def test_a_node_that_wakes_past_a_deadline_reads_the_envelope_that_waited_before_it_judges(tmp_path, mock_clock):
    async with trio.open_nursery() as nursery:
        judge, due = await _frozen_past_the_deadline(tmp_path, mock_clock, nursery, answered=True)
        assert judge.offer(due.envelopes[-1]).outcome is Outcome.ACCEPTED  # the link reads what waited
        mock_clock.jump(60)
        await trio.testing.wait_all_tasks_blocked()
        assert not claims(judge) and not judge.violations()
        assert list(judge.envelopes[: len(due.envelopes)]) == list(due.envelopes)
        nursery.cancel_scope.cancel()


async def test_a_node_that_wakes_past_a_deadline_and_finds_nothing_claims_after_the_grace(tmp_path, mock_clock):
    async with trio.open_nursery() as nursery:
        judge, _ = await _frozen_past_the_deadline(tmp_path, mock_clock, nursery, answered=False)
        assert not claims(judge)
        mock_clock.jump(9.9)
        await trio.testing.wait_all_tasks_blocked()
        assert not claims(judge)
        mock_clock.jump(0.1)
        await trio.testing.wait_all_tasks_blocked()
        assert [(c.seat, c.body) for c in claims(judge)] == [(0, {"seat": 1})]
        nursery.cancel_scope.cancel()


async def test_a_node_restarted_with_a_finished_journal_writes_the_transcript_it_lacks(tmp_path):
    """Killed while writing the transcript: the restart finds the table finished, writes the file
    and removes what the cut write left."""
    genesis = signed_genesis("counting", 2)
    tables = [live_table(tmp_path, genesis, seat) for seat in range(2)]
    settle(tables)
    path = tables[0].files.dir / "transcript.ftt"
    written = path.read_bytes()
    path.unlink()
    path.with_name("transcript.ftt.tmp").write_bytes(written[:20])
    restarted = reload(tables[0])
    assert restarted.saved and path.read_bytes() == written
    assert not path.with_name("transcript.ftt.tmp").exists()


async def test_a_fork_that_changes_a_finished_tables_end_withdraws_it_and_writes_the_new_one(tmp_path, autojump_clock):
    genesis = signed_genesis("counting", 2, {"turn_seconds": 5})
    claimant, late = live_table(tmp_path, genesis, 0, timing=Timing(grace=10)), live_table(tmp_path, genesis, 1, bot=False)
    settle([claimant, late])
    await wire([claimant, late], cut=frozenset({1}))
    path = claimant.files.dir / "transcript.ftt"
    assert claimant.update().result["reason"] == "forfeit" and load(path.read_bytes()).transcript.envelopes[-1].kind == "seed"
    late.play(1)
    assert claimant.offer(late.envelopes[-1]).outcome is Outcome.ACCEPTED
    reopened = claimant.update()
    assert reopened.phase == "playing" and not claimant.saved and not path.exists()
    assert reopened.result["reason"] == "disputed"  # the seed it revealed on the claim was exposed; the forfeit is gone
    settle([claimant, late])
    assert claimant.update().phase == "finished" and claimant.saved
    assert path.read_bytes() == claimant.transcript_bytes() and verify(load(path.read_bytes())).result.reason == "disputed"


class Overreaching:
    """Plays, once, a card of its hand it cannot afford (as a buggy bot might); else asks ``bot``."""

    def __init__(self, bot) -> None:
        self.bot, self.tried = bot, []

    def choose(self, game, state, seat):
        legal = game.legal_moves(state, seat)
        unaffordable = [handle for handle in state.hands[seat] if {"play": handle} not in legal]
        if unaffordable and not self.tried and not state.must_discard:
            self.tried.append(unaffordable[0])
            return {"play": unaffordable[0]}
        return self.bot.choose(game, state, seat)


async def test_a_bots_move_the_rules_refuse_is_logged_in_the_games_words_and_not_sent(tmp_path, autojump_clock, caplog):
    genesis = signed_genesis("towers", 2, {"turn_seconds": 5})
    tables = [live_table(tmp_path, genesis, seat) for seat in range(2)]
    tables[0].bot = bot = Overreaching(tables[0].bot)
    with caplog.at_level(logging.WARNING, logger="fairtable.node"):
        await wire(tables)
    assert bot.tried, "seat 0 never held a card it could not afford"
    refused = {"play": bot.tried[0]}
    assert re.search(rf"the bot's move {re.escape(repr(refused))} is refused: .+ costs \d+ (ore|mana|soldiers); you have \d+ "
                     r"\(rule towers\.cost\)", caplog.text), caplog.text
    assert tables[0].session.result is not None  # the seat went on (its bot asked again, or the timer played)
    assert tables[0].envelopes == tables[1].envelopes and verify(load((tables[0].files.dir / "transcript.ftt").read_bytes())).valid


async def test_the_update_of_the_seat_due_names_its_decision_and_marks_the_cards_the_rules_refuse(tmp_path):
    """The hand is dealt from fresh seeds: whichever cards it cannot afford are the ones marked."""
    genesis = signed_genesis("towers", 2)
    tables = [live_table(tmp_path, genesis, 0, bot=False), live_table(tmp_path, genesis, 1, bot=False)]
    settle(tables)
    due, other = (tables[0], tables[1]) if tables[0].session.awaiting_decision() else (tables[1], tables[0])
    update = due.update()
    assert update.your_turn and update.prompt == "play or discard a card"
    hand = [entry["handle"] for entry in update.view["hand"]]
    refused = [play for play in ({"play": handle} for handle in hand) if play not in update.legal_moves]
    assert [entry["move"] for entry in update.unplayable] == refused
    assert all(entry["mark"] == "cost" and entry["text"] == say(due.session.explain(entry["move"])) for entry in update.unplayable)
    assert (other.update().prompt, other.update().unplayable) == (None, ())
