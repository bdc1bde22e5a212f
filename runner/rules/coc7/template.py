"""``katari new NAME --rules coc7``: a small, valid, commented investigation to start from,
in Japanese and in English (``--lang en``)."""

from __future__ import annotations

from runner.rules.base import Template

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

TEMPLATES = {"ja": Template(_COC7, _COC7_TEST), "en": Template(_COC7_EN, _COC7_EN_TEST)}
