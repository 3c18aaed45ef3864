"""The spec and the code cannot drift apart: every rule id the code can report is documented,
every rule id the spec names exists, and the catalogue data a verifier needs is pinned by hash."""

from __future__ import annotations

import ast
import hashlib
import re
from pathlib import Path

import pytest

from fairtable.games import registry
from tests.paths import ROOT, SPEC

PROTOCOL_NAMESPACES = ("chain", "session", "seed", "public-random", "private-stream", "deck", "board", "choice", "contract")
NAMESPACES = PROTOCOL_NAMESPACES + registry.ids()
RULE = re.compile(rf"(?:{'|'.join(map(re.escape, NAMESPACES))})\.[a-z][a-z_-]*")


def spec_text() -> str:
    return "\n".join(path.read_text() for path in sorted(SPEC.glob("*.md")))


def code_rules() -> dict[str, set[str]]:
    """Every string constant in protocol/ and games/ shaped like a rule id, with where it occurs."""
    found: dict[str, set[str]] = {}
    for layer in ("protocol", "games"):
        for path in sorted((ROOT / layer).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.Constant) and isinstance(node.value, str) and RULE.fullmatch(node.value):
                    found.setdefault(node.value, set()).add(str(path.relative_to(ROOT)))
    return found


def test_the_scan_finds_the_rule_ids():
    rules = code_rules()
    assert {"public-random.mismatch", "deck.stage-mismatch", "chain.link", "towers.cost", "zeeslag.fleet"} <= set(rules)


def test_every_rule_id_the_code_reports_is_in_the_spec():
    text = spec_text()
    missing = {rule: sorted(where) for rule, where in code_rules().items() if f"`{rule}`" not in text}
    assert not missing, f"document these rule ids in spec/: {missing}"


def test_every_rule_id_the_spec_names_exists_in_the_code():
    named = set(re.findall(rf"`({RULE.pattern})`", spec_text()))
    stale = named - set(code_rules())
    assert not stale, f"the spec names rule ids the code never reports: {sorted(stale)}"


CATALOGUE_ROW = re.compile(r"^\| `(games/[a-z_/]+\.json)` \| `([0-9a-f]{64})` \|", re.MULTILINE)


def pinned() -> dict[str, str]:
    return dict(CATALOGUE_ROW.findall((SPEC / "games.md").read_text()))


def test_every_data_file_of_the_games_is_pinned():
    files = {str(path.relative_to(ROOT)) for path in (ROOT / "games").rglob("*.json")}
    assert files and set(pinned()) == files


@pytest.mark.parametrize("path, digest", sorted(pinned().items()))
def test_catalogue_data_matches_its_pinned_hash(path: str, digest: str):
    assert hashlib.sha256(Path(ROOT / path).read_bytes()).hexdigest() == digest, f"{path} changed: update its hash in spec/games.md"
