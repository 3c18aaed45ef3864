"""The table screen names the decision due in the game's words (the table event's ``prompt``)
and marks the hand cards the rules refuse now with the game's one word (``unplayable``), on
tables of seeded games, read and played the way a person does."""

from __future__ import annotations

from tests.node.clients.tui.person import Person, play
from tests.node.clients.tui.tables import table_at


def test_towers_after_a_draw_and_discard_card_the_header_says_discard_and_enter_discards_the_chosen_card():
    update = table_at("towers", "normal", 2, seed=1, where=lambda game, state: state.must_discard)
    hand = update["view"]["hand"]

    async def body(person: Person) -> None:
        text = await person.press("down")
        assert "discard a card, then play again" in text.splitlines()[0] and "your turn" not in text
        assert "Enter discard" in text and "Enter play" not in text
        await person.press("enter")
        assert person.sent == [{"discard": hand[1]["handle"]}]

    play(update, body)


def test_towers_marks_each_card_it_cannot_afford_with_cost_and_enter_on_one_sends_nothing():
    update = table_at("towers", "normal", 2, seed=3, where=lambda game, state: not state.must_discard and game.unplayable(state, 0))
    marked = [entry["move"]["play"] for entry in update["unplayable"]]
    hand = update["view"]["hand"]
    index = next(i for i, entry in enumerate(hand) if entry["handle"] in marked)

    async def body(person: Person) -> None:
        text = await person.press("down")
        assert "play or discard a card" in text.splitlines()[0]
        rows = [line for line in text.splitlines() if line[:3].strip().isdecimal()]
        assert ["[cost]" in row for row in rows] == [entry["handle"] in marked for entry in hand]
        await person.press("up", *["down"] * index, "enter")
        assert person.sent == []

    play(update, body)


def test_shengji_names_declare_and_bury_and_the_keys_of_each_and_says_why_cards_are_dimmed_when_following():
    declaring = table_at("shengji", "standard", 4, seed=2, deals=1, where=lambda game, state: state.step == "declare")
    burying = table_at("shengji", "standard", 4, seed=2, deals=1, where=lambda game, state: state.step == "bury")
    following = table_at("shengji", "standard", 4, seed=5, deals=1, where=lambda game, state: game.unplayable(state, 0))

    async def declare(person: Person) -> None:
        text = await person.press("right")
        assert "declare a trump or pass" in text.splitlines()[0] and "Enter declare, p Enter pass" in text
        await person.type("p")
        await person.press("enter")
        (sent,) = person.sent
        assert sent in declaring["legal_moves"] and "pass" in sent

    async def bury(person: Person) -> None:
        text = await person.press("right")
        assert "bury 8 cards in the kitty" in text.splitlines()[0] and "Enter bury;" in text and "pass" not in text

    async def follow(person: Person) -> None:
        text = await person.press("right")
        assert "follow the lead" in text.splitlines()[0]
        assert "dimmed (follow): you must follow" in text

    play(declaring, declare)
    play(burying, bury)
    play(following, follow)


def test_the_help_lists_the_keys_of_the_game_being_played_only():
    towers = table_at("towers", "normal", 2, seed=3, nth=1)
    zeeslag = table_at("zeeslag", "duel", 2, seed=4, nth=6)

    async def on_towers(person: Person) -> None:
        text = await person.press("question_mark")
        assert "Keys at the table: towers" in text and "discard the card chosen" in text and "Ctrl+R" in text
        assert "salvo" not in text and "enemy" not in text and "shengji" not in text and "pass" not in text

    async def on_zeeslag(person: Person) -> None:
        text = await person.press("question_mark")
        assert "Keys at the table: zeeslag" in text and "a salvo such as bob:b7" in text and "Ctrl+R" in text
        assert "discard" not in text and "towers" not in text and "laser" not in text

    play(towers, on_towers)
    play(zeeslag, on_zeeslag)


def test_drachenherz_writes_the_nodes_word_beside_each_hand_card_it_marks_and_no_other():
    update = table_at("drachenherz", "standard", 2, seed=3, nth=12, match=2)
    hand = update["view"]["hand"]
    marked = {"mark": "full", "move": {"play": [hand[1]["handle"]]}, "text": "that field is full"}

    async def body(person: Person) -> None:
        line = next(line for line in (await person.press("right")).splitlines() if line.startswith("Your hand: "))
        assert line.count("[full]") == 1 and line.split("2:", 1)[1].split(" 3:")[0].endswith("[full]")

    play({**update, "unplayable": [marked]}, body)
