"""``katari import``: compile a keeper's scenario document into a draft story.

The pipeline, one module each:

- :mod:`.read` — bytes to lines: size and binary guards, UTF-8 / Shift_JIS, HTML to text,
  width folding for recognition (the draft keeps the document's own text);
- :mod:`.sections` — headings (■◆●【】, Markdown, ``1-2.``) into a tree of sections, each
  given a role (intro, place, timeline, NPCs, creatures, climax, endings...);
- :mod:`.checks`, :mod:`.sanity`, :mod:`.timeline`, :mod:`.creatures`, :mod:`.meta` — the
  recognisers, one per kind of thing a keeper writes;
- :mod:`.build` — runs them over the sections into a :class:`~.model.Scenario`;
- :mod:`.writer` — the story folder (YAML), :mod:`.report` — ``IMPORT.md`` and the JSON
  report; :mod:`.score` — recall and precision against answer keys.
"""

from __future__ import annotations

from runner.importer.model import ImportFailure, Scenario

__all__ = ["ImportFailure", "Scenario", "import_document", "parse_document"]


def parse_document(path, *, limit: int | None = None) -> Scenario:  # noqa: ANN001
    """Reads and understands a document; raises :class:`ImportFailure` for bad input."""
    from runner.importer.build import build
    from runner.importer.read import MAX_BYTES, read_document

    doc = read_document(path, limit=limit or MAX_BYTES)
    return build(doc)


def import_document(path, out_dir, *, force: bool = False):  # noqa: ANN001, ANN201
    """Parses ``path`` and writes the story folder ``out_dir``; returns the Scenario."""
    from runner.importer.writer import write_story

    sc = parse_document(path)
    write_story(sc, out_dir, force=force)
    return sc
