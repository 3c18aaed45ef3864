"""The installed package holds every package folder of the three layers, under one namespace."""

import subprocess
import sys
import tomllib

from tests.paths import ROOT

LAYERS = ("protocol", "games", "node")


def test_every_package_folder_is_installed_under_the_fairtable_namespace():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert config["package-dir"] == {f"fairtable.{layer}": layer for layer in LAYERS}
    folders = sorted(
        "fairtable." + ".".join(init.parent.relative_to(ROOT).parts)
        for layer in LAYERS for init in (ROOT / layer).rglob("__init__.py")
    )
    assert sorted(config["packages"]) == folders


def test_installed_fairtable_claims_no_generic_top_level_name(tmp_path):
    probe = "import importlib.util, sys; print([n for n in ('protocol', 'games', 'node') if importlib.util.find_spec(n)]);" \
            "import fairtable.protocol, fairtable.games, fairtable.node"
    done = subprocess.run([sys.executable, "-I", "-c", probe], cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
