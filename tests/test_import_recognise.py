"""The notation, a table of phrasings per kind: each line as keepers write it, and what the
importer must read from it (or that it must read nothing)."""

from __future__ import annotations

from pathlib import Path

import pytest

from runner.importer import parse_document
from runner.importer.checks import read_line
from runner.importer.model import Line
from runner.importer.read import normalise
from runner.importer.sanity import find
from runner.importer.sections import assign_roles, build_tree


def ln(text: str, no: int = 1) -> Line:
    return Line(no, text, normalise(text))


def checks(text: str) -> list[tuple]:
    found, _ = read_line(ln(text))
    return [(sorted(c.skills), c.difficulty) for c in found]


CHECKS = [
    # every bracket, and bare
    ("〈目星〉で調べる", [(["目星"], "regular")]),
    ("《目星》に成功すると", [(["目星"], "regular")]),
    ("【目星】で判定", [(["目星"], "regular")]),
    ("<目星>を振る", [(["目星"], "regular")]),
    ("＜目星＞で判定", [(["目星"], "regular")]),
    ("[目星]成功なら", [(["目星"], "regular")]),
    ("［目星］で見つかる", [(["目星"], "regular")]),
    ("「目星」で判定", [(["目星"], "regular")]),
    ("『目星』に成功すると", [(["目星"], "regular")]),
    ("≪目星≫ロール", [(["目星"], "regular")]),
    ("ＣＣ＜＝目星", [(["目星"], "regular")]),
    ("CCB<=70 【聞き耳】", [(["聞き耳"], "regular")]),
    ("棚を調べるなら目星ロール。", [(["目星"], "regular")]),
    ("「目星を振らせる」", [(["目星"], "regular")]),
    ("ここで聞き耳。", [(["聞き耳"], "regular")]),
    ("言いくるめで時間稼ぎできる", [(["言いくるめ"], "regular")]),
    ("説得に成功すると話してくれる", [(["説得"], "regular")]),
    # difficulty
    ("〈目星〉ハード", [(["目星"], "hard")]),
    ("〈目星〉（難易度：ハード）", [(["目星"], "hard")]),
    ("「日本語」のイクストリーム成功", [(["ほかの言語(日本語)"], "extreme")]),
    ("DEXロール（イクストリーム）", [(["DEX"], "extreme")]),
    ("STR ハードで押し開ける", [(["STR"], "hard")]),
    ("「DEX（敏捷性）のハード」", [(["DEX"], "hard")]),
    ("〈医学〉か〈自然〉のハード判定", [(["医学", "自然"], "hard")]),
    ("〈鍵開け〉、またはSTRでこじ開ける（ハード）", [(["鍵開け"], "regular"), (["STR"], "hard")]),
    ("〈説得〉か〈心理学〉（ハード）", [(["心理学", "説得"], "hard")]),
    ("〈目星〉レギュラー", [(["目星"], "regular")]),
    # characteristics, 6th edition multipliers, Luck, Idea, Know
    ("CON×5", [(["CON"], "regular")]),
    ("STR×3で動かす", [(["STR"], "hard")]),
    ("POW×1で祈る", [(["POW"], "extreme")]),
    ("EDU*4", [(["EDU"], "regular")]),
    ("幸運ロールに失敗すると", [(["幸運"], "regular")]),
    ("〈幸運〉で判定", [(["幸運"], "regular")]),
    ("アイデアロールに成功すると", [(["INT"], "regular")]),
    ("知識ロール", [(["EDU"], "regular")]),
    # alternatives
    ("《説得》または《言いくるめ》", [(["言いくるめ", "説得"], "regular")]),
    (
        "「考古学」「心理学」「人類学」のいずれかで判定",
        [(["人類学", "心理学", "考古学"], "regular")],
    ),
    ("【説得】【魅惑】【心理学】どれでもOK", [(["心理学", "説得", "魅惑"], "regular")]),
    (
        "＜オカルト＞が必要（もしくは＜ラテン語＞）",
        [(["オカルト", "ほかの言語(ラテン語)"], "regular")],
    ),
    ("CON（ハード）。〈サバイバル〉でも代用可。", [(["CON", "サバイバル"], "hard")]),
    ("「DEX」や「隠密」で判定", [(["DEX", "隠密"], "regular")]),
    (
        "〈登攀〉に失敗すると海に落ち、〈水泳〉で岸に戻る",
        [(["登攀"], "regular"), (["水泳"], "regular")],
    ),
    ("DEX×3（または＜回避＞）", [(["DEX"], "hard"), (["回避"], "regular")]),
    ("STR×3（もしくは二人でSTR×5）", [(["STR"], "hard"), (["STR"], "regular")]),
    (
        "「ほかの言語（日本語、ラテン語）」で判定",
        [(["ほかの言語(ラテン語)", "ほかの言語(日本語)"], "regular")],
    ),
    # names as the 6th edition or the document writes them
    ("＜製作（人形）＞で調べる", [(["芸術/製作(人形)"], "regular")]),
    ("＜生物学＞で調べる", [(["科学(生物学)"], "regular")]),
    ("〈芸術/製作(歌唱)〉で歌う", [(["芸術/製作(歌唱)"], "regular")]),
    ("「芸術・製作（料理）」で判定", [(["芸術/製作(料理)"], "regular")]),
    (
        "手で触れるなら「芸術・製作の陶芸や木工」「手さばき」で判定。",
        [(["手さばき", "芸術/製作(木工)", "芸術/製作(陶芸)"], "regular")],
    ),
    (
        "直すには「機械修理」「芸術および製作の左官系等」の判定が必要。",
        [(["機械修理", "芸術/製作(左官)"], "regular")],
    ),
    # a Word document's 〔〕, a CCFOLIA chat palette's CC<= with words after the name
    ("〔目星〕に成功すると、写真が見つかる。", [(["目星"], "regular")]),
    (
        "鐘の舌を外すには〔機械修理〕を用いる。力ずくで外すなら〔ＳＴＲ〕（ハード）。",
        [(["機械修理"], "regular"), (["STR"], "hard")],
    ),
    (
        "・時計を開けるには CC<=機械修理 か CC<=鍵開け（プッシュ可）",
        [(["機械修理", "鍵開け"], "regular")],
    ),
    ("開かない。CC<=STR(ハード)で無理やり開けると、外は霧。", [(["STR"], "hard")]),
    ("攻撃を避けるには CC<=回避。", [(["回避"], "regular")]),
    ("CC<=芸術/製作(料理) で味見", [(["芸術/製作(料理)"], "regular")]),
    # a keeper's memo: bare names with arrows
    ("棚の上を見回す→目星", [(["目星"], "regular")]),
    ("・掲示板：目星→成功：古い張り紙", [(["目星"], "regular")]),
    ("本棚：図書館→成功：日記", [(["図書館"], "regular")]),
    ("階段を下りたところで聞き耳。", [(["聞き耳"], "regular")]),
    ("天候は幸運で決めてよい。", [(["幸運"], "regular")]),
    ("進む→DEX、失敗で転落1d3", [(["DEX"], "regular")]),
    ("窓枠：鍵開け or 機械修理", [(["機械修理", "鍵開け"], "regular")]),
    ("説得or心理学→成功：話してくれる", [(["心理学", "説得"], "regular")]),
    # not rolls
    ("駅→図書館→公園", []),
    ("趣味：オカルト", []),
    ("専攻は心理学。", []),
    ("幸運にも助かった。", []),
    ("推奨技能：《目星》《聞き耳》《図書館》", []),
    ("技能：聞き耳 60% 機械修理 70% 水泳 65%", []),
    ("STR 45 CON 50 SIZ 55 DEX 40", []),
    ("攻撃：こぶし 35%、ダメージ 1d3", []),
    ("楽譜集を読んだ者は〈クトゥルフ神話〉+2%", []),
    ("成功した探索者はクトゥルフ神話技能+1%", []),
    ("失敗すると耳鳴りで＜聞き耳＞に-20%。", []),
    ("以後〈幸運〉にペナルティ・ダイス１個。", []),
    ("〈水泳〉は不要だが、冷たい。", []),
    ("〈心理学〉なしでも泣いているのがわかる。", []),
    ("〈ほかの言語(古代日本語)〉……の必要はない。", []),
    ("工房で＜目星＞に成功している必要がある。", []),
    ("（導入のアイデアロールはここ）", []),
    ("「日本語」がわかる探索者が居れば", []),
    ("図書館で調べものをする", []),
    ("家の主に変装できそう。", []),
    ("最もPOWの低い者に移ろうとする", []),
    ("（源蔵のPOW 60）", []),
    ("裏口のドア：CC<=鍵開け は意味がない（何も起きない）。", []),
    ("能力値による判定は〔ＳＴＲ〕のように記す。", []),
]


@pytest.mark.parametrize(("text", "want"), CHECKS, ids=[t for t, _ in CHECKS])
def test_check_phrasings(text: str, want: list[tuple]) -> None:
    assert checks(text) == [(sorted(skills), diff) for skills, diff in want]


def test_the_check_negated_by_ではなく_is_dropped_and_the_other_kept() -> None:
    assert checks("《図書館》ではなく《ナビゲート》で読む") == [(["ナビゲート"], "regular")]
    assert checks("＜精神分析＞……ではなく＜心理学＞で観察") == [(["心理学"], "regular")]


DICE = [
    ("〈鍵開け〉で開く。ペナルティ・ダイス1個。", -1),
    ("[図書館]（ボーナス・ダイス1個：索引がある）", 1),
    ("〈図書館〉（ボーナスダイス+1）", 1),
    ("〈鍵開け〉（ペナルティダイス1個：暗い）", -1),
    ("【説得】【魅惑】どれでもOK（子供なのでボーナス・ダイス１個つけてよい）", 1),
    ("CC(1)<=目星", 1),
    ("〈目星〉（ペナルティ・ダイス2個）", -2),
]


@pytest.mark.parametrize(("text", "bonus"), DICE)
def test_bonus_and_penalty_dice(text: str, bonus: int) -> None:
    found, _ = read_line(ln(text))
    assert [c.bonus for c in found] == [bonus]


@pytest.mark.parametrize(
    ("text", "push"),
    [
        ("〈鍵開け〉で開く。プッシュ可。", True),
        ("〈STR〉ハードで引き剥がす。プッシュ・ロール可。", True),
        ("〈鍵開け〉（ハード）。プッシュ不可。", False),
        ("〈コンピューター〉で調べる。プッシュ可能。", True),
        ("〈目星〉で調べる。", None),
    ],
)
def test_push(text: str, push: bool | None) -> None:
    found, _ = read_line(ln(text))
    assert [c.pushable for c in found] == [push]


@pytest.mark.parametrize(
    ("text", "skill", "opponent", "value", "opp_skill"),
    [
        ("POW対抗（ピアノのPOW 70）", "POW", "ピアノ", 70, "POW"),
        ("《威圧》または《説得》で対抗ロール（源蔵のPOW 60）", "威圧", "源蔵", 60, "POW"),
        ("言いくるめで時間稼ぎできる（車掌のPOWと対抗）", "言いくるめ", "車掌", None, "POW"),
        ("《隠密》（深きものの《聞き耳》と対抗）", "隠密", "深きもの", None, "聞き耳"),
        ("逃げるならDEX対抗ロール。", "DEX", "", None, ""),
        ("真島のPOWとの対抗で〈威圧〉でもよい。", "威圧", "真島", None, "POW"),
    ],
)
def test_opposed_rolls(
    text: str, skill: str, opponent: str, value: int | None, opp_skill: str
) -> None:
    found, _ = read_line(ln(text))
    assert len(found) == 1
    c = found[0]
    assert c.opposed and c.skills[0] == skill
    assert (c.opponent, c.opponent_value, c.opponent_skill) == (opponent, value, opp_skill)


OUTCOMES = """■書斎
・本棚を調べる→〈目星〉
→成功：日記が見つかる。
→失敗：何も見つからない。
☆クリティカル　隠し扉にも気づく。
・机：《図書館》
　・成功した場合　手紙を読める。
　・ファンブルなら、インクをこぼす。
・窓：〈聞き耳〉に成功すれば、外で足音がする。失敗すると、何も聞こえない。
・床：〈目星〉
→◯成功 古い傷がある。
→×失敗 ただの床だ。
・箱：〈鍵開け〉。プッシュ可。
プッシュ失敗 → 箱が壊れる。
・像：POW対抗
　勝った：像が目を閉じる。
　負けた：動けなくなる。
"""


def test_outcomes_in_every_spelling(tmp_path: Path) -> None:
    doc = tmp_path / "o.txt"
    doc.write_text(OUTCOMES, encoding="utf-8")
    sc = parse_document(doc)
    got = {c.line: [(o.key, o.text) for o in c.outcomes] for c in sc.all_checks()}
    assert got[2] == [
        ("success", "日記が見つかる。"),
        ("failure", "何も見つからない。"),
        ("critical", "隠し扉にも気づく。"),
    ]
    assert got[6] == [("success", "手紙を読める。"), ("fumble", "インクをこぼす。")]
    assert got[9] == [("success", "外で足音がする"), ("failure", "何も聞こえない")]
    assert got[10] == [("success", "古い傷がある。"), ("failure", "ただの床だ。")]
    assert got[13] == [("pushed_failure", "箱が壊れる。")]
    assert got[15] == [("win", "像が目を閉じる。"), ("lose", "動けなくなる。")]


SAN = [
    ("SANc 0/1d3", ("0", "1d3")),
    ("ＳＡＮｃ０／１Ｄ３", ("0", "1d3")),
    ("SANチェック(1/1D4)", ("1", "1d4")),
    ("SAN値チェック（１/１D６）", ("1", "1d6")),
    ("正気度ロール 0/1", ("0", "1")),
    ("【正気度喪失:1/1d6】", ("1", "1d6")),
    ("【SAN 1/1d6+1】", ("1", "1d6+1")),
    ("→「SAN0/1くらいで」", ("0", "1")),
    ("0/1のSANチェック。", ("0", "1")),
    ("正気度（SAN）判定。「0／1d3」 これは全員が対象です。", ("0", "1d3")),
    ("SANチェック（成功0／失敗1D3）", ("0", "1d3")),
    ("正気度ポイント減少(1/1D6)", ("1", "1d6")),
    ("SANc(1d3/1d6)", ("1d3", "1d6")),
    ("**SAN 0/1D3**", ("0", "1d3")),
    ("SANチェック 2/2D10+1", ("2", "2d10+1")),
]


@pytest.mark.parametrize(("text", "loss"), SAN, ids=[t for t, _ in SAN])
def test_sanity_spellings(text: str, loss: tuple[str, str]) -> None:
    assert [(s.success, s.failure) for s in find(ln(text))] == [loss]


@pytest.mark.parametrize(
    "text",
    [
        "生還報酬：SAN回復 1d6",
        "報酬：1D6の正気度回復",
        "SAN報酬：1D6",
        "正気度1D3を失う。",
        "HP 10 MP 12 SAN 20",
        "ダメージ[0/1d3]",
        "正気度 70",
        "SAN回復 1d6+1d4",
    ],
)
def test_not_sanity_rolls(text: str) -> None:
    assert find(ln(text)) == []


TIMELINE = """■タイムライン
探索1回につき30分経過する。
18:00 探索者が到着。
20:00 霧笛が鳴る。全員《聞き耳》（正気度ロール 0/1）。
24:00 クライマックスへ。
| 日時 | 出来事 |
| --- | --- |
| 2日目 7:30 | 朝になる。 |
■中庭
午後8時になると、電気が消える。
0時を過ぎると、歌が聞こえる。SANc1/1d3
夜になると、犬が鳴く。
・22:00以降に洞窟に入った場合、鉢合わせする。
■記録
1 電気をつけて1時間（1か所を調べ終わる）以降になると、部屋が揺れます。
探索者は「幸運」で判定を行ってもらい、怪我をしたかを判断します。
2 探索者が目覚めてから10時間経過すると、家の主が帰ってきます。
"""


def test_timelines_in_every_form(tmp_path: Path) -> None:
    doc = tmp_path / "t.txt"
    doc.write_text(TIMELINE, encoding="utf-8")
    sc = parse_document(doc)
    got = [(t.line, t.at, t.after) for t in sc.timeline]
    assert got == [
        (3, "18:00", ""),
        (4, "20:00", ""),
        (5, "24:00", ""),
        (8, "2日目 7:30", ""),
        (10, "20:00", ""),
        (11, "0:00", ""),
        (12, "20:00", ""),
        (15, "電気をつけて+1:00", "電気をつけて"),
        (17, "+10:00", ""),
    ]
    by_line = {t.line: t for t in sc.timeline}
    assert [c.skills for c in by_line[4].checks] == [["聞き耳"]] and [
        s.loss for s in by_line[4].san
    ] == ["0/1"]
    assert [s.loss for s in by_line[11].san] == ["1/1d3"]
    assert [c.skills for c in by_line[15].checks] == [
        ["幸運"]
    ]  # the line after a numbered entry is its own
    assert by_line[5].goto_climax
    assert sc.search_cost == 30
    assert not any(
        c.line in (4, 11, 16) for p in sc.places for c in p.checks
    )  # they belong to the events


@pytest.mark.parametrize(
    ("text", "minutes"),
    [
        ("探索1回につき30分経過", 30),
        ("1か所の探索に1時間かかる。", 60),
        ("1部屋を調べるのに30分かかる。", 30),
        ("1か所を入念に調べるのに1時間、もう一度調べ直すのに30分", 60),
        ("探索は1か所につき20分として扱う。", 20),
    ],
)
def test_search_cost(text: str, minutes: int) -> None:
    from runner.importer.timeline import search_cost

    assert search_cost([ln(text)])[0] == minutes


STATS = """■書斎
〈目星〉で日記が見つかる。
■NPC
【汐見 源蔵（しおみ げんぞう）】72歳、灯台守
STR 45 CON 50 SIZ 55 DEX 40 APP 35 INT 65 POW 60 EDU 50
HP 10 MP 12 SAN 20
■エネミー
【深きもの】
STR 70 CON 55 SIZ 80 INT 65 POW 50 DEX 50
HP 13 DB +1d4 ビルド 1 MP 10 移動 8
攻撃：かぎ爪 25%、ダメージ 1d6+DB
装甲：1（皮膚と鱗）
正気度喪失：0/1d6
【歌（声喰らい）】
| STR | CON | SIZ | DEX | INT | POW |
| --- | --- | --- | --- | --- | --- |
| 0 | 60 | 0 | 0 | 50 | 70 |
- 耐久力：12
"""


def test_stat_blocks(tmp_path: Path) -> None:
    doc = tmp_path / "c.txt"
    doc.write_text(STATS, encoding="utf-8")
    sc = parse_document(doc)
    genzo, deep, song = sc.creatures
    assert (genzo.name, genzo.kind) == ("汐見 源蔵", "npc")
    assert genzo.stats == {
        "STR": 45,
        "CON": 50,
        "SIZ": 55,
        "DEX": 40,
        "APP": 35,
        "INT": 65,
        "POW": 60,
        "EDU": 50,
        "HP": 10,
        "MP": 12,
        "SAN": 20,
    }
    assert (deep.name, deep.kind, deep.san, deep.armor, deep.db, deep.build, deep.move) == (
        "深きもの",
        "monster",
        "0/1d6",
        1,
        "+1d4",
        1,
        8,
    )
    assert deep.stats["HP"] == 13 and deep.stats["STR"] == 70
    assert [(a.name, a.skill, a.damage) for a in deep.attacks] == [("かぎ爪", 25, "1d6+DB")]
    assert song.name == "歌" and song.stats == {
        "STR": 0,
        "CON": 60,
        "SIZ": 0,
        "DEX": 0,
        "INT": 50,
        "POW": 70,
        "HP": 12,
    }


def test_sixth_edition_characteristics_are_converted(tmp_path: Path) -> None:
    doc = tmp_path / "c.txt"
    doc.write_text(
        "クトゥルフ神話TRPG（6版）\n■書斎\n＜目星＞で日記。\n■クリーチャー\n○人形\nSTR 16 CON 14 SIZ 13 INT 17 POW 18 DEX 7\n"
        "耐久力 14　ダメージボーナス +1D4\n武器：首絞め 45%（1D6）\nこぶし 60% 1D3+DB、キック 40% 1D6+DB\n"
        "正気度喪失：1/1D8\n",
        encoding="utf-8",
    )
    sc = parse_document(doc)
    assert sc.edition == 6
    doll = sc.creatures[0]
    assert doll.stats == {
        "STR": 80,
        "CON": 70,
        "SIZ": 65,
        "INT": 85,
        "POW": 90,
        "DEX": 35,
        "HP": 14,
    }
    assert [(a.name, a.skill, a.damage) for a in doll.attacks] == [
        ("首絞め", 45, "1d6"),
        ("こぶし", 60, "1d3+DB"),
        ("キック", 40, "1d6+DB"),
    ]


@pytest.mark.parametrize(
    ("heading", "kind"),
    [
        ("TRUE END：霧の晴れる朝", "true"),
        ("トゥルーエンド「雪解け」", "true"),
        ("GOOD END「閉館」", "good"),
        ("NORMAL END：鳴らない霧笛", "normal"),
        ("ノーマルエンド「朝の吹雪」", "normal"),
        ("BAD END：呼び声", "bad"),
        ("バッドエンド", "bad"),
        ("ロスト", "lost"),
        ("ロストエンド", "lost"),
        ("LOST", "lost"),
        ("エンディング3【全滅】", "lost"),
        ("エンディング1【生還】", "good"),
        ("END２　「乗り過ごし」", "normal"),
        ("エンディングＡ「静かな湖」\n→生還。正気度回復１Ｄ８。", "good"),
        ("エンディングＢ「鐘の音」\n→生還（ノーマルエンド扱い）。", "normal"),
    ],
)
def test_ending_kinds(tmp_path: Path, heading: str, kind: str) -> None:
    doc = tmp_path / "e.txt"
    doc.write_text(
        f"■書斎\n〈目星〉で日記。\n■エンディング\n■{heading}\n物語の終わり。\n", encoding="utf-8"
    )
    sc = parse_document(doc)
    assert [(e.kind, e.line) for e in sc.endings] == [(kind, 4)]


SECTIONS = [
    ("■導入\n本文\n■書斎\n〈目星〉\n", ["intro", "place"]),
    ("◆探索箇所\n【書斎】\n〈目星〉\n【寝室】\n〈聞き耳〉\n", ["places", "place", "place"]),
    (
        "# 題名\n## 導入\n本文\n## 探索箇所\n### 1. 書斎\n〈目星〉\n### 2. 寝室\n本文\n",
        ["title", "intro", "places", "place", "place"],
    ),
    (
        "1.　導入\n本文\n2.　探索箇所\n2-1.　書斎\n〈目星〉\n2-2.　寝室\n本文\n",
        ["intro", "places", "place", "place"],
    ),
    ("○車両の構成\n◇三号車\n〈目星〉\n◇二号車\n〈聞き耳〉\n", ["places", "place", "place"]),
    ("■書斎\n●本棚\n〈目星〉\n●机\n〈図書館〉\n", ["place", "feature", "feature"]),
    ("■タイムライン\n20:00 鐘\n■NPC\n●源蔵\n本文\n", ["timeline", "npcs", "npc"]),
    ("■NPC・エネミー\n●源蔵\n本文\n■クライマックス\n本文\n", ["creatures", "creature", "climax"]),
    # ふせったー / Discord / Notion: a pictograph marks the heading
    (
        "📖 概要\n本文\n🔍 探索箇所\n▼カウンター\n〈目星〉\n⏰ タイムライン\n▶17:00　入店。\n💡 KPメモ\n〈説得〉ハードがきつければ\n"
        "🏁 エンディング\n☀END A：晴れ間（トゥルーエンド）\n本文\nEND D：ロスト\n本文\n",
        ["meta", "places", "place", "timeline", "background", "endings", "ending", "ending"],
    ),
    # a Word document: chapters, numbered sections, (1) items
    (
        "第1章　シナリオについて\n1.1　概要\n本文\n第5章　探索箇所\n5.1　民宿\n（1）女将の部屋\n〔目星〕\n（2）帳場\n〔図書館〕\n"
        "第4章　日程\n1日目（土）\n第9章　ＫＰ向け補足\n9.1　判定について\n〔図書館〕に失敗しても聞ける。\n",
        [
            "meta",
            "notes",
            "places",
            "place",
            "feature",
            "feature",
            "timeline",
            "background",
            "notes",
        ],
    ),
    ("■シナリオデータ\n人数：1～2人\n", ["meta"]),
]


@pytest.mark.parametrize(("text", "roles"), SECTIONS)
def test_headings_and_roles(text: str, roles: list[str]) -> None:
    lines = [Line(i + 1, s, normalise(s)) for i, s in enumerate(text.splitlines()) if s]
    root = build_tree(lines)
    assign_roles(root)
    assert [s.role for s in root.walk() if s.line is not None] == roles


def test_a_timeline_grouped_under_day_lines(tmp_path: Path) -> None:
    doc = tmp_path / "d.txt"
    doc.write_text(
        "■書斎\n〈目星〉で日記。\n■日程\n1日目（土）\n　15:00　民宿に到着。\n　23:00　鐘が鳴る。\n　1:00　静まる。\n"
        "【2日目】\n　午前　自由行動。\n　17:00　霧が出る。全員〔聞き耳〕。\n",
        encoding="utf-8",
    )
    sc = parse_document(doc)
    assert [(t.line, t.at, t.minutes) for t in sc.timeline] == [
        (5, "1日目 15:00", 900),
        (6, "1日目 23:00", 1380),
        (7, "2日目 1:00", 1500),
        (9, "2日目 9:00", 1980),
        (10, "2日目 17:00", 2460),
    ]
    assert [c.skills for c in sc.timeline[-1].checks] == [["聞き耳"]]


CHARACTER_LIST = """■書斎
〈目星〉で日記。
■NPC
瀬川 宗一郎（せがわ そういちろう）72歳／喫茶ミモザの店主
【能力値】STR:40／CON:45／SIZ:55／DEX:50／APP:60／INT:70／POW:65／EDU:75
【HP】10
妻を亡くしてから四十年。

美代子（みよこ）／店主の妻（故人）
時計の中から声だけが聞こえる。

水野：図書館職員。気が弱い。
■エネミー
時を喰うもの
【能力値】STR:80／CON:70／SIZ:90／DEX:40／INT:55／POW:100
【HP】16　【MP】20　【DB】+1d4　【ビルド】2　【移動】6
【攻撃】歯車の腕 45%（1d6+DB）
【装甲】3（金属の体）
【SANc】1/1d6
CC<=45 【歯車の腕】
CC<=20 【回避】
■登場人物
| 名前 | 立場 |
| --- | --- |
| 日下部 真帆 | 文学部4年 |
"""


def test_characters_listed_without_headings(tmp_path: Path) -> None:
    doc = tmp_path / "c.txt"
    doc.write_text(CHARACTER_LIST, encoding="utf-8")
    sc = parse_document(doc)
    got = [(c.name, c.kind, c.stats.get("STR"), c.stats.get("HP")) for c in sc.creatures]
    assert got == [
        ("瀬川 宗一郎", "npc", 40, 10),
        ("美代子", "npc", None, None),
        ("水野", "npc", None, None),
        ("時を喰うもの", "monster", 80, 16),
        ("日下部 真帆", "npc", None, None),
    ]
    beast = sc.creatures[3]
    assert (beast.armor, beast.db, beast.build, beast.move, beast.san) == (3, "+1d4", 2, 6, "1/1d6")
    assert [c.line for c in sc.all_checks()] == [
        2
    ]  # the chat palette for the creature is not a roll


def test_one_person_a_line_and_characters_over_stat_blocks_anywhere(tmp_path: Path) -> None:
    doc = tmp_path / "c.txt"
    doc.write_text(
        "---書斎---\n〈目星〉で日記。\n---門番---\nSTR75 CON80 SIZ65 DEX50 INT60 POW75 HP14\n槍 50% 1d8\n"
        "---NPC---\n宮下 里美（みやした さとみ）　35歳。書店の店主。\n源（げん）　猫。店に住みついている。\n"
        "妻（故人）の写真を持ち歩いている。\n"
        "---クライマックス---\n祭壇の前。\n◎神主\nSTR 11 CON 13 SIZ 12 INT 17 POW 19 APP 10 EDU 16\n"
        "武器：短刀 60% 1D4+2\n◎巫女\nSTR 9 CON 11 SIZ 9 INT 13 POW 12 APP 15 EDU 8\n◎依頼人の教授（能力値は省略）\n"
        "---エンディング---\nTRUE END：帰る\n",
        encoding="utf-8",
    )
    sc = parse_document(doc)
    assert [(c.name, c.kind) for c in sc.creatures] == [
        ("門番", "monster"),
        ("宮下 里美", "npc"),
        ("源", "npc"),
        ("神主", "monster"),
        ("巫女", "npc"),
        ("依頼人の教授", "npc"),
    ]
    assert sc.creatures[0].stats["HP"] == 14


def test_a_character_under_登場人物_that_costs_sanity_is_fought(tmp_path: Path) -> None:
    doc = tmp_path / "c.txt"
    doc.write_text(
        "■書斎\n〈目星〉で日記。\n■登場人物\n●菅野 和子\n年齢：68歳\n●住職の亡霊\nSTR 60 CON 80 SIZ 65\n"
        "攻撃：数珠で打つ 40% ダメージ1D4\n正気度喪失：0/1D6\n",
        encoding="utf-8",
    )
    sc = parse_document(doc)
    assert [(c.name, c.kind) for c in sc.creatures] == [
        ("菅野 和子", "npc"),
        ("住職の亡霊", "monster"),
    ]


HEADLESS = """【山小屋】
〈目星〉で地図を見つける。
〈図書館〉で古文書を読む。
鍵は〈鍵開け〉で開く。
・井戸：〈聞き耳〉に成功すると、水音が聞こえる。
→井戸の底で何かが光る。SANc 0/1d3
※この井戸の水は飲めない。
全ての部屋を調べ終え、4～5時間が経過した時に、窓の外が白み始める。
1か所を調べるのに1時間が経過すると考えてよい。
・祠の裏：〈目星〉
→成功：古い札が見つかる。
※札を剥がした場合、祠の主が目を覚ます。
探索者たちは祠の主に捕らえられた。
長い夜のあと、井戸の底で冷たくなった探索者たちの亡骸が見つかった。
※札を燃やした場合にのみ発生。
朝日が差し込み、祠は静かに崩れていった。
老人は振り返り、「もう来てはいけないよ」と言って手を振った。
老人に見送られ、探索者たちは山を下り、元の日常へと帰っていった。
探索者たちは井戸を覗き込み、そのまま水の中へ落ちていった。
水面に浮かんだ月の影だけが、それを見ていた。それはまた別のお話。
（一応、この結末はバッドエンドとしています）
"""


def test_a_document_whose_headings_were_lost(tmp_path: Path) -> None:
    """A page whose headings were images: the endings are the runs of story that close it,
    the times told in prose are events, the one who speaks is a character."""
    doc = tmp_path / "h.txt"
    doc.write_text(HEADLESS, encoding="utf-8")
    sc = parse_document(doc)
    assert [(e.line, e.kind) for e in sc.endings] == [(13, "lost"), (16, "normal"), (19, "bad")]
    assert [ln.no for ln in sc.endings[0].narration] == [13, 14]
    assert [ln.no for ln in sc.endings[1].conditions] == [15]
    assert [(t.line, t.at, t.offset) for t in sc.timeline] == [(8, "+4:00", 240)]
    assert [(c.name, c.kind) for c in sc.creatures] == [("老人", "npc")]


PDF_TEXT = """月影の館
1
月影の館 ｜ KP用資料
■書斎
机の上の日記を見ると、月明かりの中で文字が浮かび上がる。SANチェック
（0/1D
3）。
掛け軸を見た者は〈芸術／製作（日本
画）〉または〈鑑定〉に成功すると、古い絵だとわかる。
2
月影の館 ｜ KP用資料
館主を止めるには〈説得〉
（ハード）、または力ずくで STR の対抗ロール。
■エンディング
■TRUE END
帰る。
3
月影の館 ｜ KP用資料
"""


def test_text_taken_out_of_a_pdf(tmp_path: Path) -> None:
    """Page numbers and running headers between the lines; rolls broken where the page was full."""
    doc = tmp_path / "p.txt"
    doc.write_text(PDF_TEXT, encoding="utf-8")
    from runner.importer.read import read_document

    assert [ln.no for ln in read_document(doc).lines] == [1, 4, 5, 6, 7, 8, 9, 12, 13, 14, 15, 16]
    sc = parse_document(doc)
    assert [(c.line, c.skills, c.difficulty, c.opposed) for c in sc.all_checks()] == [
        (8, ["芸術/製作(日本画)", "鑑定"], "regular", False),
        (12, ["説得"], "hard", False),
        (13, ["STR"], "regular", True),
    ]
    assert [(s.line, s.loss) for s in sc.all_san()] == [(5, "0/1d3")]
    assert "（0/1D" in [
        ln.raw for p in sc.places for ln in p.narration + p.keeper
    ]  # the text stays as written


def test_a_lone_number_is_not_a_page_number(tmp_path: Path) -> None:
    from runner.importer.read import read_document

    doc = tmp_path / "n.txt"
    doc.write_text("■書斎\n本棚の数\n3\n〈目星〉で日記。\n", encoding="utf-8")
    assert [ln.no for ln in read_document(doc).lines] == [1, 2, 3, 4]


def test_description_and_keeper_blocks(tmp_path: Path) -> None:
    doc = tmp_path / "d.txt"
    doc.write_text(
        "■書斎\n・本棚：〈目星〉で日記。\n【描写】\n窓から月明かりが差し込んでいる。\n"
        "【KP情報】\n日記は偽物である。\n描写：机の上に古いランプ。\nKP情報：ランプは点かない。\n"
        "■エンディング\n■TRUE END\n帰る。\n",
        encoding="utf-8",
    )
    sc = parse_document(doc)
    study = sc.places[0]
    assert [x.raw for x in study.narration] == [
        "窓から月明かりが差し込んでいる。",
        "描写：机の上に古いランプ。",
    ]
    assert "日記は偽物である。" in [x.raw for x in study.keeper]
    assert "KP情報：ランプは点かない。" in [x.raw for x in study.keeper]
