"""The board chosen for each table, typed moves read by the game, and results in words, without a screen."""

from __future__ import annotations

from fairtable.node.clients.tui.boards import board_for, move_hint, pick, typed_by_game
from fairtable.node.clients.tui.boards.drachenherz import DrachenherzBoard
from fairtable.node.clients.tui.boards.duel import DuelBoard
from fairtable.node.clients.tui.boards.generic import GenericBoard
from fairtable.node.clients.tui.boards.space import SpaceBoard
from fairtable.node.clients.tui.boards.zeeslag import ZeeslagBoard
from fairtable.node.clients.tui.screens.final import outcome
from tests.node.clients.tui.tables import table_at


def test_each_game_gets_its_board_and_an_unknown_game_or_variant_the_generic_one():
    assert type(board_for({"game": "zeeslag", "variant": "shared"})) is ZeeslagBoard
    assert type(board_for({"game": "duel", "variant": "ffa"})) is DuelBoard
    assert type(board_for({"game": "drachenherz", "variant": "standard"})) is DrachenherzBoard
    assert type(board_for({"game": "zeeslag", "variant": "space"})) is SpaceBoard
    assert type(board_for({"game": "zeeslag", "variant": "nebula"})) is GenericBoard  # a variant still to come
    assert type(board_for({"game": "chess", "variant": "blitz"})) is GenericBoard


def test_a_salvo_is_typed_by_the_enemies_names_as_the_game_reads_it_and_its_hint_says_how():
    update = table_at("zeeslag", "duel", 3, seed=1, nth=3)  # alice (you), bob and carol
    assert pick(update, "bob:b7 carol:c3") is None  # no listed move matches
    assert typed_by_game(update, "bob:b7 carol:c3") == typed_by_game(update, "b:b7 C:c3") == {"salvo": [[1, 16], [2, 22]]}
    assert typed_by_game(update, "1:b7 2:c3") is None and typed_by_game(update, "alice:b7") is None  # no seat numbers; not yourself
    assert typed_by_game(update, "zz") is None
    assert "Type 1 shots at each of bob, carol, e.g. 'bob: B7 C3'" in (move_hint(update) or "")
    assert typed_by_game({**update, "your_turn": False}, "bob:b7") is None and move_hint({**update, "your_turn": False}) is None


def test_an_unknown_game_is_neither_hinted_nor_parsed():
    update = {"game": "chess", "variant": "blitz", "your_turn": True, "legal_moves": [], "view": {"x": 1}}
    assert move_hint(update) is None and typed_by_game(update, "e4") is None


def test_results_in_words_name_the_winning_team():
    update = {"seat": 1, "seats": ["alice", "bob", "carol", "dave"],
              "result": {"winners": [1, 3], "reason": "sunk", "scores": [], "teams": [[0, 2], [1, 3]], "winning_teams": [1]}}
    assert outcome(update) == "You won. bob and dave won: every enemy ship sunk."


def test_results_in_words_end_with_how_the_node_says_the_game_was_reached():
    update = {"seat": 0, "seats": ["alice", "bob"], "result": {"winners": [1], "reason": "rounds", "scores": [1, 2]},
              "standing": "score: you 1, bob 2"}
    assert outcome(update).endswith(" Final score: you 1, bob 2.")
    assert outcome({**update, "standing": None}) == "You lost. bob won: equal points, more rounds won."


def test_a_typed_card_no_move_lays_is_read_as_the_move_it_would_be_for_the_node_to_explain():
    from fairtable.games.shengji import CARDS
    from fairtable.node.clients.tui.boards.shengji import ShengjiBoard

    def reneging(game, state) -> bool:
        legal = game.legal_moves(state, 0)
        return bool(state.trick) and any({"play": handle} not in legal for handle in state.hands[0])

    update = table_at("shengji", "standard", 4, seed=3, where=reneging, turn_seconds=0, deals=1)
    board = ShengjiBoard()
    board.current = update
    wrong = next(entry for entry in update["view"]["hand"]
                 if not any(CARDS[other["card"]].code == CARDS[entry["card"]].code and {"play": other["handle"]} in update["legal_moves"]
                            for other in update["view"]["hand"]))
    typed = CARDS[wrong["card"]].code.lower()
    assert pick(update, typed) is None and board.meant(update, typed) == {"play": wrong["handle"]}
    assert board.meant(update, "zz") is None and board.meant(update, typed * 2) is None  # one card follows at a time


def test_the_hint_for_a_typed_nonsense_counts_what_the_board_numbers():
    from fairtable.node.clients.tui.boards.towers import TowersBoard

    update = table_at("towers", "normal", 2, seed=1)
    board = TowersBoard()
    board.current = update
    assert board.hint(update) == "a card's number 1..6 or name plays it, d and its number discards it"
    assert GenericBoard().hint(update) == f"1..{len(update['legal_moves'])}, or a move's last word"
