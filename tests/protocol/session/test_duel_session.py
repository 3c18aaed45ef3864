"""Duel over real sessions: secret decks nobody else learns during play, checked after it;
an illegal deck, a false reveal, a card played from outside the deck, a rebuilt deck that
takes a foreign card and a false timeout move, each caught with the right seat named."""

from __future__ import annotations

import pytest

from fairtable.games.contract import RuleError
from fairtable.games.duel.catalogue import IDS
from fairtable.games.duel.decklist import parse, write
from fairtable.games.duel.results import stats
from fairtable.protocol.session import owned
from fairtable.protocol.session.errors import Rejected
from fairtable.protocol.session.verify import verify
from fairtable.protocol.testing import SelfPlay
from tests.protocol.session.tables import all_seeds, file_bytes, play_until, slot_is, verify_bytes

SEED = b"duel"


def duel(variant: str = "1v1", options: dict | None = None, seats: int = 2, bots=("greedy", "random")) -> SelfPlay:
    return SelfPlay.create("duel", variant, options or {}, seats, SEED, [bots[seat % len(bots)] for seat in range(seats)])


@pytest.mark.parametrize("variant, options, seats", [("1v1", {}, 2), ("blind", {"swap_after_round": True}, 2), ("ffa", {}, 4),
                                                     ("1v1", {"draft": True, "rounds": 1}, 2)])
def test_each_variant_plays_over_sessions_and_verifies(variant, options, seats):
    table = duel(variant, options, seats)
    file = table.play()
    report = verify(file)
    assert report.valid, report.violations
    assert report.result == table.sessions[1].result and len(stats(report.result, seats)) == seats
    kinds = [envelope.kind for envelope in file.transcript.envelopes]
    secret = len(table.sessions[0].state.decks)  # every secret deck, rebuilt ones too, is revealed after play
    assert kinds.count("composition") == secret and secret == (0 if options.get("draft") else secret) and (secret >= seats) != bool(options.get("draft"))


def test_during_play_nobody_learns_another_seats_deck_and_nobody_the_order_of_its_own():
    table = duel("ffa", seats=3)
    play_until(table, lambda t: t.sessions[0].state.duel >= 2 and t.sessions[0].slot.kind == "move")
    for seat, session in enumerate(table.sessions):
        state = session.state
        for other, player in enumerate(state.players):
            if other == seat:
                assert player.cards is not None and len(player.cards) == 20
            else:
                assert player.cards is None  # the composition stays its owner's secret
            unknown = set(player.deck) | (set(player.hand) if other != seat else set())
            assert not unknown & set(state.faces)  # deck order: unknown to all, the owner included
        view = session.view()
        assert view["deck_cards"] == list(state.players[seat].cards)
        others = [session.view(other) for other in range(3) if other != seat]
        assert all(v["deck_cards"] is None and all(e["card"] is None for e in v["hand_cards"]) for v in others)
        played = {face for p in state.players for face in p.used}
        assert {state.faces[h] for h in state.faces} <= played | {state.faces[h] for h in state.players[seat].hand}
    stage0 = [e.body for e in table.sessions[0].envelopes if e.kind == "deck" and e.body["stage"] == 0]
    assert len(stage0) == 3 and all(set(body) == {"commitment", "deck", "deck-key", "entries", "stage"} for body in stage0)


def test_a_deck_from_a_deck_list_file_is_committed_and_revealed_after_the_game():
    table = duel()
    play_until(table, slot_is("deck", seat=0))
    chosen = parse(write(tuple(range(40, 60))))
    table.deliver(table.seal(0, *table.sessions[0].decide(list(chosen))))
    file = table.play()
    reveals = [e.body["cards"] for e in file.transcript.envelopes if e.kind == "composition" and e.seat == 0]
    assert tuple(reveals[0]) == chosen and verify(file).valid


@pytest.mark.parametrize("cards, words", [
    (list(range(19)), "holds 20 cards, the composition has 19"),
    ([0, *range(19)], "card 0 appears 2 times"),
    ([*range(19), 108], "card 108 is not in the catalogue"),
])
def test_an_illegal_deck_is_refused_by_its_owners_node_before_it_commits(cards, words):
    from fairtable.games.registry import get

    table = duel()
    play_until(table, lambda t: t.sessions[1].decision_kind == "deck")
    with pytest.raises(Rejected) as error:
        table.sessions[1].decide(cards)
    assert (error.value.violation.seat, error.value.violation.rule) == (1, "deck.bad-composition") and words in error.value.violation.detail
    with pytest.raises(RuleError) as error:  # the game's own check, as the referee and the verifier make it
        get("duel").check_composition(table.sessions[1].state, 1, tuple(sorted(cards)))
    assert error.value.rule == "duel.deck" and "seat 1" in str(error.value)


def reveal_slot(table: SelfPlay, seat: int):
    play_until(table, slot_is("composition", seat=seat))
    return table.next_message()


@pytest.mark.parametrize("change, rule", [
    (lambda cards, played: cards[:19], "deck.bad-composition"),  # 19 cards
    (lambda cards, played: [*cards[:19], cards[0]], "deck.bad-composition"),  # a duplicate
    (lambda cards, played: [*cards[:19], 500], "deck.bad-composition"),  # not in the catalogue
    (lambda cards, played: sorted({*cards} - {played} | {next(c for c in IDS if c not in cards)}), "deck.composition-mismatch"),
])
def test_an_illegal_or_false_composition_revealed_after_the_game_is_refused_naming_the_seat(change, rule):
    table = duel()
    _, kind, body = reveal_slot(table, 1)
    played = table.sessions[0].state.players[1].used[0]  # a card seat 1 played: it must be in its deck
    lie = table.seal(1, kind, dict(body, cards=change(list(body["cards"]), played)))
    with pytest.raises(Rejected) as error:
        table.sessions[0].receive(lie)
    assert (error.value.violation.seat, error.value.violation.rule) == (1, rule)
    report = verify_bytes(file_bytes(table, [lie]))
    assert [(v.seat, v.rule) for v in report.violations] == [(1, rule)]


def test_a_composition_revealed_otherwise_than_committed_is_named_by_the_verifier():
    table = duel()
    _, kind, body = reveal_slot(table, 1)
    seen = {face for p in table.sessions[0].state.players for face in p.used}
    hidden = next(card for card in body["cards"] if card not in seen)
    swapped = sorted(set(body["cards"]) - {hidden} | {next(c for c in IDS if c not in body["cards"])})
    lie = table.seal(1, kind, dict(body, cards=swapped))
    table.sessions[0].receive(lie)  # nobody saw that card or knows the salt: accepted live
    report = verify_bytes(file_bytes(table, seeds=all_seeds(table, SEED)))
    assert [(v.seat, v.rule) for v in report.violations] == [(1, "deck.stage-mismatch"), (1, "deck.composition-mismatch")]


@pytest.mark.parametrize("variant, options, decks_before", [("1v1", {"rounds": 4}, 3), ("blind", {"swap_after_round": True}, 3)])
def test_a_rebuilt_deck_that_takes_a_foreign_card_is_named_by_the_verifier(variant, options, decks_before):
    """Seat 1 rebuilds its deck (its used cards back in, or cards swapped) with a card it may
    not take. Its own node would refuse; nobody else knows its cards; the verifier names it."""
    table = duel(variant, options)
    cheat = {}

    def tamper(seat, kind, body):
        session = table.sessions[seat]
        if seat == 1 and kind == "deck" and body["stage"] == 0 and len(session.run.decks) == decks_before + 1:
            honest = list(owned.known_composition(session.run, session.run.decks[-1]) or ())
            player = session.state.players[1]
            foreign = next(c for c in IDS if c not in player.cards)
            cards = sorted(honest[1:] + [foreign])
            with pytest.raises(RuleError) as error:
                session.game.check_composition(session.state, 1, tuple(cards))
            assert error.value.rule == "duel.rebuild"
            cheat["cards"] = cards
            body = owned.choose(session.run, session.run.decks[-1], cards)
        return kind, body

    while not (slot_is("composition", seat=1)(table) and len(cheat) and _revealing_rebuilt(table)):
        table.step(tamper)
    _, kind, body = table.next_message()
    assert body["cards"] == cheat["cards"]
    envelope = table.seal(1, kind, body)
    table.sessions[0].receive(envelope)  # seat 0 cannot know which cards seat 1 may take
    report = verify_bytes(file_bytes(table, seeds=all_seeds(table, SEED)))
    assert [(v.seat, v.rule) for v in report.violations] == [(1, "duel.rebuild")]
    assert "seat 1" in report.violations[0].detail


def _revealing_rebuilt(table: SelfPlay) -> bool:
    """The composition due is seat 1's rebuilt deck (its second)."""
    done = [e for e in table.sessions[0].envelopes if e.kind == "composition" and e.seat == 1]
    return len(done) == 1


def test_a_timeout_move_that_is_not_the_default_is_named_by_the_verifier():
    table = duel(bots=("random", "random"))
    play_until(table, lambda t: t.sessions[0].slot.kind == "move" and t.sessions[0].slot.seat == 0)
    session = table.sessions[0]
    default = session.game.default_move(session.state, 0)
    other = next(h for h in session.state.players[0].hand if h != default["attack"])
    move = {"attack": other, "timeout": True}
    body = session.run.move_body(0, move, (other,))
    with pytest.raises(Rejected):
        session.move_body(move)  # its own node knows the hand: it refuses
    envelope = table.seal(0, "move", body)
    table.sessions[1].receive(envelope)  # the opponent cannot tell
    report = verify_bytes(file_bytes(table, [envelope], seeds=all_seeds(table, SEED)))
    assert [(v.seat, v.rule) for v in report.violations] == [(0, "duel.timeout")]
