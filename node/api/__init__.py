"""The local client API: WebSocket + JSON on 127.0.0.1 serving one ``NodeService``.

Imports ``node.service`` only from the node; it never sees keys, envelopes or the network.
"""
