"""Rewrite every recorded vector that embeds protocol values, in dependency order: one command.

    python -m tests.regenerate

The fairness vectors (card points, stages, shows), the transcript vector (a genesis with its
protocol version) and its withheld-seed variant, the tournament vector (its tables' geneses), the lobby vector (its messages), the golden playthroughs of every registered game (their table ids, decks
and transcripts) and the readable records exported from them. Run it after a change to the group, the genesis or a game, then review the diff;
a branch that adds a game runs it after merging.
"""

from __future__ import annotations

from tests import export_golden, golden
from tests.node.lobby import vector as lobby_vector
from tests.protocol import transcript_vector
from tests.protocol.fair import vectors
from tests.protocol.session import withheld_vector
from tests.protocol.tournament import vector as tournament_vector


def main() -> int:
    vectors.write_all()
    transcript_vector.PATH.write_text(transcript_vector.render())
    withheld_vector.PATH.write_text(withheld_vector.render())
    tournament_vector.PATH.write_text(tournament_vector.render())
    lobby_vector.PATH.write_text(lobby_vector.render())
    status = golden.main([])
    export_golden.main()
    return status


if __name__ == "__main__":
    raise SystemExit(main())
