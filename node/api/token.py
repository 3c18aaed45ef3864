"""The client API token: a random secret in the node's data directory, readable by its owner only.

The API listens on 127.0.0.1, where every local user (and every web page a browser shows)
can connect; the token is what limits the seat to clients of the user who owns the node.
Like a key file, it is created with mode 0600 from the start and refused when others can
read it.
"""

from __future__ import annotations

import os
import secrets
import stat
from pathlib import Path

TOKEN_FILE = "api-token"
"""The token's file name inside the node's data directory."""


class TokenFileError(Exception):
    """A token file that cannot be created, read or trusted; the message names the file."""


def load_or_create_token(path: Path) -> str:
    """The node's API token, read from ``path`` or created there (mode 0600) on first start."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return read_token(path, private=True)
    except OSError as exc:
        raise TokenFileError(f"{path}: cannot create: {exc.strerror}") from None
    token = secrets.token_hex(32)
    with os.fdopen(fd, "w", encoding="ascii") as handle:
        handle.write(token + "\n")
    return token


def read_token(path: Path, *, private: bool = False) -> str:
    """The token in ``path``; with ``private``, refuse a file group or others can access."""
    try:
        with open(path, encoding="ascii") as handle:
            mode = os.fstat(handle.fileno()).st_mode
            text = handle.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise TokenFileError(f"{path}: cannot read: {getattr(exc, 'strerror', None) or exc}") from None
    if private and mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise TokenFileError(
            f"{path}: API token is accessible by group or others (mode {stat.S_IMODE(mode):04o}); "
            f"run 'chmod 600 {path}' if it is yours"
        )
    token = text.strip()
    if not token:
        raise TokenFileError(f"{path}: empty API token")
    return token
