"""pbem installed as a player installs a released tool: a wheel in a fresh virtual environment, run outside the checkout.

Issue 20: ``pip install .`` gave a pbem with no scenarios (they lay beside
the package, not in it) while the editable install of the quick start hid
it.  Here the wheel is built from a copy of the sources, installed into a
new virtual environment in a temporary folder, and that pbem — with neither
the checkout nor its ``scenarios/`` in sight — lists the scenarios, plays
the demo and a game from ``new`` to ``verify``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("pyproject.toml", "setup.py", "README.md", "pbem", "scenarios", "schemas")
LANDING = {"moves": [{"unit": "us-7cav", "enter": "1104", "path": []}, {"unit": "us-1-34", "enter": "1105", "path": []}]}


def _run(*args, cwd: Path, env: dict) -> subprocess.CompletedProcess:
    done = subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True)
    assert done.returncode == 0, f"{' '.join(map(str, args))} -> {done.returncode}\n{done.stdout}\n{done.stderr}"
    return done


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> tuple[Path, dict]:
    base = tmp_path_factory.mktemp("installed")
    source = base / "source"
    source.mkdir()
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy(ROOT / name, source / name)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PBEM_PASSPHRASE")}
    wheels = base / "wheels"
    _run(sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", wheels, source, cwd=base, env=env)
    shutil.rmtree(source)  # nothing of the sources is left to fall back on
    target = base / "venv"
    venv.create(target, with_pip=False)  # installed into by this pip (--python): no pip of its own to set up first
    bindir = target / ("Scripts" if os.name == "nt" else "bin")
    wheel = next(wheels.glob("pbem-*.whl"))
    _run(sys.executable, "-m", "pip", "--python", bindir / "python", "install", "-q", "--find-links", wheels, wheel,
         cwd=base, env=env)
    play = base / "play"
    play.mkdir()
    return bindir / "pbem", play, env


def test_an_installed_pbem_lists_its_scenarios_and_plays_the_demo(installed):
    pbem, play, env = installed
    listed = json.loads(_run(pbem, "scenario", "list", "--json", cwd=play, env=env).stdout)
    assert {"leyte-assault", "leyte-mountain-barrier", "leyte-final-collapse", "test-skirmish"} <= {s["id"] for s in listed}
    demo = _run(pbem, "demo", "--scenario", "test-skirmish", "--dir", play / "demo", cwd=play, env=env).stdout
    assert "verified:" in demo and "Result:" in demo
    shown = _run(pbem, "scenario", "show", "leyte-assault", cwd=play, env=env).stdout
    assert "us-7-cav" in shown
    # the second rules system's data ships too: its test island and every chart (issue 39)
    probe = ("import importlib.resources as r; d = r.files('pbem.systems.legion') / 'data'; "
             "print(sorted(p.name for p in (d / 'charts').iterdir()), (d / 'legion-test-island.json').is_file())")
    charts = _run(Path(pbem).parent / "python", "-c", probe, cwd=play, env=env).stdout
    assert "'assault.json'" in charts and charts.strip().endswith("True"), charts


def test_an_installed_pbem_plays_a_game_from_new_to_verify(installed):
    pbem, play, env = installed
    game = play / "game"
    for name in ("ref", "us", "jp"):
        _run(pbem, "keygen", name, "--dir", play, "--no-passphrase", cwd=play, env=env)
    _run(pbem, "new", "leyte-assault", "--us", "us.pub", "--jp", "jp.pub", "--referee", "ref.pub", "--key", "ref.key", "--out", "leyte", cwd=play, env=env)
    _run(pbem, "new", "test-skirmish", "--us", "us.pub", "--jp", "jp.pub", "--referee", "ref.pub", "--key", "ref.key", "--out", game, cwd=play, env=env)
    (play / "orders.json").write_text(json.dumps(LANDING))
    turn = game / "turn-0000.pbem"
    _run(pbem, "validate", "orders.json", "--turn", turn, "--key", "us.key", cwd=play, env=env)
    _run(pbem, "submit", "orders.json", "--turn", turn, "--key", "us.key", cwd=play, env=env)
    _run(pbem, "adjudicate", turn, game / "orders-0000-US.pbem", "--key", "ref.key", cwd=play, env=env)
    verified = _run(pbem, "verify", game, cwd=play, env=env).stdout
    assert "turn-0001" in verified or "2 turn files" in verified
    view = json.loads(_run(pbem, "view", game / "turn-0001.pbem", "--key", "jp.key", "--json", cwd=play, env=env).stdout)
    assert view["state"]["locations"]["us-7cav"] == "1104"
