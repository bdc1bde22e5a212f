"""``katari new NAME --rules ureg``: a small, valid, commented escape room to start from, in
Japanese and in English (``--lang en``)."""

from __future__ import annotations

from runner.rules.base import Template

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
  full_victory: {{kind: good, title: Escaped, narration: ["Beyond the door, a corridor you know."]}}
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

TEMPLATES = {"ja": Template(_UREG, _UREG_TEST), "en": Template(_UREG_EN, _UREG_EN_TEST)}
