"""One-time login codes: how a browser page gets the API token without the token ever being in a URL.

The node prints a link ``http://127.0.0.1:PORT/#login=CODE``. The code is random, works once
and only for :data:`LOGIN_SECONDS`; the page exchanges it for the token (``POST /login``) and
drops it from its address at once. The fragment after ``#`` is never sent in a request, so the
code reaches no server log or ``Referer``; the token itself reaches only the page that asked.
"""

from __future__ import annotations

import hmac
import secrets

import trio

LOGIN_SECONDS = 600.0
"""How long a printed login link works."""
MAX_CODES = 16
"""Codes kept at once; issuing more drops the oldest."""


class Logins:
    """Codes issued and not yet used, each with its expiry (trio's clock)."""

    def __init__(self, seconds: float = LOGIN_SECONDS) -> None:
        self.seconds = seconds
        self._codes: dict[str, float] = {}

    def issue(self) -> str:
        """A fresh code, valid for one exchange within ``seconds``."""
        code = secrets.token_urlsafe(24)
        self._codes[code] = trio.current_time() + self.seconds
        while len(self._codes) > MAX_CODES:
            del self._codes[next(iter(self._codes))]
        return code

    def redeem(self, code: str) -> bool:
        """Whether ``code`` is a live code; it is spent either way once matched."""
        now = trio.current_time()
        found = None
        for known, expires in list(self._codes.items()):
            if expires <= now:
                del self._codes[known]
            elif hmac.compare_digest(known.encode("utf-8"), code.encode("utf-8", "replace")):
                found = known
        if found is None:
            return False
        del self._codes[found]
        return True


def login_link(port: int, code: str) -> str:
    return f"http://127.0.0.1:{port}/#login={code}"
