"""What the screen shows, as words a listener can follow: roll results (「目星、四十に対して
二十三、成功」), endings, the list of actions, a changed status. Used by the narrator (spoken)
and by the screen-reader console (written, with digits)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # annotations only: the engine is not loaded for this
    from runner.engine.events import EndingEvent, RollEvent

_DIGITS = "〇一二三四五六七八九"
_UNITS = [(10000**2, "億"), (10000, "万")]


def ja_number(n: int) -> str:
    """An integer in kanji numerals as it is read: 23 → 二十三, 40 → 四十, 105 → 百五."""
    if n < 0:
        return "マイナス" + ja_number(-n)
    if n == 0:
        return "零"
    out = ""
    for size, name in _UNITS:
        if n >= size:
            out += _below_10000(n // size) + name
            n %= size
    return out + (_below_10000(n) if n else "")


def _below_10000(n: int) -> str:
    out = ""
    for size, name in ((1000, "千"), (100, "百"), (10, "十")):
        d, n = divmod(n, size)
        if d:
            out += ("" if d == 1 else _DIGITS[d]) + name
    return out + (_DIGITS[n] if n else "")


def _num(value: Any, lang: str, spoken: bool) -> str:
    if isinstance(value, bool) or not isinstance(value, int):
        try:
            value = int(str(value))
        except ValueError:
            return str(value)
    return ja_number(value) if spoken and lang == "ja" else str(value)


def roll_words(
    ev: RollEvent, lang: str = "ja", *, spoken: bool = True, system: str | None = None
) -> str:
    """A roll event in words: 「目星、四十に対して二十三、成功」 / "Spot Hidden, 23 against 40,
    success"; without a target 「ダメージ、七」. (``spoken``: numbers in kanji for Japanese.)"""
    from runner.ui.render import level_text

    label = str(ev.get("label") or ev.get("expr") or ("ロール" if lang == "ja" else "roll"))
    total = _num(ev.get("total", ""), lang, spoken)
    level = ev.get("level")
    result = level_text(level, lang) if level not in (None, "") else ""
    if result and ev.get("success") is False and level not in ("failure", "fumble"):
        result = "失敗" if lang == "ja" else "failure"  # under the skill, not the difficulty asked
    if ev.get("forced"):  # the GM ruled the outcome: say the ruling, never the dice's verdict
        from runner.ui.render import outcome_name

        result = outcome_name(ev["forced"], lang, system)
        if (
            not spoken
        ):  # on a screen the ruling says whose it is; the narrator never speaks of the GM
            result = f"GMの裁定で{result}" if lang == "ja" else f"the GM's ruling: {result}"
    if ev.get("target") is not None:
        target = _num(ev["target"], lang, spoken)
        text = (
            f"{label}、{target}に対して{total}"
            if lang == "ja"
            else f"{label}, {total} against {target}"
        )
    else:
        text = f"{label}、{total}" if lang == "ja" else f"{label}, {total}"
    if result:
        text += f"、{result}" if lang == "ja" else f", {result}"
    return text


def ending_words(ev: EndingEvent, lang: str = "ja") -> str:
    from runner.ui.i18n import t

    kind = t(f"kind_{ev.get('kind')}", lang)
    if kind.startswith("kind_"):
        kind = str(ev.get("kind") or "")
    title = ev.get("title") or ev.get("id", "")
    if lang == "ja":
        return f"エンディング、{title}" + (f"（{kind}）" if kind else "")
    return f"Ending: {title}" + (f" ({kind})" if kind else "")


def actions_words(
    actions: Sequence[Mapping[str, Any]], lang: str = "ja", *, spoken: bool = True
) -> str:
    """The numbered actions as one spoken list: 「選択肢は三つ。一、…。二、…。」."""
    shown = [a for a in actions if a.get("n")]
    if not shown:
        return "いまできる行動はありません。" if lang == "ja" else "There is nothing to do now."
    if lang == "ja":
        head = f"選択肢は{_num(len(shown), lang, spoken)}つ。"
        return head + "".join(
            f"{_num(a['n'], lang, spoken)}、{a.get('label', '')}。" for a in shown
        )
    return f"{len(shown)} choices. " + " ".join(f"{a['n']}: {a.get('label', '')}." for a in shown)


CONSOLE = {
    "ja": {
        "speed": "読み上げの速さ：×{scale}",
        "voice_now": "語り手の声：{voice}（声 名前 で変える）",
        "voice_list": "選べる声：{list}",
        "voice_set": "語り手の声を「{voice}」にしました。",
        "voice_bad": "その声にはできません：{why}",
    },
    "en": {
        "speed": "Narration speed: ×{scale}",
        "voice_now": "The narrator's voice: {voice} (voice NAME changes it)",
        "voice_list": "Voices: {list}",
        "voice_set": "The narrator now speaks as {voice!r}.",
        "voice_bad": "Cannot use that voice: {why}",
    },
}


def console_text(key: str, lang: str, **kw: Any) -> str:
    return CONSOLE.get(lang, CONSOLE["en"])[key].format(**kw)
