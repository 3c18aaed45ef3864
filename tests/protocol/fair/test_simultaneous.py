import pytest

from fairtable.protocol import codec
from fairtable.protocol.fair.errors import FairnessError
from fairtable.protocol.fair.simultaneous import check_commit, check_reveals, check_salt, commit_body, reveal_body
from tests.protocol.fair.support import make_game, make_seeds

CHOICES = {0: [[1, 2], [3, 4]], 1: "pass", 2: None, 3: [[0, 0]]}


def wire(body):
    return codec.decode(codec.encode(body))


@pytest.fixture
def table():
    game = make_game()
    seeds = make_seeds(game, 4)
    commits, reveals = {}, {}
    for seat, seed in seeds.items():
        commits[seat] = check_commit(seat, "salvo-1", wire(commit_body(seed, "salvo-1", CHOICES[seat])))
        reveals[seat] = wire(reveal_body(seed, "salvo-1", CHOICES[seat]))
    return game, seeds, commits, reveals


def test_honest_round_reveals_every_choice(table):
    game, _, commits, reveals = table
    assert check_reveals(game, "salvo-1", commits, reveals) == {seat: wire(choice) for seat, choice in CHOICES.items()}


def test_mismatching_reveal_names_its_seat(table):
    game, _, commits, reveals = table
    changed = reveals | {2: dict(reveals[2], choice="pass")}
    with pytest.raises(FairnessError) as caught:
        check_reveals(game, "salvo-1", commits, changed)
    assert (caught.value.seat, caught.value.rule) == (2, "choice.mismatch")
    with pytest.raises(FairnessError) as caught:
        check_reveals(game, "salvo-2", commits, reveals)
    assert caught.value.seat == 0


def test_withheld_reveal_names_its_seat(table):
    game, _, commits, reveals = table
    with pytest.raises(FairnessError) as caught:
        check_reveals(game, "salvo-1", commits, {seat: body for seat, body in reveals.items() if seat != 3})
    assert (caught.value.seat, caught.value.rule) == (3, "choice.withheld")


def test_copied_commitment_cannot_be_opened_by_the_copier(table):
    game, _, commits, reveals = table
    copied = commits | {1: commits[0]}
    with pytest.raises(FairnessError) as caught:
        check_reveals(game, "salvo-1", copied, reveals | {1: reveals[0]})
    assert (caught.value.seat, caught.value.rule) == (1, "choice.mismatch")


def test_malformed_messages_name_their_seat(table):
    game, _, commits, reveals = table
    with pytest.raises(FairnessError) as caught:
        check_commit(2, "salvo-1", {"commitment": b"short", "round": "salvo-1"})
    assert (caught.value.seat, caught.value.rule) == (2, "choice.malformed")
    with pytest.raises(FairnessError) as caught:
        check_reveals(game, "salvo-1", commits, reveals | {0: {"choice": 1, "round": "salvo-1"}})
    assert (caught.value.seat, caught.value.rule) == (0, "choice.malformed")


def test_salt_derives_from_the_seed(table):
    _, seeds, _, reveals = table
    check_salt(seeds[1], "salvo-1", reveals[1]["salt"])
    with pytest.raises(FairnessError) as caught:
        check_salt(seeds[2], "salvo-1", reveals[1]["salt"])
    assert (caught.value.seat, caught.value.rule) == (2, "choice.salt-mismatch")
