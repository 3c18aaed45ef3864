"""``fairtable export FILE``: a transcript as a record a person reads (``spec/export.md``), or ``--json``.

Exit status as ``fairtable verify``: 0 verified; 1 a violation was found (the record says so in
its header and at the move); 2 unreadable (nothing written); 3 incomplete or damaged.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from fairtable.games import LANGUAGES, GameError, counted, describe, player, speaking
from fairtable.node.cli.commands.verify import CHUNK, EXIT_OF, EXIT_UNREADABLE, unreadable
from fairtable.node.replay import FORMAT, LEFT_OUT, VERSION, Replay, replay_chunks
from fairtable.protocol import ProtocolError
from fairtable.protocol.session import DAMAGED, INCOMPLETE, VALID, VIOLATION, Report


def add_parser(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "export", help="write a transcript as a readable record of the game",
        description="Verify a transcript and write it for people: game, options, players, every move in the game's "
                    "notation, the result and any violation. Exit status as fairtable verify: 0 verified, 1 a violation "
                    "found, 2 unreadable, 3 incomplete or damaged.",
    )
    parser.add_argument("file", type=Path, metavar="FILE", help="transcript file (.ftt)")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead")
    parser.add_argument("--lang", choices=sorted(LANGUAGES), default="en",
                        help="language of the game's texts (card, ship and field names): en (default) or orig, the rule "
                             "text's own (Latvian for towers, Dutch for the others)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    with speaking(args.lang):
        return _export(args)


def _export(args: argparse.Namespace) -> int:
    try:
        with open(args.file, "rb") as stream:
            record = replay_chunks(iter(lambda: stream.read(CHUNK), b""))
    except OSError as exc:
        print(f"fairtable export: {args.file}: cannot read: {exc.strerror}", file=sys.stderr)
        return EXIT_UNREADABLE
    except (ProtocolError, GameError) as exc:
        print(f"fairtable export: {args.file}: {unreadable(exc)}: {exc}", file=sys.stderr)
        return EXIT_UNREADABLE
    if record.report.status != VALID:  # the verdict first, where a person looks, before a record that reads like a game
        print(f"fairtable export: {args.file}: not verified: {verdict(record.report)[len('NO: '):]}", file=sys.stderr, flush=True)
    if args.json:
        print(json.dumps(record.to_value(), sort_keys=True, ensure_ascii=False))
    else:
        sys.stdout.write(text(record))
    return EXIT_OF[record.report.status]


def verdict(report: Report) -> str:
    """The words of the record's ``verified:`` line."""
    count = len(report.violations)
    return {
        VALID: "yes",
        VIOLATION: f"NO: {counted('violation', count)} found, listed at the end",
        INCOMPLETE: "NO: INCOMPLETE: the transcript ends while " + "; ".join(f"seat {o.seat} was due to send {o.kind!r} (envelope {o.index})"
                                                                            for o in report.owed),
        DAMAGED: f"NO: DAMAGED after the first {report.envelopes} envelopes, which were verified: {report.damage}",
    }[report.status]


def text(record: Replay) -> str:
    """The record's lines (``spec/export.md``), each ending in a newline."""
    report = record.report
    seeds = "every seed revealed" if record.seeds_revealed else "not every seed revealed"
    lines = [
        f"{FORMAT} {VERSION}",
        f"game: {report.game}",
        f"variant: {report.variant}",
        "options: " + ", ".join(f"{name}={json.dumps(value, ensure_ascii=False)}" for name, value in sorted(record.options.items())),
        f"table: {record.file.transcript.genesis.table_id.hex()}",
        "date: not recorded",
        *(f"seat {seat}: {name} ({fingerprint})" for seat, (name, fingerprint) in enumerate(zip(record.names, report.seats))),
        f"verified: {verdict(report)}",
        f"envelopes: {report.envelopes}, {seeds}",
        "",
        "moves:",
    ]
    for step in record.steps:
        if step.kind not in LEFT_OUT:
            lines.append(f"{step.number}. {step.text}" if step.number is not None else f"   {step.text}")
        for position in step.violations:
            violation = report.violations[position]
            lines.append(f"   VIOLATION at envelope {violation.index}: {_culprit(record, violation.seat, violation.suspects)} "
                         f"broke {violation.rule}")
    lines += ["", "result: " + describe(report.result, record.names)]
    if report.violations:
        lines += ["", "violations:"]
        lines += [f"envelope {v.index}: {_culprit(record, v.seat, v.suspects)} broke {v.rule}: {v.detail}" for v in report.violations]
    return "".join(f"{line}\n" for line in lines)


def _culprit(record: Replay, seat: int | None, suspects: tuple[int, ...]) -> str:
    if seat is None:
        return f"one of seats {', '.join(map(str, suspects))}" if suspects else "an unknown seat"
    return player(seat, None, record.names)
