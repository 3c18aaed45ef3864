"""Duel tournaments (``spec/tournament.md``), sans-IO: the signed record, the draw, the format
(groups, playoffs, knock-out, final), each table's genesis, standings, bracket and prizes.

Everything here is a pure function of the signed record, the revealed draw values and the
verified results of earlier tables, so every participant's node, and anyone holding the
bundle, computes the same tournament; no participant chooses a pairing.
"""
