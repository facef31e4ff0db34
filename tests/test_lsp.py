"""`rulecraft lsp`, driven as an editor drives it: JSON-RPC over a subprocess's standard streams.

Each test starts the server, sends `initialize`, opens documents and reads what the
server publishes or answers. Every wait is bounded, so a server that hangs fails the
test instead of the suite.
"""
from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
from pathlib import Path

import pytest

pytest.importorskip("pygls")        # installed by the `test` extra; a plain install has no language server

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT = 60

GAME = '''game "Tiny"
players 2

# The pile everyone draws from.
zone pile of Chip, seen by nobody
card Chip(value: 1..3) named "chip {value}"
cards chips = [Chip(v) for v in 1..3]
zone hand of Chip per player, seen by owner

def worth(c: Chip): Int = c.value * 2

rule play:
    move chips to pile
    for p in players:
        move top(pile) to p.hand
        let best = max(c in p.hand by worth(c))
        say "{p} holds {best}"

score p = sum(worth(c) for c in p.hand)
'''


class Client:
    def __init__(self, cwd: Path):
        self.proc = subprocess.Popen([sys.executable, "-m", "rulecraft", "lsp"], cwd=cwd, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.messages: queue.Queue = queue.Queue()
        self.pending: list = []
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        out = self.proc.stdout
        while True:
            headers = {}
            while True:
                line = out.readline()
                if not line:
                    return
                line = line.strip()
                if not line:
                    break
                key, _, value = line.decode().partition(":")
                headers[key.strip().lower()] = value.strip()
            body = out.read(int(headers["content-length"]))
            self.messages.put(json.loads(body))

    def send(self, message: dict):
        body = json.dumps(message).encode()
        self.proc.stdin.write(f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
        self.proc.stdin.flush()

    def notify(self, method: str, params: dict):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method: str, params: dict):
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        message = self._wait(lambda m: m.get("id") == self.next_id and "method" not in m)
        assert "error" not in message, message
        return message["result"]

    def diagnostics(self, uri: str) -> list:
        return self._wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                          and m["params"]["uri"] == uri)["params"]["diagnostics"]

    def _wait(self, wanted):
        for i, m in enumerate(self.pending):
            if wanted(m):
                return self.pending.pop(i)
        while True:
            try:
                m = self.messages.get(timeout=TIMEOUT)
            except queue.Empty:
                raise AssertionError(f"no answer from the server; its stderr: {self._stderr()}") from None
            if wanted(m):
                return m
            self.pending.append(m)

    def _stderr(self) -> str:
        self.proc.kill()
        return self.proc.stderr.read().decode(errors="replace")[-2000:]

    def close(self):
        try:
            self.request("shutdown", None)
            self.notify("exit", None)
            self.proc.wait(timeout=10)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
            self.proc.stdout.close()
            self.proc.stderr.close()
            self.proc.stdin.close()


@pytest.fixture
def client(tmp_path):
    c = Client(tmp_path)
    result = c.request("initialize", {"processId": None, "rootUri": tmp_path.as_uri(), "capabilities": {}})
    caps = result["capabilities"]
    assert caps["hoverProvider"] and caps["definitionProvider"] and caps["documentFormattingProvider"]
    assert caps["completionProvider"]["triggerCharacters"] == ["."]
    c.notify("initialized", {})
    yield c
    c.close()


def open_doc(client, path: Path, text: str, version: int = 1) -> str:
    path.write_text(text, encoding="utf-8")
    uri = path.as_uri()
    client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "rulecraft",
                                                            "version": version, "text": text}})
    return uri


def change(client, uri: str, text: str, version: int):
    client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                             "contentChanges": [{"text": text}]})


def at(text: str, needle: str, nth: int = 0, offset: int = 0) -> dict:
    """The 0-based LSP position of the nth occurrence of needle (plus offset characters)."""
    index = -1
    for _ in range(nth + 1):
        index = text.index(needle, index + 1)
    index += offset
    line = text.count("\n", 0, index)
    return {"line": line, "character": index - (text.rfind("\n", 0, index) + 1)}


def test_errors_appear_and_disappear_as_you_type(client, tmp_path):
    broken = GAME.replace("move top(pile) to p.hand", "move top(piel) to p.hand")
    uri = open_doc(client, tmp_path / "tiny.rules", broken)
    diags = client.diagnostics(uri)
    assert len(diags) == 1, diags
    d = diags[0]
    start = at(broken, "piel)")
    assert d["range"]["start"] == start
    assert d["range"]["end"] == {"line": start["line"], "character": start["character"] + 4}
    assert "piel" in d["message"] and d["severity"] == 1 and d["source"] == "rulecraft"
    assert any("pile" in r["message"] for r in d.get("relatedInformation", [])), d   # the hint: did you mean
    change(client, uri, GAME, 2)
    assert client.diagnostics(uri) == []


def test_a_syntax_error_is_reported_where_it_is(client, tmp_path):
    text = GAME.replace("rule play:", "rule play")
    uri = open_doc(client, tmp_path / "tiny.rules", text)
    diags = client.diagnostics(uri)
    assert diags and diags[0]["range"]["start"]["line"] == text.split("\n").index("rule play")


def test_hover_definition_completion_symbols_formatting(client, tmp_path):
    uri = open_doc(client, tmp_path / "tiny.rules", GAME)
    assert client.diagnostics(uri) == []
    doc = {"textDocument": {"uri": uri}}

    hover = client.request("textDocument/hover", {**doc, "position": at(GAME, "pile", 1)})
    value = hover["contents"]["value"]
    assert "(zone) pile" in value and "zone pile of Chip, seen by nobody" in value
    assert "The pile everyone draws from." in value            # the comment above the declaration
    builtin = client.request("textDocument/hover", {**doc, "position": at(GAME, "top(")})
    assert "built-in function" in builtin["contents"]["value"]

    where = client.request("textDocument/definition", {**doc, "position": at(GAME, "worth(c)", 1)})
    assert where["uri"] == uri and where["range"]["start"]["line"] == GAME.split("\n").index(
        "def worth(c: Chip): Int = c.value * 2")
    local = client.request("textDocument/definition", {**doc, "position": at(GAME, "{best}", 0, 1)})
    assert local["range"]["start"]["line"] == at(GAME, "let best")["line"]

    names = {i["label"] for i in client.request("textDocument/completion",
                                                 {**doc, "position": at(GAME, "move top", 0, 0)})["items"]}
    assert {"pile", "hand", "worth", "chips", "p", "top", "shuffle"} <= names and "value" not in names
    fields = {i["label"] for i in client.request("textDocument/completion",
                                                  {**doc, "position": at(GAME, "c.value", 0, 2)})["items"]}
    assert fields == {"value", "owner"}                       # c: Chip, so a Chip's fields

    symbols = client.request("textDocument/documentSymbol", doc)
    assert [s["name"] for s in symbols] == ["pile", "Chip", "chips", "hand", "worth", "play", "score"]
    assert [c["name"] for c in symbols[1]["children"]] == ["value"]

    messy = GAME.replace("rule play:", "rule  play :")
    change(client, uri, messy, 2)
    client.diagnostics(uri)
    edits = client.request("textDocument/formatting", {**doc, "options": {"tabSize": 4, "insertSpaces": True}})
    assert len(edits) == 1 and edits[0]["newText"] == GAME


def test_definition_reaches_the_base_game_and_imports(client, tmp_path):
    text = 'extends blackmore\ngame "Variant"\n\noverride rule contest:\n    let w = first_player\n    change_trump(w, [])\n    end_of_round(w)\n'
    uri = open_doc(client, tmp_path / "variant.rules", text)
    assert client.diagnostics(uri) == []
    where = client.request("textDocument/definition", {"textDocument": {"uri": uri},
                                                       "position": at(text, "change_trump")})
    assert where["uri"].endswith("/blackmore.rules")
    base = Path(where["uri"][len("file://"):]).read_text(encoding="utf-8").split("\n")
    assert base[where["range"]["start"]["line"]].startswith("rule change_trump(")

    module = 'import cards\ngame "Deal"\nplayers 2\ncard C(v: 1..2)\ncards cs = [C(v) for v in 1..2]\nzone d of C\nzone h of C per player\nrule play:\n    move cs to d\n    deal(1, d, player(1).h)\n'
    uri2 = open_doc(client, tmp_path / "deal.rules", module)
    assert client.diagnostics(uri2) == []
    where = client.request("textDocument/definition", {"textDocument": {"uri": uri2}, "position": at(module, "deal(")})
    assert where["uri"].endswith("/cards.rules")


def test_a_warning_reaches_the_editor_as_a_warning(client, tmp_path):
    text = 'game "Hides"\nplayers 2\nvar first: Player\nrule play:\n    say "{first}"\n'
    uri = open_doc(client, tmp_path / "hides.rules", text)
    (d,) = client.diagnostics(uri)
    assert d["severity"] == 2 and d["range"]["start"]["line"] == 2
    assert d["message"].startswith("the variable 'first' hides the built-in function first(…)")


def test_an_unsaved_base_game_is_read_from_the_editor(client, tmp_path):
    base = 'game "Base"\nplayers 2\nrule play:\n    pass\n'
    variant = 'extends "base.rules"\nrule extra:\n    helper()\n'
    base_uri = open_doc(client, tmp_path / "base.rules", base)
    client.diagnostics(base_uri)
    uri = open_doc(client, tmp_path / "variant.rules", variant)
    assert "helper" in client.diagnostics(uri)[0]["message"]
    change(client, base_uri, base + "rule helper:\n    pass\n", 2)      # not saved: only the editor has it
    assert client.diagnostics(base_uri) == []
    assert client.diagnostics(uri) == []                                # the variant is checked again by itself
    client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    assert client.diagnostics(uri) == []


def test_cli_without_the_extra_says_what_to_install(tmp_path):
    code = ("import sys, builtins\nreal = builtins.__import__\n"
            "def fake(name, *a, **k):\n    if name.startswith('pygls') or name.startswith('lsprotocol'):\n"
            "        raise ImportError(name=name)\n    return real(name, *a, **k)\n"
            "builtins.__import__ = fake\nfrom rulecraft.cli.main import main\nsys.exit(main(['lsp']))\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=TIMEOUT)
    assert result.returncode == 1 and "pip install 'rulecraft[lsp]'" in result.stderr


def test_hover_tells_the_type_the_checker_worked_out(tmp_path):
    from rulecraft.lsp import analysis
    text = GAME + "def doubled(c: Chip) = worth(c) * 2\n"
    a = analysis.analyse(tmp_path / "tiny.rules", text)
    assert a.diagnostics == []
    assert analysis.hover_text(analysis.lookup(a, text.count("\n") - 1, 5)).startswith("(def) doubled: Int\n")
    assert analysis.hover_text(a.definitions["hand"]).startswith("(zone) hand: Zone[Chip]")
    assert analysis.hover_text(analysis.lookup(a, *_pos(text, "c.value"))).startswith("(parameter) c")


def test_hover_in_a_match(tmp_path):
    """A case's key is the enum value it names; the match's own words complete as keywords."""
    from rulecraft.lsp import analysis
    text = GAME + "enum Hand: Pair, Three\ndef points(h: Hand, c: Chip): Int = match h:\n    Pair -> worth(c)\n    Three -> 9\n"
    a = analysis.analyse(tmp_path / "tiny.rules", text)
    assert a.diagnostics == []
    assert analysis.hover_text(analysis.lookup(a, *_pos(text, "Three ->"))).startswith("(enum value) Three: Hand")
    assert analysis.hover_text(analysis.lookup(a, *_pos(text, "c)\n"))).startswith("(parameter) c")
    assert analysis.hover_text(analysis.lookup(a, *_pos(text, "points"))).startswith("(def) points: Int")
    assert "match" in {d.name for d in analysis.completions(a, *_pos(text, "Pair ->"))}


def test_attribute_completion_follows_the_declared_type(tmp_path):
    from rulecraft.lsp import analysis
    text = GAME.replace("cards chips =", "card Token(colour: Int)\nvar lead: Player\ncards chips =")
    text += "def f(c: Chip, q: Player, t: Token): Int = c.value + size(q.hand) + t.colour + size(lead.hand)\n"
    a = analysis.analyse(tmp_path / "tiny.rules", text)
    assert a.diagnostics == []

    def names(needle, offset):
        return {d.name for d in analysis.completions(a, *_pos(text, needle)[:1], _pos(text, needle)[1] + offset)}
    assert names("c.value", 2) == {"value", "owner"}
    assert names("q.hand", 2) == {"hand"}
    assert names("t.colour", 2) == {"colour", "owner"}
    assert names("lead.hand", 5) == {"hand"}                     # a var's declared type
    assert names("p.hand", 2) >= {"hand", "value", "colour"}      # a loop variable: its type is not written


def _pos(text: str, needle: str) -> tuple[int, int]:
    p = at(text, needle)
    return p["line"], p["character"]


# ------------------------------------------------------------------ broken texts never break the server
import tempfile  # noqa: E402

from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from test_mutations import mutated  # noqa: E402

FOLDER = Path(tempfile.mkdtemp(prefix="rulecraft-lsp-"))


@given(mutated(), st.integers(0, 10**6))
def test_every_answer_survives_broken_texts(item, where):
    from rulecraft.lsp import analysis, server
    name, data = item
    text = data.decode("utf-8", "replace")
    a = analysis.analyse(FOLDER / name, text)
    uri = (FOLDER / name).as_uri()
    for d in a.diagnostics:
        converted = server._to_lsp(d, a, uri)
        assert converted.range.start.line >= 0 and converted.message
    lines = text.split("\n")
    line = where % len(lines)
    col = where % (len(lines[line]) + 1)
    found = analysis.lookup(a, line, col)
    if found is not None:
        assert analysis.hover_text(found)
    assert analysis.completions(a, line, col)
    analysis.symbols(a.module)


def test_the_names_of_a_choice_of_several_shapes_are_known_locally(tmp_path):
    """Completion and hover read the local names: an alternative's, and both names of a pair."""
    from rulecraft.lsp.analysis import analyse, enclosing_decl, local_bindings
    path = tmp_path / "mixed.rules"
    text = ('game "Mixed"\nplayers 2\nenum Colour: Red, Blue\nrule play:\n    player(1) chooses one of:\n'
            '        k in 1..3 as "take {k}":\n            pass\n'
            '        q in players, c in Colour as "tell {q} {c}":\n            pass\n')
    path.write_text(text, encoding="utf-8")
    module = analyse(path, text).module
    decl = enclosing_decl(module, 8, 12)
    assert {b.name for b in local_bindings(decl, 8)} >= {"k", "q", "c"}
