"""``fairtable games [--json]``: every game with its variants, seat ranges, options and bots,
from the games' own declarations (``Game.describe``), as the client API's ``games`` op gives them."""

from __future__ import annotations

import argparse
import json

from fairtable.games import registry


def add_parser(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "games", help="list the games, their variants, seats and options",
        description="Every game this node can host: variants, seat range per variant, options (type, range, default) and bots.",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object per game, one per line")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    for game_id in registry.ids():
        description = registry.get(game_id).describe()
        print(json.dumps(description, sort_keys=True) if args.json else "\n".join(lines(description)))
    return 0


def lines(description: dict) -> list[str]:
    """One game in plain text: a line per variant, a line per option."""
    out = [f"{description['id']}  (bots: {', '.join(description['bots'])})"]
    for variant in description["variants"]:
        low, high = description["seats"][variant]
        out.append(f"  {variant}: {low} seats" if low == high else f"  {variant}: {low} to {high} seats")
        out.extend(f"    {option_line(option)}" for option in description["options"][variant])
    return out


def option_line(option: dict) -> str:
    if option["type"] == "integer":
        kind = f"integer {option['lowest']}..{option['highest']}"
    elif option["type"] == "choice":
        kind = f"one of {', '.join(option['values'])}"
    else:
        kind = "true or false"
    return f"{option['name']}: {kind} (default {json.dumps(option['default'])})"
