"""An investigator's death always shows what killed them (issue #13, the table tour's item 4):
an extreme blow does maximum damage without rolling, and that killed with no damage on the
screen at all (「…叩く … extreme success」 then 「致命的な一撃を受け、命を落とした」).

Guard: over random games of the deep-sea story, every turn in which an investigator dies
shows, before the death, the roll that decided it (the damage, rolled or the rules' maximum,
or the dying's CON roll) and the death line names the damage or the rule."""

from __future__ import annotations

import io
import random
import re
from pathlib import Path

from runner.engine import available, new_game, step
from runner.story import load
from runner.ui.console import PlainIO, Repl
from runner.ui.render import Renderer, plain

ROOT = Path(__file__).resolve().parent.parent
DEEP = ROOT / "stories" / "deep_sea_atelier"
_DEATHS = ("命を落とした", "息絶えた", "息を引き取った")
_AMOUNT = re.compile(r"\d+ ダメージ")


def _dead(st) -> bool:
    return any(
        isinstance(s, dict)
        and s.get("kind") == "investigator"
        and (s.get("cond") or {}).get("dead")
        for s in st.stats.values()
    )


def test_every_death_shows_the_roll_and_the_rule_that_killed() -> None:
    story = load(DEEP)
    deaths = maximum = 0
    for seed in range(600):
        rnd = random.Random(seed)
        st, _ = new_game(story, seed)
        while st.ending is None and st.turn < 150 and not _dead(st):
            offered = [c for c in available(story, st) if c.n]
            if not offered:
                break
            st, events = step(story, st, rnd.choice(offered))
            if not _dead(st):
                continue
            deaths += 1
            at = next(
                i
                for i, e in enumerate(events)
                if e["type"] == "narration" and any(w in e["text"] for w in _DEATHS)
            )
            rolls = [e for e in events[:at] if e["type"] == "roll"]
            assert rolls, f"seed {seed}: a death with no roll before it: {events[at]['text']}"
            last = rolls[-1]
            maximum += bool(last.get("maximum"))
            shown = plain(Renderer(story, lang="ja").event(last))
            assert "→" in shown and str(last["total"]) in shown, shown
            line = events[at]["text"]
            assert _AMOUNT.search(line) or "CON" in str(last.get("label")), (seed, line)
    assert deaths > 20 and maximum > 0, (deaths, maximum)


def test_the_extreme_blow_of_the_table_tour_shows_its_damage_and_the_rule_in_english(
    tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.setenv("KATARI_HOME", str(tmp_path / "home"))
    lines = "4 2 1 g g g g 3 1 back 5 3 7 3 3 7 1 3 1".split() + ["1"] * 10
    out = io.StringIO()
    repl = Repl(
        load(DEEP),
        io=PlainIO(io.StringIO("\n".join(lines) + "\n"), out, cols=200),
        new=True,
        seed=9,
        lang="en",
    )
    repl.run()
    text = out.getvalue()
    assert repl.state.ending == "death"
    end = text.index("a fatal blow, and dies.")
    before = text[:end]
    assert (
        "extreme success: maximum" in before.split("extreme success\n")[-1]
        or "最大" in before[-200:]
    )
    assert "takes 10 damage in one blow, at least their maximum HP (9)" in text
    assert "Combat! Order:" in text and "戦闘開始" not in text
    # The status, in English too (the console's pipe prints it after every turn).
    import subprocess
    import sys

    p = subprocess.run(
        [sys.executable, "-m", "runner", "play", str(DEEP), "--lang", "en", "--seed", "9", "--new"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        env={**__import__("os").environ, "KATARI_HOME": str(tmp_path / "home2")},
    )
    assert "conditions dead" in p.stdout and "conditions 死亡" not in p.stdout
