"""A comma in unquoted flow-style YAML cuts a sentence (#14: a newcomer's
``narration: [A heavy door, swollen with salt.]`` became two narration lines without a word,
and ``{say: Behind a crate, a can of oil., effects: ...}`` gave "unknown key 'a can of oil.'").

``katari check`` warns (K308) about a ``[…]`` text list whose items read as one sentence cut
at a comma, and the unknown-key error says to quote prose. Neither fires on the shipped
stories, nor on a list of separate lines."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parent.parent

STORY = """\
story: {id: door, title: Door, language: en, rules: none, start: hall}
nodes:
  hall:
    narration: [A heavy door, swollen with salt.]
    actions:
      - {id: open, label: Open, say: [It opens., Cold air comes in.], end: out}
      - id: knock
        label: Knock
        say: [Three knocks, then silence]
      - {id: look, label: Look, narration_note: x}
endings:
  out: {kind: good, title: Out, narration: ["Outside, the wind.", Gulls, waves, rain.]}
"""


def check(path: Path) -> str:
    env = {k: v for k, v in os.environ.items() if k != "KATARI_LANG"}
    r = subprocess.run(
        [sys.executable, "-m", "runner", "check", str(path)],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env,
        cwd=ROOT,
        timeout=120,
    )
    return r.stdout + r.stderr


def test_a_sentence_cut_at_a_comma_in_a_flow_list_is_warned_where_it_stands(
    tmp_path: Path,
) -> None:
    f = tmp_path / "door.yaml"
    f.write_text(STORY.replace("      - {id: look, label: Look, narration_note: x}\n", ""))
    out = check(f)
    warned = [ln for ln in out.splitlines() if ln.endswith("(warning) [K308]")]
    assert warned == [
        f"{f}:4:17: narration: [A heavy door, swollen with salt.] is 2 lines ('A heavy door',"
        " 'swollen with salt.', ...): in a [...] list a comma starts a new line; if it is one"
        ' sentence, quote it: ["A heavy door, swollen with salt."] (warning) [K308]',
        f"{f}:9:15: say: [Three knocks, then silence] is 2 lines ('Three knocks', 'then"
        " silence', ...): in a [...] list a comma starts a new line; if it is one sentence,"
        ' quote it: ["Three knocks, then silence"] (warning) [K308]',
    ], out
    # Separate lines (each closed, or the next capitalised), quoted text: no warning.
    assert "Gulls" not in out and "It opens" not in out
    assert f"{f}: ok" in out


def test_prose_as_an_unknown_key_says_to_quote(tmp_path: Path) -> None:
    f = tmp_path / "door.yaml"
    f.write_text(
        STORY.replace(
            "      - {id: look, label: Look, narration_note: x}\n",
            "      - {id: look, label: Look, say: Behind a crate, a can of oil., goto: hall}\n",
        )
    )
    out = check(f)
    assert (
        "unknown key 'a can of oil.' in an action (text cut at a comma? inside {…} or […]"
        ' a comma separates entries: put the whole text in quotes, say: "…, …")'
    ) in out, out
    # A key that is a name, not prose, keeps its did-you-mean.
    assert "unknown key 'narration_note'" not in out


@pytest.mark.parametrize(
    "story", sorted(p.name for p in (ROOT / "runner" / "shipped" / "stories").iterdir())
)
def test_no_false_alarm_on_the_shipped_stories(story: str) -> None:
    out = check(ROOT / "runner" / "shipped" / "stories" / story)
    assert "K308" not in out and " lines (" not in out, out


_BLANK = st.sampled_from(["", " ", "\t", "\u3000"])
_FLOW_LINE = st.builds(
    lambda key, b1, b2, body, end: f"{key}{b1}:{b2}[{body}{end}",
    st.sampled_from(["narration", "say", "text", "- keeper", "{say", "xsay"]),
    _BLANK,
    _BLANK,
    st.text(alphabet=list("aB ,.'#{\u2028\r"), max_size=12),
    st.sampled_from(["]", "", "]]", "], x"]),
)


@settings(max_examples=2000, deadline=None)
@given(
    st.lists(st.one_of(_FLOW_LINE, st.text(alphabet=list("a ,[]:"), max_size=8)), max_size=4),
    st.sampled_from(["\n", "\r\n", "\u2028"]),
)
def test_the_whole_file_hint_is_in_every_line_that_could_be_warned(
    lines: list[str], sep: str
) -> None:
    # _comma_splits reads a file line by line only where _FLOW_TEXT_HINT finds something.
    from runner.authoring.lint import _FLOW_TEXT, _FLOW_TEXT_HINT

    text = sep.join(lines)
    listed = any("," in m.group(2) for line in text.splitlines() for m in _FLOW_TEXT.finditer(line))
    assert not listed or _FLOW_TEXT_HINT.search(text)
