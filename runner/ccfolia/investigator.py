"""Investigators from the Japanese online table: CCFOLIA's clipboard JSON (what いあきゃら,
キャラッシュ and Charaeno export: ``{"kind":"character","data":{...}}``) and キャラクター保管所's
sheet JSON (``game: "coc7"``, or ``"coc"`` for the 6th edition).

:func:`investigator` reads either into :class:`Imported`: the portable sheet that the rule
command ``@investigator`` carries into a game (:mod:`runner.rules.coc7.portable`) and the
notes a player should read: a 6th-edition sheet converted to the 7th (characteristics ×5,
derived values recomputed, skills renamed), the order NA1..NA8 were read in, a derived value
that does not match its formula (reported, never fixed), skills the 7th edition does not
have (kept). Anything else is one :class:`SheetError` line saying what and where.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from runner.ccfolia.messages import Note, SheetError
from runner.ccfolia.palette import MAX_PALETTE_LINES, read_palette
from runner.ccfolia.skills import SIXTH_ONLY, known, reading
from runner.rules.coc7 import portable as pt
from runner.rules.coc7 import sheet as sh
from runner.story.text import printable

MAX_ITEMS = 200
"""Entries of a list (params, status, skills, weapons) read from a sheet."""
MAX_TEXT = 20000
"""Characters of one text field (a memo, a palette is 2,000 lines at most)."""

CHAR_ORDERS: tuple[tuple[str, ...], ...] = (
    ("STR", "CON", "POW", "DEX", "APP", "SIZ", "INT", "EDU"),
    ("STR", "CON", "SIZ", "DEX", "APP", "INT", "POW", "EDU"),
    ("STR", "DEX", "INT", "CON", "APP", "POW", "SIZ", "EDU"),
)
"""Orders of NA1..NA8 met in キャラクター保管所 exports: the site's own (its 6th-edition
layout), the 7th edition's rulebook order, and the order of the 7th edition's sheet."""


@dataclass
class Imported:
    sheet: dict
    """The portable investigator (``@investigator``'s JSON)."""
    notes: list[Note] = field(default_factory=list)
    source: str = ""
    """"CCFOLIA" or "キャラクター保管所"."""
    where: str = ""
    edition: int = 7


# ---------------------------------------------------------------- small readers


def _num(v: Any, where: str) -> int | None:
    """A whole number from JSON (numbers, or text like "65", "６５", "28歳"); None if empty."""
    if v is None or v == "":
        return None
    if type(v) is bool:
        raise SheetError(
            "bad_field", where=where, what=(f"{v!r} は数ではありません", f"{v!r} is not a number")
        )
    if isinstance(v, (int, float)):
        if v != v or abs(v) > 10**6:
            raise SheetError(
                "bad_field",
                where=where,
                what=(
                    f"{v!r} はシートに書ける数ではありません",
                    f"{v!r} is not a number a sheet holds",
                ),
            )
        return int(v)
    if isinstance(v, str):
        s = unicodedata.normalize("NFKC", v).strip()
        m = re.match(r"^([-+]?\d{1,6})(?:\.\d+)?\D{0,8}$", s)
        if m:
            return int(m.group(1))
        if not s:
            return None
    raise SheetError(
        "bad_field",
        where=where,
        what=(
            f"{clean(str(v))[:40]!r} は数ではありません",
            f"{clean(str(v))[:40]!r} is not a number",
        ),
    )


def _str(v: Any, where: str, n: int = 200) -> str:
    if v is None:
        return ""
    if isinstance(v, (int, float)) and type(v) is not bool:
        return str(v)
    if not isinstance(v, str):
        raise SheetError("bad_field", where=where, what=("テキストではありません", "not text"))
    if len(v) > MAX_TEXT:
        raise SheetError("too_big", where=where, n=len(v), max=MAX_TEXT)
    return clean(v, multiline=n >= MAX_TEXT)[:n]


def clean(text: str, *, multiline: bool = False) -> str:
    """A sheet's text as Katari keeps it: no terminal escape sequences or other control
    characters (``runner.story.text.printable``); a one-line field (a name, a label) has no
    newline or tab either."""
    out = printable(text)
    if not multiline:
        out = re.sub(r"[\t\n]+", " ", out)
    return out.strip()


def _list(v: Any, where: str) -> list:
    if v is None:
        return []
    if not isinstance(v, list):
        raise SheetError("bad_field", where=where, what=("リストではありません", "not a list"))
    if len(v) > MAX_ITEMS:
        raise SheetError("too_many", where=where, n=len(v), max=MAX_ITEMS)
    return v


_READING = re.compile(r"^(.*?)\s*[（(]\s*([\u3040-\u30ffー・ 　A-Za-z\-']{1,40}?)\s*[)）]\s*$")


def split_name(text: str) -> tuple[str, str]:
    """(name, reading): ``黒田 剛（くろだ つよし）`` → (黒田 剛, くろだ つよし)."""
    m = _READING.match(text)
    if m and m.group(1).strip():
        return m.group(1).strip(), m.group(2).strip()
    return text.strip(), ""


def _memo_field(memo: str, *keys: str) -> str:
    for line in memo.replace("\r\n", "\n").split("\n"):
        m = re.match(r"^\s*[【\[]?(" + "|".join(keys) + r")[】\]]?\s*[:：]\s*(.+)$", line)
        if m:
            return m.group(2).strip()
    return ""


# ---------------------------------------------------------------- skills


class _Skills:
    """Skills gathered from a sheet: canonical names, the highest value where several names
    meet (こぶし and キック both become 近接戦闘(格闘)), and what was renamed or unknown."""

    def __init__(self) -> None:
        self.values: dict[str, int] = {}
        self.renamed: dict[str, str] = {}
        self.unknown: list[str] = []
        self.chars: dict[str, int] = {}
        self.luck: int | None = None
        self.san: int | None = None

    def add(self, name: str, value: int, chars: dict[str, int] | None = None) -> bool:
        """Takes one skill; False when it is a heading (a group at 0) to skip."""
        canon, kind = reading(name)
        if kind == "char":
            self.chars.setdefault(canon, value)
            return True
        if kind == "luck":
            self.luck = value if self.luck is None else self.luck
            return True
        if kind == "san":
            self.san = value if self.san is None else self.san
            return True
        clean = unicodedata.normalize("NFKC", name).strip()
        if value == 0 and sh.base_value(canon, chars or {}) > 0:
            return False  # a heading such as 近接戦闘 or 射撃 with no value of its own
        if canon not in self.values or value > self.values[canon]:
            self.values[canon] = value
        if not known(canon) or clean in SIXTH_ONLY:
            if clean not in self.unknown:
                self.unknown.append(clean)
        elif clean.replace("（", "(").replace("）", ")").replace(" ", "") != canon:
            self.renamed.setdefault(clean, canon)
        return True


# ---------------------------------------------------------------- CCFOLIA

_STATUS = {
    "HP": "hp",
    "耐久力": "hp",
    "ＨＰ": "hp",
    "MP": "mp",
    "マジック・ポイント": "mp",
    "マジックポイント": "mp",
    "SAN": "san",
    "正気度": "san",
    "SAN値": "san",
    "幸運": "luck",
    "LUCK": "luck",
    "Luck": "luck",
}
_PARAM_EXTRA = {
    "DB": "db",
    "ダメージボーナス": "db",
    "ダメージ・ボーナス": "db",
    "ビルド": "build",
    "BUILD": "build",
    "Build": "build",
    "MOV": "mov",
    "移動率": "mov",
    "年齢": "age",
    "AGE": "age",
}


def from_ccfolia(doc: dict, where: str = "input") -> Imported:
    kind = doc.get("kind")
    if kind != "character":
        raise SheetError("other_kind", where=where, kind=clean(str(kind))[:40])
    data = doc.get("data")
    if not isinstance(data, dict):
        raise SheetError(
            "bad_field",
            where=f"{where}: data",
            what=("オブジェクトではありません", "not an object"),
        )
    name, rd = split_name(_str(data.get("name"), f"{where}: data.name"))
    if not name:
        raise SheetError("no_name", where=f"{where}: data.name")
    chars: dict[str, int] = {}
    extra: dict[str, Any] = {}
    for i, p in enumerate(_list(data.get("params"), f"{where}: data.params")):
        at = f"{where}: data.params[{i}]"
        if not isinstance(p, dict):
            raise SheetError(
                "bad_field", where=at, what=("オブジェクトではありません", "not an object")
            )
        label = unicodedata.normalize("NFKC", _str(p.get("label"), at + ".label")).strip()
        if label in _PARAM_EXTRA:
            extra[_PARAM_EXTRA[label]] = _str(p.get("value"), at + ".value", 20)
            continue
        code = sh.CHAR_ALIASES.get(sh._key(label)) if label not in ("アイデア", "知識") else None
        if code is not None:
            v = _num(p.get("value"), at + ".value")
            if v is not None:
                chars[code] = v
    status: dict[str, tuple[int | None, int | None]] = {}
    for i, st in enumerate(_list(data.get("status"), f"{where}: data.status")):
        at = f"{where}: data.status[{i}]"
        if not isinstance(st, dict):
            raise SheetError(
                "bad_field", where=at, what=("オブジェクトではありません", "not an object")
            )
        label = unicodedata.normalize("NFKC", _str(st.get("label"), at + ".label")).strip()
        key = _STATUS.get(label) or _STATUS.get(label.upper())
        if key:
            status[key] = (_num(st.get("value"), at + ".value"), _num(st.get("max"), at + ".max"))
    palette = data.get("commands") or ""
    if not isinstance(palette, str):
        raise SheetError(
            "bad_field",
            where=f"{where}: data.commands",
            what=("テキストではありません", "not text"),
        )
    n_lines = len(palette.rstrip("\r\n").replace("\r\n", "\n").replace("\r", "\n").split("\n"))
    if n_lines > MAX_PALETTE_LINES:
        raise SheetError(
            "too_many_lines", where=f"{where}: data.commands", n=n_lines, max=MAX_PALETTE_LINES
        )
    rolls, other = read_palette(palette)
    sixth_lines = sum(1 for r in rolls if r.command == "CCB")
    seventh_lines = sum(1 for r in rolls if r.command == "CC")
    sk = _Skills()
    skipped: list[tuple[int, str]] = list(other)

    def ref_value(ref: str) -> int | None:
        k = _STATUS.get(ref) or _STATUS.get(ref.upper())
        if k and k in status:
            return status[k][0]
        code = sh.CHAR_ALIASES.get(sh._key(ref))
        if code in chars:
            return chars[code]
        return None

    for r in rolls:
        value = r.value
        if value is None:
            base = ref_value(r.ref)
            if base is None:
                skipped.append((r.n, r.text))
                continue
            value = base * r.times
        if r.times != 1 or reading(r.label)[1] == "char" and r.command == "CCB":
            continue  # STR×5 and such: rolls on a characteristic, not skills
        if not sk.add(r.label, value, chars):
            skipped.append((r.n, r.text))
    memo = _str(data.get("memo"), f"{where}: data.memo", MAX_TEXT)
    occupation = _memo_field(memo, "職業", "Occupation", "occupation")
    age = _num(
        _memo_field(memo, "年齢", "Age", "age") or extra.get("age"), f"{where}: data.memo 年齢"
    )
    url = _str(data.get("externalUrl"), f"{where}: data.externalUrl", 300)
    sixth = sixth_lines > seventh_lines or (
        len(chars) >= 8 and max(chars.values()) <= 21 and seventh_lines == 0
    )
    # Characteristics from the palette (CC<=50 【STR】) when the piece has no params (a 6th-
    # edition palette rolls them ×5, and アイデア is INT×5 there: not read).
    if not sixth:
        for c, v in sk.chars.items():
            chars.setdefault(c, v)
    missing = [c for c in sh.CHARS if c not in chars]
    if missing:
        raise SheetError("missing_chars", where=f"{where}: data.params", missing=" ".join(missing))
    notes: list[Note] = []
    if skipped:
        n, line = skipped[0]
        notes.append(Note("skipped_lines", n=len(skipped), first=f"line {n}: {line[:30]}"))
    init = _num(data.get("initiative"), f"{where}: data.initiative")
    cur = {k: v[0] for k, v in status.items()}
    maxima = {k: v[1] for k, v in status.items()}
    if sk.luck is not None and "luck" not in cur:
        cur["luck"] = sk.luck
    if sk.san is not None and "san" not in cur:
        cur["san"] = sk.san
    imp = _finish(
        name,
        rd,
        chars,
        sk,
        cur,
        maxima,
        extra,
        occupation,
        age,
        url,
        "CCFOLIA",
        sixth,
        notes,
        where,
    )
    dex = imp.sheet["chars"]["DEX"]
    if init is not None and not sixth and init != dex:
        notes.append(
            Note(
                "mismatch",
                what=("イニシアティブ", "initiative"),
                have=init,
                formula="DEX",
                want=dex,
            )
        )
    return imp


# ---------------------------------------------------------------- キャラクター保管所

_SIX_LISTS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    (
        "TBAP",
        "TBAName",
        (
            "回避",
            "キック",
            "組み付き",
            "こぶし(パンチ)",
            "頭突き",
            "投擲",
            "マーシャルアーツ",
            "拳銃",
            "サブマシンガン",
            "ショットガン",
            "マシンガン",
            "ライフル",
        ),
    ),
    (
        "TFAP",
        "TFAName",
        (
            "応急手当",
            "鍵開け",
            "隠す",
            "隠れる",
            "聞き耳",
            "忍び歩き",
            "写真術",
            "精神分析",
            "追跡",
            "登攀",
            "図書館",
            "目星",
        ),
    ),
    (
        "TAAP",
        "TAAName",
        (
            "運転",
            "機械修理",
            "重機械操作",
            "乗馬",
            "水泳",
            "製作",
            "操縦",
            "跳躍",
            "電気修理",
            "ナビゲート",
            "変装",
        ),
    ),
    ("TCAP", "TCAName", ("言いくるめ", "信用", "説得", "値切り", "母国語")),
    (
        "TKAP",
        "TKAName",
        (
            "医学",
            "オカルト",
            "化学",
            "クトゥルフ神話",
            "芸術",
            "経理",
            "考古学",
            "コンピューター",
            "心理学",
            "人類学",
            "生物学",
            "地質学",
            "電子工学",
            "天文学",
            "博物学",
            "物理学",
            "法律",
            "薬学",
            "歴史",
        ),
    ),
)
"""キャラクター保管所's 6th-edition skill rows: the values' list, the extra rows' names, and
the fixed names of its rows, in order."""
_SIX_SPECS = {
    "運転": "unten_bunya",
    "製作": "seisaku_bunya",
    "操縦": "main_souju_norimono",
    "母国語": "mylang_name",
    "芸術": "geijutu_bunya",
}


def _order(
    values: list[int], hp: int | None, mp: int | None, san_start: int | None, sixth: bool
) -> tuple[tuple[str, ...], str]:
    """The order of NA1..NA8 under which the sheet's HP and MP fit their formulas, and
    which note to give."""
    if sixth:
        return CHAR_ORDERS[0], "order_six"
    fits = []
    for order in CHAR_ORDERS:
        c = dict(zip(order, values, strict=True))
        ok = (
            (hp is None or hp == sh.hp_max(c["CON"], c["SIZ"]))
            and (mp is None or mp == sh.mp_max(c["POW"]))
            and (san_start is None or hp is not None or mp is not None or san_start == c["POW"])
        )
        if ok:
            fits.append(order)
    if fits:
        return fits[0], "order"
    return CHAR_ORDERS[0], "order_none"


def from_charasheet(doc: dict, where: str = "input") -> Imported:
    game = _str(doc.get("game"), f"{where}: game", 40)
    if game not in ("coc7", "coc", ""):
        raise SheetError("other_game", where=f"{where}: game", game=game)
    name, rd = split_name(_str(doc.get("pc_name"), f"{where}: pc_name"))
    if not name:
        raise SheetError("no_name", where=f"{where}: pc_name")
    sixth = game == "coc"
    values: list[int] = []
    for i in range(1, 9):
        v = _num(doc.get(f"NA{i}"), f"{where}: NA{i}")
        if v is None:
            v = _num(doc.get(f"NP{i}"), f"{where}: NP{i}")
        if v is None:
            raise SheetError("missing_chars", where=f"{where}: NA{i}", missing=f"NA{i}")
        values.append(v)
    hp = _num(doc.get("NA9"), f"{where}: NA9")
    mp = _num(doc.get("NA10"), f"{where}: NA10")
    san_start = _num(doc.get("SAN_start"), f"{where}: SAN_start")
    order, code = _order(values, hp, mp, san_start, sixth)
    chars = dict(zip(order, values, strict=True))
    notes = [Note(code, order=" ".join(order))]
    sk = _Skills()
    names = _list(doc.get("SKAN"), f"{where}: SKAN")
    if names:
        specs = _list(doc.get("SKAM"), f"{where}: SKAM")
        points = _list(doc.get("SKAP"), f"{where}: SKAP")
        for i, n in enumerate(names):
            nm = _str(n, f"{where}: SKAN[{i}]", 60)
            if not nm:
                continue
            spec = _str(specs[i], f"{where}: SKAM[{i}]", 60) if i < len(specs) else ""
            v = _num(points[i], f"{where}: SKAP[{i}]") if i < len(points) else None
            if v is None:
                continue
            sk.add(f"{nm}({spec})" if spec else nm, v, chars)
    else:
        for vals_key, names_key, fixed in _SIX_LISTS:
            vals = _list(doc.get(vals_key), f"{where}: {vals_key}")
            extra_names = _list(doc.get(names_key), f"{where}: {names_key}")
            rows = list(fixed) + [_str(x, f"{where}: {names_key}", 60) for x in extra_names]
            for i, nm in enumerate(rows):
                if not nm or i >= len(vals):
                    continue
                v = _num(vals[i], f"{where}: {vals_key}[{i}]")
                if v is None:
                    continue
                spec = (
                    _str(doc.get(_SIX_SPECS.get(nm, "")), f"{where}: {_SIX_SPECS.get(nm)}", 60)
                    if nm in _SIX_SPECS
                    else ""
                )
                sk.add(f"{nm}({spec})" if spec else nm, v, chars)
    cur: dict[str, int | None] = {
        "hp": hp,
        "mp": mp,
        "san": _num(doc.get("SAN_Left"), f"{where}: SAN_Left"),
        "luck": _num(doc.get("Luck_Left"), f"{where}: Luck_Left"),
    }
    maxima: dict[str, int | None] = {
        "san": _num(doc.get("SAN_Max"), f"{where}: SAN_Max"),
        "hp": hp,
        "mp": mp,
    }
    extra: dict[str, Any] = {
        "db": _str(doc.get("dmg_bonus"), f"{where}: dmg_bonus", 20),
        "build": _str(doc.get("build_bonus"), f"{where}: build_bonus", 20),
        "san_start": san_start,
        "luck_start": _num(doc.get("Luck_start"), f"{where}: Luck_start"),
    }
    weapons = []
    arms = _list(doc.get("arms_name"), f"{where}: arms_name")
    hits = _list(doc.get("arms_hit"), f"{where}: arms_hit")
    dmgs = _list(doc.get("arms_damage"), f"{where}: arms_damage")
    shots = _list(doc.get("arms_last_shot"), f"{where}: arms_last_shot")
    for i, a in enumerate(arms):
        nm = _str(a, f"{where}: arms_name[{i}]", 60)
        if not nm:
            continue
        weapons.append(
            (
                nm,
                _num(hits[i], f"{where}: arms_hit[{i}]") if i < len(hits) else None,
                _str(dmgs[i], f"{where}: arms_damage[{i}]", 40) if i < len(dmgs) else "",
                _num(shots[i], f"{where}: arms_last_shot[{i}]") if i < len(shots) else None,
            )
        )
    age = _num(doc.get("age"), f"{where}: age")
    imp = _finish(
        name,
        rd,
        chars,
        sk,
        cur,
        maxima,
        extra,
        _str(doc.get("shuzoku"), f"{where}: shuzoku", 100),
        age,
        _str(doc.get("url") or doc.get("externalUrl"), f"{where}: url", 300),
        "キャラクター保管所",
        sixth,
        notes,
        where,
    )
    imp.sheet["weapons"] = _weapons(weapons, imp.sheet, imp.notes)
    return imp


def _weapons(
    arms: list[tuple[str, int | None, str, int | None]], s: dict, notes: list[Note]
) -> list[dict]:
    """キャラクター保管所's weapons as coc7 weapons: the skill whose value is the weapon's
    hit chance (a firearm's 射撃, else 近接戦闘), the damage with its DB apart."""
    out = []
    skills = s.get("skills", {})
    for name, hit, damage, shots in arms:
        dmg = unicodedata.normalize("NFKC", damage).replace(" ", "")
        db = bool(re.search(r"\+?(db|DB|ＤＢ|ダメージボーナス)$", dmg))
        dmg = re.sub(r"\+?(db|DB|ダメージボーナス)$", "", dmg) or "1d3"
        if name in ("素手", "こぶし", "こぶし(パンチ)", "キック", "組み付き", "頭突き"):
            continue  # the investigator's bare hands are there anyway
        candidates = [
            k
            for k, v in skills.items()
            if v == hit and (k.startswith("射撃") or k.startswith("近接戦闘"))
        ]
        skill = (
            candidates[0]
            if candidates
            else (
                "射撃(拳銃)"
                if re.search(r"銃|ガン|ライフル|ピストル|リボルバー", name)
                else "近接戦闘(格闘)"
            )
        )
        w: dict = {
            "name": name,
            "skill": skill,
            "damage": dmg.lower() if re.match(r"^[\dDd+\-*/()]+$", dmg) else "1d3",
            "db": db and not skill.startswith("射撃"),
            "impale": skill.startswith("射撃"),
        }
        if skill.startswith("射撃"):
            n = shots if shots else 6
            if not shots:
                notes.append(Note("firearm_ammo", name=name, n=n))
            w.update(firearm=True, ammo=n, capacity=n, shots=1, malfunction=100)
        out.append(w)
    return out[:12]


# ---------------------------------------------------------------- both


def _sixth_to_seventh(chars: dict[str, int], sk: _Skills, notes: list[Note]) -> dict[str, int]:
    """Characteristics ×5 (the 6th edition's 3-18 are the 7th's 15-90); the note lists
    every change."""
    seven = {}
    parts = []
    for c in sh.CHARS:
        v = chars[c] * 5
        seven[c] = min(v, 99)
        parts.append(f"{c} {chars[c]}→{seven[c]}")
    if sk.renamed:
        parts.append("; ".join(f"{a}→{b}" for a, b in list(sk.renamed.items())[:12]))
        sk.renamed = {}
    notes.append(Note("sixth", changes=", ".join(parts)))
    return seven


def _finish(
    name: str,
    rd: str,
    chars: dict[str, int],
    sk: _Skills,
    cur: dict[str, int | None],
    maxima: dict[str, int | None],
    extra: dict[str, Any],
    occupation: str,
    age: int | None,
    url: str,
    source: str,
    sixth: bool,
    notes: list[Note],
    where: str,
) -> Imported:
    if sixth:
        chars = _sixth_to_seventh(chars, sk, notes)
        extra = {k: v for k, v in extra.items() if k not in ("db", "build", "mov")}
        cur = {k: (v if k in ("san", "luck") else None) for k, v in cur.items()}
        maxima = {}
    for c in sh.CHARS:
        if not 1 <= chars[c] <= 99:
            notes.append(Note("range", what=c, value=chars[c], lo=1, hi=99))
    mythos = sk.values.get("クトゥルフ神話", 0)
    db_f, build_f = sh.damage_bonus(chars["STR"] + chars["SIZ"])
    hp_f, mp_f = sh.hp_max(chars["CON"], chars["SIZ"]), sh.mp_max(chars["POW"])
    mov_f = sh.mov(chars["STR"], chars["DEX"], chars["SIZ"], age)
    out: dict[str, Any] = {"v": 1, "name": name[:100], "chars": dict(chars), "from": source}
    if rd:
        out["reading"] = rd
    if occupation:
        out["occupation"] = occupation[:100]
    if age is not None and 0 <= age <= 999:
        out["age"] = age
    if url:
        out["url"] = url

    def derived(key: str, label: Any, formula: Any, want: int, have: int | None) -> int:
        if have is None:
            return want
        if have != want:
            notes.append(Note("mismatch", what=label, have=have, formula=formula, want=want))
        return have

    out["hp_max"] = derived(
        "hp_max", ("HP の最大値", "HP max"), "(CON+SIZ)/10", hp_f, maxima.get("hp")
    )
    out["mp_max"] = derived("mp_max", ("MP の最大値", "MP max"), "POW/5", mp_f, maxima.get("mp"))
    out["hp"] = cur.get("hp") if cur.get("hp") is not None else out["hp_max"]
    out["mp"] = cur.get("mp") if cur.get("mp") is not None else out["mp_max"]
    out["san_max"] = 99 - mythos
    if (
        maxima.get("san") is not None
        and source == "キャラクター保管所"
        and maxima["san"] != 99 - mythos
    ):
        notes.append(
            Note(
                "mismatch",
                what=("SAN の最大値", "SAN max"),
                have=maxima["san"],
                formula=("99−クトゥルフ神話", "99 − Cthulhu Mythos"),
                want=99 - mythos,
            )
        )
    san_start = extra.get("san_start")
    out["san_start"] = derived(
        "san_start", ("SAN の初期値", "starting SAN"), "POW", chars["POW"], san_start
    )
    out["san"] = cur.get("san") if cur.get("san") is not None else out["san_start"]
    if out["san"] > out["san_max"]:
        notes.append(Note("range", what="SAN", value=out["san"], lo=0, hi=out["san_max"]))
    luck = cur.get("luck")
    if luck is None:
        luck = extra.get("luck_start")
    if luck is None:
        luck = chars["POW"] if sixth else 50
        notes.append(Note("no_status", what=("幸運", "Luck"), value=luck))
    out["luck"] = luck
    out["luck_start"] = extra.get("luck_start") if extra.get("luck_start") is not None else luck
    if not 0 <= luck <= 99:
        notes.append(Note("range", what=("幸運", "Luck"), value=luck, lo=0, hi=99))
    db_have = _norm_db(extra.get("db") or "")
    if db_have and db_have != _norm_db(db_f):
        notes.append(
            Note(
                "mismatch",
                what="DB",
                have=extra["db"],
                formula=("STR+SIZ の表", "the STR+SIZ table"),
                want=db_f,
            )
        )
    out["db"] = db_f if not db_have else unicodedata.normalize("NFKC", extra["db"]).strip().upper()
    build_have = (
        _num(extra.get("build"), f"{where}: build")
        if extra.get("build") not in (None, "")
        else None
    )
    out["build"] = derived(
        "build", ("ビルド", "Build"), ("STR+SIZ の表", "the STR+SIZ table"), build_f, build_have
    )
    mov_have = (
        _num(extra.get("mov"), f"{where}: MOV") if extra.get("mov") not in (None, "") else None
    )
    out["mov"] = derived(
        "mov", "MOV", ("STR・DEX・SIZ と年齢", "STR, DEX, SIZ and age"), mov_f, mov_have
    )
    for k in ("hp", "mp"):
        if out[k] > out[f"{k}_max"] or out[k] < 0:
            notes.append(Note("range", what=k.upper(), value=out[k], lo=0, hi=out[f"{k}_max"]))
    bad = {k: v for k, v in sk.values.items() if not 0 <= v <= 99}
    for k, v in list(bad.items())[:3]:
        notes.append(Note("range", what=k, value=v, lo=0, hi=99))
    out["skills"] = {k: max(0, min(v, 999)) for k, v in sk.values.items()}
    if sk.renamed:
        notes.append(
            Note("renamed", pairs=", ".join(f"{a}→{b}" for a, b in list(sk.renamed.items())[:12]))
        )
    if sk.unknown:
        notes.append(Note("unknown_skill", names=", ".join(sk.unknown[:12])))
    for k in pt.NUMBERS:
        out[k] = max(-999, min(999, int(out[k])))
    for c in sh.CHARS:
        out["chars"][c] = max(0, min(999, out["chars"][c]))
    return Imported(out, notes, source, where, 6 if sixth else 7)


def _norm_db(text: str) -> str:
    t = unicodedata.normalize("NFKC", str(text)).strip().upper().replace(" ", "")
    if t in ("", "0", "±0", "+0", "なし", "NONE"):
        return "0" if t else ""
    return t.lstrip("+") if t.startswith("+") else t


def investigator(doc: Any, where: str = "input") -> Imported:
    """An investigator from CCFOLIA or キャラクター保管所 JSON; :class:`SheetError` otherwise.

    What is accepted here is accepted by the rule command that plays it in: the sheet is
    checked against the rule command's own bounds (:func:`runner.rules.coc7.portable.check`,
    the one place that states them) before it is said to be imported."""
    if not isinstance(doc, dict):
        raise SheetError("foreign", where=where)
    if "kind" in doc and "data" in doc:
        imp = from_ccfolia(doc, where)
    elif "pc_name" in doc or str(doc.get("game", "")).startswith("coc"):
        imp = from_charasheet(doc, where)
    elif "name" in doc and ("params" in doc or "status" in doc or "commands" in doc):
        imp = from_ccfolia({"kind": "character", "data": doc}, where)  # the data part alone
    else:
        raise SheetError("foreign", where=where)
    n = len(imp.sheet.get("skills", {}))
    if n > pt.MAX_SKILLS:
        raise SheetError("too_many_skills", where=where, n=n, max=pt.MAX_SKILLS)
    try:
        pt.check(imp.sheet)
    except pt.PortableError as e:
        raise SheetError("refused", where=where, why=(e.message("ja"), e.message("en"))) from None
    return imp


def load(source: str, stdin: Any = None) -> Imported:
    """An investigator from a file, or ``-`` for pasted JSON on standard input."""
    from runner.ccfolia.read import read

    doc, where = read(source, stdin)
    return investigator(doc, where)
