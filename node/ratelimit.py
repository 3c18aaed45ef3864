"""A token bucket: how peers and local clients are kept from flooding the node."""

from __future__ import annotations

import trio


class TokenBucket:
    """``rate`` events per second on average, ``burst`` at once."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = float(burst)
        self.stamp = trio.current_time()

    def take(self) -> bool:
        """Spend one token if there is one; False means refuse the event."""
        now = trio.current_time()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True
