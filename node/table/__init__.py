"""A started table this node sits at: journal on disk, live driver with timers, chain links.

Imports ``node.peer`` (channels, messages) and ``node.service`` (the updates it produces).
"""
