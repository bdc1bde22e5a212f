"""One reader per section of a story, run in this order by :func:`runner.story.loader._load_pass`:

- :mod:`.gather`: every file's top-level sections, merged, each entry remembering its file;
- :mod:`.meta`: ``story:`` (id, title, rules, start, ...) and ``options:``, and the sections a
  rule system reads (a section named after it);
- :mod:`.variables`, :mod:`.items`, :mod:`.characters`: the declarations;
- :mod:`.nodes` and :mod:`.endings` declare their ids first (so a ``goto`` may point forward),
  :mod:`.clock` reads the clock, then :mod:`.nodes` reads nodes and their actions and
  :mod:`.endings` the endings;
- :mod:`.events`: timed events; :mod:`.voices`: ``readings:`` and ``voices:``.

Values, expressions, narration and effects inside them are the shared
:class:`~runner.story.checker.Checker`'s to read; :mod:`runner.story.references` then checks
what points where (gotos, items, variables in expressions, reachability) and asks the rule
system to check its own data.
"""

Entries = list[tuple[str, object, object]]
"""A section's entries from every file: (file, the section's value, the file's whole mapping)."""
