"""Whatever a document holds, `katari import` either writes a draft that `katari check`
accepts or refuses it with a message: never a traceback, never a broken story. Documents
here are the test documents cut, shuffled and salted with fragments of the notation."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from runner.importer import ImportFailure, parse_document
from runner.importer.writer import write_story
from runner.story import check

DATA = Path(__file__).resolve().parent / "data" / "import"
TEXTS = []
for p in sorted(DATA.glob("*/*")):
    if p.suffix in (".txt", ".md", ".html"):
        raw = p.read_bytes()
        for enc in ("utf-8", "cp932"):
            try:
                TEXTS.append((p.suffix, raw.decode(enc).splitlines()))
                break
            except UnicodeDecodeError:
                continue

FRAGMENTS = [
    "■",
    "【",
    "】",
    "〈目星〉",
    "《",
    "SANc",
    "0/1d3",
    "1/",
    "/1D",
    "ハード",
    "×5",
    "STR 50 CON",
    "HP",
    "成功：",
    "→失敗",
    "18:00",
    "1日目 夜",
    "になると",
    "TRUE END",
    "ロスト",
    "# ",
    "### 1-2. ",
    "|",
    "| --- |",
    "<h2>",
    "</p>",
    "&lt;",
    "対抗",
    "プッシュ可",
    "ボーナス・ダイス",
    "（",
    "）",
    "「",
    "」",
    "\t",
    "\u3000",
    "攻撃：",
    "% 1d6+DB",
    "正気度喪失",
    "探索1回につき30分",
    "エンディング",
    "クライマックスへ",
    "【HO1】",
    "0時を過ぎると",
]


@st.composite
def documents(draw: st.DrawFn) -> tuple[str, str]:
    suffix, lines = draw(st.sampled_from(TEXTS))
    lines = list(lines)
    for _ in range(draw(st.integers(0, 6))):
        op = draw(st.sampled_from(["cut", "dup", "salt", "swap", "chop"]))
        if not lines:
            break
        i = draw(st.integers(0, len(lines) - 1))
        if op == "cut":
            del lines[i : i + draw(st.integers(1, 20))]
        elif op == "dup":
            lines[i:i] = lines[i : i + draw(st.integers(1, 5))]
        elif op == "salt":
            bits = draw(
                st.lists(
                    st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=6)),
                    min_size=1,
                    max_size=5,
                )
            )
            at = draw(st.integers(0, len(lines[i])))
            lines[i] = lines[i][:at] + "".join(bits) + lines[i][at:]
        elif op == "swap":
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        else:
            lines[i] = lines[i][: draw(st.integers(0, len(lines[i])))]
    return suffix, "\n".join(lines)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents())
def test_any_document_gives_a_clean_draft_or_a_clear_refusal(doc: tuple[str, str]) -> None:
    suffix, text = doc
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"doc{suffix}"
        path.write_text(text, encoding="utf-8")
        try:
            sc = parse_document(path)
        except ImportFailure as e:
            assert e.message("en") and "\n" not in e.message("en")
            return
        out = write_story(sc, Path(tmp) / "draft")
        story, diags = check(out)
        errors = [str(d) for d in diags if d.severity == "error"]
        assert story is not None and errors == [], errors


def test_lines_that_yaml_would_read_as_numbers_stay_text(tmp_path: Path) -> None:
    """The stories' loader reads YAML 1.2: 「0E0」 or 「0o17」 alone on a line of the document
    is text in the draft, not a number (found by the test above)."""
    doc = tmp_path / "n.txt"
    doc.write_text(
        "『数字の部屋』\n0E0\n0o17\n1e3\n.inf\n0x1F\n■書斎\n0E0\n〈目星〉で日記。\nSANc 0/1d3\n■エンディング\n■TRUE END\n1e3\n",
        encoding="utf-8",
    )
    out = tmp_path / "draft"
    write_story(parse_document(doc), out)
    story, diags = check(out)
    assert story is not None and [str(d) for d in diags if d.severity == "error"] == []
    assert "1e3" in (out / "story.yaml").read_text(encoding="utf-8")
