"""`katari lsp` (#15), driven over stdio with real LSP messages (Content-Length framed
JSON-RPC): diagnostics of the editor's unsaved text in a story spread over two files, at the
right range; go-to-definition and find-references across the files; completion of ids, hook
names and skill names; hover for hooks; shutdown and exit."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("pygls", reason="katari lsp needs pygls (pip install 'katari[lsp]')")

ROOT = Path(__file__).resolve().parent.parent

MAIN = textwrap.dedent("""\
    story: {id: harbour, title: Harbour, rules: coc7, start: quay, language: en, options: {pregen: 1}}
    variables: {coins: 3}
    nodes:
      quay:
        narration: Gulls over the quay.
        actions:
          - {id: down, label: Go down, when: "coins > 2", goto: cellar}
          - {id: look, label: Look, check: "coc7.check('Spot Hidden')", outcomes: {success: {add: {coins: 1}}, failure: {say: nothing}}}
    """)
MORE = textwrap.dedent("""\
    nodes:
      cellar:
        narration: Barrels.
        actions:
          - {id: up, label: Climb up, when: "coins >= 0", goto: quay}
          - {id: out, label: Leave, end: gone}
    endings: {gone: {kind: normal, title: Gone}}
    """)


class Client:
    def __init__(self) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith("KATARI_")}
        self.p = subprocess.Popen(
            [sys.executable, "-m", "runner", "lsp"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=ROOT,
            env=env,
        )
        self.msgs: queue.Queue = queue.Queue()
        self.n = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        out = self.p.stdout
        assert out is not None
        while True:
            headers = {}
            while True:
                line = out.readline()
                if not line:
                    return
                line = line.decode("ascii").strip()
                if not line:
                    break
                k, _, v = line.partition(":")
                headers[k.strip().lower()] = v.strip()
            body = out.read(int(headers["content-length"]))
            self.msgs.put(json.loads(body))

    def send(self, msg: dict) -> None:
        data = json.dumps({"jsonrpc": "2.0", **msg}).encode()
        assert self.p.stdin is not None
        self.p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(data) + data)
        self.p.stdin.flush()

    def notify(self, method: str, params: dict) -> None:
        self.send({"method": method, "params": params})

    def request(self, method: str, params: dict | None, timeout: float = 60) -> dict:
        self.n += 1
        self.send({"id": self.n, "method": method, "params": params})
        return self.wait(lambda m: m.get("id") == self.n and "method" not in m, timeout)

    def wait(self, pred, timeout: float = 60) -> dict:  # noqa: ANN001
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                m = self.msgs.get(timeout=0.2)
            except queue.Empty:
                continue
            if pred(m):
                return m
        raise AssertionError("no such message")

    def diagnostics(self, uri: str, timeout: float = 60) -> list[dict]:
        m = self.wait(
            lambda m: (
                m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri
            ),
            timeout,
        )
        return m["params"]["diagnostics"]


def _pos(text: str, needle: str, nth: int = 0) -> dict:
    i = -1
    for _ in range(nth + 1):
        i = text.index(needle, i + 1)
    line = text.count("\n", 0, i)
    return {"line": line, "character": i - (text.rfind("\n", 0, i) + 1)}


def test_the_language_server_over_stdio(tmp_path: Path) -> None:
    d = tmp_path / "harbour"
    d.mkdir()
    (d / "story.yaml").write_text(MAIN, encoding="utf-8")
    (d / "more.yaml").write_text(MORE, encoding="utf-8")  # clean on disk
    main_uri, more_uri = (d / "story.yaml").as_uri(), (d / "more.yaml").as_uri()
    c = Client()
    try:
        init = c.request(
            "initialize",
            {"processId": os.getpid(), "rootUri": tmp_path.as_uri(), "capabilities": {}},
        )
        caps = init["result"]["capabilities"]
        assert caps["definitionProvider"] and caps["referencesProvider"] and caps["hoverProvider"]
        assert caps["completionProvider"]
        c.notify("initialized", {})

        # 1. The editor's text, not the disk's: a typo in the second file, unsaved.
        typo = MORE.replace("goto: quay", "goto: qauy")
        c.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": more_uri, "languageId": "yaml", "version": 1, "text": typo}},
        )
        diags = c.diagnostics(more_uri)
        (dg,) = diags
        start = _pos(typo, "qauy")
        assert dg["range"] == {
            "start": start,
            "end": {"line": start["line"], "character": start["character"] + 4},
        }
        assert (
            dg["code"] == "K031" and dg["severity"] == 1 and "did you mean 'quay'" in dg["message"]
        )
        assert dg["source"] == "katari"

        # 2. Fixed as you type: the diagnostics clear.
        c.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": more_uri, "version": 2}, "contentChanges": [{"text": MORE}]},
        )
        assert c.diagnostics(more_uri) == []

        c.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": main_uri, "languageId": "yaml", "version": 1, "text": MAIN}},
        )
        # 3. Go to definition: `goto: cellar` in story.yaml -> the node in more.yaml.
        r = c.request(
            "textDocument/definition",
            {"textDocument": {"uri": main_uri}, "position": _pos(MAIN, "cellar")},
        )
        (loc,) = r["result"]
        assert loc["uri"] == more_uri and loc["range"]["start"] == _pos(MORE, "cellar")

        # 4. Find references: the variable `coins`, in both files, with its declaration.
        r = c.request(
            "textDocument/references",
            {
                "textDocument": {"uri": main_uri},
                "position": _pos(MAIN, "coins"),
                "context": {"includeDeclaration": True},
            },
        )
        got = {(x["uri"], x["range"]["start"]["line"]) for x in r["result"]}
        assert got == {(main_uri, 1), (main_uri, 6), (main_uri, 7), (more_uri, 4)}, got

        # 5. Completion: node ids after goto, hook names in an expression, skills in a check.
        edited = MAIN + "  extra:\n    actions: [{id: x, label: X, goto: c}]\n"
        c.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": main_uri, "version": 2}, "contentChanges": [{"text": edited}]},
        )
        line = len(edited.splitlines()) - 1
        col = edited.splitlines()[line].index("goto: c") + len("goto: c")
        r = c.request(
            "textDocument/completion",
            {"textDocument": {"uri": main_uri}, "position": {"line": line, "character": col}},
        )
        labels = {i["label"] for i in r["result"]["items"]}
        assert {"cellar", "quay", "gone", "extra"} <= labels and "coins" not in labels
        pos = _pos(MAIN, "coc7.check(")
        r = c.request(
            "textDocument/completion",
            {
                "textDocument": {"uri": main_uri},
                "position": {"line": pos["line"], "character": pos["character"] + 5},
            },
        )
        labels = {i["label"] for i in r["result"]["items"]}
        assert {"coc7.check", "coc7.san", "has", "coins"} <= labels
        pos = _pos(MAIN, "Spot Hidden")
        r = c.request(
            "textDocument/completion",
            {
                "textDocument": {"uri": main_uri},
                "position": {"line": pos["line"], "character": pos["character"] + 4},
            },
        )
        labels = {i["label"] for i in r["result"]["items"]}
        assert {"Spot Hidden", "目星", "Library Use"} <= labels

        # 6. Hover on a hook: its arguments and its docs.
        pos = _pos(MAIN, "check(")
        r = c.request("textDocument/hover", {"textDocument": {"uri": main_uri}, "position": pos})
        value = r["result"]["contents"]["value"]
        assert "coc7.check(" in value and "skill" in value
        # the argument domains the rule system declares, as `katari rules coc7` shows them
        assert "difficulty: difficulty" in value, value

        # 7. Shutdown and exit.
        r = c.request("shutdown", None)
        assert r.get("result") is None and "error" not in r
        c.notify("exit", None)
        assert c.p.wait(timeout=30) == 0
    finally:
        if c.p.poll() is None:
            c.p.kill()
            c.p.wait()


def test_completion_contexts(tmp_path: Path) -> None:
    """Which ids each place takes: `end:` only endings, `give:` items, an expression variables
    and hooks."""
    from runner.lsp.index import build, completions

    texts = {str(tmp_path / "story.yaml"): MAIN, str(tmp_path / "more.yaml"): MORE}
    idx = build(tmp_path, texts)
    assert [c[0] for c in completions(idx, "    - {id: x, label: X, end: g", 31)] == ["gone"]
    assert {c[0] for c in completions(idx, "    goto: ", 10)} == {"quay", "cellar", "gone"}
    assert {c[1] for c in completions(idx, '    when: "co', 13)} == {"variable", "hook"}
    assert completions(idx, "    give: ", 10) == []  # the story has no items
