"""The rule summary and item catalogue as text (for ``katari rules ureg``)."""

from __future__ import annotations

from typing import Any

from runner.rules.ureg.abilities import ARCHETYPES, BAD_ABILITIES, GOOD_ABILITIES
from runner.rules.ureg.items import ITEMS

CREDIT = "「cc-by UREGベーシック Yasuda Lin」を参考にしました。"

_SUMMARY_JA = """\
UREG ベーシックシステム ver.1.5 — 非現実脱出ゲーム
原作：保田琳「Un Realistic Escape Game ベーシックシステム ver.1.5」(2019) CC-BY

■ 目的
PC が障害物を突破して閉鎖空間から脱出する協力ゲーム。光り輝くゴールに着けば脱出。
対象年齢10歳以上、推奨2〜5人（ひとりでも遊べる）、目安30分。
ゲームの終了：PC全員が脱出した／これ以上誰も脱出できない／制限時間が過ぎた／あきらめた。
・完全勝利：PC 全員と味方 NPC 全員が脱出。
・部分的勝利：一部の PC だけが脱出、または味方 NPC を残して脱出。
・失敗：誰も脱出できない（制限時間切れ・全員消滅・あきらめた）。

■ 遊び方
探索（調べる）、所持（持つ）、突破（方法を提案する）。アイテムや PC の能力、部屋にある物は
何でも使える。アイテムは加工（例：バールで梯子を「く」の字に曲げる）や組み合わせもできる。
自由に「梯子を窓に立て掛けて登る」のように提案すると、可能かどうかを判定する。
GM（このプログラム）は突破の方法を直接は教えない（〈○閃き〉の特別なヒントは1度だけ）。
持ち物は身に着けた服とアクセサリーだけ。
制限時間は実時間（一時停止可）。ゲーム内の時間は巻き戻らない（やり直しても時間は戻らない）。

■ キャラクター（○長所と×短所を1つずつ）
{archetypes}
作成：○{good} から1つ、×{bad} から1つ。
一人で遊ぶなら〈○閃き〉〈×平凡〉がおすすめ。

■ 体の目安（メートル、等しければ届く）
・手の届く高さ 2 m（〈×低身長〉は 50 cm 低い）。足場の高さを足し、重ねれば合計する。
・肩車 3 m。立ち肩車は上が〈○身軽〉か〈○小柄〉のときだけ、さらに +50 cm。
・垂直跳び 50 cm／幅跳び 1.5 m（〈○身軽〉75 cm／3 m、〈×鈍重〉25 cm／1 m）。
  十分な助走で垂直跳び ×1.5、幅跳び ×2。跳んで触れるのは一瞬だけ。
・梯子は不安定な足場：〈×鈍重〉は誰かに支えてもらわないと登れない。

■ 追加ルール（シナリオごとに使う）
コンティニュー（懐中時計）、フロア、キャンペーン、視覚補助、リスタート、NPC（味方・中立・敵）、
消滅、ライフ（各1点、0で消滅。花がダメージを1回肩代わりして散る。違う色の花は同時に持てない）、
戦闘（アバウト戦闘／数的戦闘。戦力 一般人1、〈○強力〉+0.5、〈○武術〉+2、〈×ひ弱〉−0.5、
〈×非力〉素手で−0.5。即席の武器+0.5、バール・トンカチ+1、つるはし+1.5、刀剣・拳銃+2、
チェーンソー+2.5、ダイナマイト+5。作戦 −5〜+5。差が1未満なら対等）。
ライフには消滅、戦闘には NPC・消滅・ライフが必要。

アイテム一覧：katari rules ureg items
"""

_SUMMARY_EN = """\
UREG basic system ver.1.5 — Un Realistic Escape Game
Source: Yasuda Lin, "Un Realistic Escape Game basic system ver.1.5" (2019), CC-BY

Goal
The PCs break through obstacles to escape a closed space; reaching the shining goal escapes.
Ages 10 and up, 2-5 players (solo works too), about 30 minutes. The game ends when every PC
is out, when nobody else can get out, when time runs out, or when the players give up.
- Full victory: every PC and every ally NPC escapes.
- Partial victory: some PCs escape, or an ally is left behind.
- Failure: nobody escapes (time-out, everyone vanished, or the players gave up).

Play
Explore, hold items, and propose breakthroughs. Anything the PCs have, are, or find may be
used; items can be modified (bend the ladder with the crowbar) and combined. Say a plan such
as "lean the ladder on the window and climb" and it is judged. The GM (this program) never
tells the way through (〈○Inspiration〉 gets one special hint). The PCs carry only the clothes
and accessories they wear. The time limit is real time
(pausable); time in the game never runs backwards, not even on undo.

Characters (one ○ strength and one × weakness)
{archetypes}
Creating: one ○ of {good}; one × of {bad}.
Solo players: 〈○Inspiration〉〈×Ordinary〉 is recommended.

Bodies (metres; equal is enough)
- Reach 2 m (〈×Short〉 50 cm less); platforms add their height and stack.
- Shoulder ride 3 m; standing on the shoulders +50 cm, only with 〈○Nimble〉 or 〈○Small〉 on top.
- Vertical jump 50 cm, long jump 1.5 m (〈○Nimble〉 75 cm / 3 m, 〈×Heavy〉 25 cm / 1 m);
  a good run-up gives ×1.5 vertical, ×2 long. A jump only touches for a moment.
- A ladder is unstable footing: 〈×Heavy〉 climbs it only while someone holds it.

Optional rules (per story)
Continue (pocket watch), floors, campaign, visual aid, restart, NPCs (ally, neutral, enemy),
vanish, life (1 each, 0 vanishes; a flower takes one damage and scatters; flowers of different
colours cannot be held together), combat (about or numeric: a person 1, 〈○Strong〉 +0.5,
〈○Martial arts〉 +2, 〈×Frail〉 −0.5, 〈×Weak〉 −0.5 bare-handed; improvised weapon +0.5,
crowbar/hammer +1, pickaxe +1.5, sword/handgun +2, chainsaw +2.5, dynamite +5; plan −5..+5;
a difference under 1 is even). Life needs vanish; combat needs NPCs, vanish and life.

Item list: katari rules ureg items
"""


def summary(lang: str = "ja") -> str:
    """The rule summary, ending with the credit line the source asks for."""
    en = lang == "en"
    lines = []
    for a in ARCHETYPES.values():
        g, b = GOOD_ABILITIES[a.good], BAD_ABILITIES[a.bad]
        if en:
            lines.append(f"- {a.id} ({a.level_en}): 〈○{g[0]}〉 {g[2]}; 〈×{b[0]}〉 {b[2]}")
        else:
            lines.append(f"・{a.id}（{a.level_ja}）〈○{a.good}〉{g[1]}／〈×{a.bad}〉{b[1]}")
    extra_g, extra_b = GOOD_ABILITIES["武術"], BAD_ABILITIES["ひ弱"]
    if en:
        lines.append(
            f"- extra abilities: 〈○{extra_g[0]}〉 {extra_g[2]}; 〈×{extra_b[0]}〉 {extra_b[2]}"
        )
        good = ", ".join(v[0] for v in GOOD_ABILITIES.values())
        bad = ", ".join(v[0] for v in BAD_ABILITIES.values())
    else:
        lines.append(f"・追加の能力：〈○武術〉{extra_g[1]}／〈×ひ弱〉{extra_b[1]}")
        good = "・".join(GOOD_ABILITIES)
        bad = "・".join(BAD_ABILITIES)
    body = (_SUMMARY_EN if en else _SUMMARY_JA).format(
        archetypes="\n".join(lines), good=good, bad=bad
    )
    return body + "\n" + CREDIT + "\n"


def _prop_text(props: dict[str, Any], en: bool) -> str:
    bits = []
    for f in props.get("platform") or []:
        h = f["height"]
        if en:
            bits.append(f"platform {h} m" + (" (unstable)" if f.get("unstable") else ""))
        else:
            bits.append(f"足場 {h} m" + ("（不安定）" if f.get("unstable") else ""))
    if "length" in props:
        bits.append(("length " if en else "長さ ") + f"{props['length']} m")
    if "power" in props:
        bits.append(("power +" if en else "戦力 +") + str(props["power"]))
    elif props.get("improvised", True):
        bits.append("improvised weapon +0.5" if en else "即席の武器 +0.5")
    for k, ja, e in (
        ("light", "明かり", "light"),
        ("fire", "火", "fire"),
        ("uv", "紫外線", "UV"),
        ("flash", "フラッシュ", "flash"),
        ("watch", "コンティニュー", "continue"),
    ):
        if props.get(k):
            bits.append(e if en else ja)
    if props.get("tools"):
        bits.append(("tools: " if en else "用途: ") + ",".join(props["tools"]))
    if props.get("needs"):
        bits.append(
            ("needs: " if en else "要: ")
            + str(props["needs"]).replace("manual", "マニュアル" if not en else "manual")
        )
    if props.get("flower"):
        bits.append(("flower: " if en else "花: ") + props["flower"])
    if props.get("aid"):
        bits.append(("aid: " if en else "補助: ") + props["aid"])
    return "; ".join(bits)


def catalogue(lang: str = "ja") -> str:
    """Every item: id, name, description and rule properties."""
    en = lang == "en"
    out = ["UREG item catalogue" if en else "UREG アイテム一覧", ""]
    for it in ITEMS:
        name = it.name_en if en else it.name
        desc = it.description_en if en else it.description
        props = _prop_text(it.props, en)
        out.append(f"{name} [{it.id}]")
        out.append(f"  {desc}")
        if props:
            out.append(f"  {props}")
    out += ["", CREDIT]
    return "\n".join(out) + "\n"
