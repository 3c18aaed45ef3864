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

PROTOCOL_NAMESPACES = ("chain", "session", "seed", "public-random", "private-stream", "deck", "board", "choice", "sum", "contract")
NAMESPACES = PROTOCOL_NAMESPACES + registry.ids()
RULE = re.compile(rf"(?:{'|'.join(map(re.escape, NAMESPACES))})\.[a-z][a-z_-]*")


def spec_text() -> str:
    return "\n".join(path.read_text() for path in sorted(SPEC.glob("*.md")))


SUFFIX = re.compile(r"\.[a-z][a-z_-]*")


def _game_rule_suffix(node: ast.JoinedStr) -> str | None:
    """``.over`` for ``f"{self.id}.over"`` (or ``f"{self.game.id}.over"``): a rule every game has."""
    if len(node.values) != 2:
        return None
    head, tail = node.values
    if not (isinstance(head, ast.FormattedValue) and isinstance(head.value, ast.Attribute) and head.value.attr == "id"):
        return None
    if isinstance(tail, ast.Constant) and isinstance(tail.value, str) and SUFFIX.fullmatch(tail.value):
        return tail.value
    return None


def code_rules() -> dict[str, set[str]]:
    """Every rule id in protocol/ and games/: string constants shaped like one, and rules built
    from a game's id (``f"{self.id}.over"``), spelled ``<game>.over``, with where each occurs."""
    found: dict[str, set[str]] = {}
    for layer in ("protocol", "games"):
        for path in sorted((ROOT / layer).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text())):
                rule = None
                if isinstance(node, ast.Constant) and isinstance(node.value, str) and RULE.fullmatch(node.value):
                    rule = node.value
                elif isinstance(node, ast.JoinedStr) and (suffix := _game_rule_suffix(node)) is not None:
                    rule = f"<game>{suffix}"
                if rule is not None:
                    found.setdefault(rule, set()).add(str(path.relative_to(ROOT)))
    return found


def documented(rule: str, text: str) -> bool:
    """A game's rule is documented as ``<game>.x`` or for every game (``towers.x``, ``zeeslag.x``)."""
    if rule.startswith("<game>."):
        suffix = rule.removeprefix("<game>")
        return f"`{rule}`" in text or all(f"`{game}{suffix}`" in text for game in registry.ids())
    return f"`{rule}`" in text


def test_the_scan_finds_the_rule_ids():
    rules = code_rules()
    assert {"public-random.mismatch", "deck.stage-mismatch", "chain.link", "towers.cost", "zeeslag.fleet", "<game>.over"} <= set(rules)


def test_every_rule_id_the_code_reports_is_in_the_spec():
    text = spec_text()
    missing = {rule: sorted(where) for rule, where in code_rules().items() if not documented(rule, text)}
    assert not missing, f"document these rule ids in spec/: {missing}"


def test_every_rule_id_the_spec_names_exists_in_the_code():
    named = set(re.findall(rf"`({RULE.pattern})`", spec_text()))
    rules = set(code_rules())
    known = rules | {f"{game}{rule.removeprefix('<game>')}" for rule in rules if rule.startswith("<game>.") for game in registry.ids()}
    stale = named - known
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
