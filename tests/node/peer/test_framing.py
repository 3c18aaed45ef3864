import pytest
import trio
import trio.testing

from fairtable.node.peer.errors import ChannelBroken, ChannelClosed, FrameError
from fairtable.node.peer.framing import MAX_FRAME, FrameReader, send_frame, send_frames


class Trickle(trio.abc.ReceiveStream):
    """Hands out ``data`` a few bytes per read, then EOF: the worst split a network can make."""

    def __init__(self, data: bytes, step: int = 1) -> None:
        self.data = data
        self.step = step

    async def receive_some(self, max_bytes: int | None = None) -> bytes:
        await trio.lowlevel.checkpoint()
        chunk, self.data = self.data[: self.step], self.data[self.step :]
        return chunk

    async def aclose(self) -> None:
        pass


def framed(payload: bytes) -> bytes:
    return len(payload).to_bytes(2, "big") + payload


@pytest.mark.parametrize("step", [1, 2, 3, 1000])
async def test_frames_survive_any_split(step):
    payloads = [b"a", b"hello" * 100, bytes(MAX_FRAME)]
    reader = FrameReader(Trickle(b"".join(framed(p) for p in payloads), step))
    assert [await reader.receive() for _ in payloads] == payloads
    with pytest.raises(ChannelClosed, match="peer closed"):
        await reader.receive()


async def test_send_frame_writes_length_then_payload():
    send, receive = trio.testing.memory_stream_one_way_pair()
    await send_frame(send, b"\x01\x02\x03")
    assert await receive.receive_some() == b"\x00\x03\x01\x02\x03"


async def test_frames_sent_together_are_one_write_and_the_reader_says_which_are_whole():
    send, receive = trio.testing.memory_stream_one_way_pair()
    await send_frames(send, [b"ab", b"c"])
    assert await receive.receive_some() == b"\x00\x02ab\x00\x01c"
    reader = FrameReader(Trickle(framed(b"ab") + framed(b"c") + b"\x00\x05abc", step=1000))
    assert not reader.ready()
    assert await reader.receive() == b"ab" and reader.ready()
    assert await reader.receive() == b"c" and not reader.ready()  # three of five bytes: a receive would wait
    refusing = FrameReader(Trickle(framed(b"ab") + b"\x00\x09", step=1000), cap=4)
    assert await refusing.receive() == b"ab" and refusing.ready()  # a length over the cap fails without waiting
    with pytest.raises(FrameError, match="oversized"):
        await refusing.receive()


async def test_zero_length_frame_is_refused():
    with pytest.raises(FrameError, match="bad frame length 0"):
        await FrameReader(Trickle(b"\x00\x00rest")).receive()


async def test_oversized_length_is_refused_before_the_body_arrives():
    reader = FrameReader(Trickle(b"\x04\x01"), cap=1024)
    with pytest.raises(FrameError, match="oversized frame: 1025 bytes exceeds the limit of 1024"):
        await reader.receive()


@pytest.mark.parametrize(
    "data, message",
    [
        (b"\x00", "after 1 of 2 length bytes"),
        (b"\x00\x05abc", "after 3 of 5 payload bytes"),
        (b"\x00\x05", "after 0 of 5 payload bytes"),
    ],
)
async def test_stream_ending_inside_a_frame_is_truncation_not_close(data, message):
    with pytest.raises(FrameError, match=f"truncated frame: the stream ended {message}"):
        await FrameReader(Trickle(data)).receive()


async def test_cancelled_receive_keeps_the_partial_frame(autojump_clock):
    receive = trio.testing.MemoryReceiveStream()
    reader = FrameReader(receive)
    data = framed(b"whole frame")
    receive.put_data(data[:5])
    with trio.move_on_after(1) as scope:
        await reader.receive()
    assert scope.cancelled_caught
    receive.put_data(data[5:])
    assert await reader.receive() == b"whole frame"


@pytest.mark.parametrize("payload, message", [(b"", "bad frame length 0"), (bytes(11), "oversized frame")])
async def test_send_frame_refuses_what_no_reader_accepts(payload, message):
    send, _ = trio.testing.memory_stream_one_way_pair()
    with pytest.raises(FrameError, match=message):
        await send_frame(send, payload, cap=10)


async def test_broken_and_closed_streams_are_channel_errors():
    left, right = trio.testing.memory_stream_pair()
    await right.aclose()
    with pytest.raises(ChannelBroken, match="connection broken while sending"):
        await send_frame(left, b"x")
    await left.aclose()
    with pytest.raises(ChannelClosed, match="closed by this side"):
        await FrameReader(left).receive()


class Firehose(trio.abc.ReceiveStream):
    """Hands out as much of ``data`` as each read asks for, and counts what was taken."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.taken = 0

    async def receive_some(self, max_bytes: int | None = None) -> bytes:
        await trio.lowlevel.checkpoint()
        chunk, self.data = self.data[:max_bytes], self.data[max_bytes:]
        self.taken += len(chunk)
        return chunk

    async def aclose(self) -> None:
        pass


@pytest.mark.parametrize("cap", [64, 1024, MAX_FRAME])
async def test_the_reader_never_holds_more_than_one_capped_frame(cap):
    frames = [framed(bytes([n]) * 50) for n in range(10)]
    stream = Firehose(b"".join(frames) + b"\x00\x10" * 500_000)  # then an endless stream of 16-byte frames
    reader = FrameReader(stream, cap)
    for frame in frames:
        assert await reader.receive() == frame[2:]
    assert stream.taken - sum(map(len, frames)) <= 2 + cap
