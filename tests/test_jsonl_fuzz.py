"""The --jsonl fuzz in CI (#20, "Done when"): random lines, random `:dice`, random rule
commands, game master overrides, over-long lines and random bytes against every shipped
story, each session the real subprocess under a memory cap (RLIMIT_AS). No traceback, no
line that is not UTF-8 JSON, no hang (every line answered by exactly one state and one
prompt/ending), no internal error, no growth. The driver is benchmarks/fuzz_jsonl.py, whose
`--minutes` run is the long one; here the example count is bounded
(KATARI_FUZZ_EXAMPLES, default 12, for the hypothesis part)."""

from __future__ import annotations

import importlib.util
import os
import random
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("fuzz_jsonl", ROOT / "benchmarks" / "fuzz_jsonl.py")
fuzz = importlib.util.module_from_spec(_spec)
sys.modules["fuzz_jsonl"] = fuzz  # its dataclasses look their module up
_spec.loader.exec_module(fuzz)

STORIES = fuzz.shipped_stories()
INFOS = {s: fuzz.StoryInfo.of(s) for s in STORIES}
EXAMPLES = int(os.environ.get("KATARI_FUZZ_EXAMPLES", "12"))


class HypothesisPick(fuzz.Pick):
    """The fuzzer's choices drawn by hypothesis (so a failure shrinks to a short session)."""

    def __init__(self, data) -> None:  # noqa: ANN001
        self.data = data

    def choice(self, seq):  # noqa: ANN001, ANN201
        return self.data.draw(st.sampled_from(list(seq)))

    def integer(self, lo: int, hi: int) -> int:
        return self.data.draw(st.integers(lo, hi))

    def chance(self, p: float) -> bool:
        return self.data.draw(st.integers(0, 999)) < p * 1000

    def text(self, max_size: int) -> str:
        return self.data.draw(st.text(max_size=max_size))

    def raw(self, max_size: int) -> bytes:
        return self.data.draw(st.binary(min_size=1, max_size=max_size)).replace(b"\n", b"")


@pytest.fixture(scope="module")
def home(tmp_path_factory) -> str:
    return str(tmp_path_factory.mktemp("fuzz-home"))


def _id(p: Path) -> str:
    return p.name if p.is_dir() else p.stem


@pytest.mark.parametrize("story", STORIES, ids=_id)
def test_every_story_answers_random_lines_cleanly(story: Path, home: str) -> None:
    info = INFOS[story]
    rnd = random.Random(_id(story))
    lines = 0
    for gm in (False, True):
        for _ in range(2):
            r = fuzz.run_session(
                fuzz.Pick(rnd),
                story,
                info,
                seed=rnd.randrange(1 << 31),
                gm=gm,
                max_lines=120,
                home=home,
            )
            lines += r["lines"]
    assert lines >= 30


@pytest.mark.parametrize("story", STORIES, ids=_id)
def test_a_long_session_does_not_grow(story: Path, home: str) -> None:
    """After 300 lines of every sort that leave the game where it is, 800 distinct lines of
    about 14 KB each (11 MB in all): a session that kept one copy of each would grow by about
    7 MB; it grows by none (2,000 lines of 500 KB once took a session to 1.7 GB)."""
    info = INFOS[story]
    rnd = random.Random(7)
    p = fuzz.Pick(rnd)
    s = fuzz.Session(story, seed=1, home=home)
    try:
        for _ in range(300):
            s.send(fuzz.make_line(p, info, s.prompt, False, soak=True))
        base = s.rss_kb()
        for _ in range(800):
            s.send((str(rnd.getrandbits(60)) + "あ" * rnd.randint(4000, 5400)).encode())
        grown = s.rss_kb() - base
        s.close()
    finally:
        s.kill()
    assert not s.ended and grown < 5 * 1024, f"{info.id}: resident memory grew {grown // 1024} MB"


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data())
def test_hypothesis_drives_any_story_with_any_lines(data, tmp_path_factory) -> None:
    story = data.draw(st.sampled_from(STORIES), label="story")
    gm = data.draw(st.booleans(), label="gm")
    seed = data.draw(st.integers(0, 2**31 - 1), label="seed")
    n = data.draw(st.integers(1, 40), label="lines")
    fuzz.run_session(
        HypothesisPick(data),
        story,
        INFOS[story],
        seed=seed,
        gm=gm,
        max_lines=n,
        home=str(tmp_path_factory.getbasetemp() / "fuzz-hyp-home"),
    )
