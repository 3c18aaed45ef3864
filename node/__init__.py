"""fairtable's node: the only layer with I/O (trio networking, files, clocks, the CLI)."""
