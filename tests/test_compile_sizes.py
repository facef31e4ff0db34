"""The compiler stays readable (issue 33): in compile/, no function or method over 60 lines, and no
module over 600 lines unless its docstring says why at its top, on a line of its own beginning
"Over N lines" (`Over 500 lines for one reason: …`). Read from the sources with ast."""
from __future__ import annotations

import ast
import re
from pathlib import Path

COMPILE = Path(__file__).resolve().parent.parent / "interpreter" / "compile"
MAX_FUNCTION = 60
MAX_MODULE = 600
REASON = re.compile(r"^Over [0-9,]+ lines\b", re.M)


def long_functions(source: str, limit: int = MAX_FUNCTION) -> list[tuple[str, int]]:
    """(name, lines) of each function or method longer than `limit`, its decorators and docstring counted."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            start = min([node.lineno] + [d.lineno for d in node.decorator_list])
            lines = node.end_lineno - start + 1
            if lines > limit:
                out.append((node.name, lines))
    return out


def long_without_reason(source: str, limit: int = MAX_MODULE) -> bool:
    """Is the module longer than `limit` lines with no "Over N lines" reason in its docstring?"""
    if len(source.splitlines()) <= limit:
        return False
    doc = ast.get_docstring(ast.parse(source)) or ""
    return not REASON.search(doc)


def test_no_function_in_compile_is_over_60_lines():
    bad = [f"{path.name}: {name} has {lines} lines" for path in sorted(COMPILE.glob("*.py"))
           for name, lines in long_functions(path.read_text(encoding="utf-8"))]
    assert not bad, "split these into named steps:\n" + "\n".join(bad)


def test_no_module_in_compile_is_over_600_lines_without_a_reason():
    bad = [path.name for path in sorted(COMPILE.glob("*.py")) if long_without_reason(path.read_text(encoding="utf-8"))]
    assert not bad, "split these, or say at the top why not (a line 'Over N lines …'): " + ", ".join(bad)


def test_the_measures_see_what_is_long():
    """Both checks can fail: a 61-line function and a 601-line module without a reason are seen."""
    body = "".join(f"    x{i} = {i}\n" for i in range(60))
    assert long_functions("def f():\n" + body) == [("f", 61)]
    assert long_functions("def f():\n" + body[:-len("    x59 = 59\n")]) == []
    module = '"""A module."""\n' + "x = 1\n" * 600
    assert long_without_reason(module)
    assert not long_without_reason('"""A module.\n\nOver 600 lines for one reason: tables."""\n' + "x = 1\n" * 600)
    assert not long_without_reason(module, limit=601)
