"""`katari test STORY`: run a story's play-tests (``tests/*.yaml``) and report like pytest."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "test",
        help="run a story's play-tests (tests/*.yaml)",
        description="Play the scripted games in a story's tests/*.yaml and check their "
        "expectations (see docs/playtests.md). Exits 1 if any fails.",
    )
    p.add_argument("story", help="story folder or file, or shipped story id")
    p.add_argument(
        "files",
        nargs="*",
        metavar="FILE",
        help="test files to run (default: every tests/*.yaml of the story)",
    )
    p.add_argument(
        "-k",
        dest="select",
        default="",
        metavar="TEXT",
        help="only cases whose id (file::name) contains TEXT",
    )
    p.add_argument("-q", "--quiet", action="store_true", help="print only failures and the summary")
    p.add_argument(
        "--lang",
        default=None,
        metavar="LANG",
        help="play the tests on the story's translation into LANG: the same seeds and "
        "action ids must reach the same endings (docs/playtests.md)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import time
    from pathlib import Path

    from runner.authoring.playtest import playtest_files, run_tests, summary
    from runner.commands._common import open_story

    t0 = time.perf_counter()
    story = open_story(args.story, "test")
    if story is None:
        return 1
    lang = getattr(args, "lang", None) or story.language
    if lang != story.language:
        from runner.story import translate as T

        try:
            played = T.apply(story, lang)
        except T.TranslationError as e:
            print(f"katari test: {e}")
            return 1
        if played is story:
            print(
                f"katari test: {story.id} has no {lang} translation ({T.translation_path(story.path, lang)})"
            )
            return 1
        story = played
    from pathlib import Path as _P

    path = _P(story.path)
    files = [Path(f) for f in args.files] if args.files else playtest_files(path)
    if not files:
        where = (path if path.is_dir() else path.parent) / "tests"
        print(f"katari test: no play-tests in {where} (write tests/*.yaml; see docs/playtests.md)")
        return 1
    results = run_tests(story, files, select=args.select, display_base=Path.cwd())
    for r in results:
        if r.outcome in ("failed", "error"):
            print(f"{r.case.nodeid} {r.outcome.upper()}")
        elif not args.quiet:
            print(f"{r.case.nodeid} {r.outcome.upper()}")
    bad = [r for r in results if r.outcome in ("failed", "error")]
    if bad:
        print("\n=================================== FAILURES ===================================")
        for r in bad:
            print(f"___ {r.case.nodeid} ___")
            for f in r.failures:
                print(f)
    warned = [w for r in results for w in r.warnings]
    if warned:
        print("\n=================================== WARNINGS ===================================")
        for w in warned:
            print(f"{w} (warning)")
    line = summary(results, time.perf_counter() - t0)
    print(f"\n======================== {line} ========================")
    if not results:
        return 1
    return 1 if bad else 0
