"""``fairtable bench``: measured figures, each beside a baseline taken in the same run.

Every benchmark module exposes ``NAME``, ``HELP``, ``configure(parser)`` and
``run(args) -> dict``; the dict is printed as JSON with ``--json`` or as aligned text.
A benchmark with a goal reports ``ratio`` (its time over its floor, or over the baseline's) and ``goal``. Every
report carries ``load``, what else the machine did meanwhile (:mod:`.load`); ``--busy N`` measures
with ``N`` processes spinning beside it.
"""

from __future__ import annotations

import argparse
import json

from fairtable.node.cli.bench import deck, memory, net, rules, seats, verify, wire
from fairtable.node.cli.bench.load import Load, busy

BENCHMARKS = (wire, deck, rules, verify, net, seats, memory)


def add_parser(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser("bench", help="measure performance against same-run baselines")
    which = parser.add_subparsers(dest="benchmark", required=True, metavar="BENCHMARK")
    for module in BENCHMARKS:
        sub = which.add_parser(module.NAME, help=module.HELP)
        sub.add_argument("--json", action="store_true", help="print one JSON object")
        sub.add_argument("--busy", type=int, default=0, metavar="N",
                         help="keep N processes spinning on the CPU while measuring: a loaded machine (default 0)")
        module.configure(sub)
        sub.set_defaults(run=lambda args, module=module: _report(_measured(module, args), args.json))


def _measured(module, args: argparse.Namespace) -> dict:
    """The benchmark's figures with ``load`` beside them (the spinners outside the measurement of load,
    so that their CPU counts as other work)."""
    if args.busy < 0:
        raise SystemExit(f"bench {module.NAME}: --busy must not be negative")
    with busy(args.busy), Load() as load:
        figures = module.run(args)
    return {**figures, "load": {**load.figures(), "busy_processes": args.busy}}


def _report(figures: dict, as_json: bool) -> int:
    if as_json:
        print(json.dumps(figures, indent=2, sort_keys=True))
    else:
        width = max(map(len, figures))
        for key, value in figures.items():
            shown = f"{value:.4g}" if isinstance(value, float) else value
            print(f"{key:<{width}}  {shown}")
    return 0
