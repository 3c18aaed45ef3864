"""``python -m fairtable.node.cli``: the ``fairtable`` command."""

import sys

from fairtable.node.cli.main import main

sys.exit(main())
