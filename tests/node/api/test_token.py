"""The client API token file: created private, reused, refused when others can read it."""

from __future__ import annotations

import os
import stat

import pytest

from fairtable.node.api.token import TOKEN_FILE, TokenFileError, load_or_create_token, read_token


def test_created_once_with_mode_0600_and_reused(tmp_path):
    path = tmp_path / "data" / TOKEN_FILE
    token = load_or_create_token(path)
    assert len(token) == 64 and int(token, 16) >= 0
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert load_or_create_token(path) == token == read_token(path)


def test_a_token_others_can_read_is_refused_for_serving(tmp_path):
    path = tmp_path / TOKEN_FILE
    load_or_create_token(path)
    os.chmod(path, 0o644)
    with pytest.raises(TokenFileError, match="accessible by group or others"):
        load_or_create_token(path)
    assert read_token(path)  # a client only reads it


def test_missing_or_empty_token_files_are_named(tmp_path):
    with pytest.raises(TokenFileError, match="cannot read"):
        read_token(tmp_path / "absent")
    (tmp_path / "empty").write_text("\n")
    with pytest.raises(TokenFileError, match="empty API token"):
        read_token(tmp_path / "empty")
