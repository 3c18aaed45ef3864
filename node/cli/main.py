"""The ``fairtable`` command line. Each subcommand lives in its own module; this wires them up.

Whatever happens, a user sees words, not a Python traceback: a subcommand reports bad input
itself (one line, non-zero exit); here a closed output pipe (``fairtable verify ... | head``)
ends quietly, Ctrl-C ends with status 130, and a bug is one line naming it (its traceback goes
to the log at DEBUG level).
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Sequence

from fairtable.node.cli import bench
from fairtable.node.cli.commands import demo, export, games, node, play, relay, selfplay, tournament, verify
from fairtable.node.cli.parser import Parser

INTERRUPTED = 130
BROKEN_PIPE = 141
"""What a shell reports for a program ended by SIGPIPE (128 + 13)."""
INTERNAL = 70
"""``EX_SOFTWARE``: an internal error."""


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="fairtable", description="Provably fair peer-to-peer games.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    node.add_parser(commands)
    demo.add_parser(commands)
    games.add_parser(commands)
    play.add_parser(commands)
    selfplay.add_parser(commands)
    verify.add_parser(commands)
    export.add_parser(commands)
    tournament.add_parser(commands)
    relay.add_parser(commands)
    bench.add_parser(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.run(args) or 0)
    except BrokenPipeError:
        # Whoever read our output stopped; say nothing more (the flush at exit would fail again).
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return BROKEN_PIPE
    except KeyboardInterrupt:
        print(f"fairtable {args.command}: interrupted", file=sys.stderr)
        return INTERRUPTED
    except BaseExceptionGroup as group:  # from trio: Ctrl-C, perhaps alongside the cancellations it caused
        if group.split(KeyboardInterrupt)[1] is None:
            print(f"fairtable {args.command}: interrupted", file=sys.stderr)
            return INTERRUPTED
        return _internal(args.command, group)
    except Exception as exc:
        return _internal(args.command, exc)


def _internal(command: str, exc: BaseException) -> int:
    logging.getLogger("fairtable").debug("internal error", exc_info=exc)
    print(f"fairtable {command}: internal error ({type(exc).__name__}: {exc}); please report it", file=sys.stderr)
    return INTERNAL
