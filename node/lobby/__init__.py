"""Tables offered before they start: who sits where, joins and refusals, genesis signing.

Imports ``node.peer`` and ``node.service``.
"""
