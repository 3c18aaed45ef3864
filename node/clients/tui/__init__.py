"""The terminal client (``fairtable play``) on Textual: a fixed 80x24 screen per job.

``app`` holds the connection (``bridge``) and the latest update of every table; ``screens``
has one screen per job (the lobby with your tables and the ones found nearby, hosting,
joining by invite, waiting for players, the table, the final result); ``boards`` has one
widget per game, with a generic one for any game without its own. The client speaks only
the documented client API (``spec/client-api.md``).
"""
