"""fairtable's games: pure, deterministic rule engines behind one contract (``games.contract``)."""
