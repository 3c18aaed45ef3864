"""Tables and tournaments offered before they start: one exchange (``exchange``) in which seats
join, keep alive and all sign the same record; ``tables`` holds what is particular to a table,
``invite`` the strings that find one.

Imports ``node.peer``, ``node.service`` and ``node.table`` (to start a table).
"""
