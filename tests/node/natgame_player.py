"""A seat of a NAT-world game played through its node's client API, held at its first decision until told to play.

``python natgame_player.py --api ws://127.0.0.1:PORT --token-file FILE`` runs in the seat's home
(the API listens on the namespace's own loopback), once the node printed its first line (its token
file is written by then). It subscribes and prints ``{"decision": ...}``
once its seat must decide: the game stands still there, mid-game, for as long as the test wants
(a node without ``--bot`` moves only when its client does). A line on stdin then lets it answer
every decision with a legal move the node listed, until the table is finished. Any failure, or
no decision within :data:`SECONDS`, is printed as ``{"error": ...}``. The test's events are these lines: no move depends on how long anything takes.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

import trio

from fairtable.node.clients.apiclient import ApiClient, ApiError, connect

SECONDS = 300.0
"""Bound on each wait (the node's API coming up, a first decision, the rest of the game): a guard against hanging."""
RETRY_SECONDS = 0.1


def due(event: dict[str, Any]) -> bool:
    """Whether the event asks this seat for a move or choice it can pick from the node's list."""
    return bool(event.get("your_turn") and event.get("decision") in ("move", "choice") and event.get("legal_moves"))


async def play(url: str, token: str, seed: int) -> None:
    """Connect once the node's API answers, then :func:`hold_then_play`."""
    choose = random.Random(seed)  # a test's own seeded randomness: which legal move, never when
    with trio.fail_after(SECONDS):
        while True:
            try:
                async with connect(url, token) as api:
                    await api.request("subscribe")
                    await hold_then_play(api, choose)
                    return
            except ApiError as exc:
                if exc.code not in ("unreachable", "timeout"):  # its node is still starting
                    raise
            await trio.sleep(RETRY_SECONDS)


async def hold_then_play(api: ApiClient, choose: random.Random) -> None:
    """Announce the first decision, wait for stdin's word, then answer every decision until the table is finished
    (or the node, its table settled, closes the connection)."""
    held = False
    async for event in api.events:
        if event.get("phase") == "finished":
            return
        if not due(event):
            continue
        if not held:
            print(json.dumps({"decision": event["decision"]}), flush=True)
            if not await trio.wrap_file(sys.stdin).readline():
                return
            held = True
        try:
            await api.request("move", table=event["table"], move=choose.choice(event["legal_moves"]))
        except ApiError as exc:
            if exc.code == "closed":
                return
            if exc.code != "illegal":  # a stale event (the seat's turn already answered) is no failure
                raise


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--api", required=True)
    parser.add_argument("--token-file", type=Path, required=True)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    try:
        trio.run(play, args.api, args.token_file.read_text().strip(), args.seed)
    except (ApiError, trio.TooSlowError) as exc:
        print(json.dumps({"error": f"{type(exc).__name__}: {exc}"}), flush=True)
        sys.exit(1)


if __name__ == "__main__":
    main()
