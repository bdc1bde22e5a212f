"""`katari voices`: the voices each installed engine offers, and the shipped voice profiles."""

from __future__ import annotations

import argparse


def register(sub) -> None:
    p = sub.add_parser("voices", help="list speech engines' voices and the shipped voice profiles",
                       description="List the voices of pyttsx3 (espeak-ng) and Open JTalk, and "
                                   "the profiles in voices/*.yaml.")
    p.add_argument("--lang", help="only voices for this language (e.g. ja, en)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from runner.ui.narrator.engines import (
        MEI_CREDIT,
        EngineError,
        engine_problem,
        get_engine,
        quiet_stdout,
    )
    from runner.ui.narrator.profiles import ProfileError, load_voices, shipped

    lang = (args.lang or "").lower()
    print("pyttsx3 (espeak-ng):")
    problem = engine_problem("pyttsx3")
    if problem:
        print(f"  not available: {problem}")
    else:
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
    print("openjtalk (Open JTalk, Japanese only):")
    problem = engine_problem("openjtalk")
    if problem:
        print(f"  not available: {problem}")
    elif not lang or lang == "ja":
        print(f"  {'mei':<18} {'Mei (mei_normal)':<36} ja")
        print(f"  credit: {MEI_CREDIT}")
    print("profiles (--voices NAME or FILE):")
    for name, path in shipped().items():
        try:
            v = load_voices(path)
        except ProfileError as e:
            print(f"  {name}: broken: {e}")
            continue
        print(f"  {name}: {v.description}")
        for pname, langs in v.profiles.items():
            desc = "; ".join(f"{lg} {p.engine}/{p.voice} rate {p.rate:g} pitch {p.pitch:+g}"
                             for lg, p in langs.items())
            print(f"    {pname:<9} {desc}")
    return 0
