"""The root of every error the protocol layer raises, so callers can catch one type."""


class ProtocolError(Exception):
    """Input that the protocol refuses; the message names what was wrong."""
