"""The browser page and the terminal boards hold no game rule: what a board needs to know of the rules (the duel's type
triangle, bonus, deck size and the cards a deck may take, which ship placements touch, the shared
sea's waters, a salvo's targets and what an ability replaces, the space battle's round counting,
ability readiness and aims) comes from the game's view, computed by the rule code itself, or from
the node (``check`` judges a salvo and the space battle's purchase, ``deck_list`` reads a deck list
with the game's reader). A rule written into a client again fails here."""

from __future__ import annotations

import re

import pytest

from fairtable.games import LANGUAGES, catalogue
from fairtable.games.lang import messages
from tests.paths import ROOT

CLIENTS = ROOT / "node"
SCRIPTS = sorted((CLIENTS / "web").rglob("*.js")) + sorted((CLIENTS / "clients" / "tui" / "boards").glob("*.py"))
RULES = {
    r"\b(BEATS|BONUS|DECK_SIZE|ownRound)\b": "a duel or space battle rule kept as a constant or a function of its own",
    rf'({"|".join(messages()["terms"]["duel"])})"?\s*:\s*"({"|".join(messages()["terms"]["duel"])})"': "duel's type triangle (the view's beats)",
    r"\+\s*50\b|\b50\s*\+": "duel's bonus (the view's bonus)",
    r"beats\[(cards|CARDS)\[|\battack_value\(|\.attack\}\+\$\{view\.bonus": "duel's attack against a defence, with or without the bonus (the view's facing and the last duels' value)",
    r"\bseat\s*\*\s*10\b|\b10\s*\*\s*(view\.)?seat\b|/\s*10\)": "the shared sea's blocks of ten columns (the view's holders and placing)",
    r"for \(let dy = -1": "which cells touch (the view's placing.neighbours)",
    r"\.rounds\s*\+": "the space battle's round counting (the fleet's round and each ability's ready)",
    r"\b20×10\b|land 3 fighters": "the space battle's field size and squadron (the view's seas and squadron)",
    r"\.\.\.data\.shots,\s*\.\.\.data\.water|nuke\" and cell in opened\(": "which cells a salvo may still go at (the view's targets)",
    r"salvo\s*===?\s*\"focus\"\s*\?\s*(\[\]|\{\})|\.reduce\(\(sum, \[, count\]\)": "a salvo's counts, what an ability replaces (the view's due and due_with_ability; the node's check)",
    r"to_board\(foe|xy\(cell\)\[0\] // BLOCK": "which enemy a shared-sea shot counts for (the view's targets)",
    r"\.price\s*>|>=?\s*(\w+\.)*(max|most|capitals)\b|capitals\.length": "the space battle's purchase limits: at most so many of a kind, one capital ship, the money (the node's check of a {buy} draft)",
    r"startsWith\(\"#\"\)|a deck holds exactly|\bor 20\b|deck_cards\s*,\s*\.\.\.\(?view\.swap_draws|deck_cards\.length": "the duel's deck lists, deck size and which cards a rebuilt deck may take (the game's reader through deck_list, the view's deck_size and deck_choices)",
}


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda path: str(path.relative_to(CLIENTS)))
def test_no_client_writes_a_game_rule_of_its_own(script):
    text = script.read_text()
    found = {why: match.group(0) for pattern, why in RULES.items() if (match := re.search(pattern, text))}
    assert not found, f"{script.name} holds rules the view should carry: {found}"


def test_the_pages_own_words_come_from_the_catalogue_of_each_language():
    """words.js writes no sentence of its own: every text is a ``page.*`` or ``plural.*`` entry of
    the catalogue served per language, and every entry the page asks for is in each one."""
    words = (CLIENTS / "web" / "words.js").read_text()
    code = "\n".join(line for line in words.splitlines() if not line.lstrip().startswith("//"))
    sentences = [text for text in re.findall(r'"([^"\n]*)"|`([^`\n]*)`', code) for text in text if re.search(r"[A-Za-z]+ [A-Za-z]", text)]
    assert sentences == [], f"words.js writes its own words: {sentences}"
    asked = {f"page.{key}" for script in SCRIPTS if script.suffix == ".js" for key in re.findall(r'say\("page\.(\w+)"', script.read_text())}
    asked |= {f"plural.{message}.{form}" for script in SCRIPTS if script.suffix == ".js"
              for message in re.findall(r'counted\("(\w+)"', script.read_text()) for form in ("one", "other")}
    assert asked, "the page asks the catalogue for nothing"
    for language in LANGUAGES:
        assert asked <= set(catalogue(language)), f"{language}: {sorted(asked - set(catalogue(language)))} missing"
