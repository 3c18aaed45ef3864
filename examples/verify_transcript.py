"""Verify transcript files as a library call, for tournament sites, archives and bots.

    python examples/verify_transcript.py game.ftt [more.ftt ...]

Prints what each file shows and exits like ``fairtable verify``: 1 if any file shows a
violation, else 2 if one is not a readable transcript, else 3 if one is incomplete or
damaged, else 0. Every error the protocol raises is a ``ProtocolError``, so no input can
end in a traceback.
"""

from __future__ import annotations

import sys

from fairtable.protocol import ProtocolError
from fairtable.protocol.session import verify_chunks

SEVERITY = (0, 3, 2, 1)
EXIT = {"valid": 0, "violation": 1, "incomplete": 3, "damaged": 3}


def main(paths: list[str]) -> int:
    status = 0
    for path in paths:
        try:
            with open(path, "rb") as stream:
                report = verify_chunks(iter(lambda: stream.read(1 << 16), b""))
        except (OSError, ProtocolError) as exc:
            print(f"{path}: unreadable: {exc}")
            status = max(status, 2, key=SEVERITY.index)
            continue
        status = max(status, EXIT[report.status], key=SEVERITY.index)
        if report.valid and report.result is not None:
            winners = ", ".join(f"seat {seat}" for seat in report.result.winners) or "draw"
            print(f"{path}: valid {report.game} game, {report.envelopes} envelopes, won by {winners} ({report.result.reason})")
        for violation in report.violations:
            who = "unattributed" if violation.seat is None else f"seat {violation.seat} ({report.seats[violation.seat]})"
            print(f"{path}: envelope {violation.index}: {who} broke {violation.rule}: {violation.detail}")
        if report.damage is not None:
            print(f"{path}: damaged after {report.envelopes} verified envelopes: {report.damage}")
        for owed in report.owed:
            print(f"{path}: incomplete: seat {owed.seat} was due to send {owed.kind!r} as envelope {owed.index}")
    return status


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1:]))
