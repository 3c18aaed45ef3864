"""Running duel tournaments in the node (``spec/tournament.md``): the tournament lobby, the
tables each round starts among the right nodes, the transcripts every participant fetches and
verifies, and the bundle on disk from which a restarted node carries on."""
