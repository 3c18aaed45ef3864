"""What a running node offers its local clients: the seam between the node and the client API.

The client API (WebSocket + JSON) translates requests into calls on a :class:`NodeService`
and streams its :class:`TableUpdate` values back; the node implements the service. Clients
never see keys, seeds or envelopes: they host, join and start tables, receive their seat's
view and legal moves, and send moves.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any, Protocol

from fairtable.games import Game, GameError, Refusal, registry

REFUSED = "refused"
"""The node will not do it; the message says why (a full table, bad options, a peer's refusal, ...)."""
NOT_FOUND = "not_found"
"""The request names no started table this node sits at."""
ILLEGAL = "illegal"
"""Not this seat's decision now, or not one it may make (not among the legal moves)."""
STORAGE = "storage"
"""The node cannot read or write its data directory (full disk, read-only file system, ...)."""


class ServiceError(Exception):
    """A client request the node refuses; the message says why (shown to the user as is) and
    ``code`` says what kind of refusal it is (one of the constants above, ``spec/client-api.md``)."""

    def __init__(self, message: str, code: str = REFUSED) -> None:
        self.code = code
        super().__init__(message)


def check_new_table(game: str, variant: str, options: dict, seats: int) -> Game:
    """The game of a table to host, once its variant, options and seats are valid; ServiceError otherwise.

    Shared by the node and by ``fairtable node --host-table``, which checks before it listens.
    """
    try:
        rules = registry.get(game)
        if not rules.min_seats <= seats <= rules.max_seats:
            counts = f"exactly {rules.min_seats}" if rules.min_seats == rules.max_seats else f"{rules.min_seats} to {rules.max_seats}"
            raise ServiceError(f"{game} is played by {counts} seats, not {seats}")
        rules.setup(variant, options, seats)
    except GameError as exc:
        raise ServiceError(str(exc)) from None
    return rules


@dataclass(frozen=True)
class LobbyTable:
    """A table offered by a host before it starts."""

    lobby_id: str
    host: str
    game: str
    variant: str
    options: dict
    seats: int
    joined: tuple[str, ...]
    started: bool = False


@dataclass(frozen=True)
class TableUpdate:
    """Everything a client shows for one table this node sits at, sent whenever it changes.

    ``table`` is the hex table id once the genesis is signed (before that, ``lobby_id``
    names it). ``phase`` is ``lobby``, ``playing``, ``finished`` or ``closed``. ``view`` is
    the seat's view (``Game.view``). ``decision`` says what this seat must decide now:
    ``move`` (one of ``legal_moves``), ``hidden`` (its hidden data, e.g. a fleet: send
    ``{layer: [values]}``, or ``{"random": true}`` for a random legal one) or ``choice``
    (a simultaneous choice among ``legal_moves``); None when nothing is due from this seat.
    ``deadline`` is seconds left on the turn timer
    (None when untimed), ``result`` the ``Result.to_value()`` once known, ``violations``
    the ``Violation.to_value()`` list of what this node detected, each with the signed
    envelope that proves it. ``stalled`` says why this node cannot write the table's journal
    (a full disk, say): until it can, it signs and accepts nothing for the table. ``text`` is
    the game's own text rendering of ``view`` and ``move_texts`` its words for each legal move
    (so a client without a screen for the game can still show and play it); ``standing`` how
    a finished game was reached, in the game's words (``games.results.final_standing``); ``clock`` is
    ``{"seat": s, "seconds": left}`` for the seat whose timed decision is open, any seat's;
    ``clocks`` every seat's clock at once (``Replica.clocks``: turn time and grace left, running).
    ``fingerprints`` are the seats' key fingerprints (what a person compares, shown on demand
    beside the names in ``seats``); ``log`` the table's announcements, oldest first
    (``node.table.notices``): what happened to a player without their hand on it.
    ``prompt`` is the game's name for this seat's open decision in its words ("discard a card,
    then play again", "bury 8 cards in the kitty"; None when none is due or the game names none);
    ``unplayable`` the hand cards' plays the rules refuse now, each ``{"move", "mark", "text"}``:
    the move, one word to show beside the card ("cost", "follow", "full") and the refusal's words.
    ``watching``: this node only watches the table (a spectator, ``seat`` None): ``view`` is
    the spectator's, and nothing is ever due from it. ``chat`` the
    table's last chat lines, oldest first, each ``{"seat", "name", "text", "rematch"}`` (``rematch``:
    the lobby id of the new table its author offers, None for words; ``node.table.chat``).
    """

    lobby_id: str
    table: str | None
    game: str
    variant: str
    seat: int | None
    seats: tuple[str, ...]
    phase: str
    view: Any = None
    legal_moves: tuple[Any, ...] = ()
    your_turn: bool = False
    decision: str | None = None
    deadline: float | None = None
    result: Any = None
    violations: tuple[Any, ...] = field(default=())
    stalled: str | None = None
    text: str | None = None
    move_texts: tuple[str, ...] = ()
    standing: str | None = None
    clock: Any = None
    clocks: Any = None
    fingerprints: tuple[str, ...] = ()
    log: tuple[Any, ...] = ()
    prompt: str | None = None
    unplayable: tuple[Any, ...] = ()
    watching: bool = False
    chat: tuple[Any, ...] = ()


@dataclass(frozen=True)
class Identity:
    """Who this node is and where peers reach it: what an invite string carries; with libp2p, whether
    its relays can dial it (``public``, ``private`` or ``unknown``; ``spec/node.md``, "Reachability")."""

    name: str
    fingerprint: str
    address: str
    reachability: str | None = None


@dataclass(frozen=True)
class FoundTable:
    """An open lobby table another node announces on the local network (``node.discovery``)."""

    lobby_id: str
    host: str
    fingerprint: str
    address: str
    game: str
    variant: str
    options: dict
    seats: int
    joined: tuple[str, ...]


@dataclass(frozen=True)
class TournamentLobby:
    """A duel tournament offered before it starts (``spec/tournament.md``): at this node or at ``host``."""

    lobby_id: str
    host: str
    participants: int
    options: dict
    joined: tuple[str, ...]
    started: bool = False


@dataclass(frozen=True)
class TournamentStatus:
    """A tournament this node takes part in: ``progress`` is ``Progress.to_value()`` (rounds with
    each table's outcome, standings, bracket, champion, prizes), participants by index into
    ``participants`` (names); ``me`` is this node's index; ``folder`` holds its bundle."""

    tournament: str
    me: int
    participants: tuple[str, ...]
    folder: str
    progress: dict


class NodeService(Protocol):
    """The operations behind the client API. Every method raises :class:`ServiceError` on refusal."""

    async def list_tables(self, peer: str | None) -> tuple[LobbyTable, ...]:
        """Lobby tables hosted here (``peer`` None) or by the node at ``peer`` ("host:port")."""

    async def host(self, game: str, variant: str, options: dict, seats: int) -> LobbyTable:
        """Offer a new lobby table with this node in seat 0."""

    async def join(self, peer: str, lobby_id: str, fingerprint: str | None = None) -> LobbyTable:
        """Take a seat at a lobby table of the node at ``peer``; refused unless that node's key
        has ``fingerprint``, when one is given (an invite carries it)."""

    async def leave(self, lobby_id: str) -> None:
        """Leave a lobby table before it starts."""

    async def start(self, lobby_id: str) -> TableUpdate:
        """Host only: sign the genesis with every seat and start play."""

    async def watch(self, peer: str, table: str, fingerprint: str | None = None) -> TableUpdate:
        """Watch the started table ``table`` (its lobby id or id in hex) through the node at ``peer``,
        one of its seats' (with ``fingerprint``, only if that node has that key), as a spectator."""
        ...

    async def watch_invite(self, table: str) -> str:
        """The invite through which spectators watch this node's started table ``table``."""
        ...

    async def move(self, table: str, move: Any) -> None:
        """Play ``move`` (one of the legal moves) for this node's seat."""

    async def check(self, table: str, move: Any) -> Refusal | None:
        """Why ``move`` may not be played for this node's seat now, in the game's words (None: it
        may, as far as this seat knows); the game's own refusal, the one :meth:`move` would meet."""

    async def read_deck(self, table: str, text: str) -> tuple[int, ...]:
        """The deck a deck list names for this seat's deck decision, read and checked by the
        game's own reader (``Game.read_composition``); :class:`ServiceError` with every problem."""

    async def resign(self, table: str) -> None:
        """Give up this seat's game at its next turn."""

    async def chat(self, table: str, text: str) -> None:
        """Say ``text`` at the table: a line signed by this seat, sent to every other seat (rate-limited)."""

    async def rematch(self, table: str) -> LobbyTable:
        """At a finished table: accept another seat's rematch offer (join its new lobby table), or offer
        one (a new lobby table with the same game, variant, options and number of seats, starting by
        itself once every seat has joined); the new table's lobby either way."""
        ...

    async def proof(self, table: str, index: int) -> bytes:
        """A self-contained transcript file proving violation ``index`` of the table's
        ``TableUpdate.violations`` (the chain up to its slot and the signed envelope(s) it rests on)."""
        ...

    async def transcript(self, table: str) -> bytes:
        """The table's transcript file as far as this node has it."""

    async def history(self, table: str, since: int) -> dict:
        """The table's history from envelope ``since`` on, in the export's notation: ``entries``
        (``{"index", "n", "seat", "text", "mark"}``), ``result`` in words once known, and
        ``replay``, whether :meth:`replay_step` can step through it (the table is finished here)."""
        ...

    async def replay_step(self, table: str, index: int) -> dict:
        """The finished table at its step of envelope ``index`` as the verifier replays it: the
        step's words and this seat's view then (``{"index", "n", "seat", "text", "view", "board"}``,
        ``board`` the game's text rendering of the view or None)."""
        ...

    async def identity(self) -> Identity:
        """This node's name, key fingerprint and peer address."""
        ...

    async def invite(self, lobby_id: str) -> str:
        """The invite to this node's lobby table ``lobby_id`` (``spec/node.md``, "Invites")."""
        ...

    async def my_tables(self) -> tuple[TableUpdate, ...]:
        """The current state of every table this node sits at: lobby, playing and finished ones."""
        ...

    async def discovered(self) -> tuple[FoundTable, ...]:
        """Open tables other nodes announce on the local network (empty with discovery off)."""
        ...

    async def host_tournament(self, participants: int, options: dict) -> TournamentLobby:
        """Offer a duel tournament with this node as its first participant; it starts once full."""
        ...

    async def join_tournament(self, peer: str, lobby_id: str) -> TournamentLobby:
        """Enter the tournament ``lobby_id`` offered by the node at ``peer``."""
        ...

    async def list_tournaments(self, peer: str | None) -> tuple[TournamentLobby, ...]:
        """Tournaments offered here (``peer`` None) or by the node at ``peer``, before they start."""
        ...

    async def tournament_status(self) -> tuple[TournamentStatus, ...]:
        """Every tournament this node takes part in, as far as verified tables carry it."""
        ...

    def updates(self) -> AsyncIterator[TableUpdate]:
        """Every change at every table this node sits at, current state first."""
