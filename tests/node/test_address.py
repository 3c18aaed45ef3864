"""The address a node's invites name: a dialable one, never the wildcard it listens on."""

from __future__ import annotations

import ipaddress

from fairtable.node.node import WILDCARDS, dialable


def test_a_named_host_is_dialled_as_it_is():
    assert dialable("127.0.0.1") == "127.0.0.1" and dialable("example.test") == "example.test"


def test_a_wildcard_names_an_address_of_this_machine_instead():
    for wildcard in WILDCARDS:
        address = ipaddress.ip_address(dialable(wildcard))
        assert address.version == 4 and not address.is_unspecified
