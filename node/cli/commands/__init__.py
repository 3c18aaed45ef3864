"""The ``fairtable`` subcommands, one module each, each with ``add_parser(commands)``."""
