"""The secure channel between nodes and the peer protocol's messages.

Imports only ``fairtable.protocol`` (codec, identities); knows nothing of tables or lobbies.
"""
