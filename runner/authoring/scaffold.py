"""A small, valid, commented story folder to start from (``katari new``)."""

from __future__ import annotations

import re
from pathlib import Path

RULES = ("none", "coc7", "ureg")
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
  rules: none              # coc7 | ureg | ktane | none
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

_COC7 = """\
story:
  id: {id}
  title: {title}
  language: ja
  rules: coc7              # Call of Cthulhu 7th: coc7.check, coc7.san, ... (docs/rules-coc7.md)
  start: study
  author: ""
  length: 10分
  description: 亡くなった叔父の書斎で、一冊の手記を探す。
  options:
    pregen: 1              # play the first ready-made investigator (katari rules coc7 for more)


variables:
  found: false

nodes:
  study:
    title: 叔父の書斎
    narration:
      - 叔父の書斎は、亡くなった日のままになっている。机、本棚、閉じたカーテン。
    keeper:
      - 手記は本棚の裏。〈目星〉で見つかる。失敗しても何度でも探せる。
    actions:
      - id: search
        label: 本棚を調べる
        aliases: [本棚, ほんだな, 目星, search]
        when: "not found"
        check: "coc7.check('目星')"      # returns outcome keys: critical, extreme, hard, regular, success / failure, fumble
        outcomes:
          success:
            say: 本棚の裏に、革表紙の手記が挟まっていた。
            effects:
              - set: {{found: true}}
          fumble:
            say: 本棚を揺らしてしまい、埃が舞い上がった。
          failure:
            say: 背表紙を眺めるが、何も目に留まらない。
      - id: read
        label: 手記を読む
        aliases: [読む, よむ, read]
        when: "found"
        say: 震える文字で、海の底から聞こえる歌のことが書かれていた。
        end: truth
      - id: leave
        label: 書斎を出る
        aliases: [出る, でる, leave]
        end: left

endings:
  truth: {{kind: good, title: 手記, narration: [あなたは叔父が何を見たのかを知った。]}}
  left: {{kind: normal, title: 書斎を後に, narration: [あなたは扉を閉め、書斎を後にした。]}}
"""

_COC7_TEST = """\
# Play-tests (docs/playtests.md). Run: katari test {path}
# Percentile dice are two d10 faces: tens first, then units; a 10 reads 0.
# 01 is always a critical success and 100 (10, 10) always a fumble, whatever the skill.
- name: 目星に成功して手記を読む
  dice: [10, 1]            # 01: critical
  commands: [search, read]
  expect:
    - after: 1
      var: {{found: true}}
    - ending: truth

- name: ファンブルしても探し直せる
  dice: [10, 10, 10, 1]    # 100 fumbles, then 01 succeeds
  commands: [search, search]
  expect:
    - after: 1
      var: {{found: false}}
      text: 埃が舞い上がった
    - var: {{found: true}}
"""

_UREG = """\
story:
  id: {id}
  title: {title}
  language: ja
  rules: ureg              # UREG: abilities, reach and obstacles (docs/rules-ureg.md)
  start: cell
  author: ""
  length: 5分
  description: 閉じ込められた小部屋から出る。
  credits:
    - 「cc-by UREGベーシック Yasuda Lin」を参考にしました。   # required by the UREG licence

characters:
  pc:
    name: 脱出者
    kind: pc
    stats: {{abilities: "○閃き ×平凡"}}   # one ○ ability and one × ability

variables:
  looked: false

items:
  key: {{name: 小さな鍵}}

nodes:
  cell:
    title: 小部屋
    narration:
      - 窓のない小部屋。扉には鍵がかかっている。
    actions:
      - id: look
        label: 部屋を調べる
        aliases: [調べる, しらべる, look]
        once: true
        effects:
          - set: {{looked: true}}
        say: 床板の一枚が浮いている。
      - id: floor
        label: 浮いた床板をはがす
        aliases: [床板, ゆかいた, floor]
        when: "looked and not has('key')"
        effects:
          - give: key
        say: 床板の下に小さな鍵があった。
      - id: idea
        label: 〈○閃き〉で考える
        aliases: [閃き, ひらめき, idea]
        when: "ureg.has('閃き') and not looked"
        say: 足元の床がなんだか気になる。
      - id: open
        label: 扉を開ける
        aliases: [扉, とびら, open]
        when: "has('key')"
        end: full_victory

endings:
  full_victory: {{kind: good, title: 脱出成功, narration: [扉の向こうは見慣れた廊下だった。]}}
"""

_UREG_TEST = """\
# Play-tests (docs/playtests.md). Run: katari test {path}
- name: 床下の鍵で脱出
  commands: [look, floor, open]
  expect:
    - after: 0
      offers: [idea]
    - after: 2
      has: key
    - ending: full_victory
"""

TEMPLATES = {"none": (_NONE, _NONE_TEST), "coc7": (_COC7, _COC7_TEST), "ureg": (_UREG, _UREG_TEST)}


class ScaffoldError(ValueError):
    pass


def new_story(name: str, *, rules: str = "none", parent: str | Path = ".", title: str = "") -> Path:
    """Writes ``parent/name/story.yaml`` and ``tests/smoke.yaml``; returns the folder."""
    if rules not in TEMPLATES:
        raise ScaffoldError(f"unknown rules {rules!r}: one of {', '.join(TEMPLATES)}")
    # `katari new stories/my_story` means that folder, not ./my_story: the id is the last part.
    folder = Path(parent) / name
    sid = folder.name
    if not _ID.match(sid):
        raise ScaffoldError(f"{sid!r} cannot be a story id: use letters, digits, _ and - "
                            "(starting with a letter), e.g. my_story")
    if folder.exists() and any(folder.iterdir()):
        raise ScaffoldError(f"{folder} already exists and is not empty")
    story_t, test_t = TEMPLATES[rules]
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
    return s if plain and s.lower() not in ("true", "false", "null", "yes", "no", "on", "off") else json.dumps(s, ensure_ascii=False)
