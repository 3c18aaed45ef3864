"""``fairtable node --data DIR --port P``: run a node; optional flags host, join and play a table.

With ``--api-port`` the node also serves the local client API (``node.api``), through
which ``fairtable play``, bots and other clients drive its seats.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path

import trio

from fairtable.games import registry
from fairtable.games.contract import GameError
from fairtable.node.api.server import DEFAULT_PORT, serve_api
from fairtable.node.api.token import TOKEN_FILE, TokenFileError, load_or_create_token
from fairtable.node.cli import control
from fairtable.node.keystore import KeyFileError
from fairtable.node.node import Node, NodeConfig
from fairtable.node.table.live import Timing


def add_parser(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "node", help="run a node: listen for peers, play this player's seats, keep journals",
        description="One process per player. Identity and journals live in --data; a restarted node reloads its "
                    "journals, reconnects to its peers and continues every table.",
    )
    parser.add_argument("--data", type=Path, required=True, help="data directory (identity.pem, tables/)")
    parser.add_argument("--port", type=int, default=0, help="TCP port for peers (default: any free port)")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--advertise", help="host:port peers should dial, if not --host:--port")
    parser.add_argument("--name", help="player name shown at tables")
    parser.add_argument("--api-port", type=int, help="serve the local client API on 127.0.0.1:PORT "
                        f"(0: any free port; off unless given; the usual port is {DEFAULT_PORT})")
    parser.add_argument("--no-token", action="store_true",
                        help="serve the client API without its token (only for a machine with no other users)")
    parser.add_argument("--bot", choices=("random", "greedy"), help="let a bot make this node's decisions")
    parser.add_argument("--bot-delay", type=float, default=0.0, help="seconds the bot waits before each move")
    parser.add_argument("--grace", type=float, default=Timing.grace,
                        help=f"seconds past its turn time before a silent seat is declared absent (default {Timing.grace:g})")
    parser.add_argument("--heartbeat", type=float, default=2.0, help="seconds between keep-alive messages (default 2)")
    control_flags = parser.add_argument_group("local control (what a client would do through the API)")
    control_flags.add_argument("--host-table", metavar="GAME", help="offer a table of GAME and start it once full")
    control_flags.add_argument("--variant", help="variant of the hosted table (default: the game's first)")
    control_flags.add_argument("--options", default="{}", help="options of the hosted table, as a JSON object")
    control_flags.add_argument("--seats", type=int, help="seats of the hosted table (default: the game's minimum)")
    control_flags.add_argument("--join", metavar="HOST:PORT", help="take a seat at the first open table of that node")
    control_flags.add_argument("--until-done", action="store_true",
                               help="exit once every table here is finished and its peers hold all of it")
    parser.add_argument("--log-level", default="INFO", help="logging level on stderr (default INFO)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=args.log_level.upper(), stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(message)s")
    config = NodeConfig(
        data=args.data, host=args.host, port=args.port, name=args.name, advertise=args.advertise, bot=args.bot,
        timing=Timing(grace=args.grace, bot_delay=args.bot_delay), heartbeat=args.heartbeat,
    )
    try:
        hosting = _hosting(args) if args.host_table else None
        node = Node(config)
        token = None if args.api_port is None or args.no_token else load_or_create_token(args.data / TOKEN_FILE)
    except (KeyFileError, TokenFileError, GameError, ValueError) as exc:
        raise SystemExit(f"fairtable node: {exc}") from None
    try:
        trio.run(_main, node, args, hosting, token)
    except KeyboardInterrupt:
        return 130
    return 0


def _hosting(args: argparse.Namespace) -> tuple:
    game = registry.get(args.host_table)
    options = json.loads(args.options)
    if not isinstance(options, dict):
        raise ValueError("--options must be a JSON object")
    return game.id, args.variant or game.variants[0], options, args.seats or game.min_seats


async def _main(node: Node, args: argparse.Namespace, hosting: tuple | None, token: str | None) -> None:
    async with trio.open_nursery() as nursery:
        await nursery.start(node.run)
        print(f"fairtable node {node.name} ({node.key.public.fingerprint}) listening on {node.address}", flush=True)
        if args.api_port is not None:
            port = await nursery.start(serve_api, node, args.api_port, token)
            where = "no token" if token is None else f"token in {args.data / TOKEN_FILE}"
            print(f"client API on ws://127.0.0.1:{port}/ ({where})", flush=True)
        if hosting is not None:
            nursery.start_soon(control.host_and_start, node, *hosting)
        if args.join:
            nursery.start_soon(control.join_first, node, args.join)
        if args.until_done:
            await control.until_done(node)
            nursery.cancel_scope.cancel()
