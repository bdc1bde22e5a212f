"""What every listener shares: phrases, what was heard, and how heard text becomes a command.

A listener is told the phrases valid *now* (`set_phrases`) and turns speech into a
:class:`Heard`. The matching here is pure Python so that the scripted twin and the real vosk
listener decide exactly alike.
"""

from __future__ import annotations

import math
import unicodedata
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from difflib import SequenceMatcher
from typing import Any

ACT_AT = 0.65
"""Score at or above which a heard command runs at once (measured, see docs/voice-input.md)."""
CONFIRM_AT = 0.40
"""Score from which we ask "did you mean …?"; below it nothing was understood."""
ALWAYS_CONFIRM = frozenset({"quit"})
"""Commands never run on a word alone: with no [unk] word (the Korean model) unrelated speech
was heard as "종료" with full confidence in 3 of 20 tries."""

META: dict[str, dict[str, str]] = {
    # Spoken meta commands per language: phrase -> REPL command. The REPL may pass its own.
    "ja": {
        "ヘルプ": "help",
        "もう一度": "repeat",
        "状態": "status",
        "戻る": "undo",
        "セーブ": "save",
        "終了": "quit",
        "選択肢": "actions",
    },
    "en": {
        "help": "help",
        "again": "repeat",
        "status": "status",
        "undo": "undo",
        "save": "save",
        "quit": "quit",
        "actions": "actions",
    },
    "ko": {"도움말": "help", "다시": "repeat", "상태": "status", "저장": "save", "종료": "quit"},
}
YES_NO: dict[str, dict[str, str]] = {
    # Answers to "did you mean …?".
    "ja": {"はい": "yes", "うん": "yes", "いいえ": "no", "違う": "no"},
    "en": {"yes": "yes", "yeah": "yes", "no": "no"},
    "ko": {"네": "yes", "예": "yes", "아니요": "no", "아니": "no"},
}


@dataclass(frozen=True, slots=True)
class Phrase:
    """Something a player may say now, and the command it stands for."""

    text: str
    command: str


@dataclass(frozen=True, slots=True)
class Heard:
    """One utterance, decided."""

    text: str
    """What the recogniser heard, as it wrote it."""
    command: str | None
    """The command to run, or None when nothing valid now was understood."""
    confidence: float
    """0..1: how sure we are that ``command`` is what was said."""
    seconds: float
    """Time from the end of the audio to this decision."""
    phrase: str | None = None
    """The phrase (as the author wrote it) that matched."""
    needs_confirm: bool = False
    """Ask "did you mean …?" before acting."""
    alternatives: tuple[str, ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["alternatives"] = list(self.alternatives)
        d["confidence"] = round(self.confidence, 3)
        d["seconds"] = round(self.seconds, 4)
        return d


def normalise(text: str) -> str:
    """Compare form: NFKC, lower case, katakana as hiragana, no spaces or punctuation.

    Japanese models answer with spaces between words and in kanji; authors write without
    spaces; so spaces never count."""
    text = unicodedata.normalize("NFKC", text).lower()
    out = []
    for ch in text:
        if "ァ" <= ch <= "ヶ":
            ch = chr(ord(ch) - 0x60)
        cat = unicodedata.category(ch)
        if cat[0] in "LN" or ch == "ー":
            out.append(ch)
    return "".join(out)


def as_phrases(items: Iterable[Phrase | tuple[str, str] | str]) -> list[Phrase]:
    """Accept Phrase objects, (text, command) pairs, or bare strings (the command is itself)."""
    out: list[Phrase] = []
    for it in items:
        if isinstance(it, Phrase):
            out.append(it)
        elif isinstance(it, str):
            out.append(Phrase(it, it))
        else:
            text, command = it
            out.append(Phrase(str(text), str(command)))
    return out


def phrases_for(
    actions: Iterable[Any], lang: str = "ja", *, meta: dict[str, str] | None = None
) -> list[Phrase]:
    """Phrases for the actions available now (each ``.id``, ``.label``, ``.aliases``) plus
    the meta commands of ``lang`` (or ``meta``). The command of an action is its id."""
    out: list[Phrase] = []
    for a in actions:
        out.append(Phrase(a.label, a.id))
        out.extend(Phrase(al, a.id) for al in getattr(a, "aliases", ()) or ())
    for text, cmd in (META.get(lang, META["en"]) if meta is None else meta).items():
        out.append(Phrase(text, cmd))
    return out


def story_phrases(
    story: Any,
    node: str | None = None,
    *,
    lang: str | None = None,
    meta: dict[str, str] | None = None,
) -> list[Phrase]:
    """The phrases a new game of ``story`` listens for at ``node`` (default: the start):
    the actions available there with the story's starting variables, and meta commands."""
    from runner import engine  # imported late: the listener stands without the engine

    state, _ = engine.new_game(story)
    if node is not None and node != state.node:
        if node not in story.nodes:
            raise KeyError(node)
        state = state.copy()
        state.node = node
    return phrases_for(engine.available(story, state), lang or story.language, meta=meta)


def similarity(a: str, b: str) -> float:
    """0..1 on compare forms; a character-level ratio (difflib), so a wrong particle costs
    little and a wrong noun costs much."""
    if not a or not b:
        return 0.0
    return SequenceMatcher(None, a, b, autojunk=False).ratio()


class PhraseBook:
    """The phrases valid now, in compare form, and the decision from recogniser output."""

    def __init__(
        self,
        phrases: Iterable[Phrase],
        *,
        act_at: float = ACT_AT,
        confirm_at: float = CONFIRM_AT,
        forms: Iterable[tuple[str, Phrase]] | None = None,
        always_confirm: frozenset[str] = ALWAYS_CONFIRM,
    ) -> None:
        """``forms``: (text as the recogniser can say it, phrase); by default each phrase's
        own text. A real model hears a phrase reduced to its words (see ``vocab``)."""
        self.phrases = list(phrases)
        self.act_at = act_at
        self.confirm_at = confirm_at
        self.always_confirm = always_confirm
        self.forms: dict[str, Phrase] = {}
        """compare form -> phrase (the first phrase wins when two read alike)."""
        for text, p in forms if forms is not None else ((p.text, p) for p in self.phrases):
            self.add_form(text, p)

    def add_form(self, form: str, phrase: Phrase) -> None:
        """Also accept ``form`` (e.g. the phrase reduced to the model's words) for ``phrase``."""
        key = normalise(form)
        if key:
            self.forms.setdefault(key, phrase)

    def decide(
        self, candidates: Sequence[tuple[str, float]], seconds: float = 0.0, *, unk: str = "[unk]"
    ) -> Heard:
        """Turn recogniser output into a :class:`Heard`.

        ``candidates``: (text, weight) best first, weights in 0..1 (n-best posteriors, see
        :func:`posteriors`, or one text with its confidence). Each phrase scores the weighted
        similarity of the candidates to it; the command is that of the best phrase. A vosk
        grammar is only a bigram model, so vosk can return word salad made of the phrases'
        words: only an exact match of the best candidate with a phrase, well above
        ``act_at``, acts at once; anything weaker asks "did you mean …?" first."""
        alts = [(t.replace(unk, " ").strip(), w) for t, w in candidates]
        heard = candidates[0][0] if candidates else ""
        names = tuple(t for t, _ in candidates)
        scores: dict[str, float] = {}
        for text, weight in alts:
            form = normalise(text)
            if not form:
                continue
            for key in self.forms:
                scores[key] = scores.get(key, 0.0) + weight * similarity(form, key)
        best_key = max(scores, key=lambda k: scores[k], default=None)
        score = min(scores[best_key], 1.0) if best_key is not None else 0.0
        if best_key is None or score < self.confirm_at:
            return Heard(heard, None, score, seconds, alternatives=names)
        exact = normalise(alts[0][0]) == best_key
        p = self.forms[best_key]
        return Heard(
            heard,
            p.command,
            score,
            seconds,
            phrase=p.text,
            needs_confirm=not (exact and score >= self.act_at) or p.command in self.always_confirm,
            alternatives=names,
        )


def posteriors(loglikes: Sequence[float]) -> list[float]:
    """Softmax of n-best log-likelihoods: how the recogniser's belief splits between them."""
    if not loglikes:
        return []
    top = max(loglikes)
    w = [math.exp(x - top) for x in loglikes]
    total = sum(w)
    return [x / total for x in w]


def did_you_mean(heard: Heard, lang: str = "ja") -> str:
    """The question asked when ``heard.needs_confirm``."""
    what = heard.phrase or heard.command or ""
    if lang == "ja":
        return f"「{what}」ですか？（はい／いいえ）"
    if lang == "ko":
        return f'"{what}" 맞습니까? (네/아니요)'
    return f'Did you mean "{what}"? (yes/no)'


class Listener(ABC):
    """Speech in, :class:`Heard` out. The REPL calls ``set_phrases`` on every prompt, then
    ``next_heard`` (microphone or script) or ``recognise`` (a recorded utterance)."""

    lang: str = "ja"

    def __init__(self) -> None:
        self.book = PhraseBook([])
        import threading

        self.muted = threading.Event()
        """Set while the narrator speaks: microphone audio is dropped meanwhile."""

    @abstractmethod
    def set_phrases(self, phrases: Iterable[Phrase | tuple[str, str] | str]) -> list[str]:
        """Listen only for these now. Returns the words the recogniser cannot hear."""

    @abstractmethod
    def recognise(self, audio: bytes, sample_rate: int = 16000) -> Heard:
        """Decide one whole utterance (16-bit mono PCM)."""

    @abstractmethod
    def next_heard(self, timeout: float | None = None) -> Heard | None:
        """The next utterance from the live input; None on timeout or when it has ended."""

    def mute(self) -> None:
        self.muted.set()

    def unmute(self) -> None:
        self.muted.clear()

    def start(self) -> None:  # noqa: B027  (a no-op by default)
        """Begin listening (opens the microphone where there is one)."""

    def press(self) -> None:  # noqa: B027
        """Push-to-talk: the key went down (start an utterance)."""

    def release(self) -> None:  # noqa: B027
        """Push-to-talk: the key went up (end the utterance)."""

    def close(self) -> None:  # noqa: B027
        """Stop listening and free the device."""


class ScriptedListener(Listener):
    """The test twin: each utterance is the next text of a script, heard with certainty
    (or ``(text, confidence)``), decided by the same :class:`PhraseBook` as vosk's."""

    def __init__(self, script: Iterable[str | tuple[str, float]], lang: str = "ja") -> None:
        super().__init__()
        self.lang = lang
        self.script = [s if isinstance(s, tuple) else (s, 1.0) for s in script]
        self.history: list[list[Phrase]] = []

    def set_phrases(self, phrases: Iterable[Phrase | tuple[str, str] | str]) -> list[str]:
        ps = as_phrases(phrases)
        self.history.append(ps)
        self.book = PhraseBook(ps)
        return []

    def _next(self) -> Heard | None:
        if not self.script:
            return None
        text, conf = self.script.pop(0)
        return self.book.decide([(text, conf)], 0.0)

    def recognise(self, audio: bytes = b"", sample_rate: int = 16000) -> Heard:
        h = self._next()
        return h if h is not None else Heard("", None, 0.0, 0.0)

    def next_heard(self, timeout: float | None = None) -> Heard | None:
        return self._next()
