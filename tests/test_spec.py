"""The spec and the code cannot drift apart: every rule id the code can report is documented,
every rule id the spec names exists, and the catalogue data a verifier needs is pinned by hash."""

from __future__ import annotations

import ast
import hashlib
import json
import re
import typing
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
_MESSAGES = json.loads((ROOT / "games" / "messages" / "en.json").read_text())
WORDS = set(_MESSAGES["decisions"]) | set(_MESSAGES["marks"])
"""Keys of the decisions' names and the cards' marks (``Game.prompt``, ``Game.marks``): shaped like
rule ids, but words of the catalogue, pinned with it; a mark key that is also a refusal's rule
(``towers.cost``) is still checked as a rule."""


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
                if rule is not None and not _words_only(rule):
                    found.setdefault(rule, set()).add(str(path.relative_to(ROOT)))
    return found


def _words_only(key: str) -> bool:
    """A catalogue key of :data:`WORDS` that no refusal reports as its rule (``<game>.x``: every game's)."""
    keys = {f"{game}{key.removeprefix('<game>')}" for game in registry.ids()} if key.startswith("<game>.") else {key}
    refusals = {name.split(":")[0] for name in _MESSAGES["refusals"]}
    return keys <= WORDS and not keys & refusals


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
    known = rules | WORDS | {f"{game}{rule.removeprefix('<game>')}" for rule in rules if rule.startswith("<game>.") for game in registry.ids()}
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


def _label_arguments(functions: set[str], methods: set[str]) -> dict[str, set[str]]:
    """The string labels protocol/ passes as the first argument of ``functions`` (called by name)
    or ``methods`` (called on an object), a module-level constant resolved, with where each occurs."""
    found: dict[str, set[str]] = {}
    for path in sorted((ROOT / "protocol").rglob("*.py")):
        tree = ast.parse(path.read_text())
        constants = {target.id: node.value.value for node in tree.body if isinstance(node, ast.Assign)
                     and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)
                     for target in node.targets if isinstance(target, ast.Name)}
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            called = node.func
            if not ((isinstance(called, ast.Name) and called.id in functions) or (isinstance(called, ast.Attribute) and called.attr in methods)):
                continue
            first = node.args[0]
            label = first.value if isinstance(first, ast.Constant) else constants.get(first.id) if isinstance(first, ast.Name) else None
            if isinstance(label, str):
                found.setdefault(label, set()).add(str(path.relative_to(ROOT)))
    return found


def test_every_hash_label_the_code_uses_is_in_the_spec():
    """``H(label, data)`` and the card points: an implementation needs every label's exact bytes."""
    labels = _label_arguments({"digest", "hash_to_point", "hash_to_points"}, set())
    assert {"envelope", "fair/card", "tournament-lot"} <= set(labels)
    text = spec_text()
    missing = {label: sorted(where) for label, where in labels.items() if f'"{label}"' not in text}
    assert not missing, f"write these hash labels into spec/: {missing}"


DERIVATION_ROW = re.compile(r"^\| `([a-z/-]+)` \| `\[", re.MULTILINE)


def test_every_secret_a_seed_derives_has_its_label_in_the_derivation_table():
    """fairness.md §2.3 lists every label a seat's secrets derive from: a derivation missing there
    (the blinding scalars of a show were) leaves an implementer guessing its bytes."""
    labels = _label_arguments(set(), {"key", "stream"})
    assert {"deck/key", "deck/blind", "sum/pair"} <= set(labels)
    table = set(DERIVATION_ROW.findall((SPEC / "fairness.md").read_text()))
    missing = {label: sorted(where) for label, where in labels.items() if label not in table}
    assert not missing, f"add these derivation labels to spec/fairness.md §2.3: {missing}"


def test_the_readme_checklist_names_every_request_of_the_contract():
    """What a verifier takes from the game module: one row per request the contract defines."""
    from fairtable.games import contract

    requests = {kind.__name__ for kind in typing.get_args(contract.Request)}
    assert {"Shuffle", "OpenSums", "Finished"} <= requests
    section = (SPEC / "README.md").read_text().partition("## What a verifier takes from the game module")[2]
    missing = sorted(name for name in requests if f"`{name}(" not in section)
    assert not missing, f"spec/README.md's checklist lacks these requests: {missing}"


def test_every_game_has_its_parameters_listed():
    """games.md lists, per game, the request parameters no message carries."""
    section = (SPEC / "games.md").read_text().partition("### What no message carries")[2].partition("\n### ")[0]
    rows = re.findall(r"^\| ([a-z0-9_-]+)[ |`]", section, re.MULTILINE)
    missing = sorted(set(registry.ids()) - set(rows))
    assert not missing, f"spec/games.md 'What no message carries' lacks these games: {missing}"


def _slug(heading: str) -> str:
    """A heading's anchor as Markdown renderers make it: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_every_link_between_spec_documents_finds_its_heading():
    """An implementer follows the spec's cross-references: each ``doc.md#anchor`` names a heading."""
    anchors = {path.name: {_slug(heading) for heading in re.findall(r"^#+ (.+)$", path.read_text(), re.MULTILINE)}
               for path in SPEC.glob("*.md")}
    broken = [(path.name, target or path.name, anchor) for path in sorted(SPEC.glob("*.md"))
              for target, anchor in re.findall(r"\]\(([a-z-]+\.md)?#([^)]+)\)", path.read_text())
              if anchor not in anchors.get(target or path.name, {anchor})]
    assert not broken, f"links to no heading (document, target, anchor): {broken}"
