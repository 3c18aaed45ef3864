"""Where the repository's files are, for tests that read the spec's vectors or run the examples."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "spec"
VECTORS = SPEC / "vectors"
EXAMPLES = ROOT / "examples"
