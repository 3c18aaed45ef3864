"""A node's reach: alternatives in dial order, the expected key's peer id appended, and bad ones named."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairtable.node.peer.messages import PEER_VERSION, message
from fairtable.node.peer.peerid import peer_id_text
from fairtable.node.peer.reach import MAX_REACH, alternatives, check_reach, compact, fit, key_of
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


RELAYS = [SecretKey.from_seed(bytes([30 + n]) * 32).public for n in range(6)]


def own_alternatives(relays: int, ip: str) -> list[str]:
    """What a node with ``relays`` reservations has to announce, its own peer id on every multiaddr."""
    own = f"/p2p/{peer_id_text(HOST)}"
    circuits = [f"/ip4/203.0.113.{n + 1}/tcp/4001/p2p/{peer_id_text(RELAYS[n])}/p2p-circuit{own}" for n in range(relays)]
    return [f"/ip4/{ip}/tcp/7401{own}", f"{ip}:7400", *circuits]


@settings(max_examples=60, deadline=None)
@given(relays=st.integers(0, 6), ip=st.sampled_from(["10.0.1.2", "192.168.178.100", "198.51.100.254"]))
def test_an_announced_reach_fits_a_join_and_keeps_a_relay_first_then_direct_ways_then_spare_relays(relays, ip):
    parts = own_alternatives(relays, ip)
    reach, left_out = fit(parts)
    message("join", v=PEER_VERSION, kind="table", lobby="b71c0e", name="ann", addr=reach, commit=b"")
    kept = alternatives(reach)
    assert len(reach) <= MAX_REACH and kept == alternatives(reach) and sorted(kept + left_out) == sorted(map(compact, parts))
    assert compact(parts[0]) in kept and compact(parts[1]) in kept
    if relays:
        assert compact(parts[2]) in kept  # the first relay, before anything else
    assert left_out == [compact(part) for part in parts[3:] if compact(part) not in kept]  # spares, from the last
    assert relays <= 1 or not left_out or len(reach) + 1 + len(left_out[0]) > MAX_REACH


def test_a_reachable_node_keeps_its_direct_ways_first_and_one_behind_a_nat_its_first_relay():
    parts = own_alternatives(2, "10.0.1.2")
    direct, circuit = f"{compact(parts[0])},{compact(parts[1])}", compact(parts[2])
    assert fit(parts, limit=len(circuit) + 5) == (circuit, [compact(part) for part in (parts[0], parts[1], parts[3])])
    assert fit(parts, limit=len(circuit) + 5, reachable=True) == (direct, [compact(part) for part in parts[2:]])
    assert fit(parts, reachable=True) == fit(parts), "what fits is announced either way, in dial order"


def test_a_reach_whose_every_alternative_is_too_long_is_refused():
    with pytest.raises(ValueError, match="fits in 40 characters"):
        fit(own_alternatives(1, "10.0.1.2")[2:], limit=40)
