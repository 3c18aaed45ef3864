import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairtable.protocol import codec
from fairtable.protocol.fair.errors import FairnessError
from fairtable.protocol.fair.hidden_board import (
    Board,
    CommittedBoard,
    check_full,
    check_openings,
    full_body,
    open_body,
    root_body,
)
from tests.protocol.fair.support import make_game, make_seeds

VALUES = [0, 1, 1, 0, 0, 2, 2, 2, 0, 0, 0, 3]  # a 4x3 board, row-major


@pytest.fixture
def committed():
    game = make_game()
    seed = make_seeds(game, 2)[1]
    return seed, CommittedBoard.commit(seed, Board(game, 1, "fleet", 4, 3), VALUES)


def wire(body):
    return codec.decode(codec.encode(body))


def test_open_one_and_many_cells(committed):
    _, board = committed
    root = wire(root_body(board))["root"]
    assert check_openings(board.board, root, wire(open_body(board.board, board.open([(1, 0)])))) == {(1, 0): 1}
    cells = [(x, y) for y in range(3) for x in range(4)]
    opened = check_openings(board.board, root, wire(open_body(board.board, board.open(cells))))
    assert [opened[cell] for cell in cells] == VALUES


def test_root_binds_dimensions_label_owner_and_seed(committed):
    seed, board = committed
    game = board.board.game
    roots = {
        board.root,
        CommittedBoard.commit(seed, Board(game, 1, "fleet", 3, 4), VALUES).root,
        CommittedBoard.commit(seed, Board(game, 1, "fleet", 6, 2), VALUES).root,
        CommittedBoard.commit(seed, Board(game, 1, "other", 4, 3), VALUES).root,
        CommittedBoard.commit(seed, Board(game, 0, "fleet", 4, 3), VALUES).root,
        CommittedBoard.commit(make_seeds(game, 2)[0], Board(game, 1, "fleet", 4, 3), VALUES).root,
    }
    assert len(roots) == 6
    assert root_body(board) == {"board": "fleet", "height": 3, "root": board.root, "width": 4}


def tampered(board, cell, change):
    item = list(open_body(board.board, board.open([cell]))["cells"][0])
    change(item)
    return {"board": board.board.name, "cells": [item]}


@pytest.mark.parametrize(
    "change",
    [
        lambda item: item.__setitem__(2, 0),  # another value
        lambda item: item.__setitem__(3, bytes(32)),  # another salt
        lambda item: item.__setitem__(4, [bytes(32)] + item[4][1:]),  # another sibling
        lambda item: item.__setitem__(4, item[4][:-1]),  # a short path
        lambda item: item.__setitem__(0, 3),  # the proof of (2, 1) presented for (3, 1)
    ],
)
def test_bad_proof_names_the_owner_and_the_cell(committed, change):
    _, board = committed
    with pytest.raises(FairnessError) as caught:
        check_openings(board.board, board.root, tampered(board, (2, 1), change))
    assert caught.value.seat == 1 and caught.value.rule == "board.bad-proof"
    assert "cell (" in caught.value.detail


def test_malformed_openings_name_the_owner(committed):
    _, board = committed
    for body in (
        {"board": "other", "cells": []},
        {"board": "fleet", "cells": [[0, 0, 0, bytes(32)]]},
        {"board": "fleet", "cells": [[4, 0, 0, bytes(32), []]]},
        {"board": "fleet", "cells": "nope"},
    ):
        with pytest.raises(FairnessError) as caught:
            check_openings(board.board, board.root, body)
        assert (caught.value.seat, caught.value.rule) == (1, "board.malformed")


def test_full_opening_after_the_seed_reveal(committed):
    seed, board = committed
    opened = check_full(seed, board.board, board.root, wire(full_body(board)))
    assert opened[(3, 2)] == 3 and len(opened) == 12
    moved = dict(full_body(board), values=[1] + VALUES[1:])
    with pytest.raises(FairnessError) as caught:
        check_full(seed, board.board, board.root, moved)
    assert (caught.value.seat, caught.value.rule) == (1, "board.root-mismatch")
    with pytest.raises(FairnessError) as caught:
        check_full(seed, board.board, board.root, dict(full_body(board), values=VALUES[:-1]))
    assert caught.value.rule == "board.malformed"


def test_board_validation():
    game = make_game()
    for width, height in ((0, 3), (3, 257), (True, 2)):
        with pytest.raises(ValueError):
            Board(game, 0, "fleet", width, height)
    board = Board(game, 0, "fleet", 2, 2)
    with pytest.raises(ValueError):
        board.index((2, 0))
    with pytest.raises(ValueError):
        CommittedBoard.commit(make_seeds(game, 1)[0], board, [0, 0, 0])


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 9), st.integers(1, 9), st.data())
def test_every_cell_of_any_board_opens(width, height, data):
    game = make_game()
    values = data.draw(st.lists(st.integers(0, 5), min_size=width * height, max_size=width * height))
    board = CommittedBoard.commit(make_seeds(game, 1)[0], Board(game, 0, "b", width, height), values)
    cells = data.draw(st.lists(st.tuples(st.integers(0, width - 1), st.integers(0, height - 1)), min_size=1, max_size=5))
    opened = check_openings(board.board, board.root, wire(open_body(board.board, board.open(cells))))
    assert all(opened[(x, y)] == values[y * width + x] for x, y in cells)
