"""``fairtable play`` on the command line: flags checked before anything connects."""

from __future__ import annotations

import pytest

from fairtable.node.cli.main import main


@pytest.mark.parametrize("argv, words", [
    (["play", "--variant", "normal"], "--variant goes with --host"),
    (["play", "--options", "turn_seconds=5"], "--options goes with --host"),
    (["play", "--start"], "--start goes with --host"),
    (["play", "--host", "towers", "--options", "turn_seconds=soon"], "turn_seconds is an integer"),
    (["play", "--host", "chess"], "chess"),
    (["play", "--join", "ft:nonsense"], "--join: an invite is ft:LOBBY.FINGERPRINT@HOST:PORT"),
    (["play", "--join", "a", "b", "c"], "--join takes an invite"),
    (["play", "--watch", "ft:nonsense"], "--watch: an invite is ft:LOBBY.FINGERPRINT@HOST:PORT"),
    (["play", "--watch", "a", "b", "c"], "--watch takes an invite (ft1...) or PEER TABLE"),
    (["play", "--join", "ft1x", "--watch", "ft1x"], "not allowed with argument"),
])
def test_bad_play_flags_are_refused_in_one_line(argv, words, capsys):
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2
    error = capsys.readouterr().err
    assert words in error and "Traceback" not in error


def test_play_help_names_the_ways_in(capsys):
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    out = capsys.readouterr().out
    for flag in ("--api", "--token-file", "--host", "--join", "--watch", "--no-bell", "--start", "--variant", "--options", "--seats"):
        assert flag in out
