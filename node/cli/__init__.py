"""The ``fairtable`` command line: ``main`` wires the subcommands (``commands``) and the
benchmarks (``bench``); ``control`` drives a node through its service for the flags of
``fairtable node``."""
