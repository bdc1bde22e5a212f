"""The console for screen readers and for playing by ear (``katari play --screen-reader``; also
when TERM=dumb or the output is not a terminal).

A screen reader reads every line the program writes, and reads it again whenever it is
redrawn; so this console never redraws and writes each line once:

- plain lines, no colour, no escape sequence, no cursor movement (no status bar: nothing is
  redrawn twice a second in real-time stories);
- the numbered actions as a list with its length (「選択肢（3）」), written when they change;
  the same list is not written again after every turn (``actions`` / ``選択肢`` asks for it),
  one line says it is the same (with the actions, when there are at most three);
- the status only when asked (``status``) or, one line, when a part of it changed
  (「状態：時刻 11:30、正気度 42」);
- rolls and endings in words, without box-drawing rules.

The console calls ``io.present(console, events, command)`` for a turn's lines when the io has it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from runner.ui.console.terminal import PlainIO
from runner.ui.render import Line, Renderer, status_items

if TYPE_CHECKING:  # annotations only: the engine is not loaded for this
    from runner.engine.events import Event

_TEXT = {
    "ja": {
        "actions": "選択肢（{n}）：",
        "status": "状態：",
        "sep": "、",
        "prompt": "> ",
        "none": "いまできる行動はありません。",
        "same": "選択肢は同じ：",
        "same_long": "選択肢は同じです（「選択肢」でもう一度）。",
    },
    "en": {
        "actions": "Choices ({n}):",
        "status": "Status: ",
        "sep": ", ",
        "prompt": "> ",
        "none": "There is nothing to do now.",
        "same": "Same choices: ",
        "same_long": "The choices are the same (“actions” lists them again).",
    },
}
SAME_INLINE = 3
"""A list this short is said again, on one line, after a turn that left it as it was."""
_DECOR = re.compile(r"[━─┃]+")
"""Rules drawn with box-drawing characters, which a screen reader names one by one."""


def _tx(lang: str) -> dict:
    return _TEXT.get(lang, _TEXT["en"])


class ScreenReaderIO(PlainIO):
    """Plain lines, each once: see the module's doc."""

    screen_reader = True

    def __init__(
        self,
        inp: Any = None,
        out: Any = None,
        cols: int | None = None,
        *,
        plain_prompt: bool = True,
    ) -> None:
        super().__init__(inp, out, cols or 1000)  # no hard wrapping: the reader speaks a line whole
        self.plain_prompt = plain_prompt
        """``> `` for the prompt (asked for, or TERM=dumb); piped output keeps the console's own."""
        self._actions: tuple | None = None
        self._status: dict[str, str] | None = None

    # -- what the console asks of an io---------------------------------------------------------
    def read(self, message: str, **kw: Any) -> str:
        # The console's prompt, without a glyph a screen reader would name ("triangle").
        plain = self.plain_prompt and message in ("▶ ", "> ")
        return super().read("> " if plain else message, **kw)

    def write(self, lines: list[Line]) -> None:
        clean: list[Line] = []
        for line in lines:
            text = _DECOR.sub("", "".join(t for _, t in line)).rstrip()
            if text.strip() or not clean or clean[-1][0][1].strip():
                clean.append([("", text)])
        super().write(clean)

    def present(self, repl: Any, events: list[Event], command: str = "") -> list[Line]:
        """A turn's lines: the events in order (rolls and endings in words), then the actions
        if they changed, then what changed in the status."""
        from runner.ui.narrator.words import ending_words, roll_words

        lang = repl.lang
        r = Renderer(repl.story, lang=lang, gm=repl.gm, cols=self.cols, show_actions=False)
        out: list[Line] = []
        prompt = None
        for ev in events:
            if ev["type"] == "roll":
                if ev.get("keeper") and not repl.gm:
                    continue
                out.append(
                    [
                        (
                            "",
                            roll_words(
                                ev, lang, spoken=False, system=getattr(repl.story, "rules", None)
                            ),
                        )
                    ]
                )
            elif ev["type"] == "ending":
                out.append([("", ending_words(ev, lang))])
            elif ev["type"] == "prompt":
                prompt = ev
            else:
                out.extend(r.event(ev, command=command))
        if prompt is not None:
            # A turn that ran and left the same list (a dying character's CON roll that held,
            # a failed search to try again) still says what can be done: the list is short.
            out.extend(
                self.actions_lines(prompt.get("actions", []), lang, force=False)
                or self.same_lines(prompt.get("actions", []), lang)
            )
        out.extend(self.status_change(repl))
        return out

    def actions_lines(
        self, actions: Sequence[Mapping[str, Any]], lang: str, *, force: bool = True
    ) -> list[Line]:
        """The numbered list (with its length), or nothing when it is the one written last."""
        key = tuple((a.get("n"), a.get("label")) for a in actions)
        if not force and key == self._actions:
            return []
        self._actions = key
        shown = [a for a in actions if a.get("n")]
        if not shown:
            return [[("", _tx(lang)["none"])]]
        return [[("", _tx(lang)["actions"].format(n=len(shown)))]] + [
            [("", f"{a['n']}. {a.get('label', '')}")] for a in shown
        ]

    def same_lines(self, actions: Sequence[Mapping[str, Any]], lang: str) -> list[Line]:
        """One line when the list is the one written last: the actions themselves when there
        are at most SAME_INLINE of them, else where to hear them again."""
        shown = [a for a in actions if a.get("n")]
        if not shown:
            return []
        tx = _tx(lang)
        if len(shown) <= SAME_INLINE:
            return [
                [
                    (
                        "",
                        tx["same"]
                        + tx["sep"].join(f"{a['n']}. {a.get('label', '')}" for a in shown),
                    )
                ]
            ]
        return [[("", tx["same_long"])]]

    def status_change(self, repl: Any, *, force: bool = False) -> list[Line]:
        """One line of what changed in the status since it was last written (nothing when
        nothing did; the first time, only remembered: the game's opening says where we are)."""
        ev = repl.toolbar_event() if repl.tl is not None else None
        if not ev:
            return []
        now = dict(status_items(ev, repl.story, repl.lang, short=True))
        before, self._status = self._status, now
        if before is None and not force:
            return []
        tx = _tx(repl.lang)
        changed = [(k, v) for k, v in now.items() if force or before is None or before.get(k) != v]
        if not changed:
            return []
        return [[("", tx["status"] + tx["sep"].join(f"{k} {v}" for k, v in changed))]]
