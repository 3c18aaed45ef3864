"""fairtable's games: pure, deterministic rule engines behind one contract.

Import from this package, not from its modules. A game is a :class:`Game` (most build on
:class:`Rules`, which routes each event to the handler the request table names): a state
machine over what a seat knows. Its :meth:`Game.pending` says what happens next: a seat must
decide (:class:`Decide`), the table must resolve chance or hidden information (a
:class:`Request` such as :class:`Shuffle`, :class:`Deal`, :class:`PublicRandom`,
:class:`CommitHidden`, :class:`Simultaneous`), or the game is :class:`Finished` with a
:class:`Result`. Whoever fulfils the request (the table session with cryptography, the local
referee with plain randomness) feeds the answering :class:`Event` to :meth:`Game.apply`;
:data:`REQUESTS` is the table of which event answers which request.

- ``registry``: games by id (``registry.get("towers")``, ``registry.ids()``); a new game
  registers itself there.
- ``referee``: play a game locally with full knowledge (``referee.play``), for tests, bots
  and benchmarks; ``bots``: the bundled bots (:class:`RandomBot`, :func:`heuristic`).
- Options are declared as :class:`Choice`, :class:`Integer` and :class:`Flag`
  (:data:`Option`); :func:`describe` puts a :class:`Result` in words.

Rule errors are :class:`RuleError` with a stable rule id; bad options :class:`OptionsError`.
"""

from fairtable.games import bots, referee, registry
from fairtable.games.bots import RandomBot, heuristic, random_bot
from fairtable.games.contract import (
    ABSENT,
    NO_FACES,
    PUBLIC_VALUES,
    Bot,
    BotFactory,
    Chosen,
    CommitHidden,
    Committed,
    Deal,
    DealStarted,
    Dealt,
    Decide,
    Event,
    Face,
    Faces,
    Finished,
    Forfeit,
    Game,
    GameError,
    Handle,
    Move,
    NextDeal,
    Opened,
    OpenHidden,
    OpenSums,
    OptionsError,
    PrivateDraw,
    PrivateDrawn,
    Prompt,
    PublicRandom,
    RandomValue,
    Refusal,
    Renderer,
    Request,
    Result,
    Reveal,
    Revealed,
    Rng,
    RuleError,
    Show,
    Shown,
    Shuffle,
    Shuffled,
    ShuffleOwned,
    Simultaneous,
    Summed,
    Teams,
    Unplayable,
)
from fairtable.games.lang import ENGLISH, LANGUAGES, counted, named, speaking, term
from fairtable.games.options import Choice, Flag, Integer, Option
from fairtable.games.people import YOU, distinct, player, players, seated
from fairtable.games.referee import Played
from fairtable.games.requests import REQUESTS, RequestKind
from fairtable.games.results import describe, final_standing
from fairtable.games.rules import Rules
from fairtable.games.texts import catalogue, mark_text, prompt_text, say

__all__ = [
    "ABSENT",
    "ENGLISH",
    "LANGUAGES",
    "NO_FACES",
    "PUBLIC_VALUES",
    "REQUESTS",
    "YOU",
    "Bot",
    "BotFactory",
    "Choice",
    "Chosen",
    "CommitHidden",
    "Committed",
    "Deal",
    "DealStarted",
    "Dealt",
    "Decide",
    "Event",
    "Face",
    "Faces",
    "Finished",
    "Flag",
    "Forfeit",
    "Game",
    "GameError",
    "Handle",
    "Integer",
    "Move",
    "NextDeal",
    "OpenHidden",
    "OpenSums",
    "Opened",
    "Option",
    "OptionsError",
    "Played",
    "PrivateDraw",
    "PrivateDrawn",
    "Prompt",
    "PublicRandom",
    "RandomBot",
    "RandomValue",
    "Refusal",
    "Renderer",
    "Request",
    "RequestKind",
    "Result",
    "Reveal",
    "Revealed",
    "Rng",
    "RuleError",
    "Rules",
    "Show",
    "Shown",
    "Shuffle",
    "ShuffleOwned",
    "Shuffled",
    "Simultaneous",
    "Summed",
    "Teams",
    "Unplayable",
    "bots",
    "catalogue",
    "counted",
    "describe",
    "distinct",
    "final_standing",
    "heuristic",
    "mark_text",
    "named",
    "player",
    "players",
    "prompt_text",
    "random_bot",
    "referee",
    "registry",
    "say",
    "seated",
    "speaking",
    "term",
]
