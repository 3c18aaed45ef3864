"""The installed package holds every package folder of the three layers, under one namespace."""

import os
import re
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


def core_dependencies() -> set[str]:
    """The names of the packages a plain ``pip install .`` brings."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return {re.split(r"[<>=!~ \[]", requirement, maxsplit=1)[0].lower() for requirement in project["dependencies"]}


EXTRAS_ONLY = tuple(sorted({"libp2p", "multiaddr", "fastecdsa", "base58", "varint", "coincurve"} - core_dependencies()))
"""Top-level modules py-libp2p (the ``p2p`` and ``test`` extras) brings that no core dependency does."""


def test_the_main_job_runs_on_a_plain_install_without_the_extras(tmp_path):
    """The README's first command installs no extra: ``fairtable demo`` (its node processes too) must
    not import what only an extra brings. Every process here refuses those modules, through a
    ``sitecustomize`` on ``PYTHONPATH``."""
    (tmp_path / "sitecustomize.py").write_text(
        "import importlib.abc, sys\n"
        "class Refuse(importlib.abc.MetaPathFinder):\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        f"        if name.split('.')[0] in {EXTRAS_ONLY!r}:\n"
        "            raise ModuleNotFoundError(f'{name} comes only with an extra')\n"
        "sys.meta_path.insert(0, Refuse())\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(tmp_path), os.environ.get("PYTHONPATH")]))}
    completed = subprocess.run([sys.executable, "-m", "fairtable.node.cli", "demo", "--out", str(tmp_path / "out")],
                               capture_output=True, text=True, env=env, timeout=300)
    assert completed.returncode == 0, completed.stderr[-2000:]
    assert "VALID / VALID" in completed.stdout
