"""Installing speech models, against a file server on 127.0.0.1 (there is no other network):
progress shown, checksum checked, cut or corrupt downloads refused and nothing left behind."""

from __future__ import annotations

import hashlib
import http.server
import io
import threading
import zipfile
from pathlib import Path

import pytest

from runner.cli import main
from runner.ui.listener.models import (
    OFFICIAL,
    InstallError,
    find_model,
    install,
    installed_models,
    lang_of,
    layout_problems,
    takes_grammar,
)

MODEL_FILES = {
    "am/final.mdl": b"m" * 5000,
    "conf/model.conf": b"--beam=10.0\n",
    "conf/mfcc.conf": b"--sample-frequency=16000\n",
    "graph/HCLr.fst": b"h" * 3000,
    "graph/Gr.fst": b"g" * 3000,
    "graph/phones/word_boundary.int": b"1 nonword\n",
    "ivector/final.ie": b"i" * 1000,
}


def make_zip(top: str = "vosk-model-small-xx-0.1", files: dict | None = None) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in (MODEL_FILES if files is None else files).items():
            zf.writestr(f"{top}/{name}" if top else name, data)
    return buf.getvalue()


class Server:
    """Serves ``routes[path] = (body, headers)``; a route may lie about its length."""

    def __init__(self) -> None:
        self.routes: dict[str, tuple[bytes, dict[str, str]]] = {}
        routes = self.routes

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802
                body, headers = routes.get(self.path, (None, {}))
                if body is None:
                    self.send_error(404)
                    return
                self.send_response(200)
                self.send_header("Content-Length", headers.get("Content-Length", str(len(body))))
                self.end_headers()
                self.wfile.write(body)
                self.wfile.flush()
                self.close_connection = True

            def log_message(self, *a: object) -> None:
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(
            target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self.thread.start()

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.httpd.server_port}{path}"

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def server():
    s = Server()
    yield s
    s.close()


def leftovers(root: Path) -> list[str]:
    return sorted(p.name for p in root.iterdir()) if root.exists() else []


def test_install_verifies_and_unpacks_in_place(server, tmp_path):
    data = make_zip()
    server.routes["/m.zip"] = (data, {})
    seen: list[tuple[int, int | None]] = []
    path = install(
        url=server.url("/m.zip"),
        sha256=hashlib.sha256(data).hexdigest(),
        dest=tmp_path,
        progress=lambda d, t: seen.append((d, t)),
    )
    assert path == tmp_path / "vosk-model-small-xx-0.1"
    assert (path / "am" / "final.mdl").read_bytes() == MODEL_FILES["am/final.mdl"]
    assert layout_problems(path) == [] and takes_grammar(path)
    assert seen and seen[-1] == (len(data), len(data))
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)
    assert leftovers(tmp_path) == ["vosk-model-small-xx-0.1"]  # no temp files


def test_checksum_mismatch_is_refused_and_cleaned(server, tmp_path):
    server.routes["/m.zip"] = (make_zip(), {})
    with pytest.raises(InstallError, match="sha256"):
        install(url=server.url("/m.zip"), sha256="0" * 64, dest=tmp_path)
    assert leftovers(tmp_path) == []


def test_cut_download_is_refused_and_cleaned(server, tmp_path):
    data = make_zip()
    server.routes["/cut.zip"] = (data[: len(data) // 2], {"Content-Length": str(len(data))})
    with pytest.raises(InstallError):
        install(url=server.url("/cut.zip"), dest=tmp_path)
    assert leftovers(tmp_path) == []
    # Known size but no length header mismatch: the size check catches it.
    server.routes["/short.zip"] = (data[:-10], {})
    with pytest.raises(InstallError, match="bytes"):
        install(url=server.url("/short.zip"), size=len(data), dest=tmp_path)
    assert leftovers(tmp_path) == []


def test_corrupt_archive_is_refused_and_cleaned(server, tmp_path):
    data = bytearray(make_zip(files={**MODEL_FILES, "am/final.mdl": bytes(range(256)) * 40}))
    i = data.find(b"final.mdl") + 200  # inside the first member's compressed data
    data[i : i + 50] = b"\xff" * 50
    server.routes["/bad.zip"] = (bytes(data), {})
    with pytest.raises(InstallError, match="corrupt"):
        install(url=server.url("/bad.zip"), dest=tmp_path)
    assert leftovers(tmp_path) == []
    server.routes["/html.zip"] = (b"<html>not found</html>", {})
    with pytest.raises(InstallError, match="zip"):
        install(url=server.url("/html.zip"), dest=tmp_path)
    assert leftovers(tmp_path) == []


def test_archive_without_a_model_is_refused(server, tmp_path):
    server.routes["/empty.zip"] = (make_zip(files={"README": b"hello"}), {})
    with pytest.raises(InstallError, match="not a vosk model"):
        install(url=server.url("/empty.zip"), dest=tmp_path)
    server.routes["/evil.zip"] = (make_zip(top="../evil"), {})
    with pytest.raises(InstallError, match="unsafe"):
        install(url=server.url("/evil.zip"), dest=tmp_path)
    assert leftovers(tmp_path) == [] and not (tmp_path.parent / "evil").exists()


def test_missing_url_and_existing_model(server, tmp_path):
    with pytest.raises(InstallError, match="download failed"):
        install(url=server.url("/nothing.zip"), dest=tmp_path)
    server.routes["/m.zip"] = (make_zip(), {})
    install(url=server.url("/m.zip"), dest=tmp_path)
    with pytest.raises(InstallError, match="--force"):
        install(url=server.url("/m.zip"), dest=tmp_path)
    server.routes["/m2.zip"] = (make_zip(files={**MODEL_FILES, "README": b"new"}), {})
    path = install(url=server.url("/m2.zip"), dest=tmp_path, force=True)
    assert (path / "README").read_bytes() == b"new"
    assert leftovers(tmp_path) == ["vosk-model-small-xx-0.1"]


def test_official_models_are_known():
    assert set(OFFICIAL) == {"ja", "en", "ko"}
    assert OFFICIAL["ja"].url.endswith("/vosk-model-small-ja-0.22.zip")
    assert OFFICIAL["en"].url.endswith("/vosk-model-small-en-us-0.15.zip")
    assert OFFICIAL["ko"].url.endswith("/vosk-model-small-ko-0.22.zip")
    assert all(len(o.sha256 or "") == 64 and o.size > 30_000_000 for o in OFFICIAL.values())
    assert lang_of("vosk-model-small-en-us-0.15") == "en" and lang_of("vosk-model-ja-0.22") == "ja"


def test_cli_install_then_models(server, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("KATARI_MODEL_DIR", str(tmp_path))
    data = make_zip("vosk-model-small-ja-9.9")
    server.routes["/ja.zip"] = (data, {})
    rc = main(
        [
            "voice",
            "install",
            "ja",
            "--url",
            server.url("/ja.zip"),
            "--sha256",
            hashlib.sha256(data).hexdigest(),
        ]
    )
    out, err = capsys.readouterr()
    assert rc == 0, err
    assert out.strip() == str(tmp_path / "vosk-model-small-ja-9.9")
    assert "100.0%" in err  # the progress bar
    assert find_model("ja") == tmp_path / "vosk-model-small-ja-9.9"
    rc = main(["voice", "models"])
    out, _ = capsys.readouterr()
    assert rc == 0 and "vosk-model-small-ja-9.9" in out
    names = {m.name for m in installed_models()}
    assert "vosk-model-small-ja-9.9" in names
    rc = main(
        ["voice", "install", "ja", "--url", server.url("/ja.zip"), "--sha256", "1" * 64, "--force"]
    )
    _, err = capsys.readouterr()
    assert rc == 1 and "sha256 mismatch" in err
    assert (tmp_path / "vosk-model-small-ja-9.9").is_dir()  # the old one is untouched
    assert leftovers(tmp_path) == ["vosk-model-small-ja-9.9"]
