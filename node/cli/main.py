"""The ``fairtable`` command line. Each subcommand lives in its own module; this wires them up."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from fairtable.node.cli import bench
from fairtable.node.cli.commands import demo, games, node, play, selfplay, verify


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="fairtable", description="Provably fair peer-to-peer games.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    node.add_parser(commands)
    demo.add_parser(commands)
    games.add_parser(commands)
    play.add_parser(commands)
    selfplay.add_parser(commands)
    verify.add_parser(commands)
    bench.add_parser(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    return int(args.run(args) or 0)

