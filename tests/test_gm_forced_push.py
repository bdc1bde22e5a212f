"""A push and a Luck spend follow only a check that FAILED as ruled (Call of Cthulhu 7e).

The table tour: a check the GM forced to succeed (``強制 成功``) still offered the player
「〈目星〉をプッシュする」 and 「幸運を…使って…成功にする」, because the rules remembered the dice's
failure. Now the rules hear the GM's ruling (``RuleSystem.ruled``): a check ruled a success
(or any outcome that is not a failure) offers neither; a check ruled a failure is offered
both exactly as a rolled failure is (docs/gm.md, "Forcing and a push").

Guard: a table over the kinds of checks (skill, hidden, Luck, opposed, Sanity) × the dice
(a success, a failure, a fumble) × every forced outcome, against the rule written out."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from runner.story import load
from runner.ui import jsonl

STORY = """\
story: {id: forced_push, title: 書斎, language: ja, rules: coc7, start: study, options: {pregen: 1}}
characters:
  rat: {name: 大ネズミ, kind: enemy, stats: {耐久力: 5, 近接戦闘: 30, 回避: 20, DEX: 50}}
nodes:
  study:
    title: 書斎
    narration: ["埃っぽい書斎だ。"]
    actions:
      - id: skill
        label: 机を調べる
        check: "coc7.check('目星')"
        outcomes:
          success: {say: 見つけた。}
          failure: {say: 何もない。}
      - id: hidden
        label: 気配を探る
        check: "coc7.hidden_check('聞き耳')"
        outcomes:
          success: {say: 物音がする。}
          failure: {say: 静かだ。}
      - id: luck
        label: 運に任せる
        check: "coc7.luck()"
        outcomes:
          success: {say: 運がいい。}
          failure: {say: 運が悪い。}
      - id: opposed
        label: ネズミと競う
        check: "coc7.opposed('目星', 'rat', '回避')"
        outcomes:
          win: {say: 勝った。}
          otherwise: {say: 負けた。}
      - id: san
        label: 恐ろしいものを見る
        check: "coc7.san('0/1')"
        outcomes:
          success: {say: 耐えた。}
          failure: {say: 震える。}
"""

KINDS = ("skill", "hidden", "luck", "opposed", "san")
FORCED = (None, "critical", "extreme", "hard", "regular", "success", "failure", "fumble")
# The dice: 05 passes every check here, 85 fails them all, 100 is a fumble.
DICE = {"success": "10,5", "failure": "8,5", "fumble": "10,10"}


@pytest.fixture(scope="module")
def story(tmp_path_factory: pytest.TempPathFactory) -> Any:
    d = tmp_path_factory.mktemp("forced_push")
    (d / "story.yaml").write_text(STORY, encoding="utf-8")
    return load(d / "story.yaml")


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KATARI_HOME", str(tmp_path / "home"))


def _offered(story: Any, kind: str, rolled: str, forced: str | None) -> tuple[set[str], Any]:
    """The rules' offers (push, spend_luck) right after ``kind`` is rolled ``rolled`` and
    ruled ``forced``; and the check's roll event."""
    lines = ([f"!force {forced}"] if forced else []) + [f":dice {DICE[rolled]}", kind]
    evs = list(jsonl.turns(story, lines, seed=3, gm=True))
    prompt = [e for e in evs if e["type"] == "prompt"][-1]
    rolls = [e for e in evs if e["type"] == "roll" and e.get("level")]
    assert rolls, evs
    return {a["id"] for a in prompt["actions"]} & {"push", "spend_luck"}, rolls[0]


def _failed_as_ruled(rolled: str, forced: str | None) -> bool:
    return forced in ("failure", "fumble") if forced else rolled != "success"


@pytest.mark.parametrize("forced", FORCED)
@pytest.mark.parametrize("rolled", list(DICE))
@pytest.mark.parametrize("kind", KINDS)
def test_a_push_and_luck_follow_only_a_failure_as_ruled(
    story: Any, kind: str, rolled: str, forced: str | None
) -> None:
    offered, roll = _offered(story, kind, rolled, forced)
    assert roll["total"] == {"success": 5, "failure": 85, "fumble": 100}[rolled]
    # The rule written out: only a skill check (not hidden, not Luck, not opposed, not SAN)
    # that failed as ruled, and not a fumble, may be pushed; Luck buys the margin the dice
    # missed by, so only when the dice missed.
    ruled_fumble = forced == "fumble" or (forced is None and rolled == "fumble")
    push = kind == "skill" and _failed_as_ruled(rolled, forced) and not ruled_fumble
    luck = push and roll["total"] > roll["target"]
    assert offered == ({"push"} if push else set()) | ({"spend_luck"} if luck else set()), (
        kind,
        rolled,
        forced,
        roll,
    )


def test_a_forced_failure_is_pushed_like_a_rolled_one(story: Any) -> None:
    """The push of a check the GM ruled failed re-rolls it and runs the story's outcomes."""
    evs = list(
        jsonl.turns(
            story, ["!force failure", ":dice 10,5", "skill", ":dice 1,0", "push"], seed=3, gm=True
        )
    )
    rolls = [e for e in evs if e["type"] == "roll" and e.get("level")]
    assert [r.get("pushed") for r in rolls] == [False, True]
    assert rolls[1]["success"] is True
    assert any(e.get("text") == "見つけた。" for e in evs if e["type"] == "narration")
