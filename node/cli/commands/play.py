"""``fairtable play``: play at a table through a running node's client API, in the terminal."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import trio
from trio_websocket import ConnectionClosed

from fairtable.node.api.server import DEFAULT_PORT
from fairtable.node.api.token import TOKEN_FILE, TokenFileError, read_token
from fairtable.node.clients.apiclient import ApiError, connect
from fairtable.node.clients.terminal import HostSettings, Terminal


def add_parser(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "play", help="play at a table through a running node, in the terminal",
        description="Connect to a running node's client API, host or join a table (from the flags, or "
                    "by prompts without them), then see your seat's view and choose among the legal "
                    "moves by number. Leaving (q, or Ctrl-C at any time) does not leave the table: the node keeps the seat.",
    )
    parser.add_argument("--api", default=f"ws://127.0.0.1:{DEFAULT_PORT}", metavar="URL",
                        help=f"the node's client API (default ws://127.0.0.1:{DEFAULT_PORT})")
    parser.add_argument("--token-file", type=Path, metavar="FILE",
                        help=f"the node's API token, the {TOKEN_FILE} file in its data directory")
    table = parser.add_mutually_exclusive_group()
    table.add_argument("--host", metavar="GAME", help="host a new table of GAME")
    table.add_argument("--join", nargs=2, metavar=("PEER", "LOBBY_ID"), help="join lobby LOBBY_ID at the node PEER (host:port)")
    parser.add_argument("--variant", help="with --host: the game variant (default: the game's first)")
    parser.add_argument("--options", help="with --host: table options as a JSON object")
    parser.add_argument("--seats", type=int, help="with --host: number of seats (default: the game's minimum)")
    parser.add_argument("--start", action="store_true", help="with --host: start the table as soon as every seat is taken")
    parser.set_defaults(run=run, parser=parser)


def run(args: argparse.Namespace) -> int:
    host = _host_settings(args)
    try:
        token = None if args.token_file is None else read_token(args.token_file)
    except TokenFileError as exc:
        raise SystemExit(f"fairtable play: {exc}") from None
    try:
        return trio.run(_session, args.api, token, host, args.join, args.start)
    except (ApiError, ConnectionClosed) as exc:
        raise SystemExit(f"fairtable play: cannot use the node's client API at {args.api}: {exc}") from None
    except KeyboardInterrupt:
        print("\nInterrupted; the node keeps your seat.")
        return 130


def _host_settings(args: argparse.Namespace) -> HostSettings | None:
    hosting_only = [name for name in ("variant", "options", "seats") if getattr(args, name) is not None]
    if args.host is None:
        if hosting_only or args.start:
            args.parser.error(f"--{(hosting_only or ['start'])[0]} goes with --host")
        return None
    options = None
    if args.options is not None:
        try:
            options = json.loads(args.options)
        except ValueError:
            options = None
        if not isinstance(options, dict):
            args.parser.error("--options must be a JSON object")
    return HostSettings(args.host, args.variant, options, args.seats)


async def _session(url: str, token: str | None, host: HostSettings | None, join: list[str] | None, start: bool) -> int:
    async with connect(url, token) as client:
        return await Terminal(client, _read_stdin, sys.stdout).run(host, None if join is None else (join[0], join[1]), start)


async def _read_stdin() -> str | None:
    line = await trio.to_thread.run_sync(sys.stdin.readline, abandon_on_cancel=True)
    return line or None
