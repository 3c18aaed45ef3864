"""Invite strings: what they carry, typos caught by the fingerprint's checksum, and the joining
node refusing a host whose key is not the invite's."""

from __future__ import annotations

import json

import pytest

from fairtable.node.lobby.invite import Invite, InviteError, parse_invite
from fairtable.node.peer.peerid import peer_id_text
from fairtable.node.peer.reach import alternatives
from fairtable.node.service import ServiceError
from fairtable.protocol.identity import SecretKey
from tests.node.nodes import running
from tests.paths import VECTORS

FINGERPRINT = "Z5NG-N48B-8BB8-8ZSX-KJS2-VP24"


def test_an_invite_reads_back_as_written():
    invite = Invite("192.0.2.7:7400", "b71c0e", FINGERPRINT)
    assert str(invite) == "ft:b71c0e.Z5NGN48B8BB88ZSXKJS2VP24@192.0.2.7:7400"
    assert parse_invite(f"  {invite}\n") == invite
    assert parse_invite(str(invite).replace("Z5NG", "z5ng")) == invite  # any case
    assert parse_invite("ft:b71c0e.Z5NGN48B8BB88ZSXKJS2VP24@[::1]:7400").address == "[::1]:7400"


@pytest.mark.parametrize("text, words", [
    ("b71c0e.Z5NGN48B8BB88ZSXKJS2VP24@192.0.2.7:7400", "starts with 'ft:'"),
    ("ft:b71c0e@192.0.2.7:7400", "ft:LOBBY.FINGERPRINT@HOST:PORT"),
    ("ft:b71c0e.Z5NGN48B8BB88ZSXKJS2VP24", "ft:LOBBY.FINGERPRINT@HOST:PORT"),
    ("ft:b71c0e.Z5NGN48B8BB88ZSXKJS2VP25@192.0.2.7:7400", "mistyped"),
    ("ft:b71c0e.Z5NG@192.0.2.7:7400", "characters"),
    ("ft:b71c0e.Z5NGN48B8BB88ZSXKJS2VP24@192.0.2.7", "host:port"),
])
def test_a_broken_invite_says_what_is_wrong(text, words):
    with pytest.raises(InviteError, match=words.replace("(", r"\(").replace(".", r"\.")):
        parse_invite(text)


async def test_joining_checks_the_hosts_key_against_the_invite(tmp_path):
    async with running(tmp_path, 3) as (host, guest, stranger):
        lobby = await host.host("towers", "normal", {}, 2)
        with pytest.raises(ServiceError, match="not the host of the invite"):
            await guest.join(host.address, lobby.lobby_id, stranger.key.public.fingerprint)
        assert host.lobby_host.hosted[lobby.lobby_id].entrants[1:] == ()  # nothing was sent
        await guest.join(host.address, lobby.lobby_id, host.key.public.fingerprint)
        assert len(host.lobby_host.hosted[lobby.lobby_id].entrants) == 2


INVITES = json.loads((VECTORS / "invite.json").read_text())["invites"]


@pytest.mark.parametrize("vector", INVITES, ids=lambda v: v["invite"][:40])
def test_invite_vectors(vector):
    """An invite names the host's key (a fingerprint, or the whole key as a peer id with libp2p
    addresses) and its reach, whose alternatives a guest dials in the order given."""
    key = SecretKey.from_seed(bytes.fromhex(vector["host_seed"])).public
    invite = parse_invite(vector["invite"])
    assert (invite.lobby_id, invite.fingerprint) == (vector["lobby"], key.fingerprint)
    assert invite.address.split(",") == vector["dial"] == alternatives(vector["reach"], key)
    assert str(invite) == vector["invite"]
    assert len(vector["invite"]) < 300  # pastes into a chat line


def test_a_fingerprint_invite_whose_multiaddrs_name_that_key_reads_as_the_peer_id_form():
    """The browser page writes its invites from the node's fingerprint and its whole reach."""
    key = SecretKey.from_seed(bytes([11]) * 32).public
    vector = INVITES[1]
    whole = ",".join(alternatives(vector["reach"], key))
    assert parse_invite(f"ft:b71c0e.{key.fingerprint.replace('-', '')}@{whole}") == parse_invite(vector["invite"])
    other = SecretKey.from_seed(bytes([12]) * 32).public
    with pytest.raises(InviteError, match=f"name the key {key.fingerprint}, not the fingerprint {other.fingerprint}"):
        parse_invite(f"ft:b71c0e.{other.fingerprint}@{whole}")


@pytest.mark.parametrize(("text", "words"), [
    ("ft:b71c0e.Z5NGN48B8BB88ZSXKJS2VP24@/ip4/192.0.2.7/tcp/7401", "names the host by its peer id"),
    ("ft:b71c0e.12D3KooWGjSE7eCu5f1Pa8pGxscmoEcdQ5BRMGqbyMvL2dhr@/ip4/192.0.2.7/tcp/7401", "not a valid invite"),
    (f"ft:b71c0e.{peer_id_text(SecretKey.from_seed(bytes([11]) * 32).public)}"
     f"@/ip4/192.0.2.7/tcp/7401/p2p/{peer_id_text(SecretKey.from_seed(bytes([12]) * 32).public)}", "names another peer"),
])
def test_a_libp2p_invite_that_cannot_name_its_host_is_refused(text, words):
    with pytest.raises(InviteError, match=words):
        parse_invite(text)
