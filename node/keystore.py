"""Key files on disk: a secret key is written readable by its owner only, and refused otherwise.

The bytes are standard PEM (see ``protocol.identity``); this module adds what touches the
file system: creating the file with mode 0600 from the start (never a window where others
could read it) and refusing to load a secret key that group or others can read, as ssh does.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from fairtable.node.files import FileError, write_secret_file
from fairtable.protocol import IdentityError, PublicKey, SecretKey


class KeyFileError(Exception):
    """A key file that cannot be written, read or trusted; the message names the file."""


def write_secret_key(path: Path, key: SecretKey) -> None:
    """Create ``path`` (mode 0600) holding ``key``; refuses to overwrite an existing file."""
    if path.exists():
        raise KeyFileError(f"{path}: already exists; refusing to overwrite a key")
    try:
        write_secret_file(path, key.to_pem())
    except FileError as exc:
        raise KeyFileError(str(exc)) from None


def load_secret_key(path: Path) -> SecretKey:
    try:
        with open(path, "rb") as handle:
            mode = os.fstat(handle.fileno()).st_mode
            if mode & (stat.S_IRWXG | stat.S_IRWXO):
                raise KeyFileError(
                    f"{path}: secret key is accessible by group or others (mode {stat.S_IMODE(mode):04o}); "
                    f"run 'chmod 600 {path}' if it is yours"
                )
            data = handle.read()
    except OSError as exc:
        raise KeyFileError(f"{path}: cannot read: {exc.strerror}") from None
    try:
        return SecretKey.from_pem(data)
    except IdentityError as exc:
        raise KeyFileError(f"{path}: {exc}") from None


def load_or_create_secret_key(path: Path) -> SecretKey:
    """The node's identity: loaded from ``path``, or generated there on first start."""
    if path.exists():
        return load_secret_key(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    key = SecretKey.generate()
    write_secret_key(path, key)
    return key


def write_public_key(path: Path, key: PublicKey) -> None:
    path.write_bytes(key.to_pem())


def load_public_key(path: Path) -> PublicKey:
    try:
        return PublicKey.from_pem(path.read_bytes())
    except OSError as exc:
        raise KeyFileError(f"{path}: cannot read: {exc.strerror}") from None
    except IdentityError as exc:
        raise KeyFileError(f"{path}: {exc}") from None
