"""Every fenced rule example in the docs is checked, so the reference cannot go stale.

In docs/language.md and README.md:
- a block fenced as ```rules is a complete rule file: it must load (parse,
  check, compile) without a diagnostic, and a game of it, at its smallest and
  largest player counts, must play to the end with random decisions, and its
  scenarios must pass;
- a block fenced as ```rules-error must fail, and a comment `# error: TEXT` in
  it gives the expected message: TEXT must appear in the diagnostics (or, when
  the file loads, in the runtime error its game stops with). Never a Python
  traceback of any other kind.
"""
from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from rulecraft.runtime.errors import RulesRuntimeError
from rulecraft.diagnostics import RulesError
from rulecraft.engine.limits import DEFAULT_DECISION_LIMIT
from rulecraft.engine.scenarios import run_scenario
from rulecraft.engine.session import Session
from rulecraft.loader import load_file

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "docs" / "language.md", ROOT / "README.md"]
FENCE = re.compile(r"^```(rules|rules-error)[ \t]*\n(.*?)^```[ \t]*$", re.M | re.S)
EXPECTED = re.compile(r"#\s*error:\s*(.+?)\s*$", re.M)
DECISION_LIMIT = DEFAULT_DECISION_LIMIT      # rulecraft's own limit for rules that state none


def blocks():
    out = []
    for doc in DOCS:
        if not doc.exists():
            continue
        text = doc.read_text(encoding="utf-8")
        for m in FENCE.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            out.append(pytest.param(m.group(1), m.group(2), id=f"{doc.name}:{line}"))
    return out


BLOCKS = blocks()


def write(tmp_path, source):
    path = tmp_path / "example.rules"
    path.write_text(source, encoding="utf-8")
    return path


def play_to_end(program, players, seed):
    session = Session.start(program, "example", players, seed=seed)
    rnd = random.Random(seed)
    taken = 0
    while not session.over:
        ids = [o.id for o in session.legal()]
        assert ids, "a decision is pending but no option is legal"
        session.take(ids[rnd.randrange(len(ids))])
        taken += 1
        assert taken <= DECISION_LIMIT, "the example did not end"
    return session


def test_the_docs_have_examples():
    kinds = [p.values[0] for p in BLOCKS]
    assert kinds.count("rules") >= 30
    assert kinds.count("rules-error") >= 15


@pytest.mark.parametrize("kind,source", BLOCKS)
def test_example(kind, source, tmp_path):
    path = write(tmp_path, source)
    if kind == "rules":
        try:
            program = load_file(path)
        except RulesError as e:
            pytest.fail("a `rules` example does not load:\n" + e.render())
        for n in sorted({program.min_players, program.max_players}):
            session = play_to_end(program, n, seed=n)
            assert session.scores() is not None
        # the example's own scenarios (a variant also inherits its base game's)
        for sc in program.scenarios:
            if sc.span.file.endswith(path.name):
                result = run_scenario(program, sc)
                assert result.ok, f"scenario {result.name}: {result.message}"
        return
    expected = EXPECTED.findall(source)
    assert expected, "a `rules-error` example needs a `# error: message` comment"
    want = expected[0]
    try:
        program = load_file(path)
    except RulesError as e:
        rendered = e.render()
        assert want in rendered, f"expected {want!r} in:\n{rendered}"
        return
    with pytest.raises(RulesRuntimeError) as info:
        play_to_end(program, program.min_players, seed=0)
    assert want in str(info.value), f"expected {want!r} in:\n{info.value}"


def test_the_builtin_table_lists_exactly_the_registry():
    """docs/language.md's table of built-in functions and rulecraft.builtins say the same functions."""
    from rulecraft.builtins import REGISTRY
    text = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    section = text.split("## Built-in functions", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    documented = {name for row in rows for name in re.findall(r"`([a-z_]+)\(", row.split("|")[1])}
    assert documented == set(REGISTRY), (
        f"only in the docs: {sorted(documented - set(REGISTRY))}; only in the registry: {sorted(set(REGISTRY) - documented)}")


def test_no_doc_says_quotes_cannot_go_inside_braces():
    """Issue 11: the docs said text in quotes cannot go inside `{…}` (it can: the "Saying" example
    above does it); no paragraph of any doc may say it is missing or impossible."""
    about = re.compile(r"quot\w*\W+(inside|in)\W+`?\{…\}", re.I)
    denied = re.compile(r"cannot|can't|missing|not yet|no way|does not exist", re.I)
    for doc in sorted((ROOT / "docs").rglob("*.md")) + [ROOT / "README.md"]:
        for para in doc.read_text(encoding="utf-8").split("\n\n"):
            assert not (about.search(para) and denied.search(para)), f"{doc.name} says quotes cannot go inside {{…}}:\n{para}"
