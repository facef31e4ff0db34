"""Issue 27, output and determinism (cases 16-19)."""
from __future__ import annotations

from limited import rulecraft

CONTROLS = "\x1b\x07\u202e"


def test_control_characters_are_escaped_in_a_document(tmp_path):
    """Case 16: `doc --out x.html` wrote raw ESC, BEL and right-to-left overrides from titles, options
    and comments into the page."""
    (tmp_path / "h.rules").write_text(
        f'game "Evil\x1b[2J\x07 \u202etitle"\nplayers 2\n'
        f'# a comment\x1b]0;owned\x07 with \u202e in it\noption rounds "rounds\x1b[31m": 1..3 = 2\n'
        'rule play:\n    say "x"\nscore p: Player = 0\n')
    for out in ("x.html", "x.md"):
        code, _out, err = rulecraft("doc", "h.rules", "--out", out, cwd=tmp_path)
        assert code == 0, err
        page = (tmp_path / out).read_text(encoding="utf-8")
        assert not any(c in page for c in CONTROLS), out
        assert "Evil\\x1b[2J\\x07 \\u202etitle" in page


def test_a_failing_narration_fails_the_same_shown_or_not(tmp_path):
    """Case 17: with `say "{10 / n}"` and n = 0, `run` ended with a runtime error and `run -q` finished
    the game. A narration is computed only when shown, so its failure is told and the game goes on in
    both; `rulecraft test` still finds it."""
    (tmp_path / "h.rules").write_text('game "Hostile"\nplayers 2\nvar n: Int = 0\nrule play:\n'
                                      '    player(1) chooses k in 1..2 as "take {k}":\n        say "{10 / n}"\n'
                                      "score p: Player = 0\n")
    shown = rulecraft("run", "h.rules", "--seed", "1", cwd=tmp_path)
    quiet = rulecraft("run", "h.rules", "--seed", "1", "-q", cwd=tmp_path)
    assert shown[0] == quiet[0] == 0, (shown, quiet)
    assert "(a narration fails here: division by zero)" in shown[1]
    assert shown[1].endswith(quiet[1])                     # the same final scores
    code, out, _err = rulecraft("test", "h.rules", "--explore", "2", "--out", "failures", cwd=tmp_path)
    assert code == 1 and "division by zero" in out, out


SWAP = """
import os, sys
from pathlib import Path
from rulecraft import cachedir
base = Path(sys.argv[1])
if sys.argv[2] == "open-base":
    base.mkdir(); base.chmod(0o777)
    print(cachedir.cache_dir("ast"))
    sys.exit()
folder = cachedir.cache_dir("ast")                           # checked: this user's, private
os.rename(base / "rulecraft", base / "checked")              # then swapped for a link to another folder
(base / "elsewhere" / "ast").mkdir(parents=True)
os.symlink(base / "elsewhere", base / "rulecraft")
cachedir.write_entry(folder / "entry", b"data")
print(sorted(p.name for p in (base / "elsewhere" / "ast").iterdir()), sorted(p.name for p in (base / "checked" / "ast").iterdir()))
"""


def test_the_cache_folder_is_checked_on_its_handle(tmp_path):
    """Case 18: the owner and mode of the base folder (~/.cache) were not checked, and the folders were
    looked up again by name after the check: one swapped in between was followed."""
    import os
    import subprocess
    import sys

    from limited import _limit
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "base"))
    env.pop("RULECRAFT_NO_CACHE", None)

    def run(*argv):
        done = subprocess.run([sys.executable, "-c", SWAP, *argv], env=env, capture_output=True, text=True,
                              preexec_fn=_limit, timeout=60)
        assert done.returncode == 0, done.stderr
        return done.stdout.strip()

    assert run(str(tmp_path / "base"), "open-base") == "None"          # a base others may write in: no cache
    (tmp_path / "base").chmod(0o700)
    assert run(str(tmp_path / "base"), "swap") == "[] ['entry']"        # written where it was checked


def test_ray_starts_privately_whatever_cluster_file_is_left(tmp_path):
    """Case 19: with a cluster file another process left in Ray's default temp folder, `simulate --backend
    ray` failed ("When connecting to an existing cluster, num_cpus and num_gpus must not be provided").
    Without RAY_ADDRESS it starts a private local Ray, and says so. (Ray reserves much memory: no memory
    limit here; its processes' CPU is limited each.)"""
    import os

    import pytest
    pytest.importorskip("ray")
    (tmp_path / "rt" / "ray").mkdir(parents=True)
    (tmp_path / "rt" / "ray" / "ray_current_cluster").write_text("127.0.0.1:1")
    env = dict(os.environ, RAY_TMPDIR=str(tmp_path / "rt"))
    env.pop("RAY_ADDRESS", None)
    code, out, err = rulecraft("simulate", "blackmore", "-n", "4", "--players", "2", "--workers", "2",
                               "--backend", "ray", "--json", cwd=tmp_path, env=env, wall=180, cpu=60, memory=None)
    assert code == 0, err
    assert "simulate: Ray: a private local Ray with 2 CPUs" in err


def test_a_failing_narration_to_one_seat_is_told_to_that_seat_alone(tmp_path):
    """`say to p` whose text fails: p is told it failed, the others nothing, and the game goes on (the
    audience is computed before the text; the failure is caught in the generated code, no lambda)."""
    from rulecraft.engine.session import Session
    from rulecraft.loader import load
    (tmp_path / "h.rules").write_text('game "Hostile"\nplayers 2\nvar n: Int = 0\nrule play:\n'
                                      '    player(1) chooses k in 1..2 as "take {k}":\n'
                                      '        say to player(2) "{10 / n}"\n        say "after"\n'
                                      "score p: Player = 0\n")
    s = Session.start(load(str(tmp_path / "h.rules")), "h", 2, seed=1)
    s.take(s.legal()[0].id)
    assert s.over
    events = s.take_narration()
    from rulecraft.engine import observe
    assert observe.narration(events, 1) == ["(a narration fails here: division by zero)", "after"]
    assert observe.narration(events, 0) == ["after"]
