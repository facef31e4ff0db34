"""Shared fixtures and the hypothesis profiles.

HYPOTHESIS_PROFILE selects a profile: `ci` (the default: few examples, no
deadline, derandomized so a CI run is reproducible) or `dev` (many examples).
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

sys.path.insert(0, str(Path(__file__).resolve().parent))

# The suite parses thousands of mutated rule files: keep rulecraft's parse and code caches in a
# folder of the run's own, not in the user's ~/.cache (subprocesses inherit it).
if "RULECRAFT_TEST_KEEP_CACHE" not in os.environ:
    import atexit
    import shutil
    import tempfile
    os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="rulecraft-test-cache-")
    atexit.register(shutil.rmtree, os.environ["XDG_CACHE_HOME"], True)

settings.register_profile(
    "ci",
    max_examples=30,
    deadline=None,
    derandomize=True,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "dev",
    max_examples=300,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def blackmore():
    """The bundled Blackmore program (loaded once: a Program is immutable)."""
    from rulecraft.loader import load
    return load("blackmore")


@pytest.fixture(scope="session")
def blackmore_path():
    from rulecraft.check.modules import resolve_game
    return resolve_game("blackmore")


@pytest.fixture
def rules_file(tmp_path):
    """Write a small rule file into a fresh folder and return its path."""
    def write(text: str, name: str = "game.rules") -> Path:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return path
    return write
