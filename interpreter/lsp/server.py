"""The Language Server Protocol side: pygls features that turn analysis.py's answers into LSP types.

Diagnostics are published when a document is opened, changed or saved; the other
open documents stand in for their files, so a game that extends an unsaved base
game is checked against the base as it is in the editor.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path
from urllib.parse import unquote

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from ..diagnostics import Diagnostic, RulesError, Span
from ..format import format_text
from . import analysis

SYMBOL_KINDS = {"rule": lsp.SymbolKind.Function, "def": lsp.SymbolKind.Function, "zone": lsp.SymbolKind.Array,
                "var": lsp.SymbolKind.Variable, "card": lsp.SymbolKind.Struct, "cards": lsp.SymbolKind.Array,
                "enum": lsp.SymbolKind.Enum, "enum value": lsp.SymbolKind.EnumMember,
                "field": lsp.SymbolKind.Field, "option": lsp.SymbolKind.Constant,
                "scenario": lsp.SymbolKind.Module, "event": lsp.SymbolKind.Event,
                "invariant": lsp.SymbolKind.Boolean, "score": lsp.SymbolKind.Property,
                "anytime": lsp.SymbolKind.Method}
COMPLETION_KINDS = {"rule": lsp.CompletionItemKind.Function, "def": lsp.CompletionItemKind.Function,
                    "built-in function": lsp.CompletionItemKind.Function, "zone": lsp.CompletionItemKind.Variable,
                    "var": lsp.CompletionItemKind.Variable, "card": lsp.CompletionItemKind.Struct,
                    "cards": lsp.CompletionItemKind.Variable, "enum": lsp.CompletionItemKind.Enum,
                    "enum value": lsp.CompletionItemKind.EnumMember, "field": lsp.CompletionItemKind.Field,
                    "option": lsp.CompletionItemKind.Constant, "keyword": lsp.CompletionItemKind.Keyword,
                    "event": lsp.CompletionItemKind.Event}

server = LanguageServer("rulecraft", "0.1.0", text_document_sync_kind=lsp.TextDocumentSyncKind.Full)


def _range(span: Span, text: str | None = None) -> lsp.Range:
    line, col = max(span.line - 1, 0), max(span.col - 1, 0)
    if span.end_line and (span.end_line, span.end_col) > (span.line, span.col):
        end = lsp.Position(line=span.end_line - 1, character=max(span.end_col - 1, 0))
    else:                                   # a point: cover the word there, or one character
        found = analysis.word_at(text, line, col) if text is not None else None
        end = lsp.Position(line=line, character=found[2] if found and found[1] == col else col + 1)
    return lsp.Range(start=lsp.Position(line=line, character=col), end=end)


def _location(span: Span, a: analysis.Analysis) -> lsp.Location | None:
    path = a.path if span.file == _shown(a) else analysis.path_of(span.file)
    if path is None:
        return None
    return lsp.Location(uri=from_fs_path(str(path)), range=_range(span, a.sources.get(span.file)))


def _shown(a: analysis.Analysis) -> str:
    from ..check.modules import display_path
    return display_path(a.path)


def _to_lsp(d: Diagnostic, a: analysis.Analysis, uri: str) -> lsp.Diagnostic:
    related = []
    if d.hint:
        related.append(lsp.DiagnosticRelatedInformation(location=lsp.Location(uri=uri, range=_range(d.span, a.text)),
                                                       message=d.hint))
    for span, message in d.related:
        where = _location(span, a)
        if where is not None:
            related.append(lsp.DiagnosticRelatedInformation(location=where, message=message))
    severity = {"error": lsp.DiagnosticSeverity.Error, "warning": lsp.DiagnosticSeverity.Warning}.get(
        d.severity, lsp.DiagnosticSeverity.Information)
    message = d.message + (f"\n{d.hint}" if d.hint else "")
    return lsp.Diagnostic(range=_range(d.span, a.text), message=message, severity=severity, source="rulecraft",
                          related_information=related or None)


_CACHE: dict = {}     # uri -> (the texts it was analysed with, the analysis): a hover after a change reuses it


class _Document:
    """The text of a document the editor asks about: its buffer when it is open, else the file it names if
    that is a regular rule file within the size limit (pygls would read any path, /dev/zero too), else ""."""

    def __init__(self, ls: LanguageServer, uri: str):
        doc = ls.workspace.text_documents.get(unquote(uri))
        self.path = to_fs_path(uri) if doc is None else doc.path
        if doc is not None:
            self.source = doc.source
            return
        from ..check.places import MAX_RULES_BYTES, read_rules
        try:
            data = read_rules(self.path) if self.path else b""
            self.source = data.decode("utf-8") if len(data) <= MAX_RULES_BYTES else ""
        except (OSError, ValueError):
            self.source = ""


def _analyse(ls: LanguageServer, uri: str) -> analysis.Analysis:
    doc = _Document(ls, uri)
    overlays = {}
    for other in ls.workspace.text_documents.values():
        if other.uri != uri and other.path:
            overlays[Path(to_fs_path(other.uri)).resolve()] = other.source
    key = (doc.source, tuple(sorted((str(k), v) for k, v in overlays.items())))
    cached = _CACHE.get(uri)
    if cached is not None and cached[0] == key:
        return cached[1]
    result = analysis.analyse(Path(to_fs_path(uri)), doc.source, overlays)
    _CACHE[uri] = (key, result)
    return result


def _publish(ls: LanguageServer, uri: str) -> None:
    a = _analyse(ls, uri)
    ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(
        uri=uri, diagnostics=[_to_lsp(d, a, uri) for d in a.diagnostics]))


@server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: LanguageServer, params: lsp.DidOpenTextDocumentParams):
    _publish(ls, params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: LanguageServer, params: lsp.DidChangeTextDocumentParams):
    _publish_with_dependents(ls, params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: LanguageServer, params: lsp.DidSaveTextDocumentParams):
    _publish_with_dependents(ls, params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: LanguageServer, params: lsp.DidCloseTextDocumentParams):
    _CACHE.pop(params.text_document.uri, None)
    ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[]))


def _publish_with_dependents(ls: LanguageServer, uri: str) -> None:
    """This document, then every other open one whose game reads it (a variant of it, a game importing it)."""
    _publish(ls, uri)
    changed = Path(to_fs_path(uri)).resolve()
    for other in list(ls.workspace.text_documents):
        if other == uri:
            continue
        cached = _CACHE.get(other)
        if cached is None or _reads(cached[1], changed):
            _publish(ls, other)


def _reads(a: analysis.Analysis, path: Path) -> bool:
    return any(analysis.path_of(shown) == path for shown in a.sources)


@server.feature(lsp.TEXT_DOCUMENT_HOVER)
def hover(ls: LanguageServer, params: lsp.HoverParams):
    a = _analyse(ls, params.text_document.uri)
    found = analysis.lookup(a, params.position.line, params.position.character)
    if found is None:
        return None
    return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=analysis.hover_text(found)))


@server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
def definition(ls: LanguageServer, params: lsp.DefinitionParams):
    a = _analyse(ls, params.text_document.uri)
    found = analysis.lookup(a, params.position.line, params.position.character)
    if found is None or not found.span.file:
        return None
    return _location(found.span, a)


@server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=["."]))
def completion(ls: LanguageServer, params: lsp.CompletionParams):
    a = _analyse(ls, params.text_document.uri)
    items = [lsp.CompletionItem(label=d.name, kind=COMPLETION_KINDS.get(d.kind), detail=d.detail or d.kind,
                                documentation=d.doc or None)
             for d in analysis.completions(a, params.position.line, params.position.character)]
    return lsp.CompletionList(is_incomplete=False, items=items)


@server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
def document_symbols(ls: LanguageServer, params: lsp.DocumentSymbolParams):
    doc = _Document(ls, params.text_document.uri)
    try:
        from ..syntax.parser import parse_module
        module = parse_module(doc.source, "document.rules")
    except RulesError:
        return []

    def convert(name, kind, span, children):
        r = _range(span, doc.source)
        return lsp.DocumentSymbol(name=name, kind=SYMBOL_KINDS.get(kind, lsp.SymbolKind.Object), range=r,
                                  selection_range=r, detail=kind,
                                  children=[convert(*c) for c in children] or None)
    return [convert(*s) for s in analysis.symbols(module)]


@server.feature(lsp.TEXT_DOCUMENT_FORMATTING)
def formatting(ls: LanguageServer, params: lsp.DocumentFormattingParams):
    doc = _Document(ls, params.text_document.uri)
    try:
        result = format_text(doc.source, doc.path or "document.rules")
    except RulesError:
        return None                       # a file that does not parse is left alone; its diagnostics say why
    if result == doc.source:
        return []
    lines = doc.source.split("\n")
    end = lsp.Position(line=len(lines) - 1, character=len(lines[-1]))
    return [lsp.TextEdit(range=lsp.Range(start=lsp.Position(line=0, character=0), end=end), new_text=result)]


MAX_MESSAGE = 16 * 1024 * 1024     # bytes of one JSON-RPC message (a document is at most 512 KB)


class _LimitedInput:
    """The client's stream as pygls reads it (a header line, then a body of Content-Length bytes), with
    a message too large to be one refused before any of it is read: the server says so and exits 1."""

    def __init__(self, stream):
        self.stream = stream

    def readline(self) -> bytes:
        line = self.stream.readline(1024)
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length" and (not value.strip().isdigit() or len(value.strip()) > 9
                                                           or int(value) > MAX_MESSAGE):
            self.refuse(f"a message of {value.strip()[:20].decode(errors='replace')} bytes is larger than "
                        f"{MAX_MESSAGE // (1024 * 1024)} MB, more than an editor sends")
        return line

    def read(self, n: int) -> bytes:
        if n > MAX_MESSAGE:
            self.refuse(f"a message of {n} bytes is larger than {MAX_MESSAGE // (1024 * 1024)} MB")
        return self.stream.read(n)

    @staticmethod
    def refuse(sentence: str):
        sys.__stderr__.write(f"rulecraft lsp: error: {sentence}\n")
        sys.__stderr__.flush()
        os._exit(1)        # (from pygls's reading thread: nothing else may run on)


def main() -> int:
    # the real standard streams: the CLI wraps sys.stdout in a sanitizer for people, not for JSON-RPC
    server.start_io(_LimitedInput(sys.__stdin__.buffer), sys.__stdout__.buffer)
    return 0
