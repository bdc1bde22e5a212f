"""`katari voice models|install`: the speech models for spoken commands;
`katari voice render STORY`: the story's narration rendered once into the cache."""

from __future__ import annotations

import argparse
import sys


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "voice",
        help="speech models for spoken commands",
        description="List or install vosk speech models.",
    )
    sub = p.add_subparsers(dest="voice_command", metavar="ACTION")
    m = sub.add_parser("models", help="list the installed models")
    m.set_defaults(func=run_models)
    i = sub.add_parser(
        "install",
        help="download the official small model of a language",
        description="Download, verify and unpack a vosk model into the data "
        "folder (see `katari voice models`).",
    )
    i.add_argument("lang", help="ja, en or ko (with --url: any name)")
    i.add_argument("--url", help="download from here instead (a mirror, a file server)")
    i.add_argument("--sha256", help="expected sha256 of the archive")
    i.add_argument("--name", help="folder name for the model (default: from the archive)")
    i.add_argument("--force", action="store_true", help="replace an installed model")
    i.set_defaults(func=run_install)
    r = sub.add_parser(
        "render",
        help="render a story's narration once into the cache",
        description="Render every line a player can hear into Katari's cache "
        "folder, once per line, voice and text: `katari play --narrate` "
        "then plays those lines at once (others are spoken live). An "
        "edited line is rendered again; a stopped run goes on where it "
        "stopped.",
    )
    r.add_argument("story", help="story file, folder, or shipped story id")
    r.add_argument("--engine", choices=ENGINE_NAMES, help="speech engine (default: the profiles')")
    r.add_argument("--voices", help="a voices file, or a shipped profile name")
    r.add_argument(
        "--voicevox-url",
        metavar="URL",
        help="the VOICEVOX ENGINE's address (default http://127.0.0.1:50021)",
    )
    r.add_argument(
        "--jobs",
        "-j",
        type=_jobs,
        default=1,
        metavar="N",
        help="render N lines at once, in N processes (default 1)",
    )
    r.set_defaults(func=run_render)
    p.set_defaults(func=lambda args: (p.print_help(), 0)[1])


ENGINE_NAMES = ["pyttsx3", "openjtalk", "kokoro", "voicevox"]


def _jobs(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text[:20]!r}") from None
    if not 1 <= n <= 64:
        raise argparse.ArgumentTypeError("must be between 1 and 64")
    return n


def _render_one(job: tuple) -> tuple[str, bytes | None, float, str | None]:
    """In a worker process: (path, WAV bytes, audio seconds, error)."""
    import io
    import wave

    from runner.ui.narrator.cache import render_line
    from runner.ui.narrator.profiles import Profile

    path, text, profile, readings, lang = job
    try:
        clip = render_line(text, Profile(**profile), readings, lang)
    except Exception as e:  # noqa: BLE001 - one line that cannot be said is reported, not fatal
        return path, None, 0.0, f"{type(e).__name__}: {e}".splitlines()[0]
    buf = io.BytesIO()
    with wave.open(buf, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(clip.rate)
        w.writeframes(clip.pcm)
    return path, buf.getvalue(), clip.seconds, None


def run_render(args: argparse.Namespace) -> int:
    import os
    import time
    from pathlib import Path

    from runner.commands._common import open_story
    from runner.ui.files import atomic_write
    from runner.ui.narrator.cache import SEP, _safe, cache_dir, folder_size, line_path, story_lines
    from runner.ui.narrator.engines import EngineError, engine_problem, get_engine, quiet_stdout
    from runner.ui.narrator.narrator import voices_for
    from runner.ui.narrator.profiles import ProfileError
    from runner.ui.narrator.readings import detect_lang

    if args.voicevox_url:
        os.environ["KATARI_VOICEVOX_URL"] = args.voicevox_url
    from runner.folders import cache_dir as katari_cache

    if katari_cache() is None:
        print(
            "katari voice render: the cache is off (KATARI_CACHE=off), so nothing rendered "
            "would be kept; unset KATARI_CACHE or set it to a folder",
            file=sys.stderr,
        )
        return 2
    story = open_story(args.story, "voice render")
    if story is None:
        return 1
    mapping = dict(story.voices or {})
    readings = dict(story.readings or {})
    try:
        voices = voices_for(args.voices, args.engine)
        voices.check_mapping(mapping)
    except ProfileError as e:
        print(f"katari voice render: {e}", file=sys.stderr)
        return 2
    jobs, kept = [], 0
    for line in story_lines(story):
        lang = detect_lang(line.text, story.language or "ja")
        profile = voices.resolve(line.speaker, lang, mapping)
        path = line_path(story.id, line.id, line.text, profile, readings)
        # An older render of this line (its text or readings since edited) goes.
        for old in path.parent.glob(f"{path.name.split(SEP)[0]}{SEP}*.wav"):
            if old != path:
                old.unlink(missing_ok=True)
        if path.is_file():
            kept += 1
            continue
        jobs.append((str(path), line.text, profile.as_dict(), readings, lang))
    engines = sorted({j[2]["engine"] for j in jobs})
    for name in engines:
        problem = engine_problem(name)
        if problem:
            print(f"katari voice render: {problem}", file=sys.stderr)
            return 1
        try:
            with quiet_stdout():
                eng = get_engine(name)
                for j in jobs:
                    if j[2]["engine"] == name:
                        eng.check_voice(j[2]["voice"])
        except EngineError as e:
            print(f"katari voice render: {e}", file=sys.stderr)
            return 1
    total = kept + len(jobs)
    print(
        f"{story.id}: {total} lines; {kept} already rendered, {len(jobs)} to render "
        f"({', '.join(engines) or 'nothing to do'}, {args.jobs} job{'s' if args.jobs > 1 else ''})",
        file=sys.stderr,
    )
    t0 = time.monotonic()
    audio = 0.0
    failed: list[str] = []
    done = 0

    def progress() -> None:
        width = 30
        frac = (kept + done) / total if total else 1.0
        sys.stderr.write(
            f"\r[{'#' * int(frac * width):<{width}}] {kept + done}/{total} lines "
            f"{time.monotonic() - t0:6.1f} s"
        )
        sys.stderr.flush()

    def store(result) -> None:
        nonlocal done, audio
        path, data, seconds, error = result
        done += 1
        if error:
            failed.append(f"{Path(path).name.split(SEP)[0]}: {error}")
        else:
            atomic_write(Path(path), data)  # one line at a time: a stopped run keeps what it made
            audio += seconds
        progress()

    progress()
    try:
        if args.jobs > 1 and len(jobs) > 1:
            from concurrent.futures import ProcessPoolExecutor

            with ProcessPoolExecutor(max_workers=args.jobs) as pool:
                for result in pool.map(_render_one, jobs):
                    store(result)
        else:
            for job in jobs:
                store(_render_one(job))
    except KeyboardInterrupt:
        sys.stderr.write(
            f"\nstopped: {kept + done}/{total} lines are in the cache; run the same "
            "command again to go on\n"
        )
        return 130
    sys.stderr.write("\n")
    story_dir = cache_dir() / "narration" / _safe(story.id)
    spent = time.monotonic() - t0
    print(
        f"rendered {done - len(failed)} lines ({audio:.0f} s of audio) in {spent:.1f} s; "
        f"{kept} were already in the cache"
    )
    print(f"cache: {story_dir} ({folder_size(story_dir) / 1e6:.1f} MB)")
    for f in failed:
        print(f"katari voice render: could not render {f}", file=sys.stderr)
    return 1 if failed else 0


def run_models(args: argparse.Namespace) -> int:
    from runner.ui.listener.models import OFFICIAL, installed_models, models_dir

    found = installed_models()
    print(f"# {models_dir()}")
    if not found:
        print("(no models; install one with `katari voice install ja`)")
    for m in found:
        grammar = "grammar" if m.grammar else "no grammar (big model)"
        print(
            f"{m.lang or '?':3} {m.name:32} {m.source:8} {m.size() / 1e6:7.1f} MB  "
            f"{grammar}  {m.path}"
        )
    have = {m.lang for m in found}
    missing = [
        f"{k} ({o.name}, {o.size / 1e6:.0f} MB)" for k, o in OFFICIAL.items() if k not in have
    ]
    if missing:
        print("# can install: " + ", ".join(missing))
    return 0


def run_install(args: argparse.Namespace) -> int:
    from runner.ui.listener.models import OFFICIAL, InstallError, install, progress_bar

    off = OFFICIAL.get(args.lang)
    if off is None and not args.url:
        print(
            f"katari voice install: no official model for {args.lang!r} "
            f"(known: {', '.join(OFFICIAL)}); give --url",
            file=sys.stderr,
        )
        return 2
    if off is not None and not args.url:
        print(f"{off.name}: {off.size / 1e6:.0f} MB from {off.url}", file=sys.stderr)
    try:
        path = install(
            args.lang if off is not None else None,
            url=args.url,
            sha256=args.sha256,
            name=args.name,
            force=args.force,
            progress=progress_bar(sys.stderr),
        )
    except InstallError as e:
        print(f"\nkatari voice install: {e}", file=sys.stderr)
        return 1
    print(path)
    return 0
