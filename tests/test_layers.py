"""The pipeline's layers import one way only: syntax → check → ir ← compile → engine.

Read from each module's own import statements: the typed IR (ir/) imports no other layer, so
check makes it and compile reads it without either knowing the other; the engine never imports
syntax, the checker or the IR; the compiler reads the typed IR, never syntax, the checker or the
engine; what generated code calls at run time (runtime/) imports nothing else of rulecraft.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "interpreter"

FORBIDDEN = {
    "syntax": {"check", "compile", "engine", "runtime", "agents", "cli", "validate", "loader"},
    "ir": {"syntax", "check", "compile", "engine", "runtime", "agents", "cli", "validate", "loader", "builtins"},
    "check": {"compile", "engine", "runtime", "agents", "cli", "validate", "loader"},
    "compile": {"syntax", "check", "engine", "agents", "cli", "validate", "loader"},
    "engine": {"syntax", "check", "ir", "agents", "cli", "validate", "loader"},
    "format": {"check", "compile", "engine", "runtime", "agents", "cli", "validate", "loader"},
    "runtime": {"syntax", "check", "compile", "engine", "agents", "cli", "validate", "loader", "builtins",
                "diagnostics"},
}


def imported_packages(path: Path) -> set[str]:
    """The rulecraft subpackages (first part after `rulecraft.`) a module imports, at any depth."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    depth = len(path.relative_to(PACKAGE).parts) - 1        # 1 for interpreter/engine/machine.py
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level == 0:
                parts = (node.module or "").split(".")
                if parts[0] == "rulecraft" and len(parts) > 1:
                    out.add(parts[1])
                continue
            up = node.level - 1                     # how far above the module's own package
            if up > depth:
                continue
            base = list(path.relative_to(PACKAGE).parts[:-1])[:depth - up]
            target = base + (node.module.split(".") if node.module else [])
            if target:
                out.add(target[0])
            else:
                out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[0] == "rulecraft" and len(parts) > 1:
                    out.add(parts[1])
    return out


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_a_layer_imports_only_what_lies_before_it(layer):
    bad = []
    for path in sorted((PACKAGE / layer).glob("*.py")):
        wrong = imported_packages(path) & FORBIDDEN[layer]
        if wrong:
            bad.append(f"{path.relative_to(PACKAGE)} imports {', '.join(sorted(wrong))}")
    assert not bad, "\n".join(bad)


def test_the_import_reader_sees_imports():
    """The test above can fail: it sees the engine's import of the runtime and the checker's of syntax."""
    assert "runtime" in imported_packages(PACKAGE / "engine" / "machine.py")
    assert "syntax" in imported_packages(PACKAGE / "check" / "expressions.py")
    assert "ir" in imported_packages(PACKAGE / "compile" / "compiler.py")
    assert "ir" in imported_packages(PACKAGE / "check" / "lower.py")
