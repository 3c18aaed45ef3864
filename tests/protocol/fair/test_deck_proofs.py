"""The proof layer of the mental deck (fairness.md §12): honest stages verify, every cheat class is refused naming its author."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairtable.protocol.fair.deck_proofs import (
    KeyCommitments,
    ProvenStage,
    card_points,
    check_key,
    commit_keys,
    proof_context,
    prove_stage,
    stage_work,
    verify_stage,
)
from fairtable.protocol.fair.edwards import BASE, BadPoint, ProofOps, add, base_mul, hash_to_points, mul, sub
from fairtable.protocol.fair.equal_logs import EqualLogs, prove_equal_logs, verify_equal_logs
from fairtable.protocol.fair.errors import FairnessError
from fairtable.protocol.fair.group import ORDER
from fairtable.protocol.fair.mental_deck import LOCK, SHUFFLE, Deck, DeckKeys
from fairtable.protocol.fair.seeds import Seed, Stream
from fairtable.protocol.fair.shuffle_proof import ShuffleStatement, prove_shuffle, verify_shuffle
from tests.protocol.fair.support import make_game, make_seeds

ORDER_TWO = ((1 << 255) - 20).to_bytes(32, "little")  # (0, -1), the Edwards point of order 2


class Table:
    """One deck's seats with their seeds, keys and commitments, and the honest stages computed so far."""

    def __init__(self, deck: Deck, seeds: dict[int, Seed], composition: list[int] | None = None) -> None:
        self.deck = deck
        self.seeds = seeds
        self.keys = {seat: DeckKeys.derive(seeds[seat], deck) for seat in deck.seats}
        self.commitments = {seat: commit_keys(keys) for seat, keys in self.keys.items()}
        self.initial = card_points(deck, composition)

    def prove(self, index: int, inputs: tuple[bytes, ...]) -> ProvenStage:
        seat = self.deck.stages[index].seat
        return prove_stage(self.deck, index, self.seeds[seat], self.keys[seat], self.commitments[seat], inputs)

    def verify(self, index: int, inputs: tuple[bytes, ...], stage: ProvenStage) -> None:
        verify_stage(self.deck, index, inputs, stage, self.commitments[self.deck.stages[index].seat])

    def run(self) -> list[tuple[bytes, ...]]:
        """Every stage's input, proved and verified in order; the last item is the final entries."""
        inputs = [self.initial]
        for stage in self.deck.stages:
            proven = self.prove(stage.index, inputs[-1])
            self.verify(stage.index, inputs[-1], proven)
            inputs.append(proven.entries)
        return inputs

    def open(self, final: tuple[bytes, ...], position: int) -> int:
        """The index in stage 0's input of the card at ``position``, every seat's key checked against its commitment."""
        product = 1
        for seat in self.deck.seats:
            key = self.keys[seat].position_keys[position]
            check_key(self.deck, self.commitments[seat], position, key)
            product = product * int.from_bytes(key, "little") % ORDER
        return self.initial.index(mul(pow(product, -1, ORDER), final[position]))


def public_table(seats: int, size: int, tag: str = "table") -> Table:
    game = make_game(tag)
    return Table(Deck.public(game, "draw", list(range(seats)), [card % 3 for card in range(size)]), make_seeds(game, seats))


# ---------------------------------------------------------------- completeness


@settings(max_examples=12, deadline=None)
@given(st.integers(1, 4), st.integers(1, 6), st.binary(min_size=1, max_size=6), st.booleans())
def test_honest_stages_verify_and_open_to_a_permutation_of_the_cards(seats, size, tag, hidden):
    game = make_game(tag.hex())
    seeds = make_seeds(game, seats, tag.hex())
    if hidden:
        deck = Deck.hidden(game, "secret", list(range(seats)), seats - 1, size, list(range(size + 2)), 2)
        table = Table(deck, seeds, [card // 2 for card in range(size)])
    else:
        table = public_table(seats, size, tag.hex())
    final = table.run()[-1]
    assert sorted(table.open(final, position) for position in range(size)) == list(range(size))


def test_the_final_entries_are_those_of_section_5_4_on_edwards_encodings():
    """``(∏_s k_{s,i})·point(card at p)``: a proof-carrying deck deals the cards of the deck without proofs."""
    table = public_table(3, 5)
    final = table.run()[-1]
    order = list(range(5))
    for stage in table.deck.stages:
        if stage.kind != LOCK:
            order = [order[j] for j in table.keys[stage.seat].permutation]
    assert [table.open(final, position) for position in range(5)] == order


def test_proofs_are_deterministic_given_the_seed():
    first, second = public_table(2, 4), public_table(2, 4)
    assert first.prove(0, first.initial) == second.prove(0, second.initial)


def test_a_hidden_decks_first_stage_has_no_shuffle_argument_and_later_ones_do():
    game = make_game()
    deck = Deck.hidden(game, "secret", [0, 1], 1, 3, [5, 6, 7], 1)
    table = Table(deck, make_seeds(game, 2), [5, 6, 7])
    assert table.prove(0, table.initial).shuffle is None
    assert table.prove(1, table.prove(0, table.initial).entries).shuffle is not None


# ---------------------------------------------------------------- the cheat classes, refused naming the author


def _forged(table: Table, index: int, inputs: tuple[bytes, ...], shuffled: tuple[bytes, ...] | None,
            entries: tuple[bytes, ...]) -> ProvenStage:
    """The stage a cheating author publishes: its chosen entries, with the proofs the honest prover makes for them."""
    deck, seat = table.deck, table.deck.stages[index].seat
    keys, commitments = table.keys[seat], table.commitments[seat]
    k = int.from_bytes(keys.deck_key, "little")
    honest = table.prove(index, inputs)
    shuffle = honest.shuffle
    if shuffle is not None and shuffled is not None:
        statement = ShuffleStatement(inputs, shuffled, commitments.deck_key)
        context = proof_context(deck, index, "shuffle")
        shuffle = prove_shuffle(context, statement, keys.permutation, k, Stream(bytes(32)))
    lock = honest.lock
    if lock is not None:
        before = shuffled if shuffled is not None else inputs
        statement_ = EqualLogs((commitments.deck_key,) * len(before), commitments.position_keys, before, entries)
        factors = [int.from_bytes(key, "little") * pow(k, -1, ORDER) % ORDER for key in keys.position_keys]
        try:
            lock = prove_equal_logs(proof_context(deck, index, "lock"), statement_, factors, Stream(bytes(32)))
        except BadPoint:
            pass  # the honest prover cannot multiply a torsion-mixed entry: the cheat sends the honest lock proof
    return ProvenStage(entries, shuffled, shuffle, lock)


def _shuffled_cheat(table: Table, index: int, inputs: tuple[bytes, ...], change: Callable[[list[bytes], int], None]) -> ProvenStage:
    """A shuffling stage whose shuffled entries ``change`` alters (given the author's deck key), locked honestly after."""
    seat = table.deck.stages[index].seat
    keys = table.keys[seat]
    k = int.from_bytes(keys.deck_key, "little")
    shuffled = [mul(k, inputs[j]) for j in keys.permutation]
    change(shuffled, k)
    if table.deck.stages[index].kind == SHUFFLE:
        return _forged(table, index, inputs, tuple(shuffled), tuple(shuffled))
    factors = [int.from_bytes(key, "little") * pow(k, -1, ORDER) % ORDER for key in keys.position_keys]
    return _forged(table, index, inputs, tuple(shuffled), tuple(_times(x, e) for x, e in zip(factors, shuffled)))


def _times(x: int, entry: bytes) -> bytes:
    """``x · entry``, also for an entry carrying the order-2 component libsodium's multiplication refuses."""
    try:
        return mul(x, entry)
    except BadPoint:
        product = mul(x, sub(entry, ORDER_TWO))
        return add(product, ORDER_TWO) if x % 2 else product


FOREIGN = hash_to_points("test/foreign", [b"a point the cheater prepared"])[0]


def _substitute(shuffled: list[bytes], k: int) -> None:
    shuffled[0] = mul(k, FOREIGN)


def _copy(shuffled: list[bytes], k: int) -> None:
    shuffled[-1] = shuffled[0]


def _wrong_key(shuffled: list[bytes], k: int) -> None:
    shuffled[:] = [mul(k + 1, mul(pow(k, -1, ORDER), entry)) for entry in shuffled]


def _torsion(shuffled: list[bytes], k: int) -> None:
    shuffled[0] = add(shuffled[0], ORDER_TWO)


SHUFFLE_CHEATS = {"substitute": _substitute, "copy": _copy, "reorder under a wrong key": _wrong_key, "torsion": _torsion}


def _refused(table: Table, index: int, inputs: tuple[bytes, ...], stage: ProvenStage) -> FairnessError:
    with pytest.raises(FairnessError) as caught:
        table.verify(index, inputs, stage)
    assert caught.value.seat == table.deck.stages[index].seat
    assert caught.value.rule == "deck.bad-proof"
    return caught.value


def hidden_table(seats: int) -> Table:
    game = make_game("hidden")
    deck = Deck.hidden(game, "secret", list(range(seats)), seats - 1, 5, list(range(7)), 1)
    return Table(deck, make_seeds(game, seats), [0, 2, 3, 5, 6])


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("cheat", sorted(SHUFFLE_CHEATS))
def test_a_false_shuffling_stage_is_refused_naming_its_author(seats, cheat):
    for table in (public_table(seats, 5), hidden_table(seats)):
        inputs = table.run()
        for stage in table.deck.stages:
            if stage.kind != LOCK and not (table.deck.owner is not None and stage.index == 0):
                forged = _shuffled_cheat(table, stage.index, inputs[stage.index], SHUFFLE_CHEATS[cheat])
                _refused(table, stage.index, inputs[stage.index], forged)


def test_a_hidden_decks_first_shuffle_is_the_owners_alone_to_answer_for():
    """§12.6: stage 0 of a hidden deck has a secret input, so a substituted entry there passes live."""
    table = hidden_table(2)
    forged = _shuffled_cheat(table, 0, table.initial, _substitute)
    table.verify(0, table.initial, forged)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_a_dropped_entry_is_refused_naming_its_author(seats):
    table = public_table(seats, 5)
    inputs = table.run()
    for stage in table.deck.stages:
        honest = table.prove(stage.index, inputs[stage.index])
        shorter = replace(honest, entries=honest.entries[:-1])
        assert "entries" in str(_refused(table, stage.index, inputs[stage.index], shorter))


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_a_wrong_key_for_one_position_is_refused_naming_its_author(seats):
    for table in (public_table(seats, 5), hidden_table(seats)):
        inputs = table.run()
        for stage in table.deck.stages:
            if stage.kind == SHUFFLE:
                continue
            honest = table.prove(stage.index, inputs[stage.index])
            entries = list(honest.entries)
            entries[2] = mul(2, entries[2])
            forged = _forged(table, stage.index, inputs[stage.index], honest.shuffled, tuple(entries))
            assert "lock" in str(_refused(table, stage.index, inputs[stage.index], forged))


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_a_stage_built_on_a_stale_input_is_refused(seats):
    table = public_table(seats, 5)
    inputs = table.run()
    for stage in table.deck.stages[1:]:
        stale = table.prove(stage.index, inputs[stage.index - 1])
        _refused(table, stage.index, inputs[stage.index], stale)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_a_proof_replayed_from_another_table_stage_or_author_is_refused(seats):
    table = public_table(seats, 5)
    inputs = table.run()
    elsewhere = public_table(seats, 5, tag="another table")
    reordered = Table(Deck.public(table.deck.game, "draw", [*range(1, seats), 0], table.deck.cards), table.seeds)
    for stage in table.deck.stages:
        proven = table.prove(stage.index, inputs[stage.index])
        seat = stage.seat
        with pytest.raises(FairnessError, match="bad-proof"):
            verify_stage(elsewhere.deck, stage.index, inputs[stage.index], proven, table.commitments[seat])
        if reordered.deck.stages[stage.index].kind == stage.kind:
            author = reordered.deck.stages[stage.index].seat
            # Another author replays this stage as its own, under the commitments this one made.
            with pytest.raises(FairnessError, match="bad-proof") as caught:
                verify_stage(reordered.deck, stage.index, inputs[stage.index], proven, replace(table.commitments[seat], seat=author))
            assert caught.value.seat == author
    same_kind = [s.index for s in table.deck.stages if s.kind == LOCK]
    for first, second in pairwise(same_kind):
        # A lock proof moved to another lock stage of the same seat's commitments and input.
        proven = table.prove(first, inputs[first])
        context = proof_context(table.deck, second, "lock")
        lock_statement = EqualLogs((table.commitments[table.deck.stages[first].seat].deck_key,) * 5,
                                   table.commitments[table.deck.stages[first].seat].position_keys, inputs[first], proven.entries)
        assert proven.lock is not None and not verify_equal_logs(context, lock_statement, proven.lock)


def test_a_stage_without_the_proofs_its_kind_needs_is_refused():
    table = public_table(2, 4)
    inputs = table.run()
    shuffled = table.prove(0, inputs[0])
    _refused(table, 0, inputs[0], replace(shuffled, shuffle=None))
    _refused(table, 0, inputs[0], replace(shuffled, entries=inputs[0]))
    locked = table.prove(2, inputs[2])
    _refused(table, 2, inputs[2], replace(locked, lock=None))
    _refused(table, 1, inputs[1], replace(table.prove(1, inputs[1]), shuffled=None))


def test_a_published_key_that_is_not_the_committed_one_is_refused_naming_its_sender():
    table = public_table(3, 4)
    for seat in table.deck.seats:
        keys, commitments = table.keys[seat], table.commitments[seat]
        check_key(table.deck, commitments, 1, keys.position_keys[1])
        with pytest.raises(FairnessError) as caught:
            check_key(table.deck, commitments, 1, keys.position_keys[2])
        assert (caught.value.seat, caught.value.rule) == (seat, "deck.bad-key")


# ---------------------------------------------------------------- the primitives on their own


def test_a_tampered_shuffle_proof_fails_and_never_raises():
    table = public_table(2, 4)
    inputs = table.initial
    proven = table.prove(0, inputs)
    assert proven.shuffle is not None
    statement = ShuffleStatement(inputs, proven.entries, table.commitments[0].deck_key)
    context = proof_context(table.deck, 0, "shuffle")
    proof = proven.shuffle
    assert verify_shuffle(context, statement, proof)
    tampered = [
        replace(proof, challenge=(proof.challenge + 1) % ORDER),
        replace(proof, responses=(proof.responses[0] + 1, *proof.responses[1:])),
        replace(proof, chain_responses=(0, *proof.chain_responses[1:])),
        replace(proof, vector_responses=proof.vector_responses[::-1]),
        replace(proof, permutation=proof.permutation[::-1]),
        replace(proof, chain=(ORDER_TWO, *proof.chain[1:])),
        replace(proof, permutation=(bytes(32), *proof.permutation[1:])),
        replace(proof, chain=proof.chain[:-1]),
    ]
    for bad in tampered:
        assert not verify_shuffle(context, statement, bad)
    assert not verify_shuffle(context, replace(statement, key_commitment=table.commitments[1].deck_key), proof)
    assert not verify_shuffle(context, replace(statement, outputs=(ORDER_TWO, *statement.outputs[1:])), proof)


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(1, ORDER - 1), min_size=1, max_size=4), st.binary(max_size=8))
def test_equal_logs_are_complete_and_refuse_one_wrong_statement(witnesses, context):
    a = hash_to_points("test/a", [bytes([i]) for i in range(len(witnesses))])
    statement = EqualLogs((BASE,) * len(witnesses), tuple(base_mul(x) for x in witnesses), tuple(a),
                          tuple(mul(x, p) for x, p in zip(witnesses, a)))
    proof = prove_equal_logs(context, statement, witnesses, Stream(bytes(32)))
    assert verify_equal_logs(context, statement, proof)
    assert not verify_equal_logs(context + b"!", statement, proof)
    wrong = replace(statement, b=(mul(witnesses[0] + 1, a[0]), *statement.b[1:]))
    assert not verify_equal_logs(context, wrong, prove_equal_logs(context, wrong, witnesses, Stream(bytes(32))))


def test_work_is_counted():
    table = public_table(2, 4)
    ops = ProofOps()
    prove_stage(table.deck, 0, table.seeds[0], table.keys[0], table.commitments[0], table.initial, ops)
    assert ops.mults > 4 * 4 and ops.base_mults > 0 and ops.adds > 0


def test_commitments_are_the_keys_times_the_base():
    table = public_table(2, 3)
    keys = table.keys[1]
    assert table.commitments[1] == KeyCommitments(1, base_mul(int.from_bytes(keys.deck_key, "little")),
                                                  tuple(base_mul(int.from_bytes(k, "little")) for k in keys.position_keys))


@pytest.mark.parametrize("hidden", [False, True])
def test_stage_work_is_what_proving_and_verifying_count(hidden):
    """``stage_work`` states §12.7's counts; the proofs make exactly those calls."""
    table = hidden_table(3) if hidden else public_table(3, 5)
    entries = table.initial
    for stage in table.deck.stages:
        seat = stage.seat
        prove, verify = ProofOps(), ProofOps()
        proven = prove_stage(table.deck, stage.index, table.seeds[seat], table.keys[seat], table.commitments[seat], entries, prove)
        inputs = proven.shuffled if hidden and stage.index == 0 else entries
        verify_stage(table.deck, stage.index, inputs, proven, table.commitments[seat], verify)
        assert (prove, verify) == stage_work(table.deck, stage.index)
        entries = proven.entries
