"""``katari lsp``: a language server for story files, over stdio (pygls 2).

It serves ``katari check``'s diagnostics as you type (the editor's unsaved text, a story
spread over a folder of files included), go-to-definition and find-references for node,
ending, item, variable and character ids, completion of ids, hook names and skill names,
and hover for hooks. See docs/editor.md for the editor set-up.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from lsprotocol import types as T
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from runner import __version__
from runner.lsp import index as X

DEBOUNCE = 0.25
"""Seconds of quiet typing before a changed story is checked again."""

_KIND = {
    "node": T.CompletionItemKind.Module,
    "item": T.CompletionItemKind.Field,
    "variable": T.CompletionItemKind.Variable,
    "character": T.CompletionItemKind.Class,
    "hook": T.CompletionItemKind.Function,
    "skill": T.CompletionItemKind.Keyword,
}


def utf16(text: str, col: int) -> int:
    """Characters -> UTF-16 code units (what LSP positions count)."""
    return col + sum(1 for c in text[:col] if ord(c) > 0xFFFF)


def from_utf16(text: str, units: int) -> int:
    """UTF-16 code units -> characters."""
    n = 0
    for i, c in enumerate(text):
        if n >= units:
            return i
        n += 2 if ord(c) > 0xFFFF else 1
    return len(text)


class KatariServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("katari", __version__, text_document_sync_kind=T.TextDocumentSyncKind.Full)
        self.indexes: dict[str, X.Index] = {}
        """The index of each story root seen."""
        self.published: dict[str, set[str]] = {}
        """The files of each root that were last given diagnostics (to clear them)."""
        self._pending: dict[str, asyncio.TimerHandle] = {}

    # -- the editor's texts ------------------------------------------------------
    def overlays(self) -> dict[str, str]:
        out = {}
        for uri, doc in self.workspace.text_documents.items():
            path = to_fs_path(uri)
            if path:
                out[str(Path(path))] = doc.source
        return out

    def root_of(self, path: str) -> Path:
        return X.story_root(path, self.overlays())

    def refresh(self, path: str) -> X.Index:
        """Re-reads the story ``path`` belongs to and publishes its diagnostics."""
        root = self.root_of(path)
        texts = X.story_texts(root, self.overlays())
        if path not in texts:
            texts[path] = self.overlays().get(path, "")
        idx = X.build(root, texts)
        self.indexes[str(root)] = idx
        try:
            by_file = X.diagnose(root, texts)
        except Exception as e:  # noqa: BLE001 - the server must outlive any story
            self.window_log_message(
                T.LogMessageParams(T.MessageType.Error, f"katari check failed: {e}")
            )
            return idx
        before = self.published.get(str(root), set())
        now = {p for p, ds in by_file.items() if ds}
        for p in sorted(set(by_file) | before):
            diags = [self.lsp_diagnostic(d, texts.get(p)) for d in by_file.get(p, [])]
            self.text_document_publish_diagnostics(
                T.PublishDiagnosticsParams(uri=from_fs_path(p) or p, diagnostics=diags)
            )
        self.published[str(root)] = now
        return idx

    def schedule(self, path: str) -> None:
        loop = asyncio.get_event_loop()
        old = self._pending.pop(path, None)
        if old is not None:
            old.cancel()
        self._pending[path] = loop.call_later(DEBOUNCE, self._run_pending, path)

    def _run_pending(self, path: str) -> None:
        self._pending.pop(path, None)
        self.refresh(path)

    def index_for(self, path: str) -> X.Index:
        """The index of the story as the editor has it now (rebuilt, without the check, when a
        change has not been checked yet)."""
        overlays = self.overlays()
        root = self.root_of(path)
        idx = self.indexes.get(str(root))
        if idx is None or path not in idx.files:
            return self.refresh(path)
        if any(idx.files.get(p) != text for p, text in overlays.items() if p in idx.files):
            idx = X.build(root, X.story_texts(root, overlays))
            self.indexes[str(root)] = idx
        return idx

    @staticmethod
    def lsp_diagnostic(d: Any, text: str | None) -> T.Diagnostic:
        from runner.authoring.diagjson import span

        lines = text.splitlines() if text is not None else None
        end_line, end_col = span(lines, d.line, d.col)
        line0, col0 = max(0, d.line - 1), max(0, d.col - 1)
        eline0, ecol0 = max(0, end_line - 1), max(0, end_col - 1)
        if lines is not None:
            if line0 < len(lines):
                col0 = utf16(lines[line0], col0)
            if eline0 < len(lines):
                ecol0 = utf16(lines[eline0], ecol0)
        sev = (
            T.DiagnosticSeverity.Warning if d.severity == "warning" else T.DiagnosticSeverity.Error
        )
        return T.Diagnostic(
            range=T.Range(T.Position(line0, col0), T.Position(eline0, ecol0)),
            message=d.message,
            severity=sev,
            code=d.code,
            source="katari",
        )

    def location(self, loc: X.Loc) -> T.Location:
        idx_text = None
        for idx in self.indexes.values():
            idx_text = idx.files.get(loc.path, idx_text)
        line = (
            (idx_text or "").splitlines()[loc.line]
            if idx_text and loc.line < len(idx_text.splitlines())
            else ""
        )
        return T.Location(
            uri=from_fs_path(loc.path) or loc.path,
            range=T.Range(
                T.Position(loc.line, utf16(line, loc.col)),
                T.Position(loc.line, utf16(line, loc.end)),
            ),
        )

    def cursor(self, uri: str, pos: T.Position) -> tuple[str, X.Index, str, int]:
        """(path, index, the line's text, the column in characters) of a request."""
        path = str(Path(to_fs_path(uri) or uri))
        idx = self.index_for(path)
        lines = idx.files.get(path, "").splitlines()
        text = lines[pos.line] if pos.line < len(lines) else ""
        return path, idx, text, from_utf16(text, pos.character)


server = KatariServer()


@server.feature(T.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: KatariServer, params: T.DidOpenTextDocumentParams) -> None:
    ls.refresh(str(Path(to_fs_path(params.text_document.uri) or params.text_document.uri)))


@server.feature(T.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: KatariServer, params: T.DidChangeTextDocumentParams) -> None:
    ls.schedule(str(Path(to_fs_path(params.text_document.uri) or params.text_document.uri)))


@server.feature(T.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: KatariServer, params: T.DidSaveTextDocumentParams) -> None:
    ls.refresh(str(Path(to_fs_path(params.text_document.uri) or params.text_document.uri)))


@server.feature(T.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: KatariServer, params: T.DidCloseTextDocumentParams) -> None:
    ls.refresh(str(Path(to_fs_path(params.text_document.uri) or params.text_document.uri)))


@server.feature(T.TEXT_DOCUMENT_DEFINITION)
def definition(ls: KatariServer, params: T.DefinitionParams) -> list[T.Location] | None:
    path, idx, _text, col = ls.cursor(params.text_document.uri, params.position)
    key = idx.at(path, params.position.line, col)
    if key is None:
        return None
    return [ls.location(loc) for loc in idx.defs.get(key, [])] or None


@server.feature(T.TEXT_DOCUMENT_REFERENCES)
def references(ls: KatariServer, params: T.ReferenceParams) -> list[T.Location] | None:
    path, idx, _text, col = ls.cursor(params.text_document.uri, params.position)
    key = idx.at(path, params.position.line, col)
    if key is None:
        return None
    locs = list(idx.refs.get(key, []))
    if params.context.include_declaration:
        locs = idx.defs.get(key, []) + locs
    return [ls.location(loc) for loc in locs]


@server.feature(
    T.TEXT_DOCUMENT_COMPLETION, T.CompletionOptions(trigger_characters=[".", "'", '"', " ", ":"])
)
def completion(ls: KatariServer, params: T.CompletionParams) -> T.CompletionList:
    _path, idx, text, col = ls.cursor(params.text_document.uri, params.position)
    items = []
    seen = set()
    for label, kind, detail in X.completions(idx, text, col):
        if (label, kind) in seen:
            continue
        seen.add((label, kind))
        doc = None
        if kind == "hook":
            h = X.hooks(idx.rules).get(label)
            doc = (
                T.MarkupContent(T.MarkupKind.Markdown, X.hook_doc(label, h))
                if h is not None
                else None
            )
        items.append(
            T.CompletionItem(
                label=label,
                kind=_KIND.get(kind),
                detail=f"{kind}: {detail}" if detail else kind,
                documentation=doc,
            )
        )
    return T.CompletionList(is_incomplete=False, items=items)


@server.feature(T.TEXT_DOCUMENT_HOVER)
def hover(ls: KatariServer, params: T.HoverParams) -> T.Hover | None:
    path, idx, text, col = ls.cursor(params.text_document.uri, params.position)
    name = X.hook_name_at(text, col)
    table = X.hooks(idx.rules)
    if name is not None and name in table:
        return T.Hover(
            contents=T.MarkupContent(T.MarkupKind.Markdown, X.hook_doc(name, table[name]))
        )
    key = idx.at(path, params.position.line, col)
    if key is not None:
        kind, ident = key
        title = idx.titles.get(key, "")
        uses = len(idx.refs.get(key, []))
        return T.Hover(
            contents=T.MarkupContent(
                T.MarkupKind.Markdown,
                f"**{kind}** `{ident}`" + (f" — {title}" if title else "") + f"\n\n{uses} use(s)",
            )
        )
    return None


def main() -> int:
    server.start_io()
    return 0
