"""``fairtable node --data DIR --port P``: run a node; optional flags host, join and play a table.

With ``--api-port`` the node also serves the local client API (``node.api``), through
which ``fairtable play``, bots and other clients drive its seats.
"""

from __future__ import annotations

import argparse
import logging
import os
import shutil
import sys
import tempfile
from functools import partial
from pathlib import Path

import trio

from fairtable.games import GameError, registry
from fairtable.node.api.login import LOGIN_SECONDS, Logins, login_link
from fairtable.node.api.server import DEFAULT_PORT, listen_api, serve_api
from fairtable.node.api.token import TOKEN_FILE, TokenFileError, load_or_create_token
from fairtable.node.cli import control, stuck
from fairtable.node.cli.interrupt import Interrupt
from fairtable.node.cli.options import parse_options, parse_tournament_options
from fairtable.node.datalock import hold
from fairtable.node.discovery import factory_for
from fairtable.node.keystore import KeyFileError
from fairtable.node.lobby.exchange import JoinRefused
from fairtable.node.lobby.invite import Invite, InviteError, is_invite, parse_invite
from fairtable.node.node import Node, NodeConfig, parse_address
from fairtable.node.peer.errors import ListenError
from fairtable.node.peer.reach import is_multiaddr, key_of
from fairtable.node.service import ServiceError, check_new_table
from fairtable.node.table.live import Timing
from fairtable.protocol.tournament import Format, RecordError, stage_options

INTERRUPTED = 130
DISCOVERY = ("all", "loopback", "off")


def add_parser(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "node", help="run a node: listen for peers, play this player's seats, keep journals",
        description="One process per player. Identity and journals live in --data; a restarted node reloads its "
                    "journals, reconnects to its peers and continues every table. A node sent SIGUSR1 logs each of its "
                    "tasks and what it waits for, and goes on.",
    )
    parser.add_argument("--data", type=Path, required=True, help="data directory (identity.pem, tables/)")
    parser.add_argument("--port", type=int, default=0, help="TCP port for peers (default: any free port)")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--advertise", help="host:port peers should dial, if not --host:--port")
    parser.add_argument("--relay", action="append", default=[], metavar="MULTIADDR",
                        help="reserve a slot at this libp2p relay (…/p2p/<id>; repeat for more), so peers behind other "
                             "routers reach this node; also runs a libp2p host beside the TCP port")
    parser.add_argument("--p2p-port", type=int, default=0, help="TCP port of the libp2p host (default: any free port)")
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
    parser.add_argument("--discovery", choices=DISCOVERY, default=os.environ.get("FAIRTABLE_DISCOVERY", "all"),
                        help="announce open tables and find others' on the local network (multicast DNS): on every "
                             "interface, on 127.0.0.1 only, or off (default: all, or $FAIRTABLE_DISCOVERY)")
    control_flags = parser.add_argument_group("local control (what a client would do through the API)")
    control_flags.add_argument("--host-table", metavar="GAME", help="offer a table of GAME and start it once full")
    control_flags.add_argument("--variant", help="variant of the hosted table (default: the game's first)")
    control_flags.add_argument("--options", action="append", default=[], metavar="OPTIONS",
                               help="options of the hosted table: key=value (repeat, or comma-separate) or a JSON object "
                                    "(`fairtable games` lists each game's)")
    control_flags.add_argument("--seats", type=int, help="seats of the hosted table (default: the game's minimum)")
    control_flags.add_argument("--join", metavar="INVITE|HOST:PORT",
                               help="take a seat at the table of an invite (ft1...), or at the first open table of the node at HOST:PORT")
    control_flags.add_argument("--host-tournament", type=int, metavar="N",
                               help="offer a duel tournament of N participants (4, 8, 12 or 16); it starts once full")
    control_flags.add_argument("--tournament-options", action="append", default=[], metavar="OPTIONS",
                               help="options of the hosted tournament: advance=1, STAGE.OPTION=value (stages group, "
                                    "playoff, knockout, final; e.g. group.cycles=2) or a JSON object")
    control_flags.add_argument("--join-tournament", metavar="HOST:PORT", help="enter the first open tournament of that node")
    control_flags.add_argument("--until-done", action="store_true",
                               help="exit once every table here is settled: finished, written, and every peer on the same final head "
                                    "(in a tournament: once the tournament is over)")
    parser.add_argument("--log-level", default="INFO", help="logging level on stderr (default INFO)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        logging.basicConfig(level=args.log_level.upper(), stream=sys.stderr,
                            format="%(asctime)s %(levelname)s %(message)s")
    except ValueError:
        raise SystemExit(f"fairtable node: --log-level {args.log_level!r} is not a logging level (DEBUG, INFO, WARNING, ERROR)") from None
    try:
        _check_flags(args)
        hosting = _hosting(args) if args.host_table else None
        tournament = _tournament(args) if args.host_tournament is not None else None
    except (GameError, ServiceError, ValueError) as exc:
        raise SystemExit(f"fairtable node: {exc}") from None
    made = _first_missing(args.data.absolute())
    try:
        return _run(args, hosting, tournament)
    except NotStarted:
        if made is not None:  # a node that never started leaves nothing behind: no identity, no token, no folder
            shutil.rmtree(made, ignore_errors=True)
        raise


def _first_missing(path: Path) -> Path | None:
    """The outermost folder of ``path`` that does not exist yet (the one starting the node creates), or None."""
    missing = None
    while not path.exists() and path != path.parent:
        missing, path = path, path.parent
    return missing


class NotStarted(SystemExit):
    """The node could not start (its data folder or a port); what it made for itself is removed."""


def first_leaf(group: BaseExceptionGroup) -> BaseException:
    """The first exception in ``group`` that is no group (trio nests one per nursery)."""
    found: BaseException = group
    while isinstance(found, BaseExceptionGroup):
        found = found.exceptions[0]
    return found


def _run(args: argparse.Namespace, hosting: tuple | None, tournament: tuple[int, dict] | None) -> int:
    try:
        check_writable(args.data)
        hold(args.data)  # until the process ends: one node per data folder
        config = NodeConfig(
            data=args.data, host=args.host, port=args.port, name=args.name, advertise=args.advertise, bot=args.bot,
            timing=Timing(grace=args.grace, bot_delay=args.bot_delay), heartbeat=args.heartbeat,
            discovery=None if args.discovery == "off" else factory_for(args.discovery),
            relays=tuple(args.relay), p2p_port=args.p2p_port,
        )
        node = Node(config)
        if config.p2p:
            check_libp2p()
        token = None if args.api_port is None or args.no_token else load_or_create_token(args.data / TOKEN_FILE)
    except (KeyFileError, TokenFileError, ServiceError, ValueError) as exc:
        raise NotStarted(f"fairtable node: {exc}") from None
    interrupt = Interrupt()
    try:
        failure = trio.run(_main, node, args, hosting, tournament, token, interrupt)
    except* ListenError as group:  # the libp2p host's port, found taken only as the host starts
        raise NotStarted(f"fairtable node: {first_leaf(group)}") from None
    if failure is not None:
        raise SystemExit(f"fairtable node: {failure}")
    if interrupt.received:
        print("fairtable node: interrupted; its journals are complete, start it again to continue", file=sys.stderr)
        return INTERRUPTED
    return 0


def _check_flags(args: argparse.Namespace) -> None:
    """Refuse flags that would only fail once the node runs; ValueError naming the flag."""
    if args.discovery not in DISCOVERY:
        raise ValueError(f"--discovery (or FAIRTABLE_DISCOVERY) must be one of {', '.join(DISCOVERY)}, got {args.discovery!r}")
    if args.options and not args.host_table:
        raise ValueError("--options goes with --host-table")
    if args.tournament_options and args.host_tournament is None:
        raise ValueError("--tournament-options goes with --host-tournament")
    if args.host_tournament is not None and args.join_tournament:
        raise ValueError("--host-tournament and --join-tournament exclude each other")
    for flag in ("port", "api_port", "p2p_port"):
        value = getattr(args, flag)
        if value is not None and not 0 <= value < 65536:
            raise ValueError(f"--{flag.replace('_', '-')} must be a port number 0..65535, got {value}")
    for flag, value in (("grace", args.grace), ("bot-delay", args.bot_delay)):
        if not value >= 0:
            raise ValueError(f"--{flag} must be 0 or more seconds, got {value:g}")
    if not args.heartbeat > 0:
        raise ValueError(f"--heartbeat must be more than 0 seconds, got {args.heartbeat:g}")
    if args.p2p_port and not args.relay:
        raise ValueError("--p2p-port goes with --relay")
    for relay in args.relay:
        try:
            if key_of(relay) is None or "," in relay or not is_multiaddr(relay):
                raise ValueError("a relay is one multiaddr ending in /p2p/<peer id>")
        except ValueError as exc:
            raise ValueError(f"--relay {relay}: {exc}") from None
    if args.join is not None and is_invite(args.join):
        try:
            args.join = parse_invite(args.join)
        except InviteError as exc:
            raise ValueError(f"--join: {exc}") from None
    for flag, address in (("advertise", args.advertise), ("join", args.join), ("join-tournament", args.join_tournament)):
        if isinstance(address, str):
            try:
                parse_address(address)
            except ValueError as exc:
                raise ValueError(f"--{flag}: {exc}") from None


def check_libp2p() -> None:
    """ValueError saying how to install libp2p, when ``--relay`` asks for it and it is missing."""
    try:
        import fairtable.node.peer.p2p  # noqa: F401  (the import is the check)
    except ImportError as exc:
        raise ValueError(f"--relay needs libp2p, which is not installed ({exc}); install it with pip install 'fairtable[p2p]'") from None


def check_writable(data: Path) -> None:
    """Make sure the data directory (and every table in it) can be written, before listening.

    A read-only or foreign directory would otherwise fail only when the node first journals
    an envelope, in the middle of a game. Raises ValueError naming the directory.
    """
    try:
        data.mkdir(mode=0o700, parents=True, exist_ok=True)
        directories = [data, *(path for path in (data / "tables").glob("*") if path.is_dir())]
        for directory in directories:
            with tempfile.TemporaryFile(dir=directory):
                pass
    except OSError as exc:
        where = exc.filename or data
        raise ValueError(f"the data directory cannot be written: {where}: {exc.strerror or exc}") from None


def _hosting(args: argparse.Namespace) -> tuple:
    """The table ``--host-table`` offers, checked in full (game, variant, options, seats)."""
    game = registry.get(args.host_table)
    variant, seats = args.variant or game.variants[0], args.seats or game.min_seats
    options = parse_options(args.options, game.options_for(variant))
    check_new_table(game.id, variant, options, seats)
    return game.id, variant, options, seats


def _tournament(args: argparse.Namespace) -> tuple[int, dict]:
    """The tournament ``--host-tournament`` offers, checked in full (size and options)."""
    options = parse_tournament_options(args.tournament_options, stage_options())
    try:
        Format.check(options, args.host_tournament)
    except RecordError as exc:
        raise ValueError(str(exc)) from None
    return args.host_tournament, options


async def _main(node: Node, args: argparse.Namespace, hosting: tuple | None, tournament: tuple[int, dict] | None,
                token: str | None, interrupt: Interrupt) -> str | None:
    """Run the node until done or interrupted; what kept it from listening or joining, if anything did."""
    refused: list[str] = []
    peers, api = await _listen(args)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(interrupt.watch, nursery.cancel_scope)
        nursery.start_soon(stuck.report_on_signal)
        await nursery.start(partial(node.run, listeners=peers))
        print(f"fairtable node {node.name} ({node.key.public.fingerprint}) listening on {node.address}", flush=True)
        if api:
            logins = Logins()
            port = await nursery.start(partial(serve_api, node, args.api_port, token, logins=logins, listeners=api))
            where = "no token" if token is None else f"token in {args.data / TOKEN_FILE}"
            print(f"client API on ws://127.0.0.1:{port}/ ({where})", flush=True)
            if token is None:
                print(f"play in a browser: http://127.0.0.1:{port}/", flush=True)
            else:
                minutes = f"{LOGIN_SECONDS / 60:g}"
                print(f"play in a browser: {login_link(port, logins.issue())} (this link logs in once, within {minutes} minutes)",
                      flush=True)
        if hosting is not None:
            nursery.start_soon(control.host_and_start, node, *hosting)
        if isinstance(args.join, Invite):
            nursery.start_soon(_join_or_stop, node, args.join, refused, nursery.cancel_scope)
        elif args.join:
            nursery.start_soon(control.join_first, node, args.join)
        if tournament is not None:
            await control.host_tournament(node, *tournament)
        if args.join_tournament:
            nursery.start_soon(control.join_first_tournament, node, args.join_tournament)
        if args.until_done:
            if tournament is not None or args.join_tournament or node.tournaments.running:
                await control.until_tournament_done(node)
            else:
                await control.until_done(node)
            nursery.cancel_scope.cancel()
    return f"--join: {refused[0]}" if refused else None


async def _listen(args: argparse.Namespace) -> tuple[list[trio.SocketListener], list[trio.SocketListener]]:
    """Bind the peer port and the client API's port (when asked for) before anything starts, so
    a port that is taken stops the node having bound, announced and reloaded nothing."""
    try:
        peers = await trio.open_tcp_listeners(args.port, host=args.host)
    except OSError as exc:
        raise NotStarted(f"fairtable node: cannot listen for peers on {args.host}:{args.port}: {exc.strerror or exc}") from None
    if args.api_port is None:
        return peers, []
    try:
        return peers, await listen_api(args.api_port)
    except OSError as exc:
        for listener in peers:
            await listener.aclose()
        raise NotStarted(f"fairtable node: cannot serve the client API on 127.0.0.1:{args.api_port}: {exc.strerror or exc}") from None


async def _join_or_stop(node: Node, invite: Invite, refused: list[str], scope: trio.CancelScope) -> None:
    """Join by ``invite``; a refusal that retrying cannot change stops the node, saying why, in ``refused``."""
    try:
        await control.join_invite(node, invite)
    except JoinRefused as exc:
        refused.append(str(exc))
        scope.cancel()
