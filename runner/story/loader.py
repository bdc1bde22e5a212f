"""YAML → :class:`Story`, with every problem reported as ``path:line:col: message``.

:func:`load` and :func:`check` read a story's files and hand each section to its reader
(:mod:`runner.story.sections`), then check what points where (:mod:`runner.story.references`).
A correct story is read once by the fast parser (yaml-rs, no positions); only a story with
problems is read again by the careful one (PyYAML, :mod:`runner.story.yamlpos`) to say where.
"""

from __future__ import annotations

import gc
import os
from pathlib import Path
from typing import Any

from runner.story.checker import Checker, kind_of
from runner.story.diagnostics import Declined as _Retry
from runner.story.diagnostics import Diagnostic, StoryError
from runner.story.keys import (  # noqa: F401 - the story format's words, as they always were here
    ACTION_KEYS,
    EFFECT_COMPANIONS,
    EFFECT_KEYS,
    ENDING_KINDS,
    ID_RE,
    NODE_KEYS,
    NODE_KINDS,
    STORY_KEYS,
    TOP_KEYS,
)
from runner.story.model import Story
from runner.story.references import check_references, check_rule_data, option_references
from runner.story.sections.characters import read_characters
from runner.story.sections.clock import read_clock
from runner.story.sections.conditions import read_conditions
from runner.story.sections.endings import declare_endings, read_endings
from runner.story.sections.events import read_events
from runner.story.sections.gather import gather
from runner.story.sections.items import read_items
from runner.story.sections.meta import read_options, read_rule_sections, read_story
from runner.story.sections.nodes import declare_nodes, read_nodes
from runner.story.sections.variables import read_variables
from runner.story.sections.voices import read_readings, read_voices
from runner.story.source import (
    MAX_FILE_BYTES,
    MAX_FILES,
    MAX_STORY_BYTES,
    SourceError,
    decode,
    read_bytes,
    story_files,
    story_root,
)


def _read_files(
    files: list[Path],
    chk: Checker,
    fast: bool = False,
    root: Path | None = None,
    read: dict[Path, bytes] | None = None,
) -> list[tuple[str, Any]]:
    docs = []
    total = 0
    for f in files:
        name = str(f)
        chk.file = name
        try:
            if read is not None and f in read:
                raw = read[f]  # as read for the cache's key, within the same bounds
            else:
                raw = read_bytes(f, root, limit=min(MAX_FILE_BYTES, MAX_STORY_BYTES - total))
            total += len(raw)
            text = decode(raw)
        except SourceError as e:
            if "larger than" in e.message and total:
                e = SourceError(
                    f"the story's files are larger than {MAX_STORY_BYTES // (1024 * 1024)} MB in all"
                )
            chk.err(e.pos, e.message, "K100")
            continue
        if fast:
            from runner.story.fastyaml import load_fast

            try:
                data = load_fast(text)
            except Exception:  # noqa: BLE001 - any trouble: the careful loader explains it
                raise _Retry from None
            if data is not None and not isinstance(data, dict):
                raise _Retry
            if data is not None:
                docs.append((name, data))
            continue
        import yaml  # the careful pass alone needs PyYAML: a correct story never imports it

        from runner.story.yamlpos import Refused
        from runner.story.yamlpos import load as yaml_load

        chk.texts[name] = text.splitlines()
        try:
            data, dups = yaml_load(text)
        except yaml.MarkedYAMLError as e:
            mark = e.problem_mark or e.context_mark
            pos = (mark.line + 1, mark.column + 1) if mark else (1, 1)
            msg = (
                f"YAML syntax: {e.problem or e.context}"
                if not isinstance(e, Refused)
                else str(e.problem)
            )
            if (
                e.context
                and e.context_mark
                and e.problem_mark
                and e.context_mark.line != e.problem_mark.line
            ):
                # The real mistake is often where the unfinished thing began (a quote, a bracket).
                msg += f" ({e.context} that started at line {e.context_mark.line + 1}, column {e.context_mark.column + 1})"
            if "mapping values are not allowed" in msg:
                msg += "; check the indentation, or quote a value that contains ': '"
            chk.err(pos, msg, "K101")
            continue
        except yaml.YAMLError as e:
            chk.err(None, f"YAML: {e}", "K101")
            continue
        except RecursionError:
            chk.err(None, "YAML is nested too deeply", "K101")
            continue
        for key, pos in dups:
            chk.err(pos, f"duplicate key {key!r}", "K004")
        if data is None:
            continue
        if not isinstance(data, dict):
            chk.err(
                (1, 1), f"a story file must be a mapping of sections, not {kind_of(data)}", "K001"
            )
            continue
        docs.append((name, data))
    return docs


def load(path: str | os.PathLike[str], *, check_hooks: bool = True) -> Story:
    """Loads and validates a story file or folder; raises :class:`StoryError` listing every problem.

    A story loaded before and unchanged since (its files, Katari's code) is read from its
    compiled form in the user cache (:mod:`runner.story.compiled`), which skips YAML and checks."""
    key, read = _cache_key(path, check_hooks)
    found = None
    if key is not None:
        from runner.story import compiled

        found = compiled.store()  # the folder and its hash key, asked once a load
    story = None
    if key is not None and found is not None and compiled.has(key, found):
        read = None  # the YAML's bytes are not held while the compiled form is read (peak memory)
        story = _from_cache(key, found)
    if story is None:
        story, diags = _load(path, check_hooks=check_hooks, read=read)
        errors = [d for d in diags if d.severity == "error"]
        if errors or story is None:
            raise StoryError(errors or diags)
        if key is not None and found is not None:
            compiled.write_later(key, story, found)
    from runner import kana

    kana.attach(story)  # kana readings for matching what players type (pyopenjtalk, if installed)
    return story


def _cache_key(
    path: str | os.PathLike[str], check_hooks: bool
) -> tuple[str | None, dict[Path, bytes] | None]:
    """The compiled form's name for the story at ``path`` as it is now, with its files and
    their bytes as read for it (a miss reads them from there, not from the disk again); or None
    (no cache, or files the loader must report on: it reads them again and says what is wrong)."""
    from runner.story import compiled

    if compiled.cache_dir() is None:
        return None, None
    p = Path(path)
    try:
        if not p.exists():
            return None, None
        files = story_files(p)
        if not files or len(files) > MAX_FILES:
            return None, None
        root = story_root(p)
        got, total = [], 0
        for f in files:
            raw = read_bytes(f, root, limit=min(MAX_FILE_BYTES, MAX_STORY_BYTES - total))
            total += len(raw)
            got.append((f, raw))
    except (SourceError, OSError):
        return None, None
    named = [(str(f), raw) for f, raw in got]
    key = compiled.story_key([("", str(p).encode("utf-8", "surrogateescape")), *named], check_hooks)
    return key, dict(got)


def _from_cache(key: str, found: tuple[Path, bytes]) -> Story | None:
    from runner.story import compiled

    was_enabled = gc.isenabled()
    gc.disable()  # as in _load: millions of new objects, none of them garbage
    story = None
    try:
        story = compiled.read(key, found)
        return story
    finally:
        if was_enabled:
            if story is not None and len(story.nodes) >= FREEZE_NODES:
                gc.freeze()
            gc.enable()


def check(path: str | os.PathLike[str]) -> tuple[Story | None, list[Diagnostic]]:
    """Loads a story and returns it (or None) with every diagnostic, warnings included."""
    return _load(path, check_hooks=True)


def _load(
    path: str | os.PathLike[str], *, check_hooks: bool, read: dict[Path, bytes] | None = None
) -> tuple[Story | None, list[Diagnostic]]:
    # Positions cost most of the loading time on large stories, and only a story with
    # problems needs them: load fast first, and again with positions if anything is wrong.
    # The cyclic garbage collector is paused meanwhile: a large story makes millions of
    # objects and none of them is garbage, so its passes (2/3 of the time) find nothing.
    was_enabled = gc.isenabled()
    gc.disable()
    story: Story | None = None
    try:
        try:
            story, diags = _load_pass(path, check_hooks=check_hooks, fast=True, read=read)
        except _Retry:
            story, diags = None, []
        else:
            if not diags:
                return story, diags
        story, diags = _load_pass(path, check_hooks=check_hooks, fast=False, read=read)
        return story, diags
    finally:
        if was_enabled:
            # A large story lives as long as the game: move it out of the collector's sight,
            # or every later collection walks its million objects again. Only a large one:
            # frozen objects are never collected, so a process that loads many stories
            # (check of many paths, a fuzz run) would keep every one of them for ever.
            if story is not None and len(story.nodes) >= FREEZE_NODES:
                gc.freeze()
            gc.enable()


def _keeps_pcs(rules: str) -> bool:
    """Whether the rule system names its own player characters (``pc.name``): ``active_pc``."""
    from runner.rules import system

    try:
        return system(rules).active_pc is not None
    except KeyError:
        return False


FREEZE_NODES = 1000
"""Nodes from which a loaded story is moved out of the garbage collector's sight."""


def _load_pass(
    path: str | os.PathLike[str],
    *,
    check_hooks: bool,
    fast: bool,
    read: dict[Path, bytes] | None = None,
) -> tuple[Story | None, list[Diagnostic]]:
    find_hook = None
    if check_hooks:
        from runner.rules import find_hook as _fh

        find_hook = _fh
    chk = Checker(find_hook)
    chk.fast = fast
    p = Path(path)
    if not p.exists():
        chk.err(None, "no such file or folder", "K100", file=str(path))
        return None, chk.diags
    files = story_files(p) if read is None else list(read)
    if not files:
        chk.err(None, "no .yaml files in this folder", "K100", file=str(path))
        return None, chk.diags
    if len(files) > MAX_FILES:
        chk.err(None, f"more than {MAX_FILES} .yaml files in this folder", "K100", file=str(path))
        return None, chk.diags
    # (files already read for the cache's key were read inside the story's folder: no root)
    docs = _read_files(files, chk, fast, story_root(p) if read is None else None, read)

    meta, meta_file, sections, extra = gather(chk, docs)
    if meta is None:
        chk.file = str(files[0])
        if not any(d.severity == "error" for d in chk.diags):
            what = (
                "no 'story' section (id, title, language, rules, start)"
                if docs
                else "no story here: the file is empty (a story needs a 'story' section and nodes)"
            )
            chk.err((1, 1), what, "K003")
        return None, chk.diags
    head = read_story(chk, meta, meta_file, Path(path).stem)
    if head is None:
        return None, chk.diags
    options = read_options(chk, meta)
    read_rule_sections(chk, extra, docs, meta_file)

    # Declarations first: variables, items, characters, node and ending ids.
    variables = read_variables(chk, sections["variables"])
    items = read_items(chk, sections["items"])
    characters = read_characters(chk, sections["characters"])
    conditions = read_conditions(chk, sections["conditions"])
    chk.has_pc = any(c.kind == "pc" for c in characters.values()) or _keeps_pcs(head.rules)
    node_srcs = declare_nodes(chk, sections["nodes"])
    ending_srcs = declare_endings(chk, sections["endings"])
    clock = read_clock(chk, sections["clock"])
    nodes = read_nodes(chk, node_srcs, scenes_by_file=len(files) > 1)
    endings = read_endings(chk, ending_srcs)
    events = read_events(chk, sections["events"], clock)
    readings = read_readings(chk, sections["readings"])
    voices = read_voices(chk, sections["voices"])

    option_references(chk, options)
    start = check_references(chk, meta, meta_file, node_srcs, ending_srcs)
    if find_hook is not None and head.rules != "none":
        check_rule_data(
            chk,
            head.rules,
            meta,
            options,
            variables,
            items,
            characters,
            nodes,
            endings,
            extra,
            docs,
            meta_file,
        )

    # The story's version and the renames that map old saves onto it (runner/story/migrations.py).
    from runner.story import migrations as _mig

    version, migs = _mig.read(chk, meta, sections["migrations"], nodes, endings, variables, items)
    chk.file = meta_file

    if any(d.severity == "error" for d in chk.diags):
        return None, sorted(chk.diags, key=lambda d: (d.path, d.line, d.col))
    sid = head.id
    story = Story(
        id=sid,
        title=str(meta.get("title", sid)),
        language=head.language,
        rules=head.rules,
        start=start,
        path=str(p),
        nodes=nodes,
        endings=endings,
        variables=variables,
        items=items,
        characters=characters,
        events=events,
        clock=clock,
        credits=head.credits,
        licence=str(meta.get("licence", meta.get("license", ""))),
        author=str(meta.get("author", "")),
        description=str(meta.get("description", "")),
        length=str(meta.get("length", "")),
        options=options,
        readings=readings,
        voices=voices,
        extra=extra,
        version=version,
        migrations=migs,
        conditions=conditions,
    )
    return story, chk.diags
