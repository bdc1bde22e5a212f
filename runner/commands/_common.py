"""Helpers shared by the subcommands (this module is not a command itself)."""

from __future__ import annotations

from runner.stories import resolve, shipped


def open_story(name: str | None, command: str, lang: str | None = None, events=None):  # noqa: ANN001, ANN201 - Story | None
    """Loads a story for a command, or prints why not (one line when there is no such
    story; its first diagnostics when it has errors) to stderr and returns None.

    With ``lang``, the story in that language: its translation laid over it (see
    :func:`translated`). With ``events`` (a binary stream: ``--jsonl``), why not is also
    written there as ``error`` events (docs/jsonl.md), for a bot that reads only JSON lines."""
    import sys

    from runner.story import StoryError, load
    from runner.story.text import printable

    path = resolve(name)
    if not path.exists():
        ids = ", ".join(p.stem if p.suffix else p.name for p in shipped())
        said = (
            f"no story {str(name or path)!r}: not a file or folder, nor a shipped story "
            f"({ids or 'none installed'})"
        )
        print(f"katari {command}: {said}", file=sys.stderr)
        _events(events, [{"type": "error", "code": "no_story", "message": said}])
        return None
    try:
        story = load(path)
    except StoryError as e:
        errors = [d for d in e.diagnostics if d.severity == "error"]
        _events(
            events,
            [
                {
                    "type": "error",
                    "code": "bad_story",
                    "message": printable(str(d)),
                    "data": {
                        "path": d.path,
                        "line": d.line,
                        "column": d.col,
                        "diagnostic": d.code,
                    },
                }
                for d in errors[:100]
            ],
        )
        for d in e.diagnostics[:20]:
            print(printable(str(d)), file=sys.stderr)
        more = len(e.diagnostics) - 20
        tail = f" (and {more} more)" if more > 0 else ""
        print(
            f"katari {command}: {path} has errors{tail}; see `katari check {path}`", file=sys.stderr
        )
        return None
    return translated(story, lang, command) if lang else story


def _events(out, events: list[dict]) -> None:  # noqa: ANN001
    """Writes ``events`` as JSON lines to the binary stream ``out`` (none: nothing)."""
    if out is None:
        return
    from runner.ui.jsonl import encode

    for ev in events:
        out.write(encode(ev))
    out.flush()


def translated(story, lang: str, command: str = "play", events=None):  # noqa: ANN001, ANN201 - Story | None
    """``story`` played in ``lang``: its translation into ``lang`` laid over it; the story as
    written when it has none (`katari check STORY --lang LANG` says so); None (and why, on
    stderr) when the translation file cannot be read."""
    import sys

    from runner.story import translate as T

    try:
        out = T.apply(story, lang)
    except T.TranslationError as e:
        print(f"katari {command}: {e}", file=sys.stderr)
        _events(events, [{"type": "error", "code": "bad_story", "message": str(e)}])
        return None
    return out
