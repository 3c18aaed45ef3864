"""A node's reach: alternatives in dial order, the expected key's peer id appended, and bad ones named."""

import pytest

from fairtable.node.peer.peerid import peer_id_text
from fairtable.node.peer.reach import alternatives, check_reach, compact, key_of
from fairtable.protocol.identity import SecretKey

HOST, RELAY, OTHER = (SecretKey.from_seed(bytes([n]) * 32).public for n in (11, 21, 12))
CIRCUIT = f"/ip4/203.0.113.9/tcp/4001/p2p/{peer_id_text(RELAY)}/p2p-circuit"
REACH = f"192.0.2.7:7400,{CIRCUIT},/ip4/192.0.2.7/tcp/7401"


def test_direct_addresses_come_first_and_each_multiaddr_names_the_expected_key():
    own = f"/p2p/{peer_id_text(HOST)}"
    assert alternatives(REACH, HOST) == [f"/ip4/192.0.2.7/tcp/7401{own}", "192.0.2.7:7400", f"{CIRCUIT}{own}"]
    assert alternatives("192.0.2.7:7400") == ["192.0.2.7:7400"]  # a node without libp2p: one alternative


def test_a_reach_compacts_and_completes_back_and_names_its_key():
    full = ",".join(alternatives(REACH, HOST))
    assert key_of(full) == HOST and key_of(REACH) is None
    assert ",".join(alternatives(compact(full), HOST)) == full
    assert compact(full) == ",".join(alternatives(REACH))


def test_a_multiaddr_naming_another_key_than_the_expected_one_is_refused():
    named = ",".join(alternatives(REACH, HOST))
    with pytest.raises(ValueError, match="names another peer"):
        alternatives(named, OTHER)
    with pytest.raises(ValueError, match="different peers"):
        key_of(f"{named},/ip4/192.0.2.8/tcp/1/p2p/{peer_id_text(OTHER)}")


@pytest.mark.parametrize(("reach", "words"), [
    ("", "a reach is HOST:PORT or multiaddrs"),
    ("192.0.2.7:7400,,", "a reach is HOST:PORT or multiaddrs"),
    ("192.0.2.7", "an address is host:port"),
    ("/ip4/192.0.2.7/udp/4001", "names a /tcp/ port"),
    ("/unix/tmp/x", "starts /ip4/"),
    ("/ip4/192.0.2.7/tcp/1/p2p/QmNotAnEd25519Key", "peer id"),
])
def test_a_bad_reach_says_what_is_wrong(reach, words):
    with pytest.raises(ValueError, match=words):
        check_reach(reach)
