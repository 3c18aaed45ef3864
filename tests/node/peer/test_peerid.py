"""A seat key as a libp2p peer id: the spec's vectors, libp2p's own ID agreeing, and every other id refused."""

import json

import base58
import pytest
from hypothesis import given
from hypothesis import strategies as st
from libp2p.crypto.ed25519 import create_new_key_pair
from libp2p.peer.id import ID

from fairtable.node.peer.p2p import PROTOCOL_ID, key_pair
from fairtable.node.peer.peerid import PeerIdError, libp2p_seed, peer_id_bytes, peer_id_text, seat_key
from fairtable.protocol.identity import SecretKey
from tests.paths import VECTORS

CHANNEL = json.loads((VECTORS / "channel.json").read_text())


@pytest.mark.parametrize("vector", CHANNEL["libp2p_peer_ids"], ids=lambda v: v["peer_id_text"][-6:])
def test_peer_id_vectors(vector):
    key = SecretKey.from_seed(bytes.fromhex(vector["seed"]))
    assert key.public.raw.hex() == vector["public_key"]
    assert peer_id_bytes(key.public).hex() == vector["peer_id"]
    assert peer_id_text(key.public) == vector["peer_id_text"]
    assert seat_key(vector["peer_id_text"]) == seat_key(bytes.fromhex(vector["peer_id"])) == key.public
    # libp2p, given the seat's key, names the same peer
    assert ID.from_pubkey(key_pair(key).public_key).to_bytes().hex() == vector["peer_id"]


def test_protocol_id():
    assert PROTOCOL_ID == CHANNEL["libp2p_protocol_id"]


@given(st.binary(min_size=32, max_size=32))
def test_libp2p_key_is_the_seat_key(seed):
    key = SecretKey.from_seed(seed)
    assert libp2p_seed(key) == seed
    pair = create_new_key_pair(libp2p_seed(key))
    assert pair.public_key.to_bytes() == key.public.raw
    assert seat_key(ID.from_pubkey(pair.public_key).to_base58()) == key.public


@given(st.binary(max_size=60))
def test_only_an_inlined_ed25519_key_names_a_seat(data):
    try:
        key = seat_key(data)
    except PeerIdError:
        return
    assert peer_id_bytes(key) == data


@pytest.mark.parametrize("text, problem", [
    ("not-base58-0OIl", "not base58"),
    (base58.b58encode(b"\x12\x20" + bytes(32)).decode(), "does not inline an Ed25519 key"),  # a sha2-256 (RSA-style) peer id
    (base58.b58encode(bytes.fromhex("002408011220") + bytes(31)).decode(), "37 bytes does not inline"),  # one byte short
])
def test_other_peer_ids_are_refused_naming_why(text, problem):
    with pytest.raises(PeerIdError, match=problem):
        seat_key(text)
