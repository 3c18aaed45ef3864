"""The table session: drives a game from its genesis over the envelope chain, sans-IO.

The session's jobs live in their own modules: ``flow`` (what may come next) with ``rounds``
(one round of slots per game request), ``arrival`` (checking an arriving envelope), ``own``
(building this seat's own envelopes), on the shared ``state``.
"""

from __future__ import annotations

from fairtable.protocol.session.arrival import Arrivals
from fairtable.protocol.session.flow import WITHHELD_REASON, SessionFlow
from fairtable.protocol.session.own import OwnEnvelopes
from fairtable.protocol.session.state import game_seed

__all__ = ["WITHHELD_REASON", "TableSession", "game_seed"]


class TableSession(Arrivals, OwnEnvelopes, SessionFlow):
    """One table as seen by one seat (``seat`` and its ``secret``) or by the verifier (``seeds``).

    ``secret`` is the seat's random per-table secret (its game seeds derive from it).
    ``seeds`` maps ``(game, seat)`` to seeds known in advance; the verifier passes every
    revealed seed, so it knows every face from the first shuffle on, and ``compositions``,
    every owned deck's revealed composition by ``(game, deck name)``.

    ``private`` restores what :meth:`private_value` returned: the seat's own free choices
    that later messages must open (hidden data, simultaneous choices). They are not
    derivable from the seed, so a node persists :meth:`private_value` after each
    :meth:`hidden_body` or :meth:`choice_body`, before sending, and passes it back when it
    restarts.
    """
