"""`katari voices`: the voices each installed engine offers, and the shipped voice profiles."""

from __future__ import annotations

import argparse

ABOUT = {
    "pyttsx3": (
        "espeak-ng through pyttsx3",
        "robotic but clear; Japanese from kana, English too",
        "instant (~40 ms to the first sound), ~5 MB, apt-get install espeak-ng",
    ),
    "openjtalk": (
        "Open JTalk, HTS voice Mei",
        "natural Japanese, a little synthetic; Japanese only",
        "fast (~0.2 s to the first sound), in pyopenjtalk-plus (katari[voice])",
    ),
    "kokoro": (
        "Kokoro-82M, a neural voice",
        "the most natural offline Japanese; Japanese only",
        "10-20x slower than Open JTalk on a CPU (seconds a sentence): render once with "
        "`katari voice render`; ~92 MB of weights + onnxruntime, pip install 'katari[neural]'",
    ),
    "voicevox": (
        "a VOICEVOX ENGINE you run yourself",
        "the voices Japanese tables know (ずんだもん…); each character must be credited",
        "as fast as your VOICEVOX ENGINE; nothing to "
        "install in Katari (--voicevox-url, default http://127.0.0.1:50021)",
    ),
}


def register(sub) -> None:
    p = sub.add_parser(
        "voices",
        help="list speech engines, their voices and costs, and the voice profiles",
        description="List each speech engine (what it costs and sounds like), its "
        "voices and the credits they need, and the profiles in voices/*.yaml.",
    )
    p.add_argument("--lang", help="only voices for this language (e.g. ja, en)")
    p.add_argument("--voicevox-url", metavar="URL", help="the VOICEVOX ENGINE's address")
    p.set_defaults(func=run)


def _head(name: str, problem: str | None) -> None:
    what, sound, cost = ABOUT[name]
    print(f"{name}: {what}" + ("" if problem is None else "  [not available]"))
    print(f"  sounds: {sound}")
    print(f"  costs:  {cost}")
    if problem:
        print(f"  not available: {problem}")


def run(args: argparse.Namespace) -> int:
    import os

    from runner.ui.narrator.engines import (
        KOKORO_CREDIT,
        KOKORO_VOICES,
        MEI_CREDIT,
        EngineError,
        engine_problem,
        get_engine,
        quiet_stdout,
    )
    from runner.ui.narrator.profiles import ProfileError, load_voices, shipped

    if getattr(args, "voicevox_url", None):
        os.environ["KATARI_VOICEVOX_URL"] = args.voicevox_url
    lang = (args.lang or "").lower()
    problem = engine_problem("pyttsx3")
    _head("pyttsx3", problem)
    if not problem:
        try:
            with quiet_stdout():
                vs = get_engine("pyttsx3").voices()
        except EngineError as e:
            vs = []
            print(f"  not available: {e}")
        shown = 0
        for v in vs:
            langs = ",".join(v["languages"])
            if lang and not any(x.lower().split("-")[0] == lang for x in v["languages"]):
                continue
            base = v["id"].rsplit("/", 1)[-1]
            print(f"  {base:<18} {v['name']:<36} {langs}")
            shown += 1
        if vs:
            print(f"  ({shown} voices; add a variant with +, e.g. ja+f3, en-us+m3)")
    ja = not lang or lang == "ja"
    problem = engine_problem("openjtalk")
    _head("openjtalk", problem)
    if not problem and ja:
        print(f"  {'mei':<18} {'Mei (mei_normal)':<36} ja")
        print(f"  credit: {MEI_CREDIT}")
    problem = engine_problem("kokoro")
    _head("kokoro", problem)
    if ja:
        for v, d in KOKORO_VOICES.items():
            print(f"  {v:<18} {d:<36} ja")
        print(f"  credit: {KOKORO_CREDIT}")
    from runner.ui.narrator.voicevox import credit, engine_url

    problem = engine_problem("voicevox")
    _head("voicevox", problem)
    if not problem and ja:
        try:
            eng = get_engine("voicevox")
            for i, name, style in eng.styles():
                print(f"  {i:<4} {name + ':' + style:<30} credit: {credit(name)}")
        except EngineError as e:
            print(f"  not available: {e}")
    elif ja:
        print(f"  (start a VOICEVOX ENGINE at {engine_url()} to list its voices)")
    print("profiles (--voices NAME or FILE; --engine NAME picks the engine's own):")
    for name, path in shipped().items():
        try:
            v = load_voices(path)
        except ProfileError as e:
            print(f"  {name}: broken: {e}")
            continue
        print(f"  {name}: {v.description}")
        for pname, by_lang in v.profiles.items():
            desc = "; ".join(
                f"{lg} {p.engine}/{p.voice} rate {p.rate:g} pitch {p.pitch:+g}"
                for lg, p in by_lang.items()
                if not lang or lg == lang
            )
            print(f"    {pname:<9} {desc}")
        vv = sorted(
            {
                p.voice.partition(":")[0]
                for langs in v.profiles.values()
                for p in langs.values()
                if p.engine == "voicevox" and not p.voice.isdigit()
            }
        )
        if vv:
            print(f"    credits: {', '.join(credit(n) for n in vv)}")
    return 0
