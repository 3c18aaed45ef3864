"""``fairtable play``: play at a table through a running node's client API, in a terminal UI."""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path

import trio

from fairtable.games import LANGUAGES, GameError, registry, speaking
from fairtable.node.api.server import DEFAULT_PORT
from fairtable.node.api.token import TOKEN_FILE, TokenFileError, read_token
from fairtable.node.cli.options import parse_options
from fairtable.node.clients.apiclient import ApiError, connect
from fairtable.node.clients.tui.app import HostSettings, PlayApp, Start
from fairtable.node.clients.tui.bridge import Bridge, Portal, guest_run
from fairtable.node.lobby.invite import InviteError, parse_invite


def add_parser(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "play", help="play at a table through a running node, in the terminal",
        description="Connect to a running node's client API. Without --host or --join it lists your tables (running and "
                    "finished, to reopen), the open tables found on your network, and lets you host or join one. "
                    "Leaving (Ctrl+Q) does not leave a table: the node keeps the seat, and `fairtable play` brings you back.",
    )
    parser.add_argument("--api", default=f"ws://127.0.0.1:{DEFAULT_PORT}", metavar="URL",
                        help=f"the node's client API (default ws://127.0.0.1:{DEFAULT_PORT})")
    parser.add_argument("--lang", choices=sorted(LANGUAGES), default="en",
                        help="language of the game's texts (card, ship and field names): en (default) or orig, the rule "
                             "text's own (Latvian for towers, Dutch for the others)")
    parser.add_argument("--token-file", type=Path, metavar="FILE",
                        help=f"the node's API token, the {TOKEN_FILE} file in its data directory")
    table = parser.add_mutually_exclusive_group()
    table.add_argument("--host", metavar="GAME", help="host a new table of GAME")
    table.add_argument("--join", nargs="+", metavar="INVITE",
                       help="join the table of an invite (ft1...), or PEER LOBBY_ID (the node at host:port, its lobby table)")
    table.add_argument("--watch", nargs="+", metavar="INVITE",
                       help="watch a started table as a spectator: an invite to it (ft1..., from any of its players), or "
                            "PEER TABLE (the node of one of its seats at host:port, the table's lobby id or id)")
    parser.add_argument("--no-bell", dest="bell", action="store_false",
                        help="no terminal bell when your turn comes (Ctrl+G at the table turns it off and on)")
    parser.add_argument("--variant", help="with --host: the game variant (default: the game's first)")
    parser.add_argument("--options", action="append", default=[],
                        help="with --host: table options, key=value (repeat, or comma-separate) or a JSON object")
    parser.add_argument("--seats", type=int, help="with --host: number of seats (default: the game's minimum)")
    parser.add_argument("--start", action="store_true", help="with --host: start the table as soon as every seat is taken")
    parser.set_defaults(run=run, parser=parser)


def run(args: argparse.Namespace) -> int:
    start = _start(args)
    try:
        token = None if args.token_file is None else read_token(args.token_file)
    except TokenFileError as exc:
        raise SystemExit(f"fairtable play: {exc}") from None
    try:
        trio.run(_check, args.api, token)
    except ApiError as exc:
        raise SystemExit(f"fairtable play: cannot use the node's client API at {args.api}: {exc}") from None
    with speaking(args.lang):
        return asyncio.run(_play(args.api, token, start, args.bell))


def _start(args: argparse.Namespace) -> Start:
    hosting_only = [name for name in ("variant", "seats") if getattr(args, name) is not None] + (["options"] if args.options else [])
    if args.host is None:
        if hosting_only or args.start:
            args.parser.error(f"--{(hosting_only or ['start'])[0]} goes with --host")
        return Start(join=None if args.join is None else _table_fields(args, "join", "lobby_id"),
                     watch=None if args.watch is None else _table_fields(args, "watch", "table"))
    try:
        game = registry.get(args.host)
        options = parse_options(args.options, game.options_for(args.variant or game.variants[0]))
    except (GameError, ValueError) as exc:
        args.parser.error(str(exc))
    return Start(host=HostSettings(args.host, args.variant, options, args.seats, args.start))


def _table_fields(args: argparse.Namespace, op: str, name: str) -> dict:
    """The ``join`` or ``watch`` op's fields from ``--join``/``--watch``: an invite, or the peer and ``name``."""
    given = getattr(args, op)
    if len(given) == 2:
        return {"peer": given[0], name: given[1]}
    if len(given) != 1:
        args.parser.error(f"--{op} takes an invite (ft1...) or PEER {name.upper()}")
    try:
        parse_invite(given[0])
    except InviteError as exc:
        args.parser.error(f"--{op}: {exc}")
    return {"invite": given[0]}


async def _check(url: str, token: str | None) -> None:
    """Fail at once, in words, when nothing answers as a client API there."""
    async with connect(url, token):
        pass


async def _play(url: str, token: str | None, start: Start, bell: bool) -> int:
    portal = Portal()
    bridge = Bridge(url, token, portal)

    async def trio_side() -> None:
        async with trio.open_nursery() as nursery:
            await nursery.start(portal.serve)
            nursery.start_soon(bridge.run)
            await stopped.wait()
            nursery.cancel_scope.cancel()

    stopped = trio.Event()
    done = guest_run(trio_side)
    app = PlayApp(bridge, start, bell=bell)
    try:
        await app.run_async()
    finally:
        portal.run(_set, stopped)
        await done
    print("Left the table view; your node keeps your seats. `fairtable play` brings you back.")
    return app.return_code or 0


async def _set(event: trio.Event) -> None:
    event.set()
