"""Hand cards chosen by keys on the card games' boards, on tables of seeded games: a game lists
one move per distinct play, naming only the first of two identical cards, so the copy under the
cursor must still play that move; and cards that make no move say so instead of doing nothing."""

from __future__ import annotations

from fairtable.games.drachenherz.catalogue import kind_of
from tests.node.clients.tui.person import Person, play
from tests.node.clients.tui.tables import dh_label, sj_played, table_with_copy


def test_drachenherz_the_unlisted_copy_of_a_card_under_the_cursor_lays_the_listed_play_of_its_kind_and_value():
    update, index = table_with_copy("drachenherz")
    hand = update["view"]["hand"]

    async def body(person: Person) -> None:
        text = await person.press(*["right"] * index, "enter")
        if "Take which field?" in text:
            await person.press("1")
        assert len(person.sent) == 1
        sent = person.sent[0]
        assert sent in update["legal_moves"]
        assert [dh_label(next(e["card"] for e in hand if e["handle"] == h)) for h in sent["play"]] == [dh_label(hand[index]["card"])]

    play(update, body)


def test_drachenherz_cards_of_two_kinds_lay_nothing_and_the_board_says_why():
    update, _ = table_with_copy("drachenherz")
    hand = update["view"]["hand"]
    second = next(i for i, entry in enumerate(hand) if kind_of(entry["card"]) != kind_of(hand[0]["card"]))

    async def body(person: Person) -> None:
        text = await person.press("space", *["right"] * second, "space", "enter")
        assert person.sent == [] and "these cards make no play now: a play lays cards of one kind" in text
        text = await person.press("right")
        assert "these cards make no play now" not in text

    play(update, body)


def test_shengji_the_unlisted_copy_of_a_card_under_the_cursor_plays_the_listed_move_of_its_face():
    update, index = table_with_copy("shengji")
    hand = update["view"]["hand"]

    async def body(person: Person) -> None:
        await person.press(*["right"] * index, "enter")
        assert len(person.sent) == 1
        sent = person.sent[0]
        assert sent in update["legal_moves"] and [next(e["card"] for e in hand if e["handle"] == h) for h in sj_played(sent)] == [hand[index]["card"]]

    play(update, body)
