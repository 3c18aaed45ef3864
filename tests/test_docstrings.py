"""Every public name of ``protocol/`` and ``games/`` carries a docstring, so that
``pydoc fairtable.protocol.codec`` (and every other module) reads as a reference.

Public: a module whose path has no ``_``-prefixed part (a package's ``__init__.py`` counts as
the package), and in it every class and function not starting with ``_`` that is defined
there (a re-export is documented where it is defined), plus the methods and properties of
those classes. What the source does not spell out (dataclass-generated methods, enum
members) is not a definition here, so it is not asked for. A method that overrides a
documented base method may inherit that docstring: the check uses ``inspect.getdoc``, which
falls back along the class's MRO, so the contract's words for ``apply`` stand for every
game's ``apply`` unless a game has something of its own to add.

The walk reads the source with ``ast`` (so it sees exactly what each file defines) and imports
a module only to resolve an inherited docstring.
"""

import ast
import importlib
import inspect
from collections.abc import Callable, Iterator
from pathlib import Path

from tests.paths import ROOT

LAYERS = ("protocol", "games")

Definition = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef


def public_sources() -> Iterator[Path]:
    """Every source file of the two layers whose module is public."""
    for layer in LAYERS:
        for path in sorted((ROOT / layer).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            if not any(part.startswith("_") for part in parts):
                yield path


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return "fairtable." + ".".join(parts)


def _public(nodes: list[ast.stmt]) -> Iterator[Definition]:
    for node in nodes:
        if isinstance(node, Definition) and not node.name.startswith("_"):
            yield node


def _inherits_doc(module: str, cls: str, method: str) -> bool:
    owner = getattr(importlib.import_module(module), cls)
    return inspect.getdoc(getattr(owner, method)) is not None


InheritsDoc = Callable[[str, str, str], bool]


def undocumented_in(source: str, module: str, inherits: InheritsDoc = _inherits_doc) -> Iterator[str]:
    """The dotted names defined in ``source`` (the text of ``module``) that lack a docstring,
    the module itself as its own name; ``inherits(module, class, method)`` says whether an
    undocumented method gets a docstring from a base class."""
    tree = ast.parse(source)
    if ast.get_docstring(tree) is None:
        yield module
    for node in _public(tree.body):
        if ast.get_docstring(node) is None:
            yield f"{module}.{node.name}"
        if not isinstance(node, ast.ClassDef):
            continue
        methods: dict[str, bool] = {}
        for method in _public(node.body):
            if not isinstance(method, ast.ClassDef):
                # an @overload family, or a property with its setter: one docstring covers the name
                methods[method.name] = methods.get(method.name, False) or ast.get_docstring(method) is not None
        for name, documented in methods.items():
            if not documented and not inherits(module, node.name, name):
                yield f"{module}.{node.name}.{name}"


def undocumented(path: Path) -> Iterator[str]:
    """The names in one source file of the layers that lack a docstring."""
    return undocumented_in(path.read_text(), _module_name(path))


def _count(source: str) -> int:
    """How many public names ``source`` defines: the module, its public classes and functions,
    and the distinct public method names of those classes."""
    body = ast.parse(source).body
    return 1 + sum(1 + (len({m.name for m in _public(node.body) if not isinstance(m, ast.ClassDef)})
                        if isinstance(node, ast.ClassDef) else 0) for node in _public(body))


def census() -> dict[str, tuple[int, int]]:
    """Per layer: (public names without a docstring, all public names); the issue's figures."""
    figures = {}
    for layer in LAYERS:
        paths = [path for path in public_sources() if path.relative_to(ROOT).parts[0] == layer]
        figures[layer] = (sum(1 for path in paths for _ in undocumented(path)), sum(_count(path.read_text()) for path in paths))
    return figures


def test_every_public_name_of_protocol_and_games_has_a_docstring():
    missing = [name for path in public_sources() for name in undocumented(path)]
    assert not missing, "public names without a docstring:\n  " + "\n  ".join(missing)


CHECKED = '''"""A module."""

import dataclasses


def bare(): pass


def _private(): pass


class Base:
    """Documented."""

    def step(self):
        """What every step does."""

    def loose(self): pass

    def _hidden(self): pass

    @property
    def size(self):
        """How big."""

    @size.setter
    def size(self, value): pass


class Undocumented(Base):
    def step(self): pass

    def own(self): pass
'''


def test_the_check_names_each_undocumented_public_name_and_accepts_an_inherited_docstring():
    def inherits(module, cls, method):  # what inspect.getdoc finds for CHECKED: Base documents step
        return (cls, method) == ("Undocumented", "step")

    assert list(undocumented_in(CHECKED, "toy", inherits)) == ["toy.bare", "toy.Base.loose", "toy.Undocumented", "toy.Undocumented.own"]
    assert list(undocumented_in("x = 1", "bare_module", inherits)) == ["bare_module"]


class _Documented:
    def step(self) -> None:
        """The base's words for every override."""


class _Override(_Documented):
    def step(self) -> None:
        pass

    def own(self) -> None:
        pass


def test_an_override_of_a_documented_method_inherits_its_docstring_and_nothing_else_does():
    assert _inherits_doc(__name__, "_Override", "step")
    assert not _inherits_doc(__name__, "_Override", "own")
    # a game's bot that subclasses the shared RandomBot needs no words of its own for ``choose``
    assert _inherits_doc("fairtable.games.duel.bots", "RandomBot", "choose")


if __name__ == "__main__":  # python -m tests.test_docstrings: the figures
    print(", ".join(f"{layer}/ {missing} of {total} undocumented" for layer, (missing, total) in census().items()))
