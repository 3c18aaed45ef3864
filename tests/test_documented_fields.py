"""Every field the node sends a client is documented: the ``table`` event's and the API replies'
fields and decisions in ``spec/client-api.md``, a result's optional fields there too, and every
view field of every game, met in a seeded game of each variant, in that game's section of
``spec/games.md``. A field added to a view or a reply without its prose fails here."""

from __future__ import annotations

import dataclasses
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from fairtable.games import referee, registry
from fairtable.games.bots import make
from fairtable.games.contract import GameError, Result
from fairtable.node import service
from fairtable.protocol.session.own import DECISIONS
from tests.paths import ROOT

CLIENT_API = (ROOT / "spec" / "client-api.md").read_text()
GAMES_SPEC = (ROOT / "spec" / "games.md").read_text()
SENT = (service.TableUpdate, service.LobbyTable, service.Identity, service.FoundTable, service.TournamentLobby, service.TournamentStatus)
"""The records the node's API sends as objects (``fields_of``)."""
DATA_KEYED = {"beats", "options", "aims", "result", "deal_result"}
"""View fields whose keys are data (card types, option names, ability names), not field names, or
documented once for every game (a result or a deal's, in spec/client-api.md)."""


def fewest_seats(game_id: str, variant: str) -> int:
    """The fewest seats ``variant`` is played by."""
    game = registry.get(game_id)
    for seats in range(game.min_seats, game.max_seats + 1):
        try:
            game.setup(variant, {}, seats)
            return seats
        except GameError:
            continue
    raise AssertionError(f"{game_id} {variant} is played by no number of seats")


PLAYS = sorted({(game_id, variant, fewest_seats(game_id, variant)) for game_id in registry.ids()
                for variant in registry.get(game_id).variants} | {("zeeslag", "duel", 3), ("duel", "ffa", 3)})
"""A game of each variant, and of three seats where a view has more to show (salvos, targets)."""


def documented(text: str) -> set[str]:
    """The names written as code in ``text``: `name`, each key of a `{…}` written there, and every
    name in a fenced example."""
    parts = text.split("```")
    codes = parts[1::2] + [code for prose in parts[0::2] for code in re.findall(r"`([^`]+)`", prose)]
    return {word for code in codes for word in re.findall(r"[A-Za-z_][A-Za-z_0-9]*", code)}


def keys(value: Any, within: str = "") -> Iterator[str]:
    """Every key of every object in ``value``, not descending into objects keyed by data."""
    if isinstance(value, dict):
        for key, inner in value.items():
            yield key
            if key not in DATA_KEYED:
                yield from keys(inner, key)
    elif isinstance(value, list):
        for inner in value:
            yield from keys(inner, within)


def section(game_id: str) -> str:
    start = GAMES_SPEC.index(f"\n## {game_id} (")
    end = GAMES_SPEC.find("\n## ", start + 1)
    return GAMES_SPEC[start:end if end >= 0 else None]


@pytest.mark.parametrize("record", SENT, ids=lambda record: record.__name__)
def test_every_field_of_what_the_api_sends_is_in_the_client_api_spec(record: type):
    missing = {field.name for field in dataclasses.fields(record)} - documented(CLIENT_API)
    assert not missing, f"{record.__name__}: {sorted(missing)} not in spec/client-api.md"


def test_every_decision_and_every_result_field_is_in_the_client_api_spec():
    row = next(line for line in CLIENT_API.splitlines() if line.startswith("| `decision` |"))
    assert set(DECISIONS) <= documented(row), f"decisions {sorted(set(DECISIONS) - documented(row))} not documented"
    full = Result((0,), "points", (1, 2), losers=(1,), teams=((0,), (1,))).to_value()
    row = next(line for line in CLIENT_API.splitlines() if line.startswith("| `result` |"))
    assert set(full) <= documented(row), f"result fields {sorted(set(full) - documented(row))} not documented"


@pytest.mark.parametrize("game_id, variant, seats", PLAYS)
def test_every_view_field_of_a_played_game_is_in_its_games_spec_section(game_id: str, variant: str, seats: int):
    game = registry.get(game_id)
    options = {"deals": 1} if game_id == "shengji" else {}
    bots = [make(game, "random", random.Random(seat)) for seat in range(seats)]
    played = referee.play(game, variant, options, bots, random.Random(7), lockstep=True)
    state = game.setup(variant, options, seats)
    seen = set(keys(game.view(state, None)))
    for event in played.seat_events[0]:
        seen |= set(keys(game.view(state, 0)))
        state = game.apply(state, event)
    seen |= set(keys(game.view(state, 0))) | set(keys(game.view(state, None)))
    missing = seen - documented(section(game_id))
    assert not missing, f"{game_id} {variant}: view fields {sorted(missing)} not in spec/games.md's {game_id} section"
