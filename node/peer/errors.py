"""Errors of the node's secure channel: one root, so whatever a peer sends is caught as one type.

Each subclass names a kind of failure the layers above react to differently (reconnect,
report the peer, retry later); the message says exactly what was wrong.
"""

from __future__ import annotations


class ChannelError(Exception):
    """A channel or handshake failed; the message names what was wrong."""


class ChannelClosed(ChannelError):
    """The peer closed the connection cleanly between frames, or this side closed the channel."""


class ChannelBroken(ChannelError):
    """The connection underneath failed (reset, broken pipe)."""


class ChannelTimeout(ChannelError):
    """The handshake did not complete in time, or no message arrived within a receive timeout."""


class FrameError(ChannelError):
    """A frame length of zero or above the cap, or a stream that ends inside a frame."""


class HandshakeError(ChannelError):
    """The Noise handshake or the identity binding inside it failed."""


class IdentityMismatch(HandshakeError):
    """The peer proved an identity, but not the one this side expected."""


class DecryptError(ChannelError):
    """A transport frame failed authentication: tampered, reordered or not from this channel."""


class PayloadError(ChannelError):
    """A decrypted message is not one canonical msgpack value within the codec limits."""


class MessageTooLarge(ChannelError):
    """A value to send encodes to more bytes than one Noise message carries."""


class ListenError(Exception):
    """A host could not listen where it was told to (a port taken, an address not this machine's)."""
