"""Ctrl-C as an orderly stop: cancel what runs, so tasks end at a checkpoint and files stay whole.

Left to itself, trio raises ``KeyboardInterrupt`` wherever the program happens to be (inside
a journal write, say) and it reaches the user as a traceback. :class:`Interrupt` takes SIGINT
instead and cancels a scope; the command then reports it and exits with status 130.
"""

from __future__ import annotations

import signal

import trio


class Interrupt:
    """Run :meth:`watch` in a task; :attr:`received` says whether Ctrl-C ended the scope."""

    def __init__(self) -> None:
        self.received = False

    async def watch(self, scope: trio.CancelScope) -> None:
        with trio.open_signal_receiver(signal.SIGINT) as signals:
            async for _ in signals:
                self.received = True
                scope.cancel()
                return
