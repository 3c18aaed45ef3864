"""Property tests over random shengji deals played by the local referee: they always end, the
200 points are conserved, hands stay even, replays are identical, and each seat's partial
knowledge agrees with the full state (lockstep)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from fairtable.games import referee
from fairtable.games.bots import RandomBot
from fairtable.games.contract import DealStarted, Decide, Finished, NextDeal
from fairtable.games.shengji.bots import GreedyBot
from fairtable.games.shengji.order import points
from fairtable.protocol import codec
from tests.games.shengji.positions import GAME

SEATS = range(4)


class FlakyBot(RandomBot):
    """A random player that sometimes lets its timer run out."""

    def choose(self, game, state, seat):
        return referee.TIMEOUT if self.rng.randrange(10) == 0 else super().choose(game, state, seat)


tables = st.tuples(
    st.integers(0, 2**32 - 1),
    st.sampled_from([{"deals": 1}, {"deals": 2, "start": 13}, {"deals": 3, "target": 3}, {"start": 14, "deals": 2}]),
    st.lists(st.sampled_from(["random", "greedy", "flaky"]), min_size=4, max_size=4),
)
BOTS = {"random": RandomBot, "flaky": FlakyBot, "greedy": lambda rng: GreedyBot()}


def run(table, lockstep: bool = False) -> tuple[dict, referee.Played]:
    seed, options, kinds = table
    rng = random.Random(seed)
    options = {**options, "max_timeouts": 100}
    bots = [BOTS[kind](rng) for kind in kinds]
    return options, referee.play(GAME, "standard", options, bots, rng, lockstep=lockstep)


def check_deal_end(state) -> None:
    """The 200 points: taken in tricks by either team, or buried; the attackers' score adds only the bonus."""
    faces = [state.faces[h] for h in state.buried]
    assert sum(state.points) + points(faces) == 200
    attackers = state.attackers
    assert state.deal_result.scores[attackers] == state.points[attackers] + state.bonus  # seat t plays for team t
    assert state.bonus in (0, points(faces) * 2 * len(state.last.plays[0].handles))
    assert not any(state.hands) and len(state.buried) == 8


@settings(max_examples=25, deadline=None)
@given(tables)
def test_random_deals_end_conserve_points_and_replay_identically(table):
    options, played = run(table)
    assert isinstance(GAME.pending(played.state), Finished)
    state = GAME.setup("standard", options, 4)
    deals = 0
    for event in played.events:
        request = GAME.pending(state)
        if isinstance(request, Decide) and state.step == "play" and not state.trick:
            assert len({len(hand) for hand in state.hands}) == 1  # everyone played as many cards
        state = GAME.apply(state, event)
        if isinstance(GAME.pending(state), (NextDeal, Finished)) and state.deal_result is not None and state.step == "done":
            check_deal_end(state)
            deals += 1
    assert deals == sum(isinstance(event, DealStarted) for event in played.events) + 1
    assert referee.replay(GAME, "standard", options, 4, played.events) == played.state
    assert run(table)[1].events == played.events
    for seat in (*SEATS, None):
        codec.encode(GAME.view(played.state, seat))


@settings(max_examples=8, deadline=None)
@given(tables)
def test_each_seat_knows_what_its_node_would_and_agrees_with_the_full_state(table):
    _, played = run(table, lockstep=True)
    for seat, state in enumerate(played.seat_states):
        assert GAME.view(state, seat) == GAME.view(played.state, seat)
        assert GAME.pending(state) == GAME.pending(played.state)
