"""The node reads the protocol and the games through their public facades only.

``fairtable.protocol``, ``fairtable.protocol.session`` (and ``.fair``, ``.tournament``,
``.testing``) and ``fairtable.games`` (and ``.testing``) each declare their public names in
``__all__``; a module inside them may change shape without the node noticing. A node module
that imports a deeper path, or a name a facade does not export, fails this test, naming the
file, the line and the facade to use.

A game's own terminal board (``node/clients/tui/boards/<game>.py``) draws that game's pieces:
it may also import from that game's package (``fairtable.games.<game>``), whose ``__all__``
names what its board draws with, and from no deeper path of it.
"""

from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path

import pytest

NODE = Path(__file__).resolve().parents[2] / "node"
LAYERS = ("fairtable.protocol", "fairtable.games")
FACADES = (
    "fairtable.protocol",
    "fairtable.protocol.session",
    "fairtable.protocol.fair",
    "fairtable.protocol.tournament",
    "fairtable.protocol.testing",
    "fairtable.games",
    "fairtable.games.testing",
)
GAMES = ("towers", "zeeslag", "duel", "shengji", "drachenherz")
BOARD_GAMES = {"space": "zeeslag"}
"""A board named for a variant reads its game's package."""


def _imports(path: Path) -> list[tuple[int, str, str | None]]:
    """``(line, module, name)`` for every import of the protocol or the games in ``path`` (name None: ``import module``)."""
    found: list[tuple[int, str, str | None]] = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(LAYERS):
            found.extend((node.lineno, node.module, alias.name) for alias in node.names)
        elif isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name, None) for alias in node.names if alias.name.startswith(LAYERS))
    return found


def facades_of(path: Path) -> tuple[str, ...]:
    """The facades ``path`` may import from: everyone's, and a game's own board its game's package too."""
    game = BOARD_GAMES.get(path.stem, path.stem)
    if path.parent == NODE / "clients" / "tui" / "boards" and game in GAMES:
        return (*FACADES, f"fairtable.games.{game}")
    return FACADES


def problems(root: Path) -> list[str]:
    """Every import under ``root`` that bypasses a facade, as ``file:line: what to do``."""
    found = []
    for path in sorted(root.rglob("*.py")):
        for line, module, name in _imports(path):
            where = f"{path.relative_to(root.parent)}:{line}"
            facades = facades_of(path)
            if module not in facades:
                found.append(f"{where}: {module} is no facade; import from one of {', '.join(facades)}")
            elif name is None:
                found.append(f"{where}: import names from {module}, not the module")
            elif name not in getattr(importlib.import_module(module), "__all__", ()):
                found.append(f"{where}: {module} does not export {name!r} (its __all__)")
    return found


def test_the_node_imports_the_protocol_and_the_games_through_their_facades_only():
    assert problems(NODE) == []


@pytest.mark.parametrize("facade", [f for f in FACADES if f != "fairtable.games.testing"])
def test_every_facade_exports_only_names_it_has_and_documents_them(facade):
    module = importlib.import_module(facade)
    assert module.__doc__, f"{facade} says in its docstring how to use it"
    for name in module.__all__:
        assert hasattr(module, name), f"{facade}.__all__ names {name!r}, which it does not have"
        value = getattr(module, name)
        if inspect.isfunction(value) or inspect.isclass(value):
            assert inspect.getdoc(value), f"{facade}.{name} has no docstring"


def test_pydoc_of_the_session_reads_as_a_reference_every_public_method_documented():
    session = importlib.import_module("fairtable.protocol.session")
    undocumented = [
        f"{name}.{attr}"
        for name in session.__all__ if inspect.isclass(cls := getattr(session, name))
        for klass in cls.__mro__ if klass.__module__.startswith("fairtable.protocol.session")
        for attr, member in vars(klass).items()
        if not attr.startswith("_") and (inspect.isfunction(member) or isinstance(member, property)) and not member.__doc__
    ]
    assert undocumented == []


def test_a_deep_import_is_caught_naming_its_file_and_line(tmp_path):
    node = tmp_path / "node"
    node.mkdir()
    (node / "bad.py").write_text("from fairtable.protocol.session.slots import CHOICE\nfrom fairtable.protocol.session import Nope\n")
    assert problems(node) == [
        "node/bad.py:1: fairtable.protocol.session.slots is no facade; import from one of " + ", ".join(FACADES),
        "node/bad.py:2: fairtable.protocol.session does not export 'Nope' (its __all__)",
    ]
