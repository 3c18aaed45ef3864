"""The page's modules fit together: every name one module imports from another is one that module
exports, so no change can leave the page unable to load (a browser shows nothing then, and says
why only in its console)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.paths import ROOT

WEB = ROOT / "node" / "web"
MODULES = sorted(WEB.rglob("*.js"))
EXPORT = re.compile(r"^export (?:async )?(?:function\*?|const|let|class) (\w+)", re.M)
IMPORT = re.compile(r"^import \{([^}]*)\} from \"(\.[^\"]+)\";", re.M)


def exported(module: Path) -> set[str]:
    return set(EXPORT.findall(module.read_text(encoding="utf-8")))


@pytest.mark.parametrize("module", MODULES, ids=[str(path.relative_to(WEB)) for path in MODULES])
def test_every_imported_name_is_exported_by_its_module(module: Path):
    for names, source in IMPORT.findall(module.read_text(encoding="utf-8")):
        target = (module.parent / source).resolve()
        assert target.is_file(), f"{module.name} imports from {source}, which does not exist"
        wanted = {name.split(" as ")[0].strip() for name in names.split(",") if name.strip()}
        missing = wanted - exported(target)
        assert not missing, f"{module.name} imports {sorted(missing)} from {source}, which does not export them"


def test_the_check_sees_the_imports_it_judges():
    assert any(IMPORT.search(module.read_text(encoding="utf-8")) for module in MODULES)
    assert "playedFor" in exported(WEB / "words.js")
