"""Peak memory: a node's finished tables, and verifying long transcripts.

Each figure comes from a fresh child process (Linux ``VmHWM``, its peak resident set), beside the
same child's resident set right after its imports, so what is reported is what the work added:

- ``tables``: the state a node keeps for each finished table (its seat's table session with
  every envelope, as a live table holds it) for ``--tables`` towers tables, played in-process
  first; ``per_table_kb`` is what the held sessions add to the resident set, per table (the peak
  also holds the table being played);
- ``transcripts``: verifying one transcript file, for transcripts of growing length: a 2-seat
  match of the bench's toy game (``marathon.py``, about 54 envelopes a deal) of as many deals as
  ``--envelopes`` asks for, written envelope by envelope as it is played. ``stream_*`` is
  ``fairtable verify``'s streaming verifier (``verify_stream``), ``whole_*`` the baseline of the
  same file read whole into memory and verified (``load`` then ``verify``). ``*_per_envelope_bytes``
  is each one's slope between the shortest and the longest transcript: about 0 for the streaming
  verifier (bounded by the longest deal), kilobytes for the whole file.
  ``--envelopes 1000 10000 100000`` measures a 100,000-envelope match (a few minutes).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from fairtable.node.cli.bench.marathon import PER_DEAL

NAME = "memory"
HELP = "peak resident memory of a node's finished tables and of verifying long transcripts"
ENVELOPES = 100_000


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--tables", type=int, default=50, help="finished tables held (default 50)")
    parser.add_argument("--envelopes", type=int, nargs="+", default=[1000, 4000],
                        help="about how many envelopes each transcript has (default 1000 4000; 100000 takes minutes)")


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
from fairtable.node.cli.bench.marathon import register
from fairtable.protocol.session import load_for_verification as load, verify, verify_stream
register()
base = rss("VmRSS")
def chunks():
    with open(sys.argv[1], "rb") as stream:
        yield from iter(lambda: stream.read(1 << 16), b"")
report = verify_stream(chunks).report if sys.argv[2] == "stream" else verify(*load(chunks()))
assert report.valid, report
print(json.dumps({"base_kb": base, "peak_kb": rss("VmHWM"), "envelopes": report.envelopes}))
"""

_PLAY = """
import sys
from fairtable.node.cli.bench.marathon import GAME, options, register
from fairtable.protocol import codec
from fairtable.protocol.testing import SelfPlay
from fairtable.protocol import header_bytes, record_bytes
register()
deals = int(sys.argv[2])
play = SelfPlay.create(GAME, "normal", options(deals), 2, codec.encode(["memory", deals]), forgetting=True)
with open(sys.argv[1], "wb") as out:
    out.write(header_bytes() + record_bytes("genesis", play.genesis.to_value()))
    while not play.finished:
        out.write(record_bytes("envelope", play.step().to_value()))
    reference = play.sessions[0]
    out.write(record_bytes("end", {"count": len(reference.envelopes), "head": reference.head}))
"""


def _child(script: str, *args: str) -> dict:
    completed = subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True, check=False)
    if completed.returncode:
        raise SystemExit(f"bench memory: the measuring process failed: {completed.stderr.strip().splitlines()[-1:]}")
    return json.loads(completed.stdout) if completed.stdout else {}


def run(args: argparse.Namespace) -> dict:
    if args.tables < 1 or any(envelopes < 1 for envelopes in args.envelopes):
        raise SystemExit("bench memory: --tables and --envelopes must be positive")
    tables = _child(_TABLES, str(args.tables))
    transcripts = []
    with tempfile.TemporaryDirectory(prefix="fairtable-bench-memory-") as root:
        for deals in sorted({max(1, round(envelopes / PER_DEAL)) for envelopes in args.envelopes}):
            path = Path(root) / f"{deals}.ftt"
            _child(_PLAY, str(path), str(deals))
            row = {"deals": deals, "bytes": path.stat().st_size}
            for way in ("stream", "whole"):
                measured = _child(_VERIFY, str(path), way)
                row |= {"envelopes": measured["envelopes"], f"{way}_peak_kb": measured["peak_kb"],
                            f"{way}_grown_kb": measured["peak_kb"] - measured["base_kb"]}
            transcripts.append(row)
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
        for way in ("stream", "whole"):
            slope = (last[f"{way}_grown_kb"] - first[f"{way}_grown_kb"]) * 1024 / max(1, last["envelopes"] - first["envelopes"])
            figures[f"{way}_per_envelope_bytes"] = round(slope)
            figures[f"{way}_envelopes_100k_mb"] = round((last[f"{way}_peak_kb"] * 1024 + slope * (ENVELOPES - last["envelopes"])) / 2**20, 1)
    return figures
