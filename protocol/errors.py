"""The root of every error the protocol layer raises, so callers can catch one type."""


class ProtocolError(Exception):
    """Input that the protocol refuses; the message names what was wrong."""


class UsageError(ProtocolError, ValueError):
    """Arguments the protocol cannot work with: a caller's (or a game's) mistake, not a peer's.

    A ``ValueError`` too, because that is what it is; a :class:`ProtocolError` so that one
    ``except`` around any protocol call catches everything it raises.
    """
