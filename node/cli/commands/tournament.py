"""``fairtable tournament host|join|list|status|verify``: duel tournaments through a running node.

``host``, ``join``, ``list`` and ``status`` speak to the node's client API, as any client
would (``spec/client-api.md``); ``verify`` checks a bundle offline, exactly as
``fairtable verify`` does. The node runs the tournament by itself once it is full; its tables
are played by the node's bot or through ``fairtable play``.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import trio

from fairtable.node.api.server import DEFAULT_PORT
from fairtable.node.api.token import TOKEN_FILE, TokenFileError, read_token
from fairtable.node.cli.commands.verify import verify_bundle_at
from fairtable.node.cli.options import parse_tournament_options
from fairtable.node.cli.tournament_text import render
from fairtable.node.clients.apiclient import ApiError, connect
from fairtable.protocol.tournament import SIZES, Format, RecordError, stage_options


def add_parser(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "tournament", help="host, join, follow or verify a duel tournament",
        description="Duel tournaments (groups of 4, playoffs, knock-out, final) run by the participants' nodes, "
                    "with nobody to trust: every table is verified by every participant before it counts.",
    )
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    host = _api_parser(actions, "host", "offer a tournament at your node; it starts once full")
    host.add_argument("participants", type=int, help=f"number of participants ({', '.join(map(str, SIZES))})")
    host.add_argument("--options", action="append", default=[],
                      help="advance=1 or 2, STAGE.OPTION=value (stages group, playoff, knockout, final; e.g. "
                           "group.cycles=2), or a JSON object")
    join = _api_parser(actions, "join", "enter a tournament offered by another node")
    join.add_argument("peer", metavar="HOST:PORT", help="the node that offers it")
    join.add_argument("lobby_id", metavar="LOBBY", help="its lobby id (`fairtable tournament list HOST:PORT` shows it)")
    listing = _api_parser(actions, "list", "the open tournaments of a node (yours without HOST:PORT)")
    listing.add_argument("peer", nargs="?", metavar="HOST:PORT")
    status = _api_parser(actions, "status", "bracket, standings and who plays whom now, in every tournament of your node")
    status.add_argument("--json", action="store_true", help="print the API's answer as JSON")
    verify = actions.add_parser("verify", help="verify a tournament bundle (as fairtable verify does)")
    verify.add_argument("bundle", type=Path, help="the bundle folder (with tournament.ftr), or that file")
    verify.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(run=run)


def _api_parser(actions: argparse._SubParsersAction, name: str, help: str) -> argparse.ArgumentParser:
    parser = actions.add_parser(name, help=help, description=help)
    parser.add_argument("--api", default=f"ws://127.0.0.1:{DEFAULT_PORT}", metavar="URL",
                        help=f"the node's client API (default ws://127.0.0.1:{DEFAULT_PORT})")
    parser.add_argument("--token-file", type=Path, metavar="FILE",
                        help=f"the node's API token, the {TOKEN_FILE} file in its data directory")
    return parser


def run(args: argparse.Namespace) -> int:
    if args.action == "verify":
        return verify_bundle_at(args.bundle, args.json)
    request = _request(args)
    try:
        token = None if args.token_file is None else read_token(args.token_file)
    except TokenFileError as exc:
        raise SystemExit(f"fairtable tournament: {exc}") from None
    try:
        response = trio.run(_ask, args.api, token, request)
    except ApiError as exc:
        raise SystemExit(f"fairtable tournament {args.action}: {exc}") from None
    _show(args, response)
    return 0


def _request(args: argparse.Namespace) -> dict[str, Any]:
    """The API request for the action, its input checked first; SystemExit naming what is wrong."""
    if args.action == "host":
        try:
            options = parse_tournament_options(args.options, stage_options())
            Format.check(options, args.participants)
        except (RecordError, ValueError) as exc:
            raise SystemExit(f"fairtable tournament host: {exc}") from None
        return {"op": "tournament_host", "participants": args.participants, "options": options}
    if args.action == "join":
        return {"op": "tournament_join", "peer": args.peer, "lobby_id": args.lobby_id}
    if args.action == "list":
        return {"op": "tournament_list", "peer": args.peer}
    return {"op": "tournaments"}


async def _ask(url: str, token: str | None, request: dict[str, Any]) -> dict:
    async with connect(url, token) as client:
        return await client.request(request.pop("op"), **request)


def _show(args: argparse.Namespace, response: dict) -> None:
    if args.action in ("host", "join"):
        lobby = response["lobby"]
        print(f"tournament {lobby['lobby_id']} at {lobby['host']}: {len(lobby['joined'])} of {lobby['participants']} "
              f"joined ({', '.join(lobby['joined'])})")
        if args.action == "host":
            print(f"others join with: fairtable tournament join {lobby['host']} {lobby['lobby_id']}")
        print("it starts by itself once full; follow it with: fairtable tournament status")
    elif args.action == "list":
        for lobby in response["lobbies"]:
            print(f"{lobby['lobby_id']}  {len(lobby['joined'])}/{lobby['participants']} joined  "
                  f"options {json.dumps(lobby['options'], sort_keys=True)}  at {lobby['host']}")
        if not response["lobbies"]:
            print("no open tournaments")
    elif args.json:
        print(json.dumps(response["tournaments"], sort_keys=True))
    else:
        for status in response["tournaments"]:
            names = status["participants"]
            state = "finished" if status["progress"]["finished"] else "running"
            print(f"tournament {status['tournament']} ({state}), you are {names[status['me']]}; bundle {status['folder']}")
            print("\n".join(f"  {line}" for line in render(status["progress"], names, status["me"])))
        if not response["tournaments"]:
            print("this node takes part in no tournament (yet)")
