"""A GM's 強制 (force): every outcome the refusal lists is shown by a name the GM can type
back, and typing it back is accepted (a story's own outcome ``loud_noise`` was listed as
"loud noise" and then refused as two words).

Guard: for every shipped story, in every language it is played in, and for a story with its
own outcome keys, each name the GM's refusal lists, typed back as the console sends it, is
accepted as that outcome."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import katari

from runner.engine import new_game, step
from runner.engine.gm import outcome_keys
from runner.stories import shipped
from runner.story import load
from runner.story import translate as T
from runner.ui.render import code_text, outcome_key

OWN = """\
story: {id: s, title: 扉, language: ja, rules: none, start: a}
variables:
  mood: {value: "'calm'"}
nodes:
  a:
    title: 部屋
    narration: [扉がある。]
    actions:
      - id: knock
        label: 扉を叩く
        check: "mood"
        outcomes:
          Calm: [{say: 静かだ。}]
          loud_noise: [{say: 大きな音がした。}]
          怒り: [{say: 怒鳴り声。}]
      - {id: e, label: 終わる, end: out}
endings:
  out: {kind: good, title: 終}
"""


def editions(extra: Path) -> list[tuple[str, object, str]]:
    out = []
    for path in [*shipped(), extra]:
        story = load(path)
        for lang in dict.fromkeys([story.language, *T.languages(story)]):
            shown = story if lang == story.language else T.apply(story, lang)
            out.append((f"{story.id}-{lang}", shown, lang))
    return out


def listed(story, lang: str) -> list[str]:
    """The names the GM's refusal of an outcome no check has lists, as the console says it."""
    state, _ = new_game(story, seed=1, gm=True)
    _, events = step(story, state, "!force ほげ", gm=True)
    err = next(e for e in events if e["type"] == "error")
    assert err["code"] == "gm_force_unknown"
    line = code_text(err, lang, story)
    assert line is not None
    names = line.split("：" if lang == "ja" else "Outcomes: ")[-1]
    return re.split("、" if lang == "ja" else ", ", names)


def test_each_listed_outcome_is_accepted_back(tmp_path: Path) -> None:
    (tmp_path / "s.yaml").write_text(OWN, encoding="utf-8")
    for name, story, lang in editions(tmp_path / "s.yaml"):
        names = listed(story, lang)
        keys = outcome_keys(story)
        assert len(names) == len(keys), (name, names, keys)
        state, _ = new_game(story, seed=1, gm=True)
        for shown, key in zip(names, keys, strict=True):
            # as the console sends it: 強制 NAME -> !force KEY (runner.ui.console.gm)
            typed = "!force " + outcome_key(shown, lang, story.rules)
            _, events = step(story, state, typed, gm=True)
            assert [e["type"] for e in events if e["type"] in ("override", "error")] == [
                "override"
            ], (name, shown, events)
            ov = next(e for e in events if e["type"] == "override")
            assert ov["data"]["value"] == key, (name, shown, ov)


@pytest.mark.parametrize("typed", ["loud noise", "Loud_Noise", "calm", "怒り"])
def test_a_storys_own_outcome_typed_at_the_console(tmp_path: Path, typed: str) -> None:
    (tmp_path / "s.yaml").write_text(OWN, encoding="utf-8")
    out = katari(
        "play",
        str(tmp_path / "s.yaml"),
        "--gm",
        "--new",
        stdin=f"強制 {typed}\n1\n",
        home=tmp_path / "home",
    )
    assert out.returncode == 0, out.stderr
    assert "次の判定の結果を「" in out.stdout and "使い方" not in out.stdout, out.stdout
    said = {
        "loud noise": "大きな音",
        "Loud_Noise": "大きな音",
        "calm": "静かだ",
        "怒り": "怒鳴り声",
    }
    assert said[typed] in out.stdout
