"""Running tasks side by side, as the node's connections need them."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import trio


async def race(*functions: Callable[[], Awaitable[Any]]) -> None:
    """Run ``functions`` together until the first one ends, then cancel the rest.

    An exception from the first to end is raised as is (not in an exception group), so a
    caller catches a peer's channel error with a plain ``except``.
    """
    failures: list[Exception] = []

    async def run(function: Callable[[], Awaitable[Any]], scope: trio.CancelScope) -> None:
        try:
            await function()
        except Exception as exc:
            failures.append(exc)
        scope.cancel()

    async with trio.open_nursery() as nursery:
        for function in functions:
            nursery.start_soon(run, function, nursery.cancel_scope)
    if failures:
        raise failures[0]
