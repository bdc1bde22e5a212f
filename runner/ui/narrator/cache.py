"""Narration rendered once per line (``katari voice render``), in Katari's cache folder
(:mod:`runner.folders`; with ``KATARI_CACHE=off`` a temporary folder of the process, so
nothing is kept).
"""

from __future__ import annotations

# -- narration rendered once per line -----------------------------------------------------------
#
#   <cache>/narration/<story id>/<engine>-<voice>-<profile hash>/<line id>--<text hash>.wav
#
# The text hash covers the line's text and the story's reading dictionary, so an edited line
# (or an edited reading) is rendered again and an unchanged one never; the profile hash covers
# rate, pitch and volume. A line is one WAV of all its sentences.
import hashlib  # noqa: E402
import json  # noqa: E402
import re  # noqa: E402
from collections.abc import Iterator, Mapping  # noqa: E402
from dataclasses import dataclass  # noqa: E402
from pathlib import Path

from runner.folders import working_cache_dir as cache_dir

SEP = "--"
GAP = 0.3  # seconds of silence between the sentences of one cached line


def _safe(name: str) -> str:
    s = re.sub(r"[^\w\-.]", "_", str(name)).strip(".") or "_"
    return s.replace(SEP, "_-")[:100]


def text_hash(text: str, readings: Mapping[str, str] | None = None) -> str:
    from runner.ui.narrator.readings import dictionary_key

    return hashlib.sha256(f"{text}\n{dictionary_key(readings)}".encode()).hexdigest()[:16]


def profile_key(profile) -> str:
    blob = json.dumps(profile.as_dict(), sort_keys=True)
    return f"{profile.engine}-{_safe(profile.voice)[:40]}-{hashlib.sha256(blob.encode()).hexdigest()[:8]}"


def line_path(
    story_id: str, line_id: str, text: str, profile, readings: Mapping[str, str] | None = None
) -> Path:
    return (
        cache_dir()
        / "narration"
        / _safe(story_id)
        / profile_key(profile)
        / f"{_safe(line_id)}{SEP}{text_hash(text, readings)}.wav"
    )


def cached(
    story_id: str | None,
    line_id: str | None,
    text: str,
    profile,
    readings: Mapping[str, str] | None = None,
) -> Path | None:
    """The rendered WAV of this exact line in this voice, or None."""
    if not story_id or not line_id:
        return None
    p = line_path(story_id, line_id, text, profile, readings)
    return p if p.is_file() else None


@dataclass(frozen=True)
class StoryLine:
    id: str
    text: str
    speaker: str


def story_lines(story) -> Iterator[StoryLine]:
    """Every line a player can hear, with its id: the narration of nodes and endings and the
    ``say`` effects of actions, outcomes and events; never keeper notes. (Lines a rule hook
    makes up as it plays, roll results, have no id: they are always spoken live; so are
    lines with ``{…}``, whose text is only known in play.)"""
    seen: set[str] = set()

    def visit(lines) -> Iterator[StoryLine]:
        for n in lines or ():
            if getattr(n, "keeper", False) or not getattr(n, "text", ""):
                continue
            lid = getattr(n, "id", None)
            if not lid or lid in seen:
                continue
            if "{" in n.text or "}" in n.text:  # {coins}, {~a|b}: worked out in play, spoken live
                continue
            seen.add(lid)
            yield StoryLine(lid, n.text, getattr(n, "speaker", None) or "narrator")

    def effects(effs) -> Iterator[StoryLine]:
        for e in effs or ():
            if not isinstance(e, tuple) or not e:
                continue
            if e[0] == "say":
                yield from visit(
                    [e[1]] if not isinstance(e[1], (list, tuple)) or hasattr(e[1], "text") else e[1]
                )
            for part in e[1:]:
                if isinstance(part, tuple):
                    yield from effects(part)
                elif isinstance(part, dict):
                    for o in part.values():
                        yield from effects(getattr(o, "effects", ()))

    for node in story.nodes.values():
        yield from visit(node.narration)
        yield from effects(node.on_enter)
        for a in node.actions:
            yield from effects(a.effects)
            yield from effects(getattr(a, "after", ()))
            for o in getattr(a, "outcomes", ()) or ():
                yield from effects(o.effects)
    for e in story.endings.values():
        yield from visit(e.narration)
    for ev in getattr(story, "events", ()) or ():
        yield from effects(ev.effects)


def render_line(text: str, profile, readings: Mapping[str, str] | None, lang: str):
    """One whole line as one clip, sentence by sentence as the live narrator would say it."""
    from runner.ui.narrator.audio import join
    from runner.ui.narrator.engines import get_engine, quiet_stdout
    from runner.ui.narrator.readings import reading_for, split_sentences

    with quiet_stdout():
        engine = get_engine(profile.engine)
        if hasattr(engine, "readings"):
            engine.readings = dict(readings or {})
        reading = reading_for(text, readings, profile.engine, lang)
        clips = [engine.synth(s, profile) for s in split_sentences(reading)]
    return join(clips, GAP)


def folder_size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) if folder.is_dir() else 0
