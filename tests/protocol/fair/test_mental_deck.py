from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nacl import bindings

from fairtable.protocol import codec
from fairtable.protocol.fair.errors import FairnessError
from fairtable.protocol.fair.group import ORDER, Ops, hash_to_point, invert, is_point, product
from fairtable.protocol.fair.mental_deck import (
    LOCK,
    SHUFFLE,
    SHUFFLE_LOCK,
    Card,
    Deck,
    DeckKeys,
    check_composition_body,
    check_keys,
    check_stage,
    composition_body,
    composition_commitment,
    key_body,
    open_position,
    open_positions,
    run_stage,
    stage_body,
    verify_deck,
)
from tests.protocol.fair.support import chi_square, chi_square_limit, make_game, make_seeds

FIELD = (1 << 255) - 19
SMALL_ORDER_POINT = (FIELD - 1).to_bytes(32, "little")  # (0, -1), of order 2
NON_CANONICAL = FIELD.to_bytes(32, "little")  # y = p, which is y = 0 spelled the long way


def on_curve(y):
    d = -121665 * pow(121666, -1, FIELD) % FIELD
    x2 = (y * y - 1) * pow(d * y * y + 1, -1, FIELD) % FIELD
    return x2 == 0 or pow(x2, (FIELD - 1) // 2, FIELD) == 1


OFF_CURVE = next(y for y in range(2, 100) if not on_curve(y)).to_bytes(32, "little")


def shuffle(deck, seeds, composition=None, tamper=None, ops=None):
    """Run every stage with every seat honest, except ``tamper(index, entries) -> entries``.

    Each stage goes through the codec and the live checks, as it would on the wire.
    """
    keys = {seat: DeckKeys.derive(seeds[seat], deck) for seat in deck.seats}
    entries, stages = deck.initial(composition), []
    for stage in deck.stages:
        entries = run_stage(deck, stage.index, keys[stage.seat], entries, ops)
        if tamper is not None:
            entries = tamper(stage.index, entries)
        commitment = None
        if deck.owner is not None and stage.index == 0:
            commitment = composition_commitment(seeds[deck.owner], deck, composition)
        body = codec.decode(codec.encode(stage_body(deck, stage.index, entries, commitment)))
        entries = check_stage(deck, stage.index, body)
        stages.append(entries)
    return keys, stages


def all_keys(deck, keys, position):
    return {seat: keys[seat].position_keys[position] for seat in deck.seats}


def open_all(deck, keys, final):
    """Open every position in one batch."""
    return open_positions(deck, dict(enumerate(final)), published_keys(deck, keys))


def published_keys(deck, keys):
    return {seat: dict(enumerate(keys[seat].position_keys)) for seat in deck.seats}


@pytest.fixture(scope="module")
def table():
    game = make_game()
    seeds = make_seeds(game, 3)
    deck = Deck.public(game, "main", [0, 1, 2], [10, 11, 12, 12, 13, 14])
    keys, stages = shuffle(deck, seeds)
    return deck, seeds, keys, stages


def test_schedule_is_shuffles_then_locks():
    deck = Deck.public(make_game(), "main", [2, 0, 1], [1, 2])
    assert [(s.kind, s.seat) for s in deck.stages] == [
        (SHUFFLE, 2), (SHUFFLE, 0), (SHUFFLE_LOCK, 1), (LOCK, 2), (LOCK, 0)
    ]
    hidden = Deck.hidden(make_game(), "own", [0, 1, 2], 1, 3, [5, 6], 2)
    assert [s.seat for s in hidden.stages] == [1, 0, 2, 1, 0]


def test_copies_are_distinct_points_and_decks_do_not_share_points(table):
    deck = table[0]
    assert deck.candidates[2:4] == (Card(12, 0), Card(12, 1))
    assert len(set(deck.points)) == deck.size and all(is_point(p) for p in deck.points)
    discard = Deck.public(deck.game, "discard-1", deck.seats, deck.cards)
    other_game = Deck.public(make_game(index=1), "main", deck.seats, deck.cards)
    assert not set(deck.points) & set(discard.points)
    assert not set(deck.points) & set(other_game.points)


def test_a_shuffle_deals_every_card_exactly_once(table):
    deck, _, keys, stages = table
    cards = open_all(deck, keys, stages[-1])
    assert sorted(cards.values()) == sorted(deck.candidates)


def test_batch_and_single_openings_agree(table):
    deck, _, keys, stages = table
    one_by_one = {}
    for position, entry in enumerate(stages[-1]):
        one_by_one[open_position(deck, position, entry, all_keys(deck, keys, position), one_by_one)] = position
    assert {position: card for card, position in one_by_one.items()} == open_all(deck, keys, stages[-1])
    with pytest.raises(ValueError):
        open_positions(deck, {0: stages[-1][0], 1: stages[-1][1]}, {s: {0: keys[s].position_keys[0]} for s in deck.seats})


def test_final_order_is_the_composition_of_the_permutations(table):
    deck, _, keys, stages = table
    order = list(range(deck.size))
    for stage in deck.stages:
        if stage.kind != LOCK:
            order = [order[i] for i in keys[stage.seat].permutation]
    cards = open_all(deck, keys, stages[-1])
    assert [cards[p] for p in range(deck.size)] == [deck.candidates[i] for i in order]


def test_shuffle_counts_its_multiplications():
    game = make_game()
    deck = Deck.public(game, "main", [0, 1, 2, 3], range(9))
    ops = Ops()
    shuffle(deck, make_seeds(game, 4), ops=ops)
    assert ops.mults == (2 * 4 - 1) * 9


@settings(max_examples=15, deadline=None)
@given(st.binary(min_size=1, max_size=8), st.integers(1, 3), st.integers(2, 7))
def test_same_seeds_same_deck_different_seeds_different_order(tag, seats, size):
    game = make_game()
    deck = Deck.public(game, "main", range(seats), range(size))
    seeds = make_seeds(game, seats, tag.hex())
    keys, stages = shuffle(deck, seeds)
    assert shuffle(deck, seeds)[1] == stages
    cards = open_all(deck, keys, stages[-1])
    assert sorted(cards.values()) == sorted(deck.candidates)
    _other_keys, other_stages = shuffle(deck, make_seeds(game, seats, tag.hex() + "'"))
    assert other_stages[-1] != stages[-1]
    assert not set(other_stages[-1]) & set(stages[-1])


def test_different_seeds_give_different_orders():
    game = make_game()
    deck = Deck.public(game, "main", [0, 1], range(12))
    orders = set()
    for tag in range(5):
        keys, stages = shuffle(deck, make_seeds(game, 2, str(tag)))
        cards = open_all(deck, keys, stages[-1])
        orders.add(tuple(cards[p] for p in range(deck.size)))
    assert len(orders) == 5


def test_every_card_reaches_every_position_uniformly():
    """Chi-square on (card, position) frequencies of the real key derivation, many fixed seeds."""
    game = make_game()
    size, seats, samples = 6, 3, 6000
    deck = Deck.public(game, "main", range(seats), range(size))
    counts = Counter()
    for sample in range(samples):
        order = list(range(size))
        for seed in make_seeds(game, seats, f"uniform/{sample}").values():
            permutation = seed.stream("deck/permutation", deck.name).permutation(size)
            order = [order[i] for i in permutation]
        counts.update((card, position) for position, card in enumerate(order))
    assert len(counts) == size * size
    cells = [counts[(card, position)] for card in range(size) for position in range(size)]
    assert chi_square(cells, samples / size) < chi_square_limit((size - 1) ** 2)


def test_the_uniformity_test_uses_the_deck_permutation(table):
    deck, seeds, keys, _ = table
    assert keys[1].permutation == seeds[1].stream("deck/permutation", deck.name).permutation(deck.size)


def test_a_dealt_card_opens_only_for_its_recipient(table):
    deck, _, keys, stages = table
    position, recipient = 3, 1
    published = {seat: keys[seat].position_keys[position] for seat in deck.seats if seat != recipient}
    body = codec.decode(codec.encode(key_body(deck, keys[0], [position])))
    assert check_keys(deck, 0, body) == {position: keys[0].position_keys[position]}
    card = open_position(deck, position, stages[-1][position], {**published, recipient: keys[recipient].position_keys[position]})
    assert card in deck.candidates
    # Another seat substitutes its own key for the missing one; a spectator uses none at all.
    for seat in deck.seats:
        if seat != recipient:
            with pytest.raises(FairnessError) as caught:
                open_position(deck, position, stages[-1][position], {**published, recipient: keys[seat].position_keys[position]})
            assert caught.value.rule == "deck.no-card"
    scalar = bindings.crypto_core_ed25519_scalar_invert(
        bindings.crypto_core_ed25519_scalar_mul(*published.values())
    )
    partial = bindings.crypto_scalarmult_ed25519_noclamp(scalar, stages[-1][position])
    assert partial not in deck.lookup


def test_public_reveal_by_the_holder(table):
    deck, _, keys, stages = table
    bodies = [codec.decode(codec.encode(key_body(deck, keys[seat], [0, 4]))) for seat in deck.seats]
    published = {seat: check_keys(deck, seat, body) for seat, body in zip(deck.seats, bodies)}
    for position in (0, 4):
        card = open_position(deck, position, stages[-1][position], {s: published[s][position] for s in deck.seats})
        assert card == open_all(deck, keys, stages[-1])[position]


@settings(max_examples=25, deadline=None)
@given(st.lists(st.binary(min_size=32, max_size=32), min_size=3, max_size=3, unique=True), st.integers(0, 4))
def test_stage_and_key_messages_round_trip(entries, stage):
    deck = Deck.public(make_game(), "main", [0, 1, 2], [1, 2, 3])
    body = stage_body(deck, stage, entries)
    assert check_stage(deck, stage, codec.decode(codec.encode(body))) == tuple(entries)
    keys = DeckKeys.derive(make_seeds(make_game(), 1)[0], deck)
    body = key_body(deck, keys, [2, 0])
    assert check_keys(deck, 0, codec.decode(codec.encode(body))) == {0: keys.position_keys[0], 2: keys.position_keys[2]}


# ---------------------------------------------------------------- cheats caught live


def test_duplicated_entry_names_the_stage_seat(table):
    deck, _, _, stages = table
    entries = list(stages[1])
    entries[4] = entries[1]
    with pytest.raises(FairnessError) as caught:
        check_stage(deck, 1, stage_body(deck, 1, entries))
    assert (caught.value.seat, caught.value.rule) == (deck.stages[1].seat, "deck.duplicate-entry")


def test_wrong_count_and_malformed_entries_name_the_stage_seat(table):
    deck, _, _, stages = table
    for entries, rule in (
        (stages[2][:-1], "deck.wrong-count"),
        (stages[2] + stages[2][:1], "deck.wrong-count"),
        (stages[2][:-1] + (b"short",), "deck.malformed-stage"),
    ):
        with pytest.raises(FairnessError) as caught:
            check_stage(deck, 2, stage_body(deck, 2, entries))
        assert (caught.value.seat, caught.value.rule) == (deck.stages[2].seat, rule)
    with pytest.raises(FairnessError) as caught:
        check_stage(deck, 2, stage_body(deck, 3, stages[2]))
    assert caught.value.seat == deck.stages[2].seat


@pytest.mark.parametrize("kind", ["off-curve", "torsion", "small-order", "non-canonical"])
def test_entry_outside_the_group_is_named_by_the_next_multiplication(table, kind):
    deck, seeds, _, _ = table
    bad = {
        "off-curve": OFF_CURVE,
        "torsion": bindings.crypto_core_ed25519_add(hash_to_point("test", b"any"), SMALL_ORDER_POINT),
        "small-order": SMALL_ORDER_POINT,
        "non-canonical": NON_CANONICAL,
    }[kind]
    assert not is_point(bad)
    for cheater in range(len(deck.stages) - 1):
        def tamper(index, entries):
            return entries[:2] + (bad,) + entries[3:] if index == cheater else entries

        with pytest.raises(FairnessError) as caught:
            shuffle(deck, seeds, tamper=tamper)
        assert (caught.value.seat, caught.value.rule) == (deck.stages[cheater].seat, "deck.invalid-point")
        assert "entry 2" in caught.value.detail
    # A bad final entry is named when its position is opened.
    keys, _stages = shuffle(deck, seeds)
    with pytest.raises(FairnessError) as caught:
        open_position(deck, 2, bad, all_keys(deck, keys, 2))
    assert (caught.value.seat, caught.value.rule) == (deck.stages[-1].seat, "deck.invalid-point")


@pytest.mark.parametrize("key", [bytes(32), ORDER.to_bytes(32, "little"), b"\xff" * 32, b"short"])
def test_non_canonical_keys_name_their_seat(table, key):
    deck = table[0]
    with pytest.raises(FairnessError) as caught:
        check_keys(deck, 2, {"deck": deck.name, "keys": [[0, key]]})
    assert (caught.value.seat, caught.value.rule) == (2, "deck.malformed-keys")


def test_malformed_key_messages_name_their_seat(table):
    deck, _, keys, _ = table
    good = keys[1].position_keys
    for body in (
        {"deck": "other", "keys": [[0, good[0]]]},
        {"deck": deck.name, "keys": []},
        {"deck": deck.name, "keys": [[deck.size, good[0]]]},
        {"deck": deck.name, "keys": [[1, good[1]], [0, good[0]]]},
        {"deck": deck.name, "keys": [[1, good[1]], [1, good[1]]]},
        {"deck": deck.name, "keys": [[0]]},
    ):
        with pytest.raises(FairnessError) as caught:
            check_keys(deck, 1, body)
        assert caught.value.seat == 1


# ---------------------------------------------------------------- cheats caught after the seed reveal


def test_wrong_position_key_is_seen_live_and_named_after_the_reveal(table):
    deck, seeds, keys, stages = table
    cheater, position = 2, 1
    forged = bindings.crypto_core_ed25519_scalar_add(keys[cheater].position_keys[position], (1).to_bytes(32, "little"))
    shown = {**all_keys(deck, keys, position), cheater: forged}
    with pytest.raises(FairnessError) as caught:
        open_position(deck, position, stages[-1][position], shown)
    assert caught.value.seat is None and caught.value.rule == "deck.no-card"
    assert set(caught.value.suspects) == set(deck.seats)
    published = published_keys(deck, keys)
    verify_deck(deck, seeds, stages, published)
    published[cheater][position] = forged
    with pytest.raises(FairnessError) as caught:
        verify_deck(deck, seeds, stages, published)
    assert (caught.value.seat, caught.value.rule) == (cheater, "deck.key-mismatch")


@pytest.mark.parametrize("cheat_stage", range(5))
def test_tampered_stage_passes_live_checks_and_is_named_after_the_reveal(table, cheat_stage):
    """The cheater swaps two entries. Before the position keys exist that passes every live
    check (it is just another order); after, the two positions open to no card."""
    deck, seeds, _, _ = table

    def tamper(index, entries):
        if index != cheat_stage:
            return entries
        return (entries[1], entries[0]) + entries[2:]

    keys, stages = shuffle(deck, seeds, tamper=tamper)
    if deck.stages[cheat_stage].kind == SHUFFLE:
        assert sorted(open_all(deck, keys, stages[-1]).values()) == sorted(deck.candidates)
    else:
        with pytest.raises(FairnessError, match="no card"):
            open_all(deck, keys, stages[-1])
    with pytest.raises(FairnessError) as caught:
        verify_deck(deck, seeds, stages, {})
    assert (caught.value.seat, caught.value.rule) == (deck.stages[cheat_stage].seat, "deck.stage-mismatch")


def test_lock_reusing_another_entry_repeats_a_card(table):
    """A coalition knowing every position key has the last locker turn position 0's entry into
    position 1's: the entries stay distinct, but position 1 opens to position 0's card."""
    deck, seeds, _, _ = table
    last = deck.stages[-1]
    honest = {seat: DeckKeys.derive(seeds[seat], deck) for seat in deck.seats}
    ratio = bindings.crypto_core_ed25519_scalar_mul(
        product(honest[seat].position_keys[1] for seat in deck.seats),
        invert(product(honest[seat].position_keys[0] for seat in deck.seats)),
    )

    def tamper(index, entries):
        if index != last.index:
            return entries
        return (entries[0], bindings.crypto_scalarmult_ed25519_noclamp(ratio, entries[0])) + entries[2:]

    keys, stages = shuffle(deck, seeds, tamper=tamper)
    first = open_position(deck, 0, stages[-1][0], all_keys(deck, keys, 0))
    with pytest.raises(FairnessError) as caught:
        open_position(deck, 1, stages[-1][1], all_keys(deck, keys, 1), {first: 0})
    assert caught.value.rule == "deck.card-repeated" and caught.value.seat is None
    with pytest.raises(FairnessError, match="already opened at position 0"):
        open_all(deck, keys, stages[-1])
    with pytest.raises(FairnessError) as caught:
        verify_deck(deck, seeds, stages, published_keys(deck, keys))
    assert (caught.value.seat, caught.value.rule) == (last.seat, "deck.stage-mismatch")


def test_verification_of_a_partial_shuffle(table):
    deck, seeds, _, stages = table
    verify_deck(deck, seeds, stages[:2], {})


# ---------------------------------------------------------------- hidden decks


@pytest.fixture(scope="module")
def hidden():
    game = make_game()
    seeds = make_seeds(game, 3)
    deck = Deck.hidden(game, "own-1", [0, 1, 2], owner=1, size=4, catalogue=[100, 101, 102, 103], max_copies=2)
    composition = [103, 100, 103, 101]
    return deck, seeds, composition


def test_hidden_deck_deals_its_composition(hidden):
    deck, seeds, composition = hidden
    keys, stages = shuffle(deck, seeds, composition)
    cards = open_all(deck, keys, stages[-1])
    assert sorted(card.id for card in cards.values()) == sorted(composition)
    commitment = composition_commitment(seeds[1], deck, composition)
    verify_deck(deck, seeds, stages, published_keys(deck, keys), composition, commitment)


def test_hidden_deck_commitment_hides_and_binds(hidden):
    deck, seeds, composition = hidden
    commitment = composition_commitment(seeds[1], deck, composition)
    assert commitment == composition_commitment(seeds[1], deck, sorted(composition))
    assert commitment != composition_commitment(seeds[0], deck, composition)
    _keys, stages = shuffle(deck, seeds, composition)
    for claimed, rule in (([103, 100, 102, 101], "deck.composition-mismatch"), ([103, 103, 103, 100], "deck.bad-composition")):
        with pytest.raises(FairnessError) as caught:
            verify_deck(deck, seeds, stages, {}, claimed, commitment)
        assert (caught.value.seat, caught.value.rule) == (1, rule)


def test_hidden_deck_owner_slipping_in_a_foreign_card_is_caught(hidden):
    deck, seeds, composition = hidden
    foreign = Deck.public(deck.game, deck.name, deck.seats, [999]).points[0]
    owner_keys = DeckKeys.derive(seeds[1], deck)

    def tamper(index, entries):
        if index != 0:
            return entries
        return entries[:1] + tuple(bindings.crypto_scalarmult_ed25519_noclamp(owner_keys.deck_key, p) for p in [foreign]) + entries[2:]

    keys, stages = shuffle(deck, seeds, composition, tamper=tamper)
    with pytest.raises(FairnessError) as caught:
        open_all(deck, keys, stages[-1])
    assert caught.value.rule == "deck.no-card"
    commitment = composition_commitment(seeds[1], deck, composition)
    with pytest.raises(FairnessError) as caught:
        verify_deck(deck, seeds, stages, {}, composition, commitment)
    assert (caught.value.seat, caught.value.rule) == (1, "deck.stage-mismatch")


def test_composition_reveal_message(hidden):
    deck, _, composition = hidden
    body = codec.decode(codec.encode(composition_body(deck, composition)))
    assert check_composition_body(deck, body) == tuple(sorted(composition))
    for bad, rule in (
        ({"cards": [100, 100, 100, 101], "deck": deck.name}, "deck.bad-composition"),
        ({"cards": [100, 101, 102], "deck": deck.name}, "deck.bad-composition"),
        ({"cards": composition, "deck": "other"}, "deck.malformed-composition"),
        ({"cards": composition}, "deck.malformed-composition"),
    ):
        with pytest.raises(FairnessError) as caught:
            check_composition_body(deck, bad)
        assert (caught.value.seat, caught.value.rule) == (deck.owner, rule)


def test_hidden_deck_validates_the_composition(hidden):
    deck, _, _ = hidden
    for bad in ([100, 100, 100, 101], [100, 101, 102], [100, 101, 102, 104], None):
        with pytest.raises(ValueError):
            deck.initial(bad)


def test_hidden_first_stage_message_carries_the_commitment(hidden):
    deck, seeds, composition = hidden
    _keys, stages = shuffle(deck, seeds, composition)
    with pytest.raises(FairnessError) as caught:
        check_stage(deck, 0, stage_body(deck, 0, stages[0]))
    assert (caught.value.seat, caught.value.rule) == (1, "deck.malformed-stage")


def test_deck_construction_is_checked():
    game = make_game()
    for build in (
        lambda: Deck.public(game, "", [0], [1]),
        lambda: Deck.public(game, "main", [], [1]),
        lambda: Deck.public(game, "main", [0, 0], [1]),
        lambda: Deck.public(game, "main", [0], []),
        lambda: Deck.public(game, "main", [0], [-1]),
        lambda: Deck.hidden(game, "own", [0, 1], 2, 3, [1, 2], 2),
        lambda: Deck.hidden(game, "own", [0, 1], 1, 3, [1, 1], 2),
        lambda: Deck.hidden(game, "own", [0, 1], 1, 3, [1, 2], 0),
        lambda: Deck.hidden(game, "own", [0, 1], 1, 5, [1, 2], 2),
    ):
        with pytest.raises(ValueError):
            build()
    deck = Deck.public(game, "main", [0, 1], [1, 2])
    with pytest.raises(ValueError):
        run_stage(deck, 0, DeckKeys.derive(make_seeds(game, 2)[1], deck), deck.initial())
    with pytest.raises(ValueError):
        open_position(deck, 0, deck.points[0], {0: (1).to_bytes(32, "little")})
