import math
import re
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
import trio
import trio.testing
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey
from hypothesis import given, settings
from hypothesis import strategies as st
from noise.connection import Keypair, NoiseConnection

from fairtable.node.peer.channel import HANDSHAKE_FRAME_CAP, Channel, accept_channel, open_channel
from fairtable.node.peer.errors import (
    ChannelClosed,
    ChannelError,
    ChannelTimeout,
    DecryptError,
    FrameError,
    HandshakeError,
    IdentityMismatch,
    MessageTooLarge,
    PayloadError,
)
from fairtable.node.peer.framing import FrameReader, send_frame
from fairtable.node.peer.handshake import MAX_PLAINTEXT, PROLOGUE, PROTOCOL_NAME, SIGNATURE_PURPOSE, Handshake, identity_payload
from fairtable.protocol.codec import CodecError, encode
from fairtable.protocol.identity import SecretKey
from tests.strategies import wire_values

ALICE, BOB, MALLORY = (SecretKey.from_seed(bytes([n]) * 32) for n in (1, 2, 3))


async def together(*calls: Callable[[], Awaitable[Any]]) -> list[Any]:
    """Run both sides of a conversation at once; return their results or raise the first error, unwrapped."""
    results: list[Any] = [None] * len(calls)
    errors: list[Exception] = []

    async def run(index: int) -> None:
        try:
            results[index] = await calls[index]()
        except Exception as exc:  # the side that failed first names the cause; the other then sees EOF
            errors.append(exc)

    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            for index in range(len(calls)):
                nursery.start_soon(run, index)
    if errors:
        raise errors[0]
    return results


async def handshake(initiator_stream, responder_stream, *, expected=None) -> list[Channel]:
    """ALICE opens, BOB accepts."""
    return await together(
        lambda: open_channel(initiator_stream, ALICE, expected=expected), lambda: accept_channel(responder_stream, BOB)
    )


async def tcp_stream_pair() -> tuple[trio.SocketStream, trio.SocketStream]:
    listener = (await trio.open_tcp_listeners(0, host="127.0.0.1"))[0]
    async with listener:
        port = listener.socket.getsockname()[1]
        client = await trio.open_tcp_stream("127.0.0.1", port)
        server = await listener.accept()
    return client, server


class RawPeer:
    """A Noise XX peer built straight from the spec on noiseprotocol, to send what an honest node never would."""

    def __init__(self, stream: trio.abc.Stream, *, initiator: bool) -> None:
        self.stream = stream
        self.reader = FrameReader(stream)
        static = X25519PrivateKey.generate()
        self.static_public = static.public_key().public_bytes_raw()
        self.noise = NoiseConnection.from_name(PROTOCOL_NAME)
        self.noise.set_as_initiator() if initiator else self.noise.set_as_responder()
        self.noise.set_prologue(PROLOGUE)
        self.noise.set_keypair_from_private_bytes(Keypair.STATIC, static.private_bytes_raw())
        self.noise.start_handshake()

    async def write(self, payload: bytes = b"") -> None:
        await send_frame(self.stream, bytes(self.noise.write_message(payload)))

    async def read(self) -> bytes:
        return bytes(self.noise.read_message(await self.reader.receive()))

    async def send_plaintext(self, plaintext: bytes) -> None:
        await send_frame(self.stream, self.noise.encrypt(plaintext))


async def raw_initiator_channel(stream, peer_stream, payload=None) -> tuple[RawPeer, Channel]:
    """A raw initiator that runs the handshake with BOB, as ALICE unless ``payload`` forges message 3."""
    raw = RawPeer(stream, initiator=True)

    async def initiate() -> None:
        await raw.write()
        await raw.read()
        await raw.write(identity_payload(ALICE, raw.static_public) if payload is None else payload(raw))

    _, bob = await together(initiate, lambda: accept_channel(peer_stream, BOB))
    return raw, bob


# ---------------------------------------------------------------- success


async def test_handshake_both_ways_over_tcp():
    forward = await handshake(*await tcp_stream_pair(), expected=BOB.public)
    assert (forward[0].peer, forward[1].peer) == (BOB.public, ALICE.public)
    client, server = await tcp_stream_pair()
    backward = await handshake(server, client)
    assert (backward[0].peer, backward[1].peer) == (BOB.public, ALICE.public)
    for channel in (*forward, *backward):
        await channel.aclose()


async def test_values_round_trip_over_tcp():
    alice, bob = await handshake(*await tcp_stream_pair())
    values = [None, True, 0, -1, 2**64 - 1, "", "ünï", b"\x00" * 300, (), {}, {"seat": 2, "cards": (b"\x01",)}]
    async with alice, bob:
        for value in values:
            await alice.send(value)
            await bob.send(value)
        assert [await bob.receive() for _ in values] == values
        assert [await alice.receive() for _ in values] == values
        largest = bytes(MAX_PLAINTEXT - 3)  # bin 16 header + body fills one Noise message exactly
        await alice.send(largest)
        assert await bob.receive() == largest


@settings(max_examples=30, deadline=None)
@given(values=st.lists(wire_values, max_size=5))
async def test_any_wire_value_round_trips(values):
    alice, bob = await handshake(*trio.testing.memory_stream_pair())
    for value in values:
        await alice.send(value)
    assert [await bob.receive() for _ in values] == values


async def test_concurrent_senders_keep_frames_whole():
    alice, bob = await handshake(*trio.testing.memory_stream_pair())
    async with trio.open_nursery() as nursery:
        for task in range(5):
            nursery.start_soon(lambda t=task: _send_many(alice, t))
    received = [await bob.receive() for _ in range(50)]
    assert sorted(received) == sorted((t, i) for t in range(5) for i in range(10))


async def _send_many(channel: Channel, task: int) -> None:
    for i in range(10):
        await channel.send((task, i))


class Writes(trio.abc.Stream):
    """A stream that counts the writes made to it."""

    def __init__(self, stream: trio.abc.Stream) -> None:
        self.stream, self.writes = stream, 0

    async def send_all(self, data) -> None:
        self.writes += 1
        await self.stream.send_all(data)

    async def wait_send_all_might_not_block(self) -> None:
        await self.stream.wait_send_all_might_not_block()

    async def receive_some(self, max_bytes=None):
        return await self.stream.receive_some(max_bytes)

    async def aclose(self) -> None:
        await self.stream.aclose()


async def test_values_sent_together_arrive_in_one_write_and_wait_buffered_for_the_receiver():
    """What makes a batch: the receiver tells a message already read from the stream from one yet to come."""
    left, right = trio.testing.memory_stream_pair()
    counted = Writes(left)
    alice, bob = await handshake(counted, right)
    before = counted.writes
    await alice.send_all([("env", n) for n in range(3)])
    assert counted.writes == before + 1
    assert not bob.buffered
    assert await bob.receive() == ("env", 0) and bob.buffered
    assert await bob.receive() == ("env", 1) and bob.buffered
    assert await bob.receive() == ("env", 2) and not bob.buffered


async def test_values_sent_together_are_all_refused_when_one_is_too_large():
    alice, bob = await handshake(*trio.testing.memory_stream_pair())
    with pytest.raises(MessageTooLarge):
        await alice.send_all(["first", bytes(MAX_PLAINTEXT - 2)])
    await alice.send("still here")
    assert await bob.receive() == "still here"


# ---------------------------------------------------------------- sending what cannot travel


async def test_oversized_and_unencodable_values_are_refused_and_the_channel_stays_open():
    alice, bob = await handshake(*trio.testing.memory_stream_pair())
    with pytest.raises(MessageTooLarge, match=f"{MAX_PLAINTEXT + 1} bytes; .* at most {MAX_PLAINTEXT}"):
        await alice.send(bytes(MAX_PLAINTEXT - 2))
    with pytest.raises(CodecError, match="floats"):
        await alice.send(1.5)
    await alice.send("still here")
    assert await bob.receive() == "still here"


# ---------------------------------------------------------------- identities


async def test_unexpected_identity_is_refused_before_revealing_ours():
    initiator_stream, responder_stream = await tcp_stream_pair()
    responder_error: list[HandshakeError] = []

    async def accept() -> None:
        with pytest.raises(HandshakeError) as error:
            await accept_channel(responder_stream, BOB)
        responder_error.append(error.value)

    mismatch = f"the peer is {BOB.public.fingerprint}, expected {MALLORY.public.fingerprint}"
    with pytest.raises(IdentityMismatch, match=mismatch):
        await together(lambda: open_channel(initiator_stream, ALICE, expected=MALLORY.public), accept)
    assert "closed the connection before handshake message 3" in str(responder_error[0])


def signed(key: bytes, signer: SecretKey, static: bytes, purpose: str = SIGNATURE_PURPOSE) -> bytes:
    return encode({"key": key, "sig": signer.sign(purpose, static)})


OTHER_STATIC = X25519PrivateKey.generate().public_key().public_bytes_raw()
FORGERIES = {
    "signature over another static key": lambda raw: signed(MALLORY.public.raw, MALLORY, OTHER_STATIC),
    "another key's signature": lambda raw: signed(ALICE.public.raw, MALLORY, raw.static_public),
    "signature for another purpose": lambda raw: signed(MALLORY.public.raw, MALLORY, raw.static_public, "genesis"),
}
MALFORMED = {
    "empty": (lambda raw: b"", "not canonical msgpack"),
    "not a map": (lambda raw: encode([ALICE.public.raw, b"sig"]), "exactly the keys 'key' and 'sig'"),
    "extra key": (lambda raw: encode({"key": ALICE.public.raw, "sig": bytes(64), "v": 1}), "exactly the keys"),
    "keys out of order": (lambda raw: b"\x82\xa3sig\xc4\x40" + bytes(64) + b"\xa3key\xc4\x20" + bytes(32), "order"),
    "short key": (lambda raw: encode({"key": b"\x01" * 31, "sig": bytes(64)}), "'key' must be bin of 32 bytes"),
    "str signature": (lambda raw: encode({"key": ALICE.public.raw, "sig": "x" * 64}), "'sig' must be bin of 64 bytes"),
}


@pytest.mark.parametrize("forge", FORGERIES.values(), ids=FORGERIES.keys())
async def test_forged_identity_from_responder_is_refused(forge):
    initiator_stream, responder_stream = trio.testing.memory_stream_pair()
    raw = RawPeer(responder_stream, initiator=False)

    async def respond() -> None:
        await raw.read()
        await raw.write(forge(raw))

    with pytest.raises(HandshakeError, match="bad identity signature"):
        await together(lambda: open_channel(initiator_stream, ALICE), respond)


@pytest.mark.parametrize("forge", FORGERIES.values(), ids=FORGERIES.keys())
async def test_forged_identity_from_initiator_is_refused(forge):
    with pytest.raises(HandshakeError, match="bad identity signature"):
        await raw_initiator_channel(*trio.testing.memory_stream_pair(), payload=forge)


@pytest.mark.parametrize("forge, message", MALFORMED.values(), ids=MALFORMED.keys())
async def test_malformed_identity_payload_is_refused(forge, message):
    with pytest.raises(HandshakeError, match=message):
        await raw_initiator_channel(*trio.testing.memory_stream_pair(), payload=forge)


# ---------------------------------------------------------------- bad handshake bytes


@pytest.mark.parametrize(
    "data, error, message",
    [
        (b"GET / HTTP/1.1\r\nHost: x\r\n\r\n", FrameError, "oversized frame: 18245 bytes exceeds the limit of 1024"),
        (b"\xff\xff", FrameError, f"oversized frame: 65535 bytes exceeds the limit of {HANDSHAKE_FRAME_CAP}"),
        (b"\x00\x00", FrameError, "bad frame length 0"),
        (b"\x00\x0bhello world", HandshakeError, "handshake message 1 is invalid"),
        (b"\x00\x24" + bytes(range(32)) + b"junk", HandshakeError, "message 1 carries a 4-byte payload"),
        (b"\x00\x20" + bytes(32), HandshakeError, "message 2 cannot be written"),  # low-order ephemeral key
        (b"\x00\x20" + bytes(range(32)), HandshakeError, "closed the connection before handshake message 3"),
        (b"\x00\x40" + bytes(10), FrameError, "truncated frame: the stream ended after 10 of 64 payload bytes"),
    ],
    ids=["http", "max length", "zero length", "short", "payload in 1", "low order", "eof", "truncated"],
)
async def test_garbage_instead_of_a_handshake(data, error, message):
    client, server = await tcp_stream_pair()
    await client.send_all(data)
    await client.send_eof()
    with pytest.raises(error, match=message):
        await accept_channel(server, BOB)
    await client.aclose()


async def test_garbage_reply_to_the_initiator():
    initiator_stream, responder_stream = trio.testing.memory_stream_pair()

    async def reply() -> None:
        await FrameReader(responder_stream).receive()
        await send_frame(responder_stream, bytes(range(205)))

    with pytest.raises(HandshakeError, match="handshake message 2 is invalid: decrypt failure"):
        await together(lambda: open_channel(initiator_stream, ALICE), reply)


@settings(max_examples=200, deadline=None)
@given(
    data=st.binary(max_size=400)
    | st.lists(st.binary(min_size=1, max_size=250) | st.binary(min_size=32, max_size=32), max_size=3).map(
        lambda frames: b"".join(len(f).to_bytes(2, "big") + f for f in frames)
    )
)
async def test_random_bytes_to_a_responder_raise_only_channel_errors(data):
    client, server = trio.testing.memory_stream_pair()
    await client.send_all(data)
    await client.send_eof()
    with pytest.raises(ChannelError):
        await accept_channel(server, BOB)


# ---------------------------------------------------------------- bad transport bytes


async def test_tampered_ciphertext_is_a_decrypt_failure_and_closes_the_channel():
    raw, bob = await raw_initiator_channel(*trio.testing.memory_stream_pair())
    frame = bytearray(raw.noise.encrypt(encode("move")))
    frame[3] ^= 1
    await send_frame(raw.stream, bytes(frame))
    with pytest.raises(DecryptError, match="decrypt failure: a frame of 21 bytes failed authentication"):
        await bob.receive()
    with pytest.raises(ChannelClosed, match="the channel is closed: decrypt failure"):
        await bob.receive()


async def test_replayed_frame_is_a_decrypt_failure():
    raw, bob = await raw_initiator_channel(*trio.testing.memory_stream_pair())
    frame = raw.noise.encrypt(encode("once"))
    await send_frame(raw.stream, frame)
    await send_frame(raw.stream, frame)
    assert await bob.receive() == "once"
    with pytest.raises(DecryptError):
        await bob.receive()


@pytest.mark.parametrize(
    "plaintext, message",
    [
        (b"\xcc\x05", "integer 5 is not in its shortest form"),
        (b"\x01\x02", "1 trailing bytes"),
        (b"\xcb" + bytes(8), "floats are not allowed"),
        (b"\x82\xa1b\x01\xa1a\x02", "map keys out of order"),
        (b"", "input ends inside a value"),
    ],
)
async def test_non_canonical_payload_in_a_valid_frame_closes_the_channel(plaintext, message):
    raw, bob = await raw_initiator_channel(*trio.testing.memory_stream_pair())
    await raw.send_plaintext(plaintext)
    with pytest.raises(PayloadError, match=f"payload is not one canonical msgpack value: {message}"):
        await bob.receive()
    with pytest.raises(ChannelClosed):
        await bob.send("anything")


async def test_truncated_frame_then_eof_is_not_a_clean_close():
    client, server = await tcp_stream_pair()
    _raw, bob = await raw_initiator_channel(client, server)
    await client.send_all(b"\x00\x30" + bytes(10))
    await client.aclose()
    with pytest.raises(FrameError, match="truncated frame: the stream ended after 10 of 48 payload bytes"):
        await bob.receive()


async def test_clean_close_is_channel_closed_on_both_sides():
    alice, bob = await handshake(*await tcp_stream_pair())
    await alice.send("bye")
    await alice.aclose()
    assert await bob.receive() == "bye"
    with pytest.raises(ChannelClosed, match="the peer closed the connection"):
        await bob.receive()
    with pytest.raises(ChannelClosed, match="closed by this side"):
        await alice.send("more")
    await alice.aclose()


@settings(max_examples=100, deadline=None)
@given(plaintext=st.binary(max_size=64), garbage=st.binary(min_size=1, max_size=200))
async def test_random_transport_input_yields_values_or_channel_errors(plaintext, garbage):
    raw, bob = await raw_initiator_channel(*trio.testing.memory_stream_pair())
    await raw.send_plaintext(plaintext)
    await raw.stream.send_all(garbage)
    await raw.stream.send_eof()
    with pytest.raises(ChannelError):
        while True:
            await bob.receive()


# ---------------------------------------------------------------- timeouts


async def test_silent_peer_times_out_the_responder(autojump_clock):
    _, server = trio.testing.memory_stream_pair()
    with pytest.raises(ChannelTimeout, match="handshake timeout: not complete within 30 s"):
        await accept_channel(server, BOB, timeout=30)
    assert trio.current_time() == pytest.approx(30)


async def test_silent_peer_times_out_the_initiator(autojump_clock):
    client, server = trio.testing.memory_stream_pair()
    with pytest.raises(ChannelTimeout, match="waiting for message 2"):
        await open_channel(client, ALICE, timeout=5)
    assert trio.current_time() == pytest.approx(5)
    silent = FrameReader(server)
    assert len(await silent.receive()) == 32  # message 1 arrived; then the failed handshake closed the stream
    with pytest.raises(ChannelClosed):
        await silent.receive()


async def test_half_open_tcp_connection_times_out():
    client, server = await tcp_stream_pair()
    with trio.fail_after(5):
        with pytest.raises(ChannelTimeout, match="handshake timeout"):
            await accept_channel(server, BOB, timeout=0.05)
    await client.aclose()


async def test_stalled_handshake_times_out(autojump_clock):
    client, server = trio.testing.memory_stream_pair()
    await send_frame(client, X25519PrivateKey.generate().public_key().public_bytes_raw())
    with pytest.raises(ChannelTimeout, match="waiting for message 3"):
        await accept_channel(server, BOB, timeout=10)


async def test_receive_timeout_leaves_the_channel_usable(autojump_clock):
    alice, bob = await handshake(*trio.testing.memory_stream_pair())
    start = trio.current_time()
    with pytest.raises(ChannelTimeout, match=re.escape("receive timeout: no message within 2.5 s")):
        await bob.receive(timeout=2.5)
    assert trio.current_time() - start == pytest.approx(2.5)
    await alice.send("late")
    assert await bob.receive(timeout=math.inf) == "late"


def test_a_handshake_refused_at_message_3_never_yields_a_transport():
    initiator, responder = Handshake(ALICE, initiator=True), Handshake(BOB, initiator=False, expected=MALLORY.public)
    responder.read(initiator.write())
    initiator.read(responder.write())
    with pytest.raises(IdentityMismatch):  # Noise accepted message 3; the identity check refused it
        responder.read(initiator.write())
    assert not responder.complete and responder.peer is None
    with pytest.raises(RuntimeError, match="not complete"):
        responder.transport()
