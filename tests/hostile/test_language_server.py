"""Issue 27, case 11: the language server given hostile input answers, or says why it stops (exit 1)."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from limited import _limit

pytest.importorskip("pygls")


def _frame(message: dict) -> bytes:
    body = json.dumps(message).encode()
    return f"Content-Length: {len(body)}\r\n\r\n".encode() + body


def _session(tmp_path, *messages: dict, raw: bytes = b"", wall: float = 60):
    """Send initialize, the messages (and raw bytes), shutdown and exit; return (status, answers, stderr)."""
    start = [{"jsonrpc": "2.0", "id": 0, "method": "initialize",
              "params": {"processId": None, "rootUri": tmp_path.as_uri(), "capabilities": {}}},
             {"jsonrpc": "2.0", "method": "initialized", "params": {}}]
    end = [{"jsonrpc": "2.0", "id": 999, "method": "shutdown", "params": None},
           {"jsonrpc": "2.0", "method": "exit", "params": None}]
    data = b"".join(map(_frame, start + list(messages))) + raw + b"".join(map(_frame, end))
    done = subprocess.run([sys.executable, "-m", "rulecraft", "lsp"], cwd=tmp_path, input=data, capture_output=True,
                          preexec_fn=_limit, timeout=wall)
    answers, out = [], done.stdout
    while out:
        head, _, rest = out.partition(b"\r\n\r\n")
        length = int(head.split(b"\r\n")[0].split(b":")[1])
        answers.append(json.loads(rest[:length]))
        out = rest[length:]
    return done.returncode, answers, done.stderr.decode(errors="replace")


def test_a_message_of_a_hundred_gigabytes_is_refused(tmp_path):
    code, _answers, err = _session(tmp_path, raw=b"Content-Length: 99999999999\r\n\r\n{}")
    assert code == 1 and "larger than 16 MB" in err and "MemoryError" not in err, err


def test_hover_on_a_device_is_not_read(tmp_path):
    code, answers, err = _session(tmp_path, {"jsonrpc": "2.0", "id": 1, "method": "textDocument/hover",
                                             "params": {"textDocument": {"uri": "file:///dev/zero"},
                                                        "position": {"line": 0, "character": 0}}})
    assert code == 0, err
    assert [a.get("result", "missing") for a in answers if a.get("id") == 1] == [None]


def test_deep_brackets_get_an_answer(tmp_path):
    text = 'game "Deep"\nplayers 2\nrule play:\n    say "{' + "(" * 50_000 + "1" + ")" * 50_000 + '}"\n'
    uri = (tmp_path / "deep.rules").as_uri()
    code, answers, err = _session(tmp_path, {"jsonrpc": "2.0", "method": "textDocument/didOpen",
                                             "params": {"textDocument": {"uri": uri, "languageId": "rulecraft",
                                                                         "version": 1, "text": text}}})
    published = [a["params"]["diagnostics"] for a in answers if a.get("method") == "textDocument/publishDiagnostics"]
    assert code == 0 and published, err
    assert "nested more than 100 deep" in published[0][0]["message"]
