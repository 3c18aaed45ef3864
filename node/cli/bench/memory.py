"""Peak memory: a node's finished tables, and verifying long transcripts.

Each figure comes from a fresh child process (Linux ``VmHWM``, its peak resident set), beside the
same child's resident set right after its imports, so what is reported is what the work added:

- ``tables``: the state a node keeps for each finished table (its seat's table session with
  every envelope, as a live table holds it) for ``--tables`` towers tables, played in-process
  first; ``per_table_kb`` is what the held sessions add to the resident set, per table (the peak
  also holds the table being played);
- ``transcript``: verifying one transcript file read in chunks, for transcripts of growing length
  (a shengji match of more and more deals). The verifier keeps every envelope of the file it
  checks, so its peak grows with the transcript: ``per_envelope_bytes`` is the slope, and
  ``envelopes_100k_mb`` the peak a 100,000-envelope transcript would take at that slope.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

NAME = "memory"
HELP = "peak resident memory of a node's finished tables and of verifying long transcripts"
ENVELOPES = 100_000


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--tables", type=int, default=50, help="finished tables held (default 50)")
    parser.add_argument("--deals", type=int, nargs="+", default=[1, 4], help="shengji deals per transcript (default 1 4)")


_RSS = """
def rss(field):
    for line in open("/proc/self/status"):
        if line.startswith(field + ":"):
            return int(line.split()[1])
"""

_TABLES = _RSS + """
import gc, json, sys
from fairtable.protocol import codec
from fairtable.protocol.testing import SelfPlay
base = rss("VmRSS")
held = []
for number in range(int(sys.argv[1])):
    play = SelfPlay.create("towers", "normal", {}, 2, codec.encode(["memory", number]))
    play.play()
    held.append(play.sessions[0])
    del play
gc.collect()
print(json.dumps({"base_kb": base, "peak_kb": rss("VmHWM"), "held_kb": rss("VmRSS"),
                  "envelopes": sum(len(s.envelopes) for s in held)}))
"""

_VERIFY = _RSS + """
import json, sys
from fairtable.protocol.session.verify import load, verify
base = rss("VmRSS")
with open(sys.argv[1], "rb") as stream:
    file, broken = load(iter(lambda: stream.read(1 << 16), b""))
report = verify(file, broken)
assert report.valid, report
print(json.dumps({"base_kb": base, "peak_kb": rss("VmHWM"), "envelopes": report.envelopes}))
"""

_PLAY = """
import sys
from fairtable.protocol import codec
from fairtable.protocol.testing import SelfPlay
from fairtable.protocol.transcript_file import dump
play = SelfPlay.create("shengji", "standard", {"deals": int(sys.argv[2])}, 4, codec.encode(["memory", sys.argv[2]]))
open(sys.argv[1], "wb").write(dump(play.play()))
"""


def _child(script: str, *args: str) -> dict:
    completed = subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True, check=False)
    if completed.returncode:
        raise SystemExit(f"bench memory: the measuring process failed: {completed.stderr.strip().splitlines()[-1:]}")
    return json.loads(completed.stdout) if completed.stdout else {}


def run(args: argparse.Namespace) -> dict:
    if args.tables < 1 or any(deals < 1 for deals in args.deals):
        raise SystemExit("bench memory: --tables and --deals must be positive")
    tables = _child(_TABLES, str(args.tables))
    transcripts = []
    with tempfile.TemporaryDirectory(prefix="fairtable-bench-memory-") as root:
        for deals in sorted(set(args.deals)):
            path = Path(root) / f"{deals}.ftt"
            _child(_PLAY, str(path), str(deals))
            measured = _child(_VERIFY, str(path))
            transcripts.append({"deals": deals, "envelopes": measured["envelopes"], "bytes": path.stat().st_size,
                                "peak_kb": measured["peak_kb"], "grown_kb": measured["peak_kb"] - measured["base_kb"]})
    figures: dict = {
        "tables": args.tables,
        "tables_envelopes": tables["envelopes"],
        "tables_base_kb": tables["base_kb"],
        "tables_peak_kb": tables["peak_kb"],
        "tables_held_kb": tables["held_kb"],
        "per_table_kb": round((tables["held_kb"] - tables["base_kb"]) / args.tables, 1),
        "transcripts": transcripts,
    }
    if len(transcripts) > 1:
        first, last = transcripts[0], transcripts[-1]
        slope = (last["grown_kb"] - first["grown_kb"]) * 1024 / max(1, last["envelopes"] - first["envelopes"])
        figures["per_envelope_bytes"] = round(slope)
        figures["envelopes_100k_mb"] = round((last["peak_kb"] * 1024 + slope * (ENVELOPES - last["envelopes"])) / 2**20, 1)
    return figures
