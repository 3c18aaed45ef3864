"""The contract every game implements, so one table session, node and verifier serve them all.

A game is a deterministic state machine over *what a seat knows*. Its state says what
happens next (:meth:`Game.pending`): either a seat must decide (:class:`Decide`), or the
table must resolve chance or hidden information (shuffle, deal face down, reveal, public
random value, private draw, hidden data, simultaneous choices), or the game is over. The
table session fulfils requests with cryptography the game never sees, and feeds the
outcome back through :meth:`Game.apply` as an event.

Cards are *handles*: small integers the game allocates when it asks for a shuffle or a
private draw (``Shuffle.first_handle``), so the game and the session name every physical
card alike. A handle's *face* (its catalogue id) is known to a state or not: a seat's
node learns its own hand when dealt, everyone learns a card when it is revealed, and the
verifier, fed every seed, learns every face at once. Checks that need a face the state
does not know are skipped live and made by the verifier, which replays the same game
with full knowledge. Rules are never written twice.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from fairtable.games import values

if TYPE_CHECKING:
    from fairtable.games.options import Option

Handle = int
Face = int
Faces = Mapping[Handle, Face]
NO_FACES: Faces = {}
ABSENT = "absent"
"""The :class:`Forfeit` reason of a seat declared absent: it will send nothing more."""
Teams = tuple[tuple[int, ...], ...]
"""A partition of the seats, e.g. ``((0, 2), (1, 3))`` for partners."""
PUBLIC_VALUES = 256
"""The most :class:`PublicRandom` values one game (one deal of a match) may ask for: every
seat's hash chain holds this many (``spec/session.md``)."""
S = TypeVar("S")


class Rng(Protocol):
    """The one source of randomness bots, helpers and the referee take (e.g.
    :class:`~fairtable.games.seeded.SeededRng`, or ``random.Random`` on a node); rules never see one."""

    def randrange(self, n: int, /) -> int:
        """A uniform integer in ``range(n)``."""


class GameError(Exception):
    """Base of the errors a game raises."""


class OptionsError(GameError):
    """Table options a game cannot be set up with; the message names the option."""


@dataclass(frozen=True)
class Refusal:
    """Why a move is not legal now, in words any language prints: the ``rule`` id, the ``key`` of
    its message under ``refusals`` in ``messages/en.json`` and the message's ``params`` (numbers,
    codes, and the text-catalogue keys of names, such as ``towers.cards.12``). Plain values only,
    so a client formats it from the catalogue in its own language (``spec/client-api.md``)."""

    rule: str
    key: str
    params: Mapping[str, int | str] = field(default_factory=dict)

    def to_value(self) -> dict:
        """The refusal as a canonical value: ``{"rule", "key", "params"}``."""
        return {"key": self.key, "params": dict(sorted(self.params.items())), "rule": self.rule}


@dataclass(frozen=True)
class Prompt:
    """The name of the decision a seat has now (``discard a card, then play again``), in words any
    language prints: the ``key`` of its words under ``decisions`` in ``messages/en.json`` and their
    ``params``, so a client says the game's own name for it rather than only "your turn"."""

    key: str
    params: Mapping[str, int | str] = field(default_factory=dict)

    def to_value(self) -> dict:
        """The prompt as a canonical value: ``{"key", "params"}``."""
        return {"key": self.key, "params": dict(sorted(self.params.items()))}


@dataclass(frozen=True)
class Unplayable:
    """A move a player would try now (a hand card's play) that the rules refuse: the move, the
    one-word ``mark`` a hand shows beside the card (a key under ``marks`` in ``messages/en.json``:
    ``towers.cost``, ``shengji.follow``; ``GAME.not_now`` for a refusal without a word of its own)
    and the whole :class:`Refusal`."""

    move: Any
    mark: str
    refusal: Refusal

    def to_value(self) -> dict:
        """``{"mark", "move", "refusal"}``."""
        return {"mark": self.mark, "move": self.move, "refusal": self.refusal.to_value()}


GENERIC = "rule"
"""The key of the fallback refusal, which names only the rule id: for a refusal a game gives no words of its own."""


class RuleError(GameError):
    """An event the rules forbid. ``rule`` is a stable id such as ``towers.cost``; ``refusal`` the
    words for a person (the fallback naming ``rule`` when the game gives none). ``message`` (kept
    as ``detail``) is the technical detail for logs and verifier reports."""

    def __init__(self, rule: str, message: str, key: str = GENERIC, **params: int | str) -> None:
        self.rule = rule
        self.detail = message
        self.refusal = Refusal(rule, key, params) if key != GENERIC else Refusal(rule, GENERIC, {GENERIC: rule})
        super().__init__(f"{rule}: {message}")


# ------------------------------------------------------------------ requests: what happens next


@dataclass(frozen=True)
class Decide:
    """``seat`` must choose a move. ``timed`` says whether the turn timer applies."""

    seat: int
    timed: bool = True


@dataclass(frozen=True)
class Shuffle:
    """Jointly shuffle ``cards`` (faces, composition public) into a face-down deck.

    Position ``j`` of the new deck becomes handle ``first_handle + j``. ``seats`` shuffle it
    and hold its keys (empty: every seat); a game that goes on after a seat left shuffles
    new decks without it.
    """

    cards: tuple[Face, ...]
    first_handle: Handle
    seats: tuple[int, ...] = ()


@dataclass(frozen=True)
class ShuffleOwned:
    """``owner`` chooses ``size`` faces from ``catalogue`` (each at most ``max_copies`` times),
    known only to itself; the deck is then shuffled by ``seats`` (empty: every seat) so that
    nobody, the owner included, knows its order.

    The owner's node checks the composition with :meth:`Game.check_composition` before it
    commits; everyone checks it when the owner reveals it after the game. Position ``j``
    becomes handle ``first_handle + j``, dealt and revealed like any deck's.
    """

    owner: int
    size: int
    catalogue: tuple[Face, ...]
    first_handle: Handle
    max_copies: int = 1
    seats: tuple[int, ...] = ()


@dataclass(frozen=True)
class Deal:
    """Show each handle to its recipient only: ``to`` is ``((seat, handles), ...)``.

    The recipient becomes the handle's *holder*: the one seat that can play or show it. A
    handle may be dealt again to its holder (a known card put back on a face-down pile and
    drawn again): nothing is sent. Dealing undealt cards to one seat is how a game shows them
    to that seat only (a kitty to the dealer).
    """

    to: tuple[tuple[int, tuple[Handle, ...]], ...]


@dataclass(frozen=True)
class Show:
    """Show held ``handles`` to the seats ``to`` as well, and to nobody else (cards to a partner).

    Every handle must have been dealt; its holder keeps it. The others learn which handles
    were shown to whom, not their faces.
    """

    handles: tuple[Handle, ...]
    to: tuple[int, ...]


@dataclass(frozen=True)
class Reveal:
    """Show ``handles`` to everyone (e.g. an undealt kitty)."""

    handles: tuple[Handle, ...]


@dataclass(frozen=True)
class PublicRandom:
    """A public random integer in ``range(bound)`` that no seat could predict or bias."""

    bound: int


@dataclass(frozen=True)
class PrivateDraw:
    """``count`` faces drawn uniformly below ``bound`` for ``seat`` alone (its own stream).

    The draws become handles ``first_handle`` .. ``first_handle + count - 1``.
    """

    seat: int
    bound: int
    count: int
    first_handle: Handle


@dataclass(frozen=True)
class CommitHidden:
    """Each of ``seats`` chooses hidden data (e.g. a battleship board) and commits to it.

    The data is one integer per cell (``cell = y * width + x``) for each named layer, e.g.
    ``("ships", "ids")``: a layer is opened cell by cell, so what one answer shows (hit or
    miss) and what another shows (which ship) are kept apart. The seat's own node checks the
    data with :meth:`Game.check_hidden` before committing.
    """

    seats: tuple[int, ...]
    width: int
    height: int
    layers: tuple[str, ...] = ("cells",)


@dataclass(frozen=True)
class OpenHidden:
    """``seat`` opens ``cells`` of its committed ``layer``, proving each value."""

    seat: int
    layer: str
    cells: tuple[int, ...]


@dataclass(frozen=True)
class OpenSums:
    """Make public, for each of ``sums``, the sum of several seats' committed ``layer`` values,
    but not the values themselves: who holds a ship at a cell two seats' fleets may reach.

    A sum is ``((seat, cell), ...)``: at least two distinct seats, increasing, each with a cell
    of its latest board of ``layer``; every value of the layer is below ``bound``. Everyone
    learns each sum; a seat of a sum learns nothing more about the others' values than the sum
    and its own value tell. The session checks every share against the seat's later opening of
    that cell (``spec/fairness.md`` §8).
    """

    layer: str
    sums: tuple[tuple[tuple[int, int], ...], ...]
    bound: int


@dataclass(frozen=True)
class Simultaneous:
    """Each of ``seats`` chooses at once: commit first, reveal when all have committed.

    ``timed``: the turn timer applies; a seat whose timer runs out commits to
    :meth:`Game.default_move`, marked as the default, which everyone checks at the reveal.
    """

    seats: tuple[int, ...]
    timed: bool = True


@dataclass(frozen=True)
class Result:
    """How a game (or one deal of a match) ended.

    ``winners`` and ``losers`` are seats; both empty is a draw. ``losers`` names seats that
    lost without anyone winning (a seat that left a free-for-all). ``teams`` is the game's
    partition of the seats when it has teams (empty when every seat plays for itself).
    """

    winners: tuple[int, ...]
    reason: str
    scores: tuple[int, ...] = ()
    losers: tuple[int, ...] = ()
    teams: Teams = ()

    @property
    def winning_teams(self) -> tuple[int, ...]:
        """The indices of the teams whose seats won."""
        return tuple(index for index, team in enumerate(self.teams) if set(team) <= set(self.winners))

    @classmethod
    def forfeit(cls, teams: Teams, seats: tuple[int, ...], reason: str, scores: tuple[int, ...] = (),
                standing: tuple[int, ...] = ()) -> Result:
        """The default when ``seats`` leave: their teams lose with them; the teams left that had
        won (``standing``: the winners of a game that had ended) keep their win, so a loser of a
        free-for-all cannot take it from them by leaving; otherwise, if exactly one team is left
        it wins, else nobody does."""
        losing = [team for team in teams if set(team) & set(seats)]
        left = [team for team in teams if team not in losing]
        kept = tuple(sorted(seat for team in left if set(team) <= set(standing) for seat in team))
        winners = kept or (left[0] if len(left) == 1 else ())
        partners = teams if any(len(team) > 1 for team in teams) else ()
        return cls(winners, reason, scores, () if winners else tuple(sorted(s for team in losing for s in team)), partners)

    def to_value(self) -> dict:
        """``losers``, ``teams`` and ``winning_teams`` appear only when not empty."""
        value: dict[str, Any] = {"reason": self.reason, "scores": list(self.scores), "winners": list(self.winners)}
        if self.losers:
            value["losers"] = list(self.losers)
        if self.teams:
            value["teams"] = [list(team) for team in self.teams]
            value["winning_teams"] = list(self.winning_teams)
        return value


@dataclass(frozen=True)
class NextDeal:
    """A deal of a match ended with ``result``: seeds are revealed, fresh seeds committed,
    play goes on with the next deal."""

    result: Result


@dataclass(frozen=True)
class Finished:
    """The game (the match) is over. ``deal`` is the last deal's own result in a match."""

    result: Result
    deal: Result | None = None


Request = (Decide | Shuffle | ShuffleOwned | Deal | Show | Reveal | PublicRandom | PrivateDraw | CommitHidden | OpenHidden
           | OpenSums | Simultaneous | NextDeal | Finished)


# ------------------------------------------------------------------ events: what happened


@dataclass(frozen=True)
class Move:
    """``seat`` made ``move`` (a canonical value); ``faces`` are the faces the move revealed."""

    seat: int
    move: Any
    faces: Faces = field(default_factory=dict)


@dataclass(frozen=True)
class Shuffled:
    """The requested deck exists. ``faces`` is empty live; the verifier knows every position.

    For a :class:`ShuffleOwned` deck, ``composition`` (sorted faces) is given to the owner's
    state and the verifier's; the others get nothing.
    """

    faces: Faces = field(default_factory=dict)
    composition: tuple[Face, ...] = ()


@dataclass(frozen=True)
class Dealt:
    """The deal happened; ``faces`` are those this state may now know."""

    faces: Faces = field(default_factory=dict)


@dataclass(frozen=True)
class Shown:
    """The :class:`Show` happened; ``faces`` are given to its recipients' states and the verifier's."""

    faces: Faces = field(default_factory=dict)


@dataclass(frozen=True)
class Revealed:
    """Answers :class:`Reveal`: the faces of the revealed handles, now known to every seat."""
    faces: Faces


@dataclass(frozen=True)
class RandomValue:
    """Answers :class:`PublicRandom`: the value every seat's contribution fixed, below the bound."""
    value: int


@dataclass(frozen=True)
class PrivateDrawn:
    """The draw happened; ``faces`` are known to the drawing seat's state and the verifier."""

    faces: Faces = field(default_factory=dict)


@dataclass(frozen=True)
class Committed:
    """Every seat of the :class:`CommitHidden` request has committed.

    ``data`` holds the hidden data this state may know, ``{seat: {layer: values}}``: a seat's
    own data live, nothing for the others (they learn it cell by cell through :class:`Opened`).
    """

    data: Mapping[int, Mapping[str, tuple[int, ...]]] = field(default_factory=dict)


@dataclass(frozen=True)
class Opened:
    """``cells`` maps cell index to its proven value in ``seat``'s ``layer``."""

    seat: int
    layer: str
    cells: Mapping[int, int]


@dataclass(frozen=True)
class Summed:
    """The :class:`OpenSums` request's sums, one per sum, in its order."""

    sums: tuple[int, ...]


@dataclass(frozen=True)
class Chosen:
    """The simultaneous choices, one per seat of the request, in its seat order.

    ``defaults``: the seats whose timer ran out, so their choice is the rules' default.
    ``absent``: seats declared absent before their reveal; their choice is None (the others'
    choices stand, as they were already revealed). The session then forfeits them.
    """

    choices: tuple[Any, ...]
    defaults: tuple[int, ...] = ()
    absent: tuple[int, ...] = ()


@dataclass(frozen=True)
class Forfeit:
    """``seat`` leaves the game: resignation, too many timeouts, absence or proven cheating.

    The game decides what follows (its forfeit policy): end (a team game: the seat's team
    loses) or go on without the seat. After ``reason == ABSENT`` the seat sends nothing
    more: a game that still asks it for anything (a move, a key of a deck it shuffled) ends
    with :meth:`Result.forfeit` over the game's teams.
    """

    seat: int
    reason: str


@dataclass(frozen=True)
class DealStarted:
    """The session started the next game of a match (after :class:`NextDeal`)."""


Event = (Move | Shuffled | Dealt | Shown | Revealed | RandomValue | PrivateDrawn | Committed | Opened | Summed | Chosen | Forfeit
         | DealStarted)


# ------------------------------------------------------------------ the turn timer


@dataclass(frozen=True)
class Timer:
    """A table's turn timer as plain values, so the node's clock needs no option names: seconds
    per timed decision (0: off), consecutive timeouts that end a seat's game, and how long any
    other decision may stay open before its seat may be declared absent."""

    turn_seconds: int
    max_timeouts: int
    idle_seconds: int


@dataclass(frozen=True)
class Timeout:
    """The turn timer ran out on ``seat``'s timed decision: its move is the rules' default, marked
    ``"timeout": true`` on the wire. The base of the rules hands it to a timed game with the
    seat's consecutive count (this one included) already in the state; ``final``: the count
    reached ``max_timeouts``, and the game ends or goes on without the seat, as its policy says."""

    seat: int
    count: int
    final: bool


# ------------------------------------------------------------------ players


class Bot(Protocol):
    """Chooses ``seat``'s move or simultaneous choice from ``state`` (the seat's own knowledge).

    Bots for games with hidden data (:class:`CommitHidden`, :class:`ShuffleOwned`) also have
    ``commit(game, state, seat, request)``, returning the seat's data or deck composition.
    """

    def choose(self, game: Any, state: Any, seat: int) -> Any:
        """The bot's move for ``seat`` in ``state``: one of ``game.legal_moves`` (or any move the rules accept)."""


class Renderer(Protocol):
    """A game's text rendering of its views (a module with these two functions will do).

    A game whose decisions are too many to list (a salvo of shots) also offers
    ``move_hint(view) -> str | None`` and ``parse_move(view, text) -> move | None``, so a text
    client reads a typed move when the legal moves are empty (``games/zeeslag/render.py``). A game
    whose result's scores are not one per seat offers ``standing(view) -> str``, how a finished
    match was reached (``points 28–20, rounds won 1–0, 3 rounds drawn``), which a final screen
    says beside the result (``games/duel/render.py``).
    """

    def render(self, view: dict) -> str:
        """The whole board of ``view`` as text, for logs, exports and plain terminals."""

    def move_line(self, view: dict, move: Any) -> str:
        """One line saying what ``move`` did, read against the view before it."""


BotFactory = Callable[[Rng], Bot]


# ------------------------------------------------------------------ the game


class Game(ABC, Generic[S]):
    """One game's rules over states of type ``S``. Stateless: every method takes the state.

    Besides its rules a game declares what a node, client and listing need, so nothing is
    looked up by module name: ``options`` (per variant through :meth:`options_for`), the seat
    range per variant (:meth:`seat_range`), ``bots`` by name (``"random"``, ``"greedy"``),
    its ``renderer``, the words for its result ``reasons`` and :meth:`random_hidden`.
    """

    id: str
    variants: tuple[str, ...]
    min_seats: int
    max_seats: int
    state_type: type
    options: Mapping[str, Option] = {}
    bots: Mapping[str, BotFactory] = {}
    renderer: Renderer | None = None
    reasons: Mapping[str, str] = {}
    """Words for the reason codes of this game's results (``games/results.py`` has the common ones)."""

    @abstractmethod
    def setup(self, variant: str, options: Mapping[str, Any], seats: int) -> S:
        """The initial state; raises :class:`OptionsError` for an unknown or out-of-range option."""

    @abstractmethod
    def pending(self, state: S) -> Request:
        """What must happen next."""

    @abstractmethod
    def apply(self, state: S, event: Event) -> S:
        """The next state, or :class:`RuleError` naming the rule the event breaks."""

    @abstractmethod
    def legal_moves(self, state: S, seat: int) -> tuple[Any, ...]:
        """The moves ``seat`` may make now, as far as this state's knowledge allows."""

    @abstractmethod
    def reveals(self, state: S, move: Any) -> tuple[Handle, ...]:
        """Handles ``move`` shows to everyone; the session demands their opening with the move."""

    @abstractmethod
    def default_move(self, state: S, seat: int) -> Any:
        """The move (or simultaneous choice) the rules make for ``seat`` when its timer runs out."""

    @abstractmethod
    def view(self, state: S, seat: int | None) -> dict:
        """What ``seat`` (or a spectator, ``None``) may see, as a canonical value."""

    def to_value(self, state: S) -> Any:
        """The state as a canonical value."""
        return values.to_value(state)

    def from_value(self, value: Any) -> S:
        """Inverse of :meth:`to_value`."""
        return values.from_value(self.state_type, value)

    def explain(self, state: S, seat: int, move: Any) -> Refusal | None:
        """Why ``seat`` may not make ``move`` (or simultaneous choice, or draft of its hidden data)
        now, or None when the rules accept it as far as this state knows: the words of the
        :class:`RuleError` that :meth:`apply` (:meth:`check_choice` for a choice,
        :meth:`check_draft` for a draft) raises, so a refusal is written once.
        The move shows the faces of :meth:`reveals` this state knows, as the seat's node sends it."""
        request = self.pending(state)
        try:
            if isinstance(request, Simultaneous) and seat in request.seats:
                self.check_choice(state, seat, move)
                return None
            if isinstance(request, CommitHidden) and seat in request.seats:
                self.check_draft(state, seat, move)
                return None
            known: Mapping[Handle, Face] = getattr(state, "faces", NO_FACES)
            shown = self._shown(state, move) if isinstance(request, Decide) and request.seat == seat else ()
            self.apply(state, Move(seat, move, {handle: known[handle] for handle in shown if handle in known}))
        except RuleError as error:
            return error.refusal
        return None

    def prompt(self, state: S, seat: int) -> Prompt | None:
        """The game's name for the decision ``seat`` has now (discard, declare, bury the kitty,
        place ships, fire a salvo), or None where it names none (a client then says "your turn").
        Asked only while ``seat`` has a decision open."""
        return None

    marks: Mapping[str, str] = {}
    """The mark (a key under ``marks`` in ``messages/en.json``) of each refusal key a hand card's
    move may meet (``{"towers.cost": "towers.cost"}``); others are marked ``GAME.not_now``."""

    def attempts(self, state: S, seat: int) -> tuple[Any, ...]:
        """The moves a player would try with each hand card now (its play), whether legal or not:
        those not legal are marked with why (:meth:`unplayable`). None by default."""
        return ()

    def unplayable(self, state: S, seat: int) -> tuple[Unplayable, ...]:
        """Each of :meth:`attempts` the rules refuse now, with its mark and refusal: the words of
        :meth:`explain`, so a client marks a card from the rules, never from rules of its own."""
        attempts = self.attempts(state, seat)
        legal = self.legal_moves(state, seat) if attempts else ()
        marked = []
        for move in attempts:
            refusal = None if move in legal else self.explain(state, seat, move)
            if refusal is not None:
                marked.append(Unplayable(move, self.marks.get(refusal.key, f"{self.id}.not_now"), refusal))
        return tuple(marked)

    def _shown(self, state: S, move: Any) -> tuple[Handle, ...]:
        try:
            return self.reveals(state, move)
        except Exception:  # a malformed move may not even name its cards: apply refuses it in words
            return ()

    def check_hidden(self, state: S, seat: int, data: Mapping[str, tuple[int, ...]]) -> None:
        """Raise :class:`RuleError` unless ``data`` is hidden data ``seat`` may commit now.

        Games with :class:`CommitHidden` override this; the verifier makes the same check
        once the data is fully opened.
        """
        raise RuleError("contract.hidden", f"{self.id} has no hidden data")

    def check_draft(self, state: S, seat: int, draft: Any) -> None:
        """Raise :class:`RuleError` unless ``draft``, the part of its hidden data ``seat`` settles
        before the rest (the space battle's purchase, before its ships are placed), may be part
        of what it commits now: a client asks before the player goes on. By default a game's
        hidden data has no such part."""
        raise RuleError("contract.hidden", f"{self.id} judges no draft of hidden data")

    def check_choice(self, state: S, seat: int, choice: Any) -> None:
        """Raise :class:`RuleError` unless ``choice`` is a simultaneous choice ``seat`` may make
        now, as far as this state's knowledge allows (the marked default is checked apart).

        By default: one of :meth:`legal_moves` where the state lists any. A game whose choices
        are too many to list (a salvo of several shots) checks them here instead. The seat's
        node asks before committing, and every node at the reveal, so the error names the seat
        that revealed it.
        """
        legal = self.legal_moves(state, seat)
        if legal and choice not in legal:
            raise RuleError(f"{self.id}.choice", f"seat {seat} chose {choice!r}, not one of its legal choices", "choice")
    def judge_hidden(self, state: S, seat: int, data: Mapping[str, tuple[int, ...]]) -> None:
        """After the game: raise :class:`RuleError` unless ``data``, ``seat``'s latest hidden data
        in full, is legal and agrees with every answer the seat gave from it.

        The verifier calls it when the data was revealed only with the seat's seed (the game
        ended before it asked for a full opening, e.g. by a resignation), so a seat cannot
        hide illegal data by leaving. Games with :class:`CommitHidden` override this, as they
        do :meth:`check_hidden`.
        """
        raise RuleError("contract.hidden", f"{self.id} has no hidden data")

    def check_composition(self, state: S, seat: int, cards: tuple[Face, ...]) -> None:
        """Raise :class:`RuleError` (the game's rule id) unless ``cards`` (sorted) is a deck
        ``seat`` may own for the pending :class:`ShuffleOwned` (e.g. "20 distinct cards").

        Checked by the owner's node before it commits and by everyone when the owner reveals
        it after the game, so it must depend only on what every state knows.
        """
        raise RuleError("contract.composition", f"{self.id} has no owned decks")

    def read_composition(self, state: S, seat: int, text: str) -> tuple[Face, ...]:
        """The deck ``text`` (a deck list in the player's words) names for ``seat``'s pending
        :class:`ShuffleOwned`, checked as :meth:`check_composition` checks it, so a client reads a
        pasted list with the game's own reader; :class:`GameError` says every problem."""
        raise RuleError("contract.composition", f"{self.id} has no owned decks")

    def random_hidden(self, state: S, seat: int, request: Request, rng: Rng) -> Any:
        """Random legal hidden data for ``request`` (a :class:`CommitHidden` layer map or a
        :class:`ShuffleOwned` composition): the "random" button and the random bots."""
        raise RuleError("contract.hidden", f"{self.id} has no hidden data")

    def timer(self, options: Mapping[str, Any]) -> Timer | None:
        """The turn timer a table with these (validated) ``options`` runs, or None for a game
        without one: the protocol asks this instead of reading option names."""
        return None

    def options_of(self, state: S) -> Mapping[str, Any]:
        """The validated options, with defaults filled in (what :meth:`timer` is asked with)."""
        return state.options  # type: ignore[attr-defined]

    def options_for(self, variant: str) -> Mapping[str, Option]:
        """The options a table of ``variant`` may set (all the game's, unless it says otherwise)."""
        return self.options

    def seat_range(self, variant: str) -> tuple[int, int]:
        """The fewest and most seats a table of ``variant`` may have."""
        return self.min_seats, self.max_seats

    def teams(self, variant: str, options: Mapping[str, Any], seats: int) -> Teams:
        """The teams, fixed by the game or chosen by option (``options`` are the validated
        ones); every seat alone by default. A result, forfeit or absence names a seat's whole team."""
        return tuple((seat,) for seat in range(seats))

    def bot_names(self) -> tuple[str, ...]:
        """Every bot kind the game offers: ``random`` (the generic one unless declared) first."""
        return ("random", *sorted(set(self.bots) - {"random"}))

    def describe(self) -> dict:
        """The declarations as a canonical value: what ``fairtable games`` and the client API list."""
        return {
            "bots": list(self.bot_names()),
            "id": self.id,
            "max_seats": self.max_seats,
            "min_seats": self.min_seats,
            "options": {variant: [option.describe(name) for name, option in self.options_for(variant).items()]
                        for variant in self.variants},
            "renders": self.renderer is not None,
            "seats": {variant: list(self.seat_range(variant)) for variant in self.variants},
            "variants": list(self.variants),
        }
