"""Invite strings: what they carry, typos caught by the fingerprint's checksum, and the joining
node refusing a host whose key is not the invite's."""

from __future__ import annotations

import base64
import hashlib
import json
import re
import shlex

import pytest

from fairtable.node.lobby.invite import Invite, InviteError, parse_invite, write_invite
from fairtable.node.peer.peerid import peer_id_text
from fairtable.node.peer.reach import alternatives, compact
from fairtable.node.service import ServiceError
from fairtable.protocol import encode
from fairtable.protocol.identity import SecretKey
from tests.node.nodes import running
from tests.paths import VECTORS

FINGERPRINT = "Z5NG-N48B-8BB8-8ZSX-KJS2-VP24"
KEY = SecretKey.from_seed(bytes([11]) * 32).public


def test_an_invite_reads_back_as_written_in_any_case():
    written = write_invite("b71c0e", KEY, "192.0.2.7:7400")
    invite = Invite("192.0.2.7:7400", "b71c0e", KEY.fingerprint)
    assert parse_invite(f"  {written}\n") == invite
    assert parse_invite(written.upper()) == parse_invite(written.capitalize()) == invite  # a chat app's capital letter
    assert parse_invite(write_invite("b71c0e", KEY, "[::1]:7400")).address == "[::1]:7400"


def test_the_older_text_form_is_still_read():
    invite = Invite("192.0.2.7:7400", "b71c0e", FINGERPRINT)
    assert parse_invite("ft:b71c0e.Z5NGN48B8BB88ZSXKJS2VP24@192.0.2.7:7400") == invite
    assert parse_invite("ft:b71c0e.z5ngN48B8BB88ZSXKJS2VP24@192.0.2.7:7400") == invite  # any case
    assert parse_invite("ft:b71c0e.Z5NGN48B8BB88ZSXKJS2VP24@[::1]:7400").address == "[::1]:7400"


RELAYED = ("/ip4/192.0.2.7/tcp/7401,192.0.2.7:7400,/ip4/203.0.113.9/tcp/4001/p2p/"
           f"{peer_id_text(SecretKey.from_seed(bytes([21]) * 32).public)}/p2p-circuit")


def test_an_invite_is_one_word_that_nothing_splits_and_a_cut_or_changed_one_is_caught():
    """A person, a shell or a chat app that takes "the first address" of a reach got a LAN address."""
    written = write_invite("b71c0e", KEY, RELAYED)
    assert re.fullmatch(r"\w+", written) and written == shlex.split(f"join {written}, thanks")[1].rstrip(",")
    for cut in range(4, len(written)):
        with pytest.raises(InviteError, match="cut short or mistyped"):
            parse_invite(written[:cut])
    changed = written[:40] + ("a" if written[40] != "a" else "b") + written[41:]
    with pytest.raises(InviteError, match="cut short or mistyped"):
        parse_invite(changed)
    with pytest.raises(InviteError, match="only the letters a-z and digits 2-7"):
        parse_invite(written[:40] + "/" + written[41:])


@pytest.mark.parametrize("body, words", [
    (["b71c0e", bytes(31), "192.0.2.7:7400"], "not \\[lobby id, host key, reach\\]"),
    (["b71c0e", bytes(32)], "not \\[lobby id, host key, reach\\]"),
    (["", bytes(32), "192.0.2.7:7400"], "not \\[lobby id, host key, reach\\]"),
    (["b71c0e", KEY.raw, "192.0.2.7"], "host:port"),
])
def test_a_well_checked_invite_with_a_wrong_body_says_what_is_wrong(body, words):
    value = encode(body)
    word = "ft1" + base64.b32encode(value + hashlib.sha256(value).digest()[:4]).decode().rstrip("=").lower()
    with pytest.raises(InviteError, match=words):
        parse_invite(word)


@pytest.mark.parametrize("text, words", [
    ("b71c0e.Z5NGN48B8BB88ZSXKJS2VP24@192.0.2.7:7400", "starts with 'ft1'"),
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


@pytest.mark.parametrize("vector", INVITES, ids=lambda v: v["comment"][:40])
def test_invite_vectors(vector):
    """An invite names the host's key and its reach, whose alternatives a guest dials in the order given;
    its older text form reads as the same invite."""
    key = SecretKey.from_seed(bytes.fromhex(vector["host_seed"])).public
    body = bytes.fromhex(vector["body_hex"])
    assert body == encode([vector["lobby"], key.raw, compact(vector["reach"])])
    assert hashlib.sha256(body).digest()[:4].hex() == vector["check_hex"]
    assert write_invite(vector["lobby"], key, vector["reach"]) == vector["invite"]
    invite = parse_invite(vector["invite"])
    assert (invite.lobby_id, invite.fingerprint) == (vector["lobby"], key.fingerprint)
    assert invite.address.split(",") == vector["dial"] == alternatives(vector["reach"], key)
    assert parse_invite(vector["text"]) == invite


def test_a_fingerprint_invite_whose_multiaddrs_name_that_key_reads_as_the_peer_id_form():
    """The browser page writes its invites from the node's fingerprint and its whole reach."""
    key = SecretKey.from_seed(bytes([11]) * 32).public
    vector = INVITES[1]
    whole = ",".join(alternatives(vector["reach"], key))
    assert parse_invite(f"ft:b71c0e.{key.fingerprint.replace('-', '')}@{whole}") == parse_invite(vector["text"])
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
