"""The real listener: vosk in grammar mode, limited to the phrases valid now.

Lessons from vosk's own issue tracker that shape this file:
- the grammar is JSON, written with ``ensure_ascii=False``: vosk's JSON reader does not
  decode ``\\uXXXX`` escapes, so escaped Japanese/Korean would silently become no words;
- ``SetGrammar`` on a recogniser in the middle of an utterance is a Kaldi error (it aborts),
  so every grammar change is ``Reset()`` then ``SetGrammar()``, on the thread that decodes;
- only models with a dynamic graph (``graph/HCLr.fst`` + ``Gr.fst``, the small ones) take a
  runtime grammar; a big model (``HCLG.fst``) would ignore it;
- a grammar is a bigram model over the phrases' words, not a list of sentences: the answer
  may be words of two phrases run together, so the answer is checked against the phrases;
- ``[unk]`` gives noise somewhere to go, where the model has that word (the Korean model
  has not: there low scores and the exact-phrase check do that job);
- per-word ``conf`` is unreliable on the small models (a wrong word can score 1.0), so the
  confidence here is the n-best posterior of the phrase, from ``SetMaxAlternatives``;
- we act on final results only; partial results are for display.
"""

from __future__ import annotations

import json
import queue
import threading
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from runner.ui.listener import messages
from runner.ui.listener.audio import AudioError
from runner.ui.listener.core import (
    ACT_AT,
    CONFIRM_AT,
    Heard,
    Listener,
    Phrase,
    PhraseBook,
    as_phrases,
    posteriors,
)
from runner.ui.listener.models import ModelError, load_model, sample_rate  # noqa: F401 (ModelError: callers catch it from here)
from runner.ui.listener.vocab import has_word_of, split_words

CHUNK = 3200
"""Bytes fed to vosk at a time for recorded audio (0.1 s at 16 kHz)."""
_RESET, _END, _STOP = object(), object(), object()


class VoskListener(Listener):
    """vosk + grammar. ``recognise`` decides recorded audio at once; ``start`` runs a worker
    thread that decodes audio given to ``feed`` (by the microphone, or by a test), in
    ``mode`` "push" (between ``press`` and ``release``) or "continuous" (vosk's endpointing:
    each final result is an utterance)."""

    def __init__(
        self,
        model: Any,
        *,
        lang: str = "ja",
        rate: int = 16000,
        mode: str = "push",
        alternatives: int = 10,
        act_at: float = ACT_AT,
        confirm_at: float = CONFIRM_AT,
    ) -> None:
        super().__init__()
        if mode not in ("push", "continuous"):
            raise ValueError(f"mode must be push or continuous, not {mode!r}")
        self.model = model
        self.lang = lang
        self.rate = rate
        self.mode = mode
        self.alternatives = alternatives
        self.act_at, self.confirm_at = act_at, confirm_at
        self.has_word = has_word_of(model)
        self.unk = "[unk]" if self.has_word("[unk]") else None
        self.grammar: list[str] = []
        """The grammar lines now in force (for ``katari hear`` and tests)."""
        self.unknown: list[str] = []
        self.rec: Any = None
        self._active = PhraseBook([])
        self._pending: tuple[str | None, PhraseBook] | None = None
        self._lock = threading.RLock()
        self._audio: queue.Queue[Any] = queue.Queue()
        self.heard: queue.Queue[Heard] = queue.Queue()
        self.talking = threading.Event()
        """Push-to-talk: set while the key is held."""
        self._worker: threading.Thread | None = None
        self._stream: Any = None
        self._closed = False
        self._was_muted = False

    @classmethod
    def from_path(cls, path: Path, *, lang: str = "ja", **kw: Any) -> VoskListener:
        return cls(load_model(path, lang), lang=lang, rate=sample_rate(path), **kw)

    # -- phrases -------------------------------------------------------------------------
    def set_phrases(self, phrases: Iterable[Phrase | tuple[str, str] | str]) -> list[str]:
        ps = as_phrases(phrases)
        lines: dict[str, None] = {}
        forms: list[tuple[str, Phrase]] = []
        unknown: dict[str, None] = {}
        for p in ps:
            words, missing = split_words(p.text, self.has_word)
            for m in missing:
                unknown.setdefault(m, None)
            if words:
                line = " ".join(words)
                lines.setdefault(line, None)
                forms.append((line, p))
        grammar = list(lines)
        book = PhraseBook(ps, act_at=self.act_at, confirm_at=self.confirm_at, forms=forms)
        self.book = book
        self.grammar = grammar
        self.unknown = list(unknown)
        if self.unk and grammar:
            grammar = [*grammar, self.unk]
        # Not applied here: the decoding thread applies it between utterances.
        self._pending = (json.dumps(grammar, ensure_ascii=False) if grammar else None, book)
        if self._worker is None:
            with self._lock:
                self._apply_pending()
        return self.unknown

    def _apply_pending(self) -> None:
        """Reset() then SetGrammar(): only ever on the thread holding ``_lock``."""
        pending, self._pending = self._pending, None
        if pending is None:
            return
        grammar, book = pending
        if grammar is not None:
            if self.rec is None:
                import vosk

                self.rec = vosk.KaldiRecognizer(self.model, self.rate, grammar)
                self.rec.SetMaxAlternatives(self.alternatives)
            else:
                self.rec.Reset()
                self.rec.SetGrammar(grammar)
        elif self.rec is not None:
            self.rec.Reset()
        self._active = book if grammar is not None else PhraseBook([])

    # -- decoding ------------------------------------------------------------------------
    def _decide(self, result: str, seconds: float) -> Heard:
        r = json.loads(result)
        alts = r.get("alternatives")
        if alts is None:
            alts = [{"text": r.get("text", ""), "confidence": 1.0}]
        texts = [a.get("text", "") for a in alts]
        weights = posteriors([float(a.get("confidence", 0.0)) for a in alts])
        return self._active.decide(
            list(zip(texts, weights, strict=True)), seconds, unk=self.unk or "[unk]"
        )

    def recognise(self, audio: bytes, sample_rate: int | None = None) -> Heard:
        """Decide one recorded utterance; ``seconds`` is the whole decoding time."""
        if sample_rate is not None and sample_rate != self.rate:
            raise AudioError(
                messages.text(
                    "wav_rate",
                    None,
                    path="audio",
                    got=sample_rate,
                    want=self.rate,
                    qpath="audio.wav",
                )
            )
        with self._lock:
            self._apply_pending()
            if not self._active.forms or self.rec is None:
                return Heard("", None, 0.0, 0.0)
            self.rec.Reset()
            t0 = time.perf_counter()
            results = []
            for i in range(0, len(audio), CHUNK):
                if self.rec.AcceptWaveform(audio[i : i + CHUNK]):
                    results.append(self.rec.Result())  # an endpoint inside the recording
            results.append(self.rec.FinalResult())
            seconds = time.perf_counter() - t0
        decided = [self._decide(r, seconds) for r in results]
        spoken = [h for h in decided if h.text.strip()] or decided
        # A recording may hold a cough before the command: take the surest segment.
        return max(spoken, key=lambda h: (h.command is not None, h.confidence))

    # -- live audio ----------------------------------------------------------------------
    def feed(self, pcm: bytes) -> None:
        """Audio from the microphone (any thread). Dropped while muted, and in push-to-talk
        mode while the key is up."""
        if self._closed:
            return
        if self.muted.is_set():  # the narrator may set the Event directly
            self._was_muted = True
            return
        if self._was_muted:  # forget what was half heard before the narrator spoke
            self._was_muted = False
            self._audio.put(_RESET)
        if self.mode == "push" and not self.talking.is_set():
            return
        self._audio.put(pcm)

    def mute(self) -> None:
        """The narrator starts speaking: drop audio, and forget a half-heard utterance."""
        self.muted.set()
        self._audio.put(_RESET)

    def unmute(self) -> None:
        self._audio.put(_RESET)
        self.muted.clear()

    def press(self) -> None:
        self._audio.put(_RESET)
        self.talking.set()

    def release(self) -> None:
        self.talking.clear()
        self._audio.put(_END)

    def start(self, microphone: bool = True, device: int | str | None = None) -> None:
        """Start the decoding thread, and the microphone unless ``microphone`` is False
        (then audio comes from ``feed``). Raises MicrophoneError (one line) on failure."""
        if self._worker is None:
            self._worker = threading.Thread(target=self._run, name="katari-listener", daemon=True)
            self._worker.start()
        if microphone and self._stream is None:
            from runner.ui.listener.microphone import open_microphone

            self._stream = open_microphone(self.feed, self.rate, device)

    def _run(self) -> None:
        while True:
            item = self._audio.get()
            if item is _STOP:
                return
            with self._lock:
                if self._pending is not None:
                    self._apply_pending()  # phrases changed: a half utterance is dropped
                if self.rec is None:
                    continue
                if item is _RESET:
                    self.rec.Reset()
                    continue
                t0 = time.perf_counter()
                if item is _END:
                    result = self.rec.FinalResult()
                elif self.rec.AcceptWaveform(item):
                    result = self.rec.Result()  # vosk's endpoint: a final result
                else:
                    continue  # partial results are never acted on
                heard = self._decide(result, time.perf_counter() - t0)
            if heard.text.strip() or item is _END:
                self.heard.put(heard)

    def next_heard(self, timeout: float | None = None) -> Heard | None:
        if self._closed and self.heard.empty():
            return None
        try:
            return self.heard.get(timeout=timeout)
        except queue.Empty:
            return None

    def wait_idle(self, timeout: float = 10.0) -> None:
        """Block until the worker has taken all queued audio (tests, benchmarks)."""
        end = time.monotonic() + timeout
        while not self._audio.empty() and time.monotonic() < end:
            time.sleep(0.005)
        with self._lock:
            pass

    def close(self) -> None:
        self._closed = True
        if self._stream is not None:
            try:
                self._stream.stop()
                self._stream.close()
            finally:
                self._stream = None
        if self._worker is not None:
            self._audio.put(_STOP)
            self._worker.join(timeout=5)
            self._worker = None
