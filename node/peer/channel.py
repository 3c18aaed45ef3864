"""Authenticated, encrypted channels between nodes, each bound to the peer's Ed25519 identity.

:func:`open_channel` (initiator) and :func:`accept_channel` (responder) run the Noise XX
handshake of :mod:`node.handshake` over framed messages (:mod:`node.framing`) within a
timeout, so a silent or half-open peer never holds a node. The result is a :class:`Channel`
that carries canonical msgpack values, one value per Noise message and frame
(``spec/channel.md``).

Anything a peer sends that is not a valid channel ends in a :class:`ChannelError` subclass
naming the problem, and the channel (or the stream, during the handshake) is closed, since a
channel that has seen one bad frame cannot be trusted with the next. Two exceptions keep it
open, because they are this side's business: a receive timeout (nothing is lost; receive
again or close) and a value that cannot be sent (:class:`CodecError` from the codec, or
:class:`MessageTooLarge`).
"""

from __future__ import annotations

import math
from typing import Any

import trio

from fairtable.node.peer.errors import ChannelClosed, ChannelError, ChannelTimeout, HandshakeError, MessageTooLarge, PayloadError
from fairtable.node.peer.framing import MAX_FRAME, FrameReader, send_frame, send_frames
from fairtable.node.peer.handshake import MAX_PLAINTEXT, Handshake, Transport
from fairtable.protocol import CodecError, PublicKey, SecretKey, Value, decode, encode

HANDSHAKE_TIMEOUT = 10.0
# Handshake messages are at most 205 bytes; the lower cap bounds what an unauthenticated peer can make us buffer.
HANDSHAKE_FRAME_CAP = 1024


class Channel(trio.abc.AsyncResource):
    """An established channel to :attr:`peer`. Send and receive may each be used by several tasks."""

    def __init__(self, stream: trio.abc.Stream, reader: FrameReader, transport: Transport, peer: PublicKey) -> None:
        self.peer = peer
        self._stream = stream
        self._reader = reader
        self._transport = transport
        self._send_lock = trio.StrictFIFOLock()
        self._receive_lock = trio.StrictFIFOLock()
        self._closed: str | None = None

    @property
    def stream(self) -> trio.abc.Stream:
        """The byte stream the channel runs over (a TCP socket, or a libp2p stream): which path it takes."""
        return self._stream

    async def send(self, value: Any) -> None:
        """Send one value. A send cancelled mid-way closes the channel: the peer may hold part of a frame."""
        await self.send_all([value])

    async def send_all(self, values: list[Any]) -> None:
        """Send ``values``, one message each, in one write to the stream (so they arrive together);
        none is sent if any is too large. A send cancelled mid-way closes the channel."""
        data = [encode(value) for value in values]
        for item in data:
            if len(item) > MAX_PLAINTEXT:
                raise MessageTooLarge(
                    f"value encodes to {len(item)} bytes; one channel message carries at most {MAX_PLAINTEXT}"
                )
        async with self._send_lock:
            self._check_open()
            frames = [self._transport.encrypt(item) for item in data]
            try:
                await send_frames(self._stream, frames)
            except ChannelError as exc:
                await self._abort(str(exc))
                raise
            except BaseException:
                await self._abort("a send was interrupted inside a frame")
                raise

    async def receive(self, *, timeout: float | None = None) -> Value:
        """The next value from the peer.

        Raises :class:`ChannelClosed` when the peer closed cleanly, and :class:`ChannelTimeout`
        (leaving the channel open) when no whole message arrives within ``timeout`` seconds.
        """
        async with self._receive_lock:
            self._check_open()
            frame = None
            try:
                with trio.move_on_after(math.inf if timeout is None else timeout):
                    frame = await self._reader.receive()
                if frame is not None:
                    return self._open(frame)
            except ChannelError as exc:
                await self._abort(str(exc))
                raise
        raise ChannelTimeout(f"receive timeout: no message within {timeout:g} s")

    @property
    def closed(self) -> bool:
        """Whether the channel was closed (by either side, or a failure): it carries nothing more."""
        return self._closed is not None

    @property
    def buffered(self) -> bool:
        """Whether a message already received from the stream waits: :meth:`receive` returns it without waiting."""
        return self._reader.ready()

    async def aclose(self) -> None:
        """Close the connection; the peer's receive then raises :class:`ChannelClosed`."""
        if self._closed is None:
            self._closed = "closed by this side"
            await self._stream.aclose()

    def _open(self, frame: bytes) -> Value:
        plaintext = self._transport.decrypt(frame)
        try:
            return decode(plaintext)
        except CodecError as exc:
            raise PayloadError(f"payload is not one canonical msgpack value: {exc}") from None

    def _check_open(self) -> None:
        if self._closed is not None:
            raise ChannelClosed(f"the channel is closed: {self._closed}")

    async def _abort(self, reason: str) -> None:
        if self._closed is None:
            self._closed = reason
            await trio.aclose_forcefully(self._stream)


async def open_channel(
    stream: trio.abc.Stream,
    secret: SecretKey,
    *,
    expected: PublicKey | None = None,
    timeout: float = HANDSHAKE_TIMEOUT,
) -> Channel:
    """Run the handshake as initiator over ``stream``, which the channel then owns.

    With ``expected``, a peer proving any other identity is refused with
    :class:`IdentityMismatch` before this side reveals its own identity.
    """
    return await _establish(stream, Handshake(secret, initiator=True, expected=expected), timeout)


async def accept_channel(stream: trio.abc.Stream, secret: SecretKey, *, timeout: float = HANDSHAKE_TIMEOUT) -> Channel:
    """Run the handshake as responder over ``stream``, which the channel then owns; see :attr:`Channel.peer`."""
    return await _establish(stream, Handshake(secret, initiator=False), timeout)


async def _establish(stream: trio.abc.Stream, handshake: Handshake, timeout: float) -> Channel:
    reader = FrameReader(stream, HANDSHAKE_FRAME_CAP)
    try:
        with trio.move_on_after(timeout):
            while not handshake.complete:
                if handshake.writes_next:
                    await send_frame(stream, handshake.write(), HANDSHAKE_FRAME_CAP)
                    continue
                try:
                    message = await reader.receive()
                except ChannelClosed:
                    raise HandshakeError(
                        f"the peer closed the connection before handshake message {handshake.next_message}"
                    ) from None
                handshake.read(message)
            assert handshake.peer is not None
            reader.cap = MAX_FRAME
            return Channel(stream, reader, handshake.transport(), handshake.peer)
        raise ChannelTimeout(
            f"handshake timeout: not complete within {timeout:g} s (waiting for message {handshake.next_message})"
        )
    except BaseException:
        await trio.aclose_forcefully(stream)
        raise
