"""The loader's tidying of narration: the space YAML folding (``>``) puts between Japanese
sentences goes; after a full-width ？ or ！ it becomes an ideographic space U+3000, as
Japanese sets it, whether typed or made by a fold (「待ってくれ！ こちらに」 lost its space);
every other space stays as written. A table of punctuation and spaces, each written inline
and as a folded block, loaded as a story is loaded."""

from __future__ import annotations

import json

import pytest

from runner.story import load

# fmt: off
CASES = [
    # (as written, as shown)
    ("本当に？ そんな", "本当に？\u3000そんな"),
    ("待ってくれ！ こちらに", "待ってくれ！\u3000こちらに"),
    ("本当に？！ そんな", "本当に？！\u3000そんな"),
    ("本当に？\u3000そんな", "本当に？\u3000そんな"),          # the author's U+3000 stays
    ("本当に？\u3000そんな！\u3000ええ", "本当に？\u3000そんな！\u3000ええ"),
    ("一行目。 二行目。", "一行目。二行目。"),                # a fold after 。 goes
    ("はい、 いいえ", "はい、いいえ"),
    ("「本当？」 そう", "「本当？」そう"),                    # after the closing bracket: a fold
    ("本当に？ OK", "本当に？ OK"),                          # Latin after: as written
    ("Really? Yes", "Really? Yes"),
    ("本当に?! そんな", "本当に?! そんな"),                  # half-width marks: as written
    ("本当に？  そんな", "本当に？  そんな"),                # two spaces are not a fold
    ("『ここ、どこなの？ 暗いの』", "『ここ、どこなの？\u3000暗いの』"),
    ("ＡＢＣ？ ＤＥ", "ＡＢＣ？\u3000ＤＥ"),
]
# fmt: on


def loaded(tmp_path, text: str, folded: bool) -> str:
    if folded:
        body = "      - >\n" + "".join(f"        {part}\n" for part in text.split(" ", 1))
    else:
        body = f"      - {json.dumps(text, ensure_ascii=False)}\n"
    (tmp_path / "s.yaml").write_text(
        "story: {id: s, title: s, language: ja, rules: none, start: a}\nnodes:\n  a:\n"
        f"    title: A\n    narration:\n{body}    actions:\n"
        "      - {id: e, label: 終わる, end: out}\nendings:\n  out: {kind: good, title: 終}\n",
        encoding="utf-8",
    )
    return load(tmp_path / "s.yaml").nodes["a"].narration[0].text


@pytest.mark.parametrize(("written", "shown"), CASES)
def test_written_inline(tmp_path, written: str, shown: str) -> None:
    assert loaded(tmp_path, written, folded=False) == shown


@pytest.mark.parametrize(
    ("written", "shown"), [(w, s) for w, s in CASES if " " in w and "  " not in w]
)
def test_folded_at_the_space(tmp_path, written: str, shown: str) -> None:
    """The same line with its first space as a line break of a folded block."""
    assert loaded(tmp_path, written, folded=True) == shown
