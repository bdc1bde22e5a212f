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

_NONE_EN = """\
story:
  id: {id}
  title: {title}
  language: en
  rules: none              # coc7 | ureg | ktane | none
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

_COC7_EN = """\
story:
  id: {id}
  title: {title}
  language: en
  rules: coc7              # Call of Cthulhu 7th: coc7.check, coc7.san, ... (docs/rules-coc7.md)
  start: study
  author: ""
  length: 10 minutes
  description: In a dead uncle's study, look for a journal.
  options:
    pregen: 1              # play the first ready-made investigator (katari rules coc7 lists them)


variables:
  found: false

nodes:
  study:
    title: Uncle's study
    narration:
      - Your uncle's study is as he left it the day he died. A desk, shelves, drawn curtains.
    keeper:
      - The journal is behind the shelf. Spot Hidden finds it; a failure may search again.
    actions:
      - id: search
        label: Search the bookshelf
        aliases: [bookshelf, shelf, search]
        when: "not found"
        check: "coc7.check('Spot Hidden')"   # skills by their English or Japanese name (目星)
        outcomes:                            # critical, extreme, hard, regular, success / failure, fumble
          success:
            say: Behind the shelf, a leather-bound journal.
            effects:
              - set: {{found: true}}
          fumble:
            say: You knock the shelf; dust fills the air.
          failure:
            say: You run your eye over the spines. Nothing stands out.
      - id: read
        label: Read the journal
        aliases: [read, journal]
        when: "found"
        say: In a shaking hand, it tells of a song heard from the bottom of the sea.
        end: truth
      - id: leave
        label: Leave the study
        aliases: [leave]
        end: left

endings:
  truth: {{kind: good, title: The journal, narration: [You know now what your uncle saw.]}}
  left: {{kind: normal, title: Leaving, narration: [You close the door on the study.]}}
"""

_COC7_EN_TEST = """\
# Play-tests (docs/playtests.md). Run: katari test {path}
# Percentile dice are two d10 faces: tens first, then units; a 10 reads 0.
# 01 is always a critical success and 100 (10, 10) always a fumble, whatever the skill.
- name: Spot Hidden finds the journal
  dice: [10, 1]            # 01: critical
  commands: [search, read]
  expect:
    - after: 1
      var: {{found: true}}
    - ending: truth

- name: a fumble, then another search
  dice: [10, 10, 10, 1]    # 100 fumbles, then 01 succeeds
  commands: [search, search]
  expect:
    - after: 1
      var: {{found: false}}
      text: dust fills the air
    - var: {{found: true}}
"""

_UREG_EN = """\
story:
  id: {id}
  title: {title}
  language: en
  rules: ureg              # UREG: abilities, reach and obstacles (docs/rules-ureg.md)
  start: cell
  author: ""
  length: 5 minutes
  description: Get out of a small locked room.
  credits:
    - 「cc-by UREGベーシック Yasuda Lin」を参考にしました。   # required by the UREG licence, as written

characters:
  pc:
    name: Escaper
    kind: pc
    stats: {{abilities: "○閃き ×平凡"}}   # one ○ ability and one × ability (閃き: Inspiration)

variables:
  looked: false

items:
  key: {{name: small key}}

nodes:
  cell:
    title: Small room
    narration:
      - A small room without windows. The door is locked.
    actions:
      - id: look
        label: Search the room
        aliases: [search, look]
        once: true
        effects:
          - set: {{looked: true}}
        say: One floorboard sits loose.
      - id: floor
        label: Pull up the loose floorboard
        aliases: [floorboard, floor]
        when: "looked and not has('key')"
        effects:
          - give: key
        say: Under the board lies a small key.
      - id: idea
        label: Think with 〈○Inspiration〉
        aliases: [inspiration, idea, think]
        when: "ureg.has('Inspiration') and not looked"
        say: Something about the floor bothers you.
      - id: open
        label: Open the door
        aliases: [door, open]
        when: "has('key')"
        end: full_victory

endings:
  full_victory: {{kind: good, title: Escaped, narration: [Beyond the door, a corridor you know.]}}
"""

_UREG_EN_TEST = """\
# Play-tests (docs/playtests.md). Run: katari test {path}
- name: out with the key from under the floor
  commands: [look, floor, open]
  expect:
    - after: 0
      offers: [idea]
    - after: 2
      has: key
    - ending: full_victory
"""

TEMPLATES = {"none": (_NONE, _NONE_TEST), "coc7": (_COC7, _COC7_TEST), "ureg": (_UREG, _UREG_TEST)}
TEMPLATES_EN = {"none": (_NONE_EN, _NONE_EN_TEST), "coc7": (_COC7_EN, _COC7_EN_TEST),
                "ureg": (_UREG_EN, _UREG_EN_TEST)}
LANGS = ("ja", "en")


class ScaffoldError(ValueError):
    pass


def new_story(name: str, *, rules: str = "none", parent: str | Path = ".", title: str = "",
              lang: str = "ja") -> Path:
    """Writes ``parent/name/story.yaml`` and ``tests/smoke.yaml`` (in Japanese, or with
    ``lang="en"`` an English story, ``language: en``); returns the folder."""
    if rules not in TEMPLATES:
        raise ScaffoldError(f"unknown rules {rules!r}: one of {', '.join(TEMPLATES)}")
    if lang not in LANGS:
        raise ScaffoldError(f"unknown language {lang!r}: one of {', '.join(LANGS)}")
    # `katari new stories/my_story` means that folder, not ./my_story: the id is the last part.
    folder = Path(parent) / name
    sid = folder.name
    if not _ID.match(sid):
        raise ScaffoldError(f"{sid!r} cannot be a story id: use letters, digits, _ and - "
                            "(starting with a letter), e.g. my_story")
    if folder.exists() and any(folder.iterdir()):
        raise ScaffoldError(f"{folder} already exists and is not empty")
    story_t, test_t = (TEMPLATES_EN if lang == "en" else TEMPLATES)[rules]
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
