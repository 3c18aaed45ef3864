"""The table session: one sans-IO state machine that runs a game over a signed transcript.

A live node feeds it every envelope as it arrives and asks it what to send; the verifier
feeds it a finished transcript together with every revealed seed. Both run the same code,
so whatever a live node accepts the verifier re-checks, with full knowledge.
"""
