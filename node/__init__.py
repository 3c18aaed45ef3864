"""fairtable's node: the only layer with I/O (trio networking, files, clocks, the CLI).

Subpackages, by job; imports point down this list (and into ``fairtable.protocol`` and
``fairtable.games``), never up, and nothing outside ``node`` imports it:

- ``peer``: the secure channel to another node (framing, Noise XX bound to identities) and
  the peer protocol's messages;
- ``table``: a started table this node sits at: its journal, the live driver of the
  protocol's replica with timers, and the links that replicate its chain;
- ``lobby``: tables offered before they start, joining, and genesis signing;
- ``api``: the local client API (WebSocket + JSON) serving :class:`~fairtable.node.service.NodeService`;
- ``clients``: clients of that API bundled with fairtable (the terminal client);
- ``cli``: the ``fairtable`` command, its subcommands and benchmarks.

``node.py`` wires them into one process; ``service.py`` is the seam between the node and
its local clients. Shared by the peer port and the client API: ``admission.py`` (connection
budgets and an accept loop that survives running out of descriptors) and ``loglimit.py``
(rate-limited, summarised log lines).
"""
