"""A small, valid, commented story folder to start from (``katari new``)."""

from __future__ import annotations

import re
from pathlib import Path

_ID = re.compile(r"^[^\W\d][\w\-]*$")

_HEADER = """\
# {title} — a Katari story.
#   katari check {path}          find mistakes (every problem as file:line:column)
#   katari play {path}           play it
#   katari test {path}           run the play-tests in tests/
#   katari graph {path} -o map.html   draw the map (or --format mermaid)
#   katari simulate {path} --runs 500  play 500 games automatically
# The format: docs/authoring.md. Completion in your editor: docs/editor.md.
"""

_NONE = """\
story:
  id: {id}
  title: {title}
  language: ja
  rules: none              # or a rule system: `katari rules` lists them
  start: hall              # the node where play begins
  author: ""
  length: 5分
  description: 小さな館から抜け出す短い話。

clock:                     # optional: in-game time, moved on by actions' cost
  start: "21:00"

variables:                 # everything the story remembers
  candle_lit: false
  courage: {{value: 1, visible: true, label: 勇気}}   # visible: shown to the player

items:
  key: {{name: 古い鍵, description: 錆びた真鍮の鍵。}}

nodes:
  hall:
    kind: place            # place | check | combat | scene
    title: 玄関ホール
    narration:             # read on arrival; a line with `when` only while it is true
      - 埃っぽい玄関ホール。正面に重い扉、右手に書斎へのドアがある。
      - {{when: "not candle_lit", text: 暗くて足元がよく見えない。}}
    keeper:                # notes for a game master only
      - 鍵は書斎の机。蝋燭をつければ必ず見つかる。
    actions:
      - id: light_candle   # ids stay stable; labels are what players see
        label: 蝋燭に火をつける
        aliases: [蝋燭, ろうそく, candle]   # other words that choose it
        once: true         # offered until taken once
        cost: 10           # minutes on the clock
        effects:
          - set: {{candle_lit: true}}
        say: 小さな炎が揺れ、ホールが少し明るくなった。
      - id: study
        label: 書斎へ行く
        aliases: [書斎, しょさい, study]
        goto: study
      - id: open_door
        label: 正面の扉を開ける
        aliases: [扉, とびら, door]
        when: "has('key')"   # hidden until this is true
        say: 鍵が回り、扉がきしみながら開いた。
        end: escaped
      - id: wait
        label: 朝まで待つ
        aliases: [待つ, まつ, wait]
        end: morning

  study:
    title: 書斎
    narration:
      - 本棚に囲まれた狭い書斎。机の引き出しが少し開いている。
    actions:
      - id: search_desk
        label: 机を調べる
        aliases: [机, つくえ, desk]
        when: "not has('key')"
        cost: 10
        check: "candle_lit or roll('1d6') >= 5"   # true runs success, false runs failure
        outcomes:
          success:
            say: 引き出しの奥に古い鍵があった。
            effects:
              - give: key
              - add: {{courage: 1}}
          failure:
            say: 暗くて何も見つからない。明かりがあれば……。
      - id: back
        label: ホールへ戻る
        aliases: [戻る, もどる, back]
        goto: hall

endings:
  escaped:
    kind: good             # good | normal | bad | death | extra | neutral | partial | failure
    title: 脱出
    narration:
      - 夜気が頬をなでる。あなたは館を出た。
  morning:
    kind: normal
    title: 夜明け
    narration:
      - 窓の外が白んできた。扉は朝になっても開かなかった。

events:                    # things that happen at a time, or when a condition comes true
  - id: chime
    title: 柱時計が鳴る          # what the GM panel and the status bar call it
    at: "21:15"
    effects:
      - say: どこかで柱時計が鳴った。
"""

_NONE_TEST = """\
# Play-tests (docs/playtests.md). Run: katari test {path}
- name: 蝋燭をつけて鍵を見つけ、外へ出る
  commands: [light candle, study, search desk, back, open door]
  expect:
    - after: 1
      var: {{candle_lit: true}}
      clock: "21:10"
    - after: 3
      has: key
      var: {{courage: 2}}
      text: 柱時計が鳴った
    - ending: escaped

- name: 暗いままでも、運がよければ見つかる
  dice: [5]                # the d6 of the desk's check shows 5
  commands: [study, search desk]
  expect:
    - has: key
      text: 古い鍵があった

- name: 暗いと見つからないこともある
  dice: [2]
  commands: [study, search desk]
  expect:
    - lacks: key
      node: study
      offers: [search_desk]

- name: 待てば夜明け
  commands: [wait]
  expect:
    - ending: morning
"""

_NONE_EN = """\
story:
  id: {id}
  title: {title}
  language: en
  rules: none              # or a rule system: `katari rules` lists them
  start: hall              # the node where play begins
  author: ""
  length: 5 minutes
  description: A short escape from a small old house.

clock:                     # optional: in-game time, moved on by actions' cost
  start: "21:00"

variables:                 # everything the story remembers
  candle_lit: false
  courage: {{value: 1, visible: true, label: Courage}}   # visible: shown to the player

items:
  key: {{name: old key, description: A rusty brass key.}}

nodes:
  hall:
    kind: place            # place | check | combat | scene
    title: Entrance hall
    narration:             # read on arrival; a line with `when` only while it is true
      - A dusty entrance hall. A heavy door ahead, a study to the right.
      - {{when: "not candle_lit", text: It is too dark to see your feet.}}
    keeper:                # notes for a game master only
      - The key is in the study desk. With the candle lit it is always found.
    actions:
      - id: light_candle   # ids stay stable; labels are what players see
        label: Light the candle
        aliases: [candle, light]   # other words that choose it
        once: true         # offered until taken once
        cost: 10           # minutes on the clock
        effects:
          - set: {{candle_lit: true}}
        say: A small flame wavers; the hall grows a little brighter.
      - id: study
        label: Go to the study
        aliases: [study]
        goto: study
      - id: open_door
        label: Open the front door
        aliases: [door]
        when: "has('key')"   # hidden until this is true
        say: The key turns and the door creaks open.
        end: escaped
      - id: wait
        label: Wait for morning
        aliases: [wait]
        end: morning

  study:
    title: Study
    narration:
      - A narrow study lined with shelves. A desk drawer stands ajar.
    actions:
      - id: search_desk
        label: Search the desk
        aliases: [desk, search]
        when: "not has('key')"
        cost: 10
        check: "candle_lit or roll('1d6') >= 5"   # true runs success, false runs failure
        outcomes:
          success:
            say: At the back of the drawer lies an old key.
            effects:
              - give: key
              - add: {{courage: 1}}
          failure:
            say: Too dark to find anything. If only you had a light...
      - id: back
        label: Back to the hall
        aliases: [back, hall]
        goto: hall

endings:
  escaped:
    kind: good             # good | normal | bad | death | extra | neutral | partial | failure
    title: Out
    narration:
      - The night air touches your face. You are out of the house.
  morning:
    kind: normal
    title: Dawn
    narration:
      - The windows pale. Morning came, and the door stayed shut.

events:                    # things that happen at a time, or when a condition comes true
  - id: chime
    title: The clock strikes     # what the GM panel and the status bar call it
    at: "21:15"
    effects:
      - say: Somewhere a grandfather clock strikes.
"""

_NONE_EN_TEST = """\
# Play-tests (docs/playtests.md). Run: katari test {path}
- name: light the candle, find the key, get out
  commands: [light candle, study, search desk, back, open door]
  expect:
    - after: 1
      var: {{candle_lit: true}}
      clock: "21:10"
    - after: 3
      has: key
      var: {{courage: 2}}
      text: grandfather clock strikes
    - ending: escaped

- name: in the dark, luck may still find it
  dice: [5]                # the d6 of the desk's check shows 5
  commands: [study, search desk]
  expect:
    - has: key
      text: an old key

- name: in the dark it may not be found
  dice: [2]
  commands: [study, search desk]
  expect:
    - lacks: key
      node: study
      offers: [search_desk]

- name: waiting brings the morning
  commands: [wait]
  expect:
    - ending: morning
"""

BUILT_IN = {"ja": (_NONE, _NONE_TEST), "en": (_NONE_EN, _NONE_EN_TEST)}
"""``rules: none``: Katari's own template. A rule system brings its own (RuleSystem.templates)."""
LANGS = ("ja", "en")


class ScaffoldError(ValueError):
    pass


def templates(rules: str) -> dict[str, tuple[str, str]]:
    """The templates of ``rules`` by language: (story text, play-test text)."""
    if rules == "none":
        return dict(BUILT_IN)
    from runner.rules import BrokenRules, UnknownRules, system

    try:
        rs = system(rules)
    except (UnknownRules, BrokenRules):
        return {}
    return {lang: (t.story, t.test) for lang, t in rs.templates.items()}


def offered() -> list[str]:
    """The rule systems ``katari new --rules`` can start a story with (the installed ones
    that bring a template)."""
    from runner.rules import names

    return [n for n in names() if templates(n)]


def no_template(rules: str) -> str:
    """Why ``katari new --rules RULES`` has no template to write, in one line: the system is
    installed but brings none, it cannot be loaded (and why), or none has that name."""
    from runner.rules import BrokenRules, UnknownRules, names, system
    from runner.story.checker import closest

    with_one = ", ".join(offered())
    try:
        system(rules)
    except BrokenRules as e:
        return f"{e}; the systems with a template: {with_one}"
    except UnknownRules:
        near = closest(rules, names())
        hint = f" (did you mean {near!r}?)" if near else ""
        return f"unknown rule system {rules!r}{hint}; the systems with a template: {with_one}"
    return (
        f"rule system {rules!r} is installed but has no template for katari new;"
        f" the systems with one: {with_one}"
    )


def new_story(
    name: str, *, rules: str = "none", parent: str | Path = ".", title: str = "", lang: str = "ja"
) -> Path:
    """Writes ``parent/name/story.yaml`` and ``tests/smoke.yaml`` (in Japanese, or with
    ``lang="en"`` an English story, ``language: en``, where the rule system has one; else in
    the language it has); returns the folder."""
    found = templates(rules)
    if not found:
        raise ScaffoldError(no_template(rules))
    if lang not in LANGS:
        raise ScaffoldError(f"unknown language {lang!r}: one of {', '.join(LANGS)}")
    # `katari new stories/my_story` means that folder, not ./my_story: the id is the last part.
    folder = Path(parent) / name
    sid = folder.name
    if not _ID.match(sid):
        raise ScaffoldError(
            f"{sid!r} cannot be a story id: use letters, digits, _ and - "
            "(starting with a letter), e.g. my_story"
        )
    if folder.exists() and any(folder.iterdir()):
        raise ScaffoldError(f"{folder} already exists and is not empty")
    story_t, test_t = found.get(lang) or next(iter(found.values()))
    title = title or sid.replace("_", " ").replace("-", " ")
    shown = str(folder)
    (folder / "tests").mkdir(parents=True, exist_ok=True)
    head = _HEADER.format(title=title, path=shown)
    body = story_t.format(id=sid, title=_yaml_text(title))
    (folder / "story.yaml").write_text(head + "\n" + body, encoding="utf-8")
    (folder / "tests" / "smoke.yaml").write_text(test_t.format(path=shown), encoding="utf-8")
    return folder


def _yaml_text(s: str) -> str:
    """A title as a YAML scalar: quoted when plain text would be read as something else."""
    import json

    plain = re.fullmatch(r"[^\s\-?:,\[\]{}#&*!|>'\"%@`][^:#\n]*", s) and not s.endswith(" ")
    return (
        s
        if plain and s.lower() not in ("true", "false", "null", "yes", "no", "on", "off")
        else json.dumps(s, ensure_ascii=False)
    )
