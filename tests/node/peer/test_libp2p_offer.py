"""What the node's and the relay's libp2p hosts agree to speak, asked at the wire in multistream-select.

A dialler proposes one protocol at a time and the listener answers each with the protocol
itself (agreed) or ``na``: plaintext and secio, under which a peer's id is unproven or the
cipher is one libp2p has dropped, and a protocol nobody knows, must each get ``na``; Noise
must be agreed, so the refusals are not a host that answers nothing. js-libp2p's view of the
same hosts (mplex refused, identify, ping) is in tests/node/test_jslibp2p.py.
"""

import logging
from pathlib import Path

import multiaddr
import pytest
import trio

from fairtable.node.peer.p2p import NODE_CONNECTIONS, new_libp2p_host, open_host
from fairtable.node.relay import RelayOptions, run_relay
from fairtable.protocol.identity import SecretKey

HEADER = "/multistream/1.0.0"
REFUSED = ["/plaintext/2.0.0", "/plaintext/1.0.0", "/secio/1.0.0", "/tls/1.0.0", "/fairtable/unknown/9"]
NOISE = "/noise"
KEY = SecretKey.from_seed(bytes([21]) * 32)


def frame(text: str) -> bytes:
    body = (text + "\n").encode()
    assert len(body) < 128
    return bytes([len(body)]) + body


async def read_message(stream: trio.SocketStream, buffer: bytearray) -> str:
    while not buffer or len(buffer) < 1 + buffer[0]:
        chunk = await stream.receive_some(1024)
        assert chunk, "the host closed the connection"
        buffer += chunk
    length = buffer[0]
    message = bytes(buffer[1:1 + length]).decode()
    del buffer[:1 + length]
    return message.removesuffix("\n")


async def answers(port: int, proposals: list[str]) -> list[str]:
    """The host's answer to each security protocol proposed, in turn, on one new connection."""
    with trio.fail_after(20):
        stream = await trio.open_tcp_stream("127.0.0.1", port)
        async with stream:
            buffer = bytearray()
            await stream.send_all(frame(HEADER))
            assert await read_message(stream, buffer) == HEADER
            said = []
            for proposal in proposals:
                await stream.send_all(frame(proposal))
                said.append(await read_message(stream, buffer))
            return said


def port_of(address: str) -> int:
    return int(multiaddr.Multiaddr(address).value_for_protocol("tcp"))


async def test_a_node_host_refuses_every_security_protocol_but_noise():
    async def accept(channel):
        raise AssertionError("no channel is opened here")

    async with open_host(KEY, ["/ip4/127.0.0.1/tcp/0"], accept) as host:
        port = port_of(host.addresses()[0])
        assert await answers(port, [*REFUSED, NOISE]) == ["na"] * len(REFUSED) + [NOISE]


async def test_a_relay_refuses_every_security_protocol_but_noise(tmp_path: Path):
    ready: list[str] = []
    started = trio.Event()

    def listening(address: str) -> None:
        ready.append(address)
        started.set()

    async with trio.open_nursery() as nursery:
        nursery.start_soon(run_relay, tmp_path, "127.0.0.1", 0, RelayOptions(), listening, lambda status: None, 60.0)
        await started.wait()
        assert await answers(port_of(ready[0]), [*REFUSED, NOISE]) == ["na"] * len(REFUSED) + [NOISE]
        nursery.cancel_scope.cancel()


@pytest.mark.parametrize("level, shown", [(logging.INFO, logging.CRITICAL), (logging.DEBUG, logging.DEBUG)])
def test_libp2p_never_dials_to_reach_a_count_and_logs_only_at_debug(level, shown):
    """py-libp2p's auto-connector set its own logger to INFO and aimed at 200 connections, logging 199 dials every 10 s."""
    ours = logging.getLogger("fairtable.node.peer.p2p")
    before = ours.level
    ours.setLevel(level)
    try:
        host = new_libp2p_host(KEY, NODE_CONNECTIONS)
        assert logging.getLogger("libp2p.network.auto_connector").getEffectiveLevel() == shown
    finally:
        ours.setLevel(before)
    config = host.get_network().connection_config
    assert (config.min_connections, config.low_watermark, config.max_connections) == (0, 0, NODE_CONNECTIONS)
