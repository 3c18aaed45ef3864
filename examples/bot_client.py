#!/usr/bin/env python3
"""A random-move bot for a fairtable node, written against the client API alone.

It connects to the node's local WebSocket API (spec/client-api.md), optionally hosts or
joins a table, subscribes, and whenever its seat has legal moves sends a random one, until
the game ends; then it prints the result. It uses no fairtable code, only trio and
trio-websocket: any program that speaks WebSocket + JSON can play the same way.

    python examples/bot_client.py --token-file DATA_DIR/api-token --host towers --start
    python examples/bot_client.py --token-file DATA_DIR/api-token --join 192.0.2.7:7400 b71c0e
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import sys

import trio
from trio_websocket import ConnectionClosed, HandshakeError, open_websocket_url

API_VERSION = 1


class Refused(Exception):
    """The node answered a request with ``"ok": false``."""


class Api:
    """One request at a time: read until its response arrives, keeping events met on the way."""

    def __init__(self, websocket) -> None:
        self.websocket = websocket
        self.events: collections.deque[dict] = collections.deque()
        self.last_id = 0

    async def receive(self) -> dict:
        return json.loads(await self.websocket.get_message())

    async def request(self, op: str, **fields) -> dict:
        self.last_id += 1
        await self.websocket.send_message(json.dumps({"id": self.last_id, "op": op, **fields}))
        while True:
            message = await self.receive()
            if "event" in message:
                self.events.append(message)
            elif message.get("id") in (self.last_id, None):
                if not message["ok"]:
                    raise Refused(f"{op}: {message['error']} ({message['code']})")
                return message

    async def event(self) -> dict:
        while not self.events:
            message = await self.receive()
            if "event" in message:
                self.events.append(message)
        return self.events.popleft()


async def start_when_full(api: Api, lobby_id: str) -> None:
    """Poll this node's lobby until every seat is taken, then start the table."""
    while True:
        lobby = next((t for t in (await api.request("list"))["tables"] if t["lobby_id"] == lobby_id), None)
        if lobby is None:
            raise Refused(f"lobby {lobby_id} is gone")
        if len(lobby["joined"]) >= lobby["seats"]:
            await api.request("start", lobby_id=lobby_id)
            return
        await trio.sleep(0.5)


async def play(url: str, token: str | None, *, host: str | None = None, join: tuple[str, str] | None = None,
               start: bool = False, rng: random.Random | None = None) -> tuple[dict, int]:
    """Play one table to its end with random legal moves; return its result and the bot's seat."""
    rng = rng or random.Random()
    async with open_websocket_url(url) as websocket:
        api = Api(websocket)
        hello = await api.receive()
        if hello.get("api") != API_VERSION:
            raise Refused(f"this bot speaks client API {API_VERSION}, the node {hello.get('api')}")
        if hello.get("auth"):
            await api.request("auth", token=token or "")
        lobby_id = None
        if host:
            lobby_id = (await api.request("host", game=host))["lobby"]["lobby_id"]
            print(f"hosting {host} table {lobby_id}", flush=True)
            if start:
                await start_when_full(api, lobby_id)
        elif join:
            lobby_id = (await api.request("join", peer=join[0], lobby_id=join[1]))["lobby"]["lobby_id"]
        await api.request("subscribe")
        answered = None
        while True:
            event = await api.event()
            if event["event"] != "table":
                continue
            lobby_id = lobby_id or event["lobby_id"]  # with no table named, follow the first one seen
            if event["lobby_id"] != lobby_id:
                continue
            if event["result"] is not None:
                return event["result"], event["seat"]
            seen = (event["view"], event["legal_moves"])
            if event["legal_moves"] and seen != answered:  # one move per state, not per repeated event
                answered = seen
                try:
                    await api.request("move", table=event["table"], move=rng.choice(event["legal_moves"]))
                except Refused as refused:
                    print(f"move refused: {refused}", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Play random legal moves through a fairtable node's client API.")
    parser.add_argument("--api", default="ws://127.0.0.1:7467", help="the node's client API URL")
    parser.add_argument("--token-file", help="the node's api-token file (if the node requires one)")
    parser.add_argument("--host", metavar="GAME", help="host a new table of GAME")
    parser.add_argument("--start", action="store_true", help="with --host: start once every seat is taken")
    parser.add_argument("--join", nargs=2, metavar=("PEER", "LOBBY_ID"), help="join a table at another node")
    parser.add_argument("--seed", type=int, help="make the bot's choices reproducible")
    args = parser.parse_args(argv)
    token = None
    if args.token_file:
        with open(args.token_file, encoding="ascii") as handle:
            token = handle.read().strip()
    try:
        result, seat = trio.run(lambda: play(args.api, token, host=args.host, join=args.join, start=args.start,
                                             rng=random.Random(args.seed)))
    except (Refused, HandshakeError, ConnectionClosed, OSError) as exc:
        print(f"bot: {exc}", file=sys.stderr)
        return 1
    outcome = "draw" if not result["winners"] else "won" if seat in result["winners"] else "lost"
    print(f"game over ({result['reason']}): the bot in seat {seat} {outcome}; winners {result['winners']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
