"""A checked story kept compiled in the user's cache, so an unchanged story loads at once.

:func:`runner.story.load` looks here first. The compiled form of a story is the loaded
:class:`~runner.story.model.Story` written as plain tuples, dicts, text and numbers with
:mod:`marshal`, under a name that is a hash of everything the result depends on:

- the bytes and names of the story's files, in order;
- Katari's version, and the size and time of every module of the loader and the rule systems
  (an edited checkout never reads a form compiled by other code), and the installed rule
  systems with where each comes from (``katari.rules`` entry points);
- Python's version (marshal's format belongs to it) and whether hooks were checked.

Reading cannot run code, and only what Katari itself wrote is read (docs/security.md,
"The compiled-story cache"):

- the folder is private: created 0700, and not used at all if it belongs to someone else or
  others may write in it;
- each file starts with a keyed hash (BLAKE2b, 32 bytes) of its contents under a random key
  kept in the folder (``key``, 0600); a file whose hash does not match (corrupt, truncated,
  planted, or written under another key) is ignored, deleted and rebuilt from the YAML;
- only then does :func:`marshal.loads` read it: marshal is not meant for data from others,
  and the keyed hash proves the bytes are what :func:`write` made, which holds tuples, lists,
  dicts, text and numbers only (free-form data passes :func:`_plain`); :func:`decode` makes
  the model's records from them by position. Nothing in it is called or imported.

``KATARI_CACHE`` names the folder (``off`` turns the cache off); else ``$KATARI_HOME/cache``,
else the user cache folder (``platformdirs.user_cache_dir("katari")``).
"""

from __future__ import annotations

import marshal
import os
import stat
import sys
from pathlib import Path
from typing import Any

try:  # BLAKE2 and the constant-time compare themselves: hashlib and hmac load OpenSSL (~3 ms)
    from _blake2 import blake2b
    from _operator import _compare_digest as compare_digest
except ImportError:  # a Python built without them: the same, through hashlib and hmac
    from hashlib import blake2b
    from hmac import compare_digest  # type: ignore[no-redef]

from runner.folders import cache_dir as cache_dir  # (the loader asks it too)
from runner.story import model as m
from runner.story.migrations import Migration

MAGIC = b"KATARIc2"
FORMAT = 2
"""Bumped when the encoding below changes."""
MAX_ENTRIES = 64
"""Compiled stories kept; the least recently written go first."""
MAX_BYTES = 512 * 1024 * 1024
CHUNK = 1000
"""Nodes marshalled together: a read decodes one chunk at a time, so the plain tuples of only
one chunk live beside the story being built (peak memory), and marshal needs no sharing pass."""
SMALL = 1000
"""Nodes below which :func:`flush` writes a story's compiled form itself (a few milliseconds),
not by a child process (seconds for a story of 100,000 nodes)."""
_CODE_DIRS = ("story", "rules")


def _private(folder: Path) -> bool:
    """Makes ``folder/compiled`` (0700) if needed; False if it is not ours alone."""
    d = folder / "compiled"
    try:
        st = os.lstat(d)  # there already (most loads): one look
    except FileNotFoundError:
        try:
            folder.mkdir(parents=True, exist_ok=True, mode=0o700)
            d.mkdir(exist_ok=True, mode=0o700)
            st = os.lstat(d)
        except OSError:
            return False
    except OSError:
        return False
    if not stat.S_ISDIR(st.st_mode) or (hasattr(os, "getuid") and st.st_uid != os.getuid()):
        return False
    if st.st_mode & 0o077:
        try:
            os.chmod(d, 0o700)
        except OSError:
            return False
    return True


def _key(d: Path) -> bytes | None:
    p = d / "key"
    try:
        fd = os.open(p, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except FileNotFoundError:
        key = os.urandom(32)
        try:
            fd = os.open(
                p, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600
            )
        except FileExistsError:  # another process made it meanwhile
            return _key(d)
        except OSError:
            return None
        with os.fdopen(fd, "wb") as f:
            f.write(key)
        return key
    except OSError:
        return None
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(f.fileno())
        if (hasattr(os, "getuid") and st.st_uid != os.getuid()) or st.st_mode & 0o077:
            return None
        key = f.read(33)
    return key if len(key) == 32 else None


def _code_stamp() -> bytes:
    import runner

    h = blake2b(digest_size=16)
    h.update(
        f"{getattr(runner, '__version__', '')}|{sys.version}|{marshal.version}|{FORMAT}".encode()
    )
    from runner import rules

    for name in rules.names():  # the installed rule systems, and where each comes from
        h.update(f"rules|{name}|{rules.source(name)}\n".encode())
    for name, why in {**rules.ignored(), **rules.refused()}.items():  # (check warns of these)
        h.update(f"rules!{name}|{why}\n".encode())
    h.update(_modules_stamp())
    return h.digest()


_walked: list[bytes] = []


def _modules_stamp() -> bytes:
    """A hash of the size and time of every module of the loader and the rule systems, as this
    process first found them (walked and hashed once a process: the code it runs is the code
    it imported; hashing the ~6 KB of lines at every load was most of a small story's key)."""
    if not _walked:
        import runner

        base = os.path.dirname(runner.__file__)
        lines = [
            line for sub in _CODE_DIRS for line in sorted(_stamps(os.path.join(base, sub), sub))
        ]
        _walked.append(blake2b("".join(lines).encode(), digest_size=16).digest())
    return _walked[0]


def _stamps(folder: str, rel: str) -> list[str]:
    """``rel/name.py|size|mtime`` for every module under ``folder`` (os.scandir: a start-up
    reads this for each story it loads, and pathlib's rglob costs a few milliseconds more)."""
    out: list[str] = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return out
    for e in entries:
        if e.name.endswith(".py") and e.is_file():
            try:
                st = e.stat()
            except OSError:
                continue
            out.append(f"{rel}/{e.name}|{st.st_size}|{st.st_mtime_ns}\n")
        elif e.is_dir() and e.name != "__pycache__":
            out.extend(_stamps(e.path, f"{rel}/{e.name}"))
    return out


def story_key(files: list[tuple[str, bytes]], check_hooks: bool) -> str:
    """The name of a story's compiled form: a hash of its files and of the code that reads them."""
    h = blake2b(digest_size=20)
    h.update(_code_stamp())
    h.update(b"hooks" if check_hooks else b"nohooks")
    for name, data in files:
        h.update(f"\0{name}\0{len(data)}\0".encode())
        h.update(data)
    return h.hexdigest()


def store() -> tuple[Path, bytes] | None:
    """The private ``compiled`` folder and its hash key, or None (the cache off, or the
    folder or its key not ours alone). A load asks once, and reads and writes there."""
    folder = cache_dir()
    if folder is None or not _private(folder):
        return None
    d = folder / "compiled"
    mac_key = _key(d)
    return None if mac_key is None else (d, mac_key)


def has(key: str, found: tuple[Path, bytes]) -> bool:
    """Whether a compiled form under ``key`` is there to be read (not yet whether it holds)."""
    return os.path.lexists(os.path.join(found[0], f"{key}.kc"))


def read(key: str, found: tuple[Path, bytes] | None = None) -> m.Story | None:
    """The compiled story under ``key`` (in ``found``, the folder and key from :func:`store`;
    else the cache's now), or None (absent, off, or not to be trusted)."""
    found = found or store()
    if found is None:
        return None
    d, mac_key = found
    p = d / f"{key}.kc"
    try:
        fd = os.open(p, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        with os.fdopen(fd, "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                return None
            blob = f.read(MAX_BYTES + 1)
    except OSError:
        return None
    head = len(MAGIC) + 32
    if len(blob) <= head or len(blob) > MAX_BYTES or blob[: len(MAGIC)] != MAGIC:
        _drop(p)
        return None
    body = memoryview(blob)[head:]
    mac = blake2b(body, key=mac_key, digest_size=32).digest()
    if not compare_digest(mac, blob[len(MAGIC) : head]):
        _drop(p)
        return None
    try:
        data = marshal.loads(body)
        body.release()
        del blob  # the file's bytes go before the story is built (peak memory)
        return decode(data)
    except Exception:  # noqa: BLE001 - ours, yet unreadable (another format): rebuild it
        _drop(p)
        return None


def write(key: str, story: m.Story, found: tuple[Path, bytes] | None = None) -> bool:
    """Keeps ``story`` compiled under ``key`` (in ``found``, the folder and hash key from
    :func:`store` when it was loaded; else the cache's now); False if it could not (the cache
    is a help only)."""
    found = found or store()
    if found is None:
        return False
    d, mac_key = found
    try:
        body = marshal.dumps(encode(story))
    except (ValueError, TypeError, RecursionError):
        return False
    if len(body) > MAX_BYTES:
        return False
    mac = blake2b(body, key=mac_key, digest_size=32).digest()
    tmp = d / f".{key}.{os.getpid()}.tmp"
    try:
        fd = os.open(
            tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0), 0o600
        )
        with os.fdopen(fd, "wb") as f:
            f.write(MAGIC + mac)
            f.write(body)
        os.replace(tmp, d / f"{key}.kc")
    except OSError:
        _drop(tmp)
        return False
    _prune(d)
    return True


_pending: dict[str, tuple[tuple[Path, bytes], str, m.Story]] = {}
"""Stories loaded from their YAML whose compiled form is still to be written, by path (the
latest load of each): :func:`flush` writes them."""
MAX_PENDING = 4
"""Loaded stories kept for writing at most; the oldest beyond are not kept (their next load
reads the YAML and keeps them then): a process that loads one story after another does not
hold them all."""
_writers: list[int] = []


def write_later(key: str, story: m.Story, found: tuple[Path, bytes] | None = None) -> None:
    """Keeps ``story`` compiled under ``key`` without making anything before the exit slower.

    Nothing is written now: neither the load nor what follows it pays for the writing (a child
    process forked here would share the story's memory with the game, and every page either
    touched would be copied while it ran). :func:`flush`, run at exit, writes it."""
    if story.translation is not None:
        return  # only the story as written is kept; a translation is laid over it on load
    found = found or store()  # the folder now (the environment may change before the exit)
    if found is None:
        return
    if not _pending and not _writers:
        import atexit

        atexit.register(flush, False)
    _pending.pop(story.path, None)
    _pending[story.path] = (found, key, story)
    while len(_pending) > MAX_PENDING:
        del _pending[next(iter(_pending))]


def _can_fork() -> bool:
    """Whether a child process may be forked: there is ``os.fork``, and no other thread runs
    (a fork would copy their locks mid-use; a process that never imported threading runs none)."""
    threading = sys.modules.get("threading")
    return hasattr(os, "fork") and (threading is None or threading.active_count() <= 1)


def flush(wait: bool = True) -> None:
    """Writes the compiled forms of the stories loaded from their YAML (:func:`write_later`).

    A story under SMALL nodes is written at once (a few milliseconds). A larger one is written
    by a child process (``os.fork``: it shares the story's memory, encodes it and exits; the
    seconds a story of 100,000 nodes takes are not spent before the exit), waited for unless
    ``wait`` is False (at exit: the writer outlives the command, on its own session with no
    terminal), or not kept where no child can be forked: its next load reads the YAML again.
    """
    import gc

    while _pending:
        _, (found, key, story) = _pending.popitem()
        if len(story.nodes) < SMALL:
            was_enabled = gc.isenabled()
            gc.disable()  # many new tuples, none of them garbage
            try:
                write(key, story, found)
            finally:
                if was_enabled:
                    gc.enable()
        elif _can_fork():
            pid = os.fork()
            if pid == 0:
                _child(key, story, found, detach=not wait)
            _writers.append(pid)
    while wait and _writers:
        pid = _writers.pop()
        try:
            os.waitpid(pid, 0)
        except (ChildProcessError, InterruptedError):
            pass


def _child(key: str, story: m.Story, found: tuple[Path, bytes], detach: bool) -> None:
    """The writer (in the forked child): no signal from the terminal, no collector passes, no
    exit handlers; detached, a session of its own with its standard streams on the null
    device (whoever waits for the command's output is not kept waiting for the writer)."""
    code = 1
    try:
        import gc
        import signal

        signal.signal(signal.SIGINT, signal.SIG_IGN)
        gc.disable()
        if detach:
            os.setsid()
            null = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1, 2):
                os.dup2(null, fd)
        try:
            os.nice(10)
        except OSError:
            pass
        code = 0 if write(key, story, found) else 1
    finally:
        os._exit(code)


def _drop(p: Path) -> None:
    try:
        p.unlink()
    except OSError:
        pass


def _prune(d: Path) -> None:
    import time

    try:
        entries = sorted(d.glob("*.kc"), key=lambda p: p.stat().st_mtime)
        stale = [p for p in d.glob(".*.tmp") if p.stat().st_mtime < time.time() - 3600]
    except OSError:
        return
    for p in entries[:-MAX_ENTRIES] + stale:  # and what a writer stopped mid-way left
        _drop(p)


# -- the encoding: the model's records as plain tuples, by position --------------------------


def _plain(v: Any) -> Any:
    """Free-form data (props, options, a rule system's section) as plain dicts and lists."""
    t = type(v)
    if t is dict or isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    if t is list or isinstance(v, list):
        return [_plain(x) for x in v]
    if t is tuple:
        return tuple(_plain(x) for x in v)
    if v is None or t in (str, int, float, bool):
        return v
    raise TypeError(f"not plain data: {t.__name__}")


def _shared(v: Any, memo: dict[Any, Any]) -> Any:
    """``v`` with every equal text and tuple one object, which marshal then writes once: the
    same id, effect or expression in 1,000 nodes is read back as one object, not 1,000 (fewer
    objects to make on a read, and less memory). A tuple is keyed by its items' identities
    (``map(id, ...)``, in C): equal texts and tuples are one object by then, and
    ``("lit", True)`` stays apart from ``("lit", 1)``. Every key's items are kept alive by the
    tuple stored under it, so no id is reused meanwhile."""
    t = type(v)
    if t is str:
        return memo.setdefault(v, v)
    if t is tuple:
        items = tuple([_shared(x, memo) for x in v])
        return memo.setdefault(tuple(map(id, items)), items)
    if t is dict:
        return {_shared(k, memo): _shared(x, memo) for k, x in v.items()}
    if t is list:
        return [_shared(x, memo) for x in v]
    return v


def _enc_lines(lines: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple(tuple(x) for x in lines)


def _enc_effs(effs: tuple[Any, ...]) -> tuple[Any, ...]:
    out: list[tuple[Any, ...]] = []
    for e in effs:
        k = e[0]
        if k == "say":
            out.append(("say", _enc_lines(e[1])))
        elif k == "if":
            out.append(("if", e[1], _enc_effs(e[2]), _enc_effs(e[3])))
        elif k == "check":
            out.append(("check", e[1], tuple((o.key, _enc_effs(o.effects)) for o in e[2])))
        else:
            out.append(tuple(e))
    return tuple(out)


def _enc_action(a: m.Action) -> tuple[Any, ...]:
    return (
        a.id,
        a.label,
        a.aliases,
        a.when,
        a.once,
        a.cost,
        a.check,
        tuple((o.key, _enc_effs(o.effects)) for o in a.outcomes),
        _enc_effs(a.effects),
        _enc_effs(a.after),
        a.hidden,
        a.key,
    )


FIELDS: dict[type, tuple[str, ...]] = {
    m.Story: (
        *("id", "title", "language", "rules", "start", "path", "nodes", "endings", "variables"),
        *("items", "characters", "events", "clock", "credits", "licence", "author"),
        *("description", "length", "options", "readings", "voices", "extra", "version"),
        *("conditions", "migrations", "translation", "cache"),
    ),
    m.Node: ("id", "kind", "title", "scene", "narration", "keeper", "on_enter", "actions", "props"),
    m.Action: (
        *("id", "label", "aliases", "when", "once", "cost", "check", "outcomes", "effects"),
        *("after", "hidden", "key"),
    ),
    m.Ending: ("id", "kind", "title", "narration"),
    m.TimedEvent: ("id", "at", "when", "effects", "repeat", "title"),
    m.Variable: ("name", "value", "visible", "label", "visible_when"),
    m.Item: ("id", "name", "description", "props"),
    m.Character: ("id", "name", "kind", "stats", "props", "known_when", "unknown_name"),
    m.Clock: ("start", "limit", "show", "left_visible_when"),
}
"""The fields of each record this encoding writes, in order: a test holds them to the model,
so a field added to the model fails it until the encoding (and FORMAT) follow."""


def _enc_node(n: m.Node) -> tuple[Any, ...]:
    return (
        n.id,
        n.kind,
        n.title,
        n.scene,
        _enc_lines(n.narration),
        _enc_lines(n.keeper),
        _enc_effs(n.on_enter),
        tuple(map(_enc_action, n.actions)),
        _plain(n.props),
    )


def encode(s: m.Story) -> tuple[Any, ...]:
    ns = list(s.nodes.values())
    memo: dict[Any, Any] = {}
    nodes = tuple(  # marshalled by chunks: see CHUNK
        marshal.dumps(_shared(tuple(map(_enc_node, ns[i : i + CHUNK])), memo))
        for i in range(0, len(ns), CHUNK)
    )
    endings = tuple((e.id, e.kind, e.title, _enc_lines(e.narration)) for e in s.endings.values())
    variables = tuple(
        (v.name, _plain(v.value), v.visible, v.label, v.visible_when) for v in s.variables.values()
    )
    items = tuple((i.id, i.name, i.description, _plain(i.props)) for i in s.items.values())
    chars = tuple(
        (c.id, c.name, c.kind, _plain(c.stats), _plain(c.props), c.known_when, c.unknown_name)
        for c in s.characters.values()
    )
    events = tuple((e.id, e.at, e.when, _enc_effs(e.effects), e.repeat, e.title) for e in s.events)
    clock = (
        None
        if s.clock is None
        else (s.clock.start, s.clock.limit, s.clock.show, s.clock.left_visible_when)
    )
    migs = tuple(tuple(_plain(x) for x in mg) for mg in s.migrations)
    return (
        FORMAT,
        s.id,
        s.title,
        s.language,
        s.rules,
        s.start,
        s.path,
        nodes,
        endings,
        variables,
        items,
        chars,
        events,
        clock,
        s.credits,
        s.licence,
        s.author,
        s.description,
        s.length,
        _plain(s.options),
        dict(s.readings),
        dict(s.voices),
        _plain(s.extra),
        s.version,
        migs,
        _plain(s.conditions),
    )


_new = tuple.__new__
_N, _A, _O, _L = m.Node, m.Action, m.Outcome, m.Narration
_EFF = {k: t for k, t in m.EFFECT_TYPES.items()}


def _dec_lines(lines: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple([_new(_L, x) for x in lines])


def _dec_effs(effs: tuple[Any, ...]) -> tuple[m.Effect, ...]:
    out: list[m.Effect] = []
    for e in effs:
        k = e[0]
        if k == "say":
            out.append(_new(m.Say, ("say", _dec_lines(e[1]))))
        elif k == "if":
            out.append(_new(m.If, ("if", e[1], _dec_effs(e[2]), _dec_effs(e[3]))))
        elif k == "check":
            out.append(
                _new(
                    m.Check,
                    ("check", e[1], tuple([_new(_O, (o[0], _dec_effs(o[1]))) for o in e[2]])),
                )
            )
        else:
            out.append(_new(_EFF[k], e))
    return tuple(out)


def _dec_action(a: tuple[Any, ...]) -> m.Action:
    return _new(
        _A,
        (
            a[0],
            a[1],
            a[2],
            a[3],
            a[4],
            a[5],
            a[6],
            tuple([_new(_O, (o[0], _dec_effs(o[1]))) for o in a[7]]),
            _dec_effs(a[8]) if a[8] else (),
            _dec_effs(a[9]) if a[9] else (),
            a[10],
            a[11],
        ),
    )


def _dec_nodes(chunks: tuple[Any, ...]) -> dict[str, m.Node]:
    out: dict[str, m.Node] = {}
    for chunk in chunks:  # one chunk's plain tuples at a time (peak memory)
        for n in marshal.loads(chunk):
            out[n[0]] = _new(
                _N,
                (
                    n[0],
                    n[1],
                    n[2],
                    n[3],
                    _dec_lines(n[4]),
                    _dec_lines(n[5]),
                    _dec_effs(n[6]) if n[6] else (),
                    tuple([_dec_action(a) for a in n[7]]),
                    n[8],
                ),
            )
    return out


def decode(t: tuple[Any, ...]) -> m.Story:
    if t[0] != FORMAT:
        raise ValueError("another format")
    (
        _,
        sid,
        title,
        language,
        rules,
        start,
        path,
        nodes,
        endings,
        variables,
        items,
        chars,
        events,
        clock,
        credits,
        licence,
        author,
        description,
        length,
        options,
        readings,
        voices,
        extra,
        version,
        migs,
        conditions,
    ) = t
    return m.Story(
        id=sid,
        title=title,
        language=language,
        rules=rules,
        start=start,
        path=path,
        nodes=_dec_nodes(nodes),
        endings={e[0]: m.Ending(e[0], e[1], e[2], _dec_lines(e[3])) for e in endings},
        variables={v[0]: m.Variable(*v) for v in variables},
        items={i[0]: m.Item(*i) for i in items},
        characters={c[0]: m.Character(*c) for c in chars},
        events=tuple(m.TimedEvent(e[0], e[1], e[2], _dec_effs(e[3]), e[4], e[5]) for e in events),
        clock=None if clock is None else m.Clock(*clock),
        credits=credits,
        licence=licence,
        author=author,
        description=description,
        length=length,
        options=options,
        readings=readings,
        voices=voices,
        extra=extra,
        version=version,
        conditions=conditions,
        migrations=tuple(Migration(*mg) for mg in migs),
    )
