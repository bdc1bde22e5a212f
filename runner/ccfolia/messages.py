"""What the CCFOLIA / キャラクター保管所 readers and writers say, in Japanese and English.

Every refusal is one line naming what was wrong and where (``params[2].value``,
``SKAP[5]``, ``commands line 12``); every note on an imported investigator is one line too.
"""

from __future__ import annotations

from typing import Any

MSG: dict[str, dict[str, str]] = {
    "ja": {
        # refusals
        "empty": "{where}：空です（CCFOLIA の駒の JSON か、キャラクター保管所の JSON を渡してください）",
        "too_big": "{where}：大きすぎます（{n} バイト、{max} バイトまで）",
        "not_json": "{where}：JSON として読めません（{why}）",
        "not_text": "{where}：UTF-8 のテキストではありません",
        "foreign": '{where}：探索者のデータではありません（CCFOLIA の {{"kind":"character",…}} か、キャラクター保管所の pc_name を含む JSON を渡してください）',
        "other_kind": '{where}：CCFOLIA の「{kind}」のデータです（駒＝kind "character" を渡してください）',
        "other_game": "{where}：キャラクター保管所の「{game}」のシートです（クトゥルフ神話TRPG の coc7 か coc のシートを渡してください）",
        "bad_field": "{where}：{what}",
        "no_name": "{where}：探索者の名前がありません",
        "missing_chars": "{where}：能力値が足りません（{missing}）",
        "too_many": "{where}：多すぎます（{n} 個、{max} 個まで）",
        "cannot_read": "{where} を読めません：{why}",
        "json_depth": "{where}：JSON の入れ子が深すぎます（{max} 段まで）",
        "json_digits": "{where}：桁が多すぎる数があります（{number}）",
        "json_number": "{where}：シートには書けない数があります（{number}）",
        "too_many_lines": "{where}：チャットパレットの行が多すぎます（{n} 行、{max} 行まで）",
        "too_many_skills": "{where}：技能が多すぎます（{n} 個、{max} 個まで）",
        "refused": "{where}：このシートでは遊べません（{why}）",
        # notes on an imported investigator
        "sixth": "第6版のシートを第7版に換算しました：{changes}。HP、MP、DB、ビルド、MOV は計算し直しました",
        "order": "NA1〜NA8 を {order} の順に読みました（HP＝(CON+SIZ)/10 と MP＝POW/5 が合う順）",
        "order_none": "NA1〜NA8 をどの順に読んでも HP と MP の式に合いません：{order} の順に読みました",
        "order_six": "NA1〜NA8 を {order} の順に読みました（第6版のキャラクター保管所の順）",
        "mismatch": "{what} が {have} ですが、{formula} = {want} です（シートの値のままにします）",
        "unknown_skill": "第7版にない技能をそのまま持ち込みます：{names}",
        "renamed": "技能名を読み替えました：{pairs}",
        "skipped_lines": "チャットパレットの {n} 行は技能として読めないので飛ばしました（{first}）",
        "range": "{what} が {value} です（{lo}〜{hi} の範囲外。シートの値のままにします）",
        "no_status": "{what} がシートにないので、式から {value} としました",
        "capped": "{what} は第7版の上限 {max} に揃えました（換算で {value}）",
        "firearm_ammo": "武器「{name}」の装弾数がないので {n} 発とします",
        "imported": "{name}（{source}）を取り込みました",
        "notes_head": "取り込みの注意（{n} 件）：",
    },
    "en": {
        "empty": "{where}: empty (give the JSON of a CCFOLIA piece or of a キャラクター保管所 sheet)",
        "too_big": "{where}: too big ({n} bytes; at most {max})",
        "not_json": "{where}: not JSON ({why})",
        "not_text": "{where}: not UTF-8 text",
        "foreign": '{where}: not an investigator (give CCFOLIA\'s {{"kind":"character",…}} or キャラクター保管所 JSON with pc_name)',
        "other_kind": '{where}: CCFOLIA data of kind {kind!r} (give a piece, kind "character")',
        "other_game": "{where}: a キャラクター保管所 sheet for {game!r} (give a Call of Cthulhu sheet, coc7 or coc)",
        "bad_field": "{where}: {what}",
        "no_name": "{where}: the investigator has no name",
        "missing_chars": "{where}: characteristics missing ({missing})",
        "too_many": "{where}: too many ({n}; at most {max})",
        "cannot_read": "cannot read {where}: {why}",
        "json_depth": "{where}: JSON nested too deep (at most {max} levels)",
        "json_digits": "{where}: a number of too many digits ({number})",
        "json_number": "{where}: a number no sheet holds ({number})",
        "too_many_lines": "{where}: too many chat palette lines ({n}; at most {max})",
        "too_many_skills": "{where}: too many skills ({n}; at most {max})",
        "refused": "{where}: this sheet cannot be played ({why})",
        "sixth": "converted a 6th-edition sheet to the 7th edition: {changes}; HP, MP, DB, Build and MOV recomputed",
        "order": "read NA1..NA8 as {order} (the order under which HP = (CON+SIZ)/10 and MP = POW/5 hold)",
        "order_none": "no order of NA1..NA8 fits the HP and MP formulas: read them as {order}",
        "order_six": "read NA1..NA8 as {order} (キャラクター保管所's 6th-edition order)",
        "mismatch": "{what} is {have}, but {formula} = {want} (the sheet's value is kept)",
        "unknown_skill": "skills the 7th edition does not have, kept as they are: {names}",
        "renamed": "skill names read as: {pairs}",
        "skipped_lines": "{n} chat palette line(s) are no skill and were skipped ({first})",
        "range": "{what} is {value} (outside {lo}..{hi}; the sheet's value is kept)",
        "no_status": "{what} is not on the sheet: {value} from its formula",
        "capped": "{what} set to the 7th edition's maximum {max} (converted: {value})",
        "firearm_ammo": "weapon {name!r} gives no magazine: {n} rounds assumed",
        "imported": "imported {name} ({source})",
        "notes_head": "notes on the import ({n}):",
    },
}


def say(code: str, lang: str = "ja", **kw: Any) -> str:
    """The message ``code`` in ``lang``; a (Japanese, English) pair among ``kw`` is said in
    the language of the message."""
    table = MSG.get(lang, MSG["en"])
    i = 0 if lang == "ja" else 1
    kw = {k: (v[i] if isinstance(v, tuple) and len(v) == 2 else v) for k, v in kw.items()}
    return table.get(code, MSG["en"].get(code, code)).format(**kw)


class SheetError(ValueError):
    """Input that is no investigator Katari can read: one line, in either language."""

    def __init__(self, code: str, **kw: Any) -> None:
        self.code, self.kw = code, kw
        super().__init__(say(code, "en", **kw))

    def message(self, lang: str = "ja") -> str:
        return say(self.code, lang, **self.kw)


class Note:
    """A remark on an imported investigator (a converted value, a mismatch, an unknown skill)."""

    __slots__ = ("code", "kw")

    def __init__(self, code: str, **kw: Any) -> None:
        self.code, self.kw = code, kw

    def message(self, lang: str = "ja") -> str:
        return say(self.code, lang, **self.kw)

    def __repr__(self) -> str:
        return f"Note({self.code}, {self.kw})"
