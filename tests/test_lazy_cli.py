"""A warm `rulecraft run GAME -q` imports only what it uses (issue 25 item 6): with the game in the
cache, no parser (lark), no YAML (ruamel), no rich, no checker and no attrs (the records on its path are
slotclasses). benchmarks/cli_load.py times it."""
from __future__ import annotations

import subprocess
import sys

HEAVY = ("lark", "ruamel", "rich", "attr", "attrs", "rulecraft.check.checker", "rulecraft.syntax.parser",
         "rulecraft.validate")

PROBE = """
import sys
from rulecraft.cli.main import main
code = main(sys.argv[1:])
heavy = sorted(m for m in sys.modules if m.split(".")[0] in ("lark", "ruamel", "rich", "attr", "attrs") or
               m.startswith(("rulecraft.check.checker", "rulecraft.syntax.parser", "rulecraft.validate")))
print("HEAVY", " ".join(heavy), "CODE", code)
"""


def _heavy_imports(*argv) -> str:
    out = subprocess.run([sys.executable, "-c", PROBE, *argv], capture_output=True, text=True, timeout=120).stdout
    return out.split("HEAVY", 1)[1].strip()


def test_a_warm_quiet_run_imports_no_parser_yaml_rich_checker_or_attrs():
    _heavy_imports("run", "blackmore", "-q", "--seed", "2")            # the cache warm
    assert _heavy_imports("run", "blackmore", "-q", "--seed", "2") == "CODE 0"


def test_a_run_writing_a_transcript_still_writes_it(tmp_path):
    log = tmp_path / "game.yaml"
    assert _heavy_imports("run", "examples/nim.rules", "-q", "--seed", "2", "--log", str(log)).endswith("CODE 0")
    assert "decisions" in log.read_text()
