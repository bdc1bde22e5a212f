"""Two dice against a target: the smallest useful rule system (docs/rules-api.md).

``twodice.test(target)`` rolls 2d6 and succeeds when the total reaches ``target``; every
failure costs a point of grit, which ``twodice.grit()`` reads (three to start with). With no
grit left the game ends at the story's ``options: {endings: {exhausted: ID}}``.
"""

from __future__ import annotations

from runner.rules.base import Context, Display, RuleError, RuleSystem, Template

SYSTEM = RuleSystem("twodice", "2d6 against a target")
GRIT = 3


@SYSTEM.hook(outcomes=("success", "failure"))
def test(ctx: Context, target: int, label: str = "") -> str:
    """Rolls 2d6: ``success`` when the total is ``target`` or more, else ``failure`` (and a
    point of grit is lost)."""
    if isinstance(target, bool) or not isinstance(target, int) or not 2 <= target <= 12:
        raise RuleError(f"twodice.test: the target is a whole number from 2 to 12, not {target!r}")
    r = ctx.roll("2d6", label=str(label), target=target)
    if r.total >= target:
        return "success"
    mine = ctx.state.rules.setdefault("twodice", {"grit": GRIT})
    mine["grit"] = max(0, mine["grit"] - 1)
    if mine["grit"] == 0:
        # Out of grit: the game ends at the ending the story names for it, if it names one
        # (story: options: {endings: {exhausted: ID}}, which also tells `katari check` and
        # `katari graph` that the rules reach that ending).
        ending = (ctx.story.options.get("endings") or {}).get("exhausted")
        if ending:
            ctx.end(ending)
    return "failure"


@SYSTEM.hook(pure=True)
def grit(ctx: Context) -> int:
    """The grit left: three at the start, one less for each failed test."""
    return ctx.state.rules.get("twodice", {}).get("grit", GRIT)


def _init(ctx: Context) -> None:
    ctx.state.rules["twodice"] = {"grit": GRIT}


def _view(story, state, gm: bool) -> dict:  # noqa: ANN001 - the contract's types are plain
    return {"twodice": {"grit": state.rules.get("twodice", {}).get("grit", GRIT)}}


SYSTEM.init = _init
SYSTEM.view = _view
SYSTEM.display = Display(labels={"ja": {"grit": "気力"}, "en": {"grit": "grit"}})
SYSTEM.templates["en"] = Template(
    story="""\
story:
  id: {id}
  title: {title}
  language: en
  rules: twodice
  start: wall

nodes:
  wall:
    narration: [A wall of wet stone. The top is far above.]
    actions:
      - id: climb
        label: Climb
        check: "twodice.test(8, 'climb')"
        outcomes:
          success: {{say: You pull yourself over the top., end: over}}
          failure: {{say: You slide back down.}}
      - id: rest
        label: Give up
        when: "twodice.grit() == 0"
        end: tired

endings:
  over: {{kind: good, title: Over the wall}}
  tired: {{kind: bad, title: Too tired}}
""",
    test="""\
# Play-tests: katari test {path}
- name: a 6 and a 5 get over the wall
  commands: [{{command: climb, dice: [6, 5]}}]
  expect:
    - ending: over
- name: three misses and nothing left
  commands:
    - {{command: climb, dice: [1, 1]}}
    - {{command: climb, dice: [2, 1]}}
    - {{command: climb, dice: [1, 3]}}
  expect:
    - after: 1
      offers: [climb]
    - after: 3
      offers: [rest]
""",
)
