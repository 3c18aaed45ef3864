"""Files a node writes that must be whole and private: secrets readable by their owner only
from the first byte, and replacements a crash can never leave half-written.

Every secret file (identity key, table secrets, API token) and every atomic replacement goes
through here, so the guarantees are written once.
"""

from __future__ import annotations

import os
from pathlib import Path


class FileError(Exception):
    """A file that cannot be written; the message names it and says why."""


def fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_secret_file(path: Path, data: bytes) -> None:
    """Create ``path`` holding ``data``, mode 0600 from the start, fsynced with its directory.
    Refuses to replace an existing file: a secret is created once."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        fsync_dir(path.parent)
    except OSError as exc:
        raise FileError(f"{path}: cannot create: {exc.strerror}") from None


def write_atomically(path: Path, data: bytes, mode: int = 0o644) -> None:
    """Replace ``path`` with ``data``: a reader sees the old file or the new one, never a mix."""
    temporary = path.with_name(path.name + ".tmp")
    try:
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
        fsync_dir(path.parent)
    except OSError as exc:
        temporary.unlink(missing_ok=True)
        raise FileError(f"{path}: cannot write: {exc.strerror}") from None
