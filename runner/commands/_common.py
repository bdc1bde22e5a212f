"""Helpers shared by the subcommands (this module is not a command itself)."""

from __future__ import annotations

from runner.stories import resolve, shipped


def open_story(name: str | None, command: str):  # noqa: ANN201 - Story | None
    """Loads a story for a command, or prints why not (one line when there is no such
    story; its first diagnostics when it has errors) to stderr and returns None."""
    import sys

    from runner.story import StoryError, load
    from runner.story.text import printable

    path = resolve(name)
    if not path.exists():
        ids = ", ".join(p.stem if p.suffix else p.name for p in shipped())
        print(f"katari {command}: no story {str(name or path)!r}: not a file or folder, nor a shipped story "
              f"({ids or 'none installed'})", file=sys.stderr)
        return None
    try:
        return load(path)
    except StoryError as e:
        for d in e.diagnostics[:20]:
            print(printable(str(d)), file=sys.stderr)
        more = len(e.diagnostics) - 20
        tail = f" (and {more} more)" if more > 0 else ""
        print(f"katari {command}: {path} has errors{tail}; see `katari check {path}`", file=sys.stderr)
        return None
