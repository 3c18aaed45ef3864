"""The client API's ops: the fields each request carries and what serves it.

Each op's fields are checked by name and type before its handler runs, so a handler only
translates a well-formed request into one :class:`NodeService` call and its result into
JSON fields. ``spec/client-api.md`` documents every op listed here.
"""

from __future__ import annotations

import base64
import dataclasses
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from fairtable.games import ENGLISH, LANGUAGES, GameError, registry, say, speaking
from fairtable.node.api.jsonvalues import RequestError, bad_request
from fairtable.node.lobby.invite import InviteError, parse_invite
from fairtable.node.service import REFUSED, STORAGE, NodeService, ServiceError, TableUpdate
from fairtable.protocol import IdentityError, parse_fingerprint

Check = tuple[str, Callable[[Any], bool]]
STRING: Check = ("a string", lambda value: isinstance(value, str))
STRING_OR_NULL: Check = ("a string or null", lambda value: value is None or isinstance(value, str))
INTEGER: Check = ("an integer", lambda value: isinstance(value, int) and not isinstance(value, bool))
OBJECT: Check = ("an object", lambda value: isinstance(value, dict))
ANY: Check = ("a value", lambda value: True)

Handler = Callable[[NodeService, Mapping[str, Any]], Awaitable[dict]]


@dataclass(frozen=True)
class Op:
    """One request kind: its fields (besides ``id`` and ``op``) and what serves it."""

    handler: Handler | None
    required: Mapping[str, Check] = field(default_factory=dict)
    optional: Mapping[str, Check] = field(default_factory=dict)

    def arguments(self, request: Mapping[str, Any]) -> dict[str, Any]:
        """The request's fields after checking their names and types; :class:`RequestError` otherwise."""
        fields = {name: value for name, value in request.items() if name not in ("id", "op")}
        for name in fields:
            if name not in self.required and name not in self.optional:
                known = ", ".join(sorted({*self.required, *self.optional})) or "none"
                raise bad_request(f"unknown field {name!r} for op {request['op']!r} (its fields: {known})")
        for name in self.required:
            if name not in fields:
                raise bad_request(f"op {request['op']!r} needs field {name!r}")
        for name, value in fields.items():
            what, check = self.required.get(name) or self.optional[name]
            if not check(value):
                raise bad_request(f"field {name!r} must be {what}")
        return fields


def refusal(exc: Exception) -> RequestError | None:
    """The typed error response for what a handler raised; None for a bug (``internal``)."""
    if isinstance(exc, RequestError):
        return exc
    if isinstance(exc, ServiceError):
        return RequestError(exc.code, str(exc))
    if isinstance(exc, GameError):
        return RequestError(REFUSED, str(exc))
    if isinstance(exc, OSError):
        where = f" ({exc.filename})" if exc.filename else ""
        return RequestError(STORAGE, f"the node cannot use its data directory: {exc.strerror or exc}{where}")
    return None


def fields_of(record: Any) -> dict[str, Any]:
    """A service dataclass as a JSON object; ``deadline`` rounded to milliseconds."""
    value = {f.name: getattr(record, f.name) for f in dataclasses.fields(record)}
    if value.get("deadline") is not None:
        value["deadline"] = round(value["deadline"], 3)
    return value


def table_event(update: TableUpdate) -> dict[str, Any]:
    return {"event": "table", **fields_of(update)}


async def _games(service: NodeService, args: Mapping[str, Any]) -> dict:
    """Every game's declarations (``Game.describe``), the same as ``fairtable games --json``."""
    return {"games": [registry.get(game_id).describe() for game_id in registry.ids()]}


async def _list(service: NodeService, args: Mapping[str, Any]) -> dict:
    tables = await service.list_tables(args.get("peer"))
    if args.get("peer") is not None:
        return {"tables": [fields_of(table) for table in tables]}
    return {"tables": [{**fields_of(table), "invite": await service.invite(table.lobby_id)} for table in tables]}


async def _host(service: NodeService, args: Mapping[str, Any]) -> dict:
    game = registry.get(args["game"])
    lobby = await service.host(
        game.id, args.get("variant", game.variants[0]), args.get("options", {}), args.get("seats", game.min_seats)
    )
    return {"lobby": fields_of(lobby), "invite": await service.invite(lobby.lobby_id)}


async def _join(service: NodeService, args: Mapping[str, Any]) -> dict:
    return {"lobby": fields_of(await service.join(*_reached("join", args, "lobby_id")))}


def _reached(op: str, args: Mapping[str, Any], ref: str) -> tuple[str, str, str | None]:
    """The peer, the table's ``ref`` and the fingerprint that ``op`` names by an ``invite`` or by
    ``peer`` and ``ref`` (and ``fingerprint``): a join and a watch reach a node alike."""
    if "invite" in args:
        if set(args) & {"peer", ref, "fingerprint"}:
            raise bad_request(f"{op} takes either 'invite' or 'peer' and {ref!r} (and 'fingerprint')")
        try:
            invite = parse_invite(args["invite"])
        except InviteError as exc:
            raise ServiceError(str(exc)) from None
        return invite.address, invite.lobby_id, invite.fingerprint
    for name in ("peer", ref):
        if name not in args:
            raise bad_request(f"op {op!r} needs field {name!r} (or an 'invite' instead)")
    return args["peer"], args[ref], _fingerprint(args.get("fingerprint"))


def _fingerprint(text: str | None) -> str | None:
    """A fingerprint as a person typed it (any case, dashes optional), read; :class:`ServiceError` for a mistyped one."""
    if text is None:
        return None
    try:
        return parse_fingerprint(text)
    except IdentityError as exc:
        raise ServiceError(f"fingerprint: {exc}") from None


async def _watch(service: NodeService, args: Mapping[str, Any]) -> dict:
    return {"update": fields_of(await service.watch(*_reached("watch", args, "table")))}


async def _watch_invite(service: NodeService, args: Mapping[str, Any]) -> dict:
    return {"invite": await service.watch_invite(args["table"])}


async def _node(service: NodeService, args: Mapping[str, Any]) -> dict:
    return fields_of(await service.identity())


async def _tables(service: NodeService, args: Mapping[str, Any]) -> dict:
    return {"tables": [fields_of(update) for update in await service.my_tables()]}


async def _discovered(service: NodeService, args: Mapping[str, Any]) -> dict:
    return {"tables": [fields_of(table) for table in await service.discovered()]}


async def _leave(service: NodeService, args: Mapping[str, Any]) -> dict:
    await service.leave(args["lobby_id"])
    return {}


async def _start(service: NodeService, args: Mapping[str, Any]) -> dict:
    return {"update": fields_of(await service.start(args["lobby_id"]))}


async def _move(service: NodeService, args: Mapping[str, Any]) -> dict:
    await service.move(args["table"], args["move"])
    return {}


async def _check(service: NodeService, args: Mapping[str, Any]) -> dict:
    """``legal``, and when not the refusal the move would meet, with its ``text`` in the language asked for."""
    language = args.get("lang", ENGLISH)
    if language not in LANGUAGES:
        raise bad_request(f"field 'lang' must be one of {', '.join(LANGUAGES)}")
    refusal = await service.check(args["table"], args["move"])
    if refusal is None:
        return {"legal": True}
    with speaking(language):
        return {"legal": False, "refusal": refusal.to_value(), "text": say(refusal)}


async def _deck_list(service: NodeService, args: Mapping[str, Any]) -> dict:
    return {"cards": list(await service.read_deck(args["table"], args["text"]))}


async def _resign(service: NodeService, args: Mapping[str, Any]) -> dict:
    await service.resign(args["table"])
    return {}


async def _chat(service: NodeService, args: Mapping[str, Any]) -> dict:
    await service.chat(args["table"], args["text"])
    return {}


async def _rematch(service: NodeService, args: Mapping[str, Any]) -> dict:
    return {"lobby": fields_of(await service.rematch(args["table"]))}


async def _proof(service: NodeService, args: Mapping[str, Any]) -> dict:
    return {"proof": base64.b64encode(await service.proof(args["table"], args["index"])).decode("ascii")}


async def _transcript(service: NodeService, args: Mapping[str, Any]) -> dict:
    return {"transcript": base64.b64encode(await service.transcript(args["table"])).decode("ascii")}


async def _history(service: NodeService, args: Mapping[str, Any]) -> dict:
    return await service.history(args["table"], args.get("from", 0))


async def _replay_step(service: NodeService, args: Mapping[str, Any]) -> dict:
    return await service.replay_step(args["table"], args["index"])


async def _tournament_host(service: NodeService, args: Mapping[str, Any]) -> dict:
    return {"lobby": fields_of(await service.host_tournament(args["participants"], args.get("options", {})))}


async def _tournament_join(service: NodeService, args: Mapping[str, Any]) -> dict:
    return {"lobby": fields_of(await service.join_tournament(args["peer"], args["lobby_id"]))}


async def _tournament_list(service: NodeService, args: Mapping[str, Any]) -> dict:
    return {"lobbies": [fields_of(lobby) for lobby in await service.list_tournaments(args.get("peer"))]}


async def _tournaments(service: NodeService, args: Mapping[str, Any]) -> dict:
    return {"tournaments": [fields_of(status) for status in await service.tournament_status()]}


OPS: dict[str, Op] = {
    "auth": Op(None, {"token": STRING}),
    "subscribe": Op(None),
    "games": Op(_games),
    "node": Op(_node),
    "tables": Op(_tables),
    "discovered": Op(_discovered),
    "list": Op(_list, optional={"peer": STRING_OR_NULL}),
    "host": Op(_host, {"game": STRING}, {"variant": STRING, "options": OBJECT, "seats": INTEGER}),
    "join": Op(_join, optional={"peer": STRING, "lobby_id": STRING, "fingerprint": STRING_OR_NULL, "invite": STRING}),
    "watch": Op(_watch, optional={"peer": STRING, "table": STRING, "fingerprint": STRING_OR_NULL, "invite": STRING}),
    "watch_invite": Op(_watch_invite, {"table": STRING}),
    "leave": Op(_leave, {"lobby_id": STRING}),
    "start": Op(_start, {"lobby_id": STRING}),
    "move": Op(_move, {"table": STRING, "move": ANY}),
    "check": Op(_check, {"table": STRING, "move": ANY}, {"lang": STRING}),
    "deck_list": Op(_deck_list, {"table": STRING, "text": STRING}),
    "resign": Op(_resign, {"table": STRING}),
    "chat": Op(_chat, {"table": STRING, "text": STRING}),
    "rematch": Op(_rematch, {"table": STRING}),
    "transcript": Op(_transcript, {"table": STRING}),
    "proof": Op(_proof, {"table": STRING, "index": INTEGER}),
    "history": Op(_history, {"table": STRING}, {"from": INTEGER}),
    "replay_step": Op(_replay_step, {"table": STRING, "index": INTEGER}),
    "tournament_host": Op(_tournament_host, {"participants": INTEGER}, {"options": OBJECT}),
    "tournament_join": Op(_tournament_join, {"peer": STRING, "lobby_id": STRING}),
    "tournament_list": Op(_tournament_list, optional={"peer": STRING_OR_NULL}),
    "tournaments": Op(_tournaments),
}
"""``auth`` and ``subscribe`` (no handler) act on the connection itself."""
