"""Progress bars: drawn on a terminal's stderr for long commands, absent when output is piped."""

from __future__ import annotations

import os
import pty
import subprocess
import sys

from tests.paths import ROOT, VECTORS

FILES = [str(VECTORS / "games" / name) for name in ("towers-normal.ftt", "towers-infinite.ftt", "zeeslag-duel.ftt")]


def verify(stderr) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "fairtable.node.cli", "verify", *FILES], cwd=ROOT, stdout=subprocess.PIPE,
                          stderr=stderr, text=True, env={**os.environ, "COLUMNS": "100", "TERM": "xterm"})


def test_piped_output_has_no_bar():
    completed = verify(subprocess.PIPE)
    assert completed.returncode == 0 and completed.stderr == ""
    assert completed.stdout.count("VALID") == 3


def test_a_terminal_gets_a_bar_that_counts_the_files():
    main, terminal = pty.openpty()
    try:
        completed = verify(terminal)
        os.close(terminal)
        drawn = b""
        while True:
            try:
                chunk = os.read(main, 1 << 16)
            except OSError:
                break
            if not chunk:
                break
            drawn += chunk
    finally:
        os.close(main)
    assert completed.returncode == 0 and completed.stdout.count("VALID") == 3, "the report itself is unchanged"
    text = drawn.decode("utf-8", "replace")
    assert "verifying" in text and "3/3" in text
