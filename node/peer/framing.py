"""Length-prefixed frames over a byte stream: one Noise message per frame.

A frame is a 2-byte big-endian length ``n`` followed by ``n`` payload bytes, 1 <= n <= cap
(65535 at most, the Noise message limit). The reader refuses a length above its cap as soon
as the two length bytes arrive, and never reads more than one capped frame ahead, so a peer
cannot make it hold more than ``2 + cap`` bytes.

:class:`FrameReader` keeps partial input in its own buffer, so a receive cancelled by a
timeout loses nothing and the next receive continues the same frame. A stream that ends
between frames is a clean close (:class:`ChannelClosed`); one that ends inside a frame is
a truncated frame (:class:`FrameError`).
"""

from __future__ import annotations

import trio

from fairtable.node.peer.errors import ChannelBroken, ChannelClosed, ChannelError, FrameError

MAX_FRAME = 65535
LENGTH_SIZE = 2


def _check_length(length: int, cap: int) -> None:
    if length == 0:
        raise FrameError("bad frame length 0: every frame carries at least one byte")
    if length > cap:
        raise FrameError(f"oversized frame: {length} bytes exceeds the limit of {cap}")


def _describe(exc: BaseException) -> str:
    cause = exc.__cause__ or exc
    return str(cause) or type(cause).__name__


async def send_frame(stream: trio.abc.SendStream, payload: bytes, cap: int = MAX_FRAME) -> None:
    """Write ``payload`` as one frame."""
    await send_frames(stream, [payload], cap)


async def send_frames(stream: trio.abc.SendStream, payloads: list[bytes], cap: int = MAX_FRAME) -> None:
    """Write ``payloads`` as one frame each, in one write: frames sent together arrive together
    (one segment on loopback), so the peer can take them as one batch (``spec/node.md``, Journal)."""
    for payload in payloads:
        _check_length(len(payload), cap)
    try:
        await stream.send_all(b"".join(len(payload).to_bytes(LENGTH_SIZE, "big") + payload for payload in payloads))
    except trio.BrokenResourceError as exc:
        raise ChannelBroken(f"connection broken while sending: {_describe(exc)}") from None
    except trio.ClosedResourceError:
        raise ChannelClosed("the channel was closed by this side") from None


class FrameReader:
    """Reads whole frames from a stream, however the bytes are split into reads."""

    def __init__(self, stream: trio.abc.ReceiveStream, cap: int = MAX_FRAME) -> None:
        if not 0 < cap <= MAX_FRAME:
            raise ValueError(f"a frame cap is between 1 and {MAX_FRAME}")
        self.stream = stream
        self.cap = cap
        self._buffer = bytearray()

    def ready(self) -> bool:
        """Whether :meth:`receive` returns (or fails) without reading the stream: a whole frame, or a
        length it refuses, is buffered already."""
        buffer = self._buffer
        if len(buffer) < LENGTH_SIZE:
            return False
        length = int.from_bytes(buffer[:LENGTH_SIZE], "big")
        return not 0 < length <= self.cap or len(buffer) >= LENGTH_SIZE + length

    async def receive(self) -> bytes:
        """The next frame's payload; :class:`ChannelClosed` if the stream ends between frames."""
        buffer = self._buffer
        while True:
            if len(buffer) >= LENGTH_SIZE:
                length = int.from_bytes(buffer[:LENGTH_SIZE], "big")
                _check_length(length, self.cap)
                end = LENGTH_SIZE + length
                if len(buffer) >= end:
                    payload = bytes(buffer[LENGTH_SIZE:end])
                    del buffer[:end]
                    return payload
            chunk = await self._read()
            if not chunk:
                raise self._eof()
            buffer += chunk

    async def _read(self) -> bytes | bytearray:
        try:
            return await self.stream.receive_some(LENGTH_SIZE + self.cap - len(self._buffer))
        except trio.BrokenResourceError as exc:
            raise ChannelBroken(f"connection broken while receiving: {_describe(exc)}") from None
        except trio.ClosedResourceError:
            raise ChannelClosed("the channel was closed by this side") from None

    def _eof(self) -> ChannelError:
        have = len(self._buffer)
        if have == 0:
            return ChannelClosed("the peer closed the connection")
        if have < LENGTH_SIZE:
            return FrameError(f"truncated frame: the stream ended after {have} of {LENGTH_SIZE} length bytes")
        length = int.from_bytes(self._buffer[:LENGTH_SIZE], "big")
        return FrameError(
            f"truncated frame: the stream ended after {have - LENGTH_SIZE} of {length} payload bytes"
        )
