"""Verify transcript files as a library call, for tournament sites, archives and bots.

    python examples/verify_transcript.py game.ftt [more.ftt ...]

Prints one line per file and exits 1 if any file shows a violation, 2 if one is unreadable.
"""

from __future__ import annotations

import sys

from fairtable.protocol.errors import ProtocolError
from fairtable.protocol.session.verify import verify_chunks


def main(paths: list[str]) -> int:
    status = 0
    for path in paths:
        try:
            with open(path, "rb") as stream:
                report = verify_chunks(iter(lambda: stream.read(1 << 16), b""))
        except (OSError, ProtocolError) as exc:
            print(f"{path}: unreadable: {exc}")
            status = max(status, 2)
            continue
        if report.valid:
            winners = ", ".join(f"seat {seat}" for seat in report.result.winners) or "draw"
            print(f"{path}: valid {report.game} game, {report.envelopes} envelopes, won by {winners} ({report.result.reason})")
            continue
        status = max(status, 1)
        for violation in report.violations:
            who = "unattributed" if violation.seat is None else f"seat {violation.seat} ({report.seats[violation.seat]})"
            print(f"{path}: envelope {violation.index}: {who} broke {violation.rule}: {violation.detail}")
    return status


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1:]))
