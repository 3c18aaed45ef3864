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
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from fairtable.games import values

Handle = int
Face = int
Faces = Mapping[Handle, Face]
NO_FACES: Faces = {}


class GameError(Exception):
    """Base of the errors a game raises."""


class OptionsError(GameError):
    """Table options a game cannot be set up with; the message names the option."""


class RuleError(GameError):
    """An event the rules forbid. ``rule`` is a stable id such as ``towers.cost``."""

    def __init__(self, rule: str, message: str) -> None:
        self.rule = rule
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

    Position ``j`` of the new deck becomes handle ``first_handle + j``.
    """

    cards: tuple[Face, ...]
    first_handle: Handle


@dataclass(frozen=True)
class Deal:
    """Show each handle to its recipient only: ``to`` is ``((seat, handles), ...)``."""

    to: tuple[tuple[int, tuple[Handle, ...]], ...]


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
class Simultaneous:
    """Each of ``seats`` chooses at once: commit first, reveal when all have committed."""

    seats: tuple[int, ...]


@dataclass(frozen=True)
class NextDeal:
    """A game of a match ended: seeds are revealed, fresh seeds committed, play goes on."""


@dataclass(frozen=True)
class Result:
    """How a game ended. ``winners`` empty means a draw."""

    winners: tuple[int, ...]
    reason: str
    scores: tuple[int, ...] = ()

    def to_value(self) -> dict:
        return {"reason": self.reason, "scores": list(self.scores), "winners": list(self.winners)}


@dataclass(frozen=True)
class Finished:
    result: Result


Request = Decide | Shuffle | Deal | Reveal | PublicRandom | PrivateDraw | CommitHidden | OpenHidden | Simultaneous | NextDeal | Finished


# ------------------------------------------------------------------ events: what happened


@dataclass(frozen=True)
class Move:
    """``seat`` made ``move`` (a canonical value); ``faces`` are the faces the move revealed."""

    seat: int
    move: Any
    faces: Faces = field(default_factory=dict)


@dataclass(frozen=True)
class Shuffled:
    """The requested deck exists. ``faces`` is empty live; the verifier knows every position."""

    faces: Faces = field(default_factory=dict)


@dataclass(frozen=True)
class Dealt:
    """The deal happened; ``faces`` are those this state may now know."""

    faces: Faces = field(default_factory=dict)


@dataclass(frozen=True)
class Revealed:
    faces: Faces


@dataclass(frozen=True)
class RandomValue:
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
class Chosen:
    """The simultaneous choices, one per seat of the request, in its seat order."""

    choices: tuple[Any, ...]


@dataclass(frozen=True)
class Forfeit:
    """``seat`` leaves the game: resignation, too many timeouts, absence or proven cheating."""

    seat: int
    reason: str


@dataclass(frozen=True)
class DealStarted:
    """The session started the next game of a match (after :class:`NextDeal`)."""


Event = Move | Shuffled | Dealt | Revealed | RandomValue | PrivateDrawn | Committed | Opened | Chosen | Forfeit | DealStarted


# ------------------------------------------------------------------ the game


class Game(ABC):
    """One game's rules. Stateless: every method takes the state it works on."""

    id: str
    variants: tuple[str, ...]
    min_seats: int
    max_seats: int
    state_type: type

    @abstractmethod
    def setup(self, variant: str, options: Mapping[str, Any], seats: int) -> Any:
        """The initial state; raises :class:`OptionsError` for an unknown or out-of-range option."""

    @abstractmethod
    def pending(self, state: Any) -> Request:
        """What must happen next."""

    @abstractmethod
    def apply(self, state: Any, event: Event) -> Any:
        """The next state, or :class:`RuleError` naming the rule the event breaks."""

    @abstractmethod
    def legal_moves(self, state: Any, seat: int) -> tuple[Any, ...]:
        """The moves ``seat`` may make now, as far as this state's knowledge allows."""

    @abstractmethod
    def reveals(self, state: Any, move: Any) -> tuple[Handle, ...]:
        """Handles ``move`` shows to everyone; the session demands their opening with the move."""

    @abstractmethod
    def default_move(self, state: Any, seat: int) -> Any:
        """The move the rules make for ``seat`` when its turn timer runs out."""

    @abstractmethod
    def view(self, state: Any, seat: int | None) -> dict:
        """What ``seat`` (or a spectator, ``None``) may see, as a canonical value."""

    def to_value(self, state: Any) -> Any:
        """The state as a canonical value."""
        return values.to_value(state)

    def from_value(self, value: Any) -> Any:
        """Inverse of :meth:`to_value`."""
        return values.from_value(self.state_type, value)

    def check_hidden(self, state: Any, seat: int, data: Mapping[str, tuple[int, ...]]) -> None:
        """Raise :class:`RuleError` unless ``data`` is hidden data ``seat`` may commit now.

        Games with :class:`CommitHidden` override this; the verifier makes the same check
        once the data is fully opened.
        """
        raise RuleError("contract.hidden", f"{self.id} has no hidden data")

    def judge_hidden(self, state: Any, seat: int, data: Mapping[str, tuple[int, ...]]) -> None:
        """After the game: raise :class:`RuleError` unless ``data``, ``seat``'s latest hidden data
        in full, is legal and agrees with every answer the seat gave from it.

        The verifier calls it when the data was revealed only with the seat's seed (the game
        ended before it asked for a full opening, e.g. by a resignation), so a seat cannot
        hide illegal data by leaving. Games with :class:`CommitHidden` override this, as they
        do :meth:`check_hidden`.
        """
        raise RuleError("contract.hidden", f"{self.id} has no hidden data")

    def options_of(self, state: Any) -> Mapping[str, Any]:
        """The validated options, with defaults filled in (the timer reads ``turn_seconds``)."""
        return state.options
