"""``fairtable selfplay GAME --out DIR``: bots play whole tables in-process and save the transcripts."""

from __future__ import annotations

import argparse
import json
import secrets
from pathlib import Path

from fairtable.games import GameError, describe, registry
from fairtable.node.cli.progress import progress
from fairtable.protocol import codec, dump
from fairtable.protocol.testing import SelfPlay


def add_parser(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "selfplay", help="play tables between bots in one process and write their transcripts",
        description="Each seat runs its own table session and signs its own envelopes, as over the network.",
    )
    parser.add_argument("game", help=f"game id ({', '.join(registry.ids())})")
    parser.add_argument("--out", type=Path, required=True, help="directory for the transcript files")
    parser.add_argument("--games", type=int, default=1, help="number of tables to play (default 1)")
    parser.add_argument("--seed", help="make the run reproducible (any text)")
    parser.add_argument("--variant", default=None, help="game variant (default: the game's first)")
    parser.add_argument("--options", default="{}", help="table options as a JSON object")
    parser.add_argument("--seats", type=int, default=None, help="number of seats (default: the game's minimum)")
    parser.add_argument("--bots", default=None, help="comma-separated bot per seat: random or greedy (default random)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        game = registry.get(args.game)
        options = json.loads(args.options)
        if not isinstance(options, dict):
            raise ValueError("--options must be a JSON object")
    except (GameError, ValueError) as exc:
        raise SystemExit(f"fairtable selfplay: {exc}") from None
    variant = args.variant or game.variants[0]
    seats = args.seats or game.min_seats
    bots = args.bots.split(",") if args.bots else None
    base = args.seed.encode() if args.seed is not None else secrets.token_bytes(16)
    args.out.mkdir(parents=True, exist_ok=True)
    with progress(args.games, f"{args.game} tables") as advance:
        for number in range(args.games):
            try:
                table = SelfPlay.create(args.game, variant, options, seats, codec.encode([base, number]), bots)
            except (GameError, ValueError) as exc:
                raise SystemExit(f"fairtable selfplay: {exc}") from None
            file = table.play()
            path = args.out / f"{args.game}-{table.genesis.table_id.hex()[:12]}.ftt"
            path.write_bytes(dump(file))
            names = [seat.name for seat in table.genesis.genesis.seats]
            print(f"{path}  {len(file.transcript)} envelopes  {describe(table.sessions[0].result, names)}")
            advance()
    return 0
