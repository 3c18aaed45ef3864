"""One node per data folder: an OS file lock held for the whole life of the process.

Two nodes on one folder would both reload its journals and fight each other over the peer
links. The second is refused at start instead. ``flock`` belongs to the open file, so the
kernel releases it when the process ends, however it ends (``kill -9`` too): a lock file left
behind never blocks a restart.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

LOCK_FILE = "node.lock"
"""In the data folder; it holds the process id of the node that holds the lock (for the message)."""


class DataInUse(ValueError):
    """Another process holds the data folder; the message names the folder and that process."""


def hold(data: Path) -> int:
    """Lock ``data`` for the rest of this process's life; the lock file's descriptor (never
    closed: closing it would release the lock). Raises :class:`DataInUse` if another process
    holds it or the lock file cannot be opened."""
    try:
        fd = os.open(data / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError as exc:
        raise DataInUse(f"cannot lock the data directory {data}: {exc.strerror or exc}") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.read(fd, 32).decode("ascii", "replace").strip()
        os.close(fd)
        by = f"another node (process {holder})" if holder.isdigit() else "another node"
        raise DataInUse(f"the data directory {data} is in use by {by}; stop it first, or give this one another --data") from None
    os.ftruncate(fd, 0)
    os.write(fd, f"{os.getpid()}\n".encode())
    return fd
