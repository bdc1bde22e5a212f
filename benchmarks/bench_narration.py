"""Time from a narration event to the first audio sample written, per engine, on a long passage.

    python benchmarks/bench_narration.py [--story DIR | --text-file FILE] [--runs 3] [--output dir:/tmp/x]

Engines, side by side in one run: espeak-ng (pyttsx3), Open JTalk, kokoro spoken live, and
kokoro played from the render cache (`katari voice render`: the line rendered once
beforehand, into a temporary cache folder here). An engine that is not installed is skipped
with its one-line reason.

By default the passage is the longest narration line of stories/deep_sea_atelier (every
node's, ending's and action outcome's ``say`` text, with the story's readings).

The event goes through the real path: narrate_events → Narrator → worker process → reading →
first sentence synthesised → first sample handed to the player. By default the player is the
real-time WAV sink (no sound card needed); ``--output default`` uses aplay.
Also printed, for comparison: synthesising the whole passage at once in this process (what the
first sample would wait for without sentence splitting) and its real-time factor.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from runner.ui.narrator import make_narrator, narrate_events  # noqa: E402
from runner.ui.narrator.engines import engine_problem, get_engine, quiet_stdout  # noqa: E402
from runner.ui.narrator.narrator import voices_for  # noqa: E402
from runner.ui.narrator.readings import reading_for  # noqa: E402

PASSAGE = (
    "潜水艇の窓の外は、墨を流したような闇だった。探照灯の細い光の中を、白い塵がゆっくりと昇っていく。"
    "深度計の針は三千メートルを越え、船体のどこかが低く軋んだ。通信士が顔を上げ、聞こえたかと小声で尋ねる。"
    "誰も答えない。耳を澄ますと、規則正しい音が確かに届いていた。金属の壁を、外から叩く音だ。"
    "一度、二度、そして三度。まるで中にいる者の数を数えているかのように。"
    "操縦士は震える指で照明を消した。闇の向こうで、何か大きなものが向きを変える気配がした。"
    "やがて窓のすぐ外を、青白く光る無数の吸盤が、音もなく滑っていった。"
    "艇長は息を殺したまま、帰還の手順を思い出そうとしたが、頭の中には叩く音だけが響いていた。"
)


def longest_passage(story_dir: Path) -> tuple[str, str, dict]:
    """(line id, text, readings) of the longest narration text in a story."""
    from runner.story import load

    story = load(story_dir)
    best: tuple[str, str] = ("", "")

    def visit(lines, where: str) -> None:
        nonlocal best
        for i, n in enumerate(lines or (), 1):
            if getattr(n, "keeper", False):
                continue  # never spoken
            text = getattr(n, "text", "") or ""
            if len(text) > len(best[1]):
                best = (getattr(n, "id", None) or f"{where}.{i}", text)

    def walk_effects(effects, where: str) -> None:
        for e in effects or ():
            if not isinstance(e, tuple) or not e:
                continue
            if e[0] == "say":
                visit(e[1], where)
            for part in e[1:]:
                if isinstance(part, tuple):
                    walk_effects(part, where)

    for nid, node in story.nodes.items():
        visit(node.narration, nid)
        walk_effects(node.on_enter, nid)
        for a in node.actions:
            walk_effects(a.effects, f"{nid}.{a.id}")
            walk_effects(a.after, f"{nid}.{a.id}")
            for o in a.outcomes:
                walk_effects(o.effects, f"{nid}.{a.id}.{o.key}")
    for eid, e in story.endings.items():
        visit(e.narration, eid)
    for ev in story.events:
        walk_effects(ev.effects, f"event.{ev.id}")
    return best[0], best[1], dict(story.readings or {})


def bench_engine(
    engine: str, text: str, runs: int, output: str | None, readings: dict | None = None
) -> dict | str:
    cached = engine.endswith("-cached")
    engine = engine.removesuffix("-cached")
    problem = engine_problem(engine, needs_kana=engine == "pyttsx3")
    if problem:
        return problem
    voices = voices_for(None, engine)
    profile = voices.resolve("narrator", "ja")
    with quiet_stdout():
        t = time.perf_counter()
        reading = reading_for(text, readings, engine, "ja")
        t_reading = time.perf_counter() - t
        eng = get_engine(engine)
        eng.synth(reading[:20], profile)  # warm up (dictionary, HTS voice, the kokoro model)
    sink = tempfile.mkdtemp(prefix="katari-bench-")
    t_render = None
    if cached:
        # `katari voice render` for this one line: sentence by sentence, into the cache.
        from runner.ui.narrator.audio import write_wav
        from runner.ui.narrator.cache import line_path, render_line

        t = time.perf_counter()
        with quiet_stdout():
            clip = render_line(text, profile, readings, "ja")
        t_whole = t_render = time.perf_counter() - t
        write_wav(line_path("bench", "bench", text, profile, readings), clip)
    else:
        with quiet_stdout():
            t = time.perf_counter()
            clip = eng.synth(reading, profile)
            t_whole = time.perf_counter() - t
    t = time.perf_counter()
    n, msg = make_narrator(
        voices=voices,
        output=output or f"dir:{sink}",
        readings=readings,
        story="bench" if cached else None,
    )
    t_start = time.perf_counter() - t
    if msg:
        return msg
    latencies = []
    try:
        event = {"type": "narration", "text": text, "speaker": "narrator", "id": "bench"}
        for _ in range(runs):
            t0 = time.monotonic()
            narrate_events(n, [event])
            first = n.wait(op="first", timeout=120)
            if not first:
                return "no audio within 120 s"
            latencies.append(first["at"] - t0)
            n.skip(all=True)
            n.wait(timeout=30)
    finally:
        n.close()
    return {
        "chars": len(text),
        "reading_s": t_reading,
        "whole_synth_s": t_whole,
        "audio_s": clip.seconds,
        "rate": clip.rate,
        "worker_start_s": t_start,
        "first_sample_s": latencies,
        "render_s": t_render,
    }


ENGINES = ["pyttsx3", "openjtalk", "kokoro", "kokoro-cached"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--text-file", help="a UTF-8 file holding the passage to read")
    ap.add_argument(
        "--story",
        default=str(Path(__file__).resolve().parents[1] / "stories" / "deep_sea_atelier"),
        help="take the story's longest narration line (default: deep_sea_atelier)",
    )
    ap.add_argument("--fixed", action="store_true", help="the built-in 297-character passage")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--engine", action="append", choices=ENGINES)
    ap.add_argument(
        "--output", help="player: dir:FOLDER (default, a temp folder) or default/alsa:DEV"
    )
    a = ap.parse_args()
    readings: dict = {}
    if a.text_file:
        text, where = Path(a.text_file).read_text(encoding="utf-8").strip(), a.text_file
    elif a.fixed:
        text, where = PASSAGE, "built-in passage"
    else:
        line_id, text, readings = longest_passage(Path(a.story))
        where = f"{Path(a.story).name}: {line_id} (the longest narration line)"
    print(f"passage: {where}, {len(text)} characters; {a.runs} runs per engine")
    import os

    # The render cache of the kokoro-cached run is a temporary folder; the kokoro model is
    # joined where the player's would be (so a second run does not pay for it again).
    os.environ.setdefault(
        "KOKORO_JA_CACHE", str(Path(os.environ.get("KATARI_CACHE") or voices_cache()) / "kokoro")
    )
    os.environ["KATARI_CACHE"] = tempfile.mkdtemp(prefix="katari-bench-cache-")
    for engine in a.engine or ENGINES:
        r = bench_engine(engine, text, a.runs, a.output, readings)
        if isinstance(r, str):
            print(f"{engine:<13} skipped: {r}")
            continue
        lat = r["first_sample_s"]
        print(
            f"{engine:<13} event→first sample: median {statistics.median(lat) * 1000:7.1f} ms "
            f"(min {min(lat) * 1000:.1f}, max {max(lat) * 1000:.1f})"
        )
        if r["render_s"] is not None:
            print(f"{'':<13} rendered into the cache beforehand in {r['render_s']:.1f} s")
        print(
            f"{'':<13} whole passage at once: {r['whole_synth_s'] * 1000:7.1f} ms for "
            f"{r['audio_s']:.1f} s of audio at {r['rate']} Hz (real-time factor "
            f"{r['whole_synth_s'] / r['audio_s']:.3f}); reading {r['reading_s'] * 1000:.1f} ms; "
            f"worker start {r['worker_start_s']:.2f} s"
        )
    return 0


def voices_cache() -> Path:
    from runner.ui.narrator.cache import cache_dir

    return cache_dir()


if __name__ == "__main__":
    raise SystemExit(main())
