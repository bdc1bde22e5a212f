"""The game master's part: the GM panel (open, folded, or cut to the rows a terminal can spare)
and the overrides typed in the GM's words, sent through step() as ``!verb ...``."""

from __future__ import annotations

import re
import unicodedata

from runner.ui.console.base import ConsoleBase
from runner.ui.console.terminal import PANEL_KEY
from runner.ui.console.words import _META
from runner.ui.i18n import FORCE_WORDS, GM_VERBS, t
from runner.ui.render import Line, gm_hidden, gm_lines, outcome_key

_STATUS_LINE = re.compile(r"^\s*([^\s+\-=]+)\s*([+\-=])\s*(.*?)\s*$")
"""``:STAT±N`` / ``:STAT=N``: any value, so the engine says in one line why ``:幸運=abc`` does
not fit (never "unknown command")."""
_JA_SPAN = re.compile(r"^\+?(?:(\d+)時間)?(?:(\d+)分)?$")
_JA_TIME = re.compile(r"^(\d{1,3})時(?:(\d{1,2})分?|半)?$")


def clock_words(text: str, *, absolute: bool = False) -> str:
    """A GM's clock words as the engine reads them: ``30分``/``30`` → ``+30``, ``1時間30分`` →
    ``+1h30m``, ``13時半`` → ``13:30``; with ``absolute`` (時刻), a bare ``13`` is 13:00."""
    s = unicodedata.normalize("NFKC", text).replace(" ", "").casefold()
    m = _JA_TIME.match(s)
    if m:
        mm = 30 if s.endswith("半") else int(m.group(2) or 0)
        return f"{int(m.group(1)):02d}:{mm:02d}"
    m = _JA_SPAN.match(s)
    if m and (m.group(1) or m.group(2)):
        h, mm = int(m.group(1) or 0), int(m.group(2) or 0)
        return f"+{h}h{mm}m" if h and mm else f"+{h}h" if h else f"+{mm}"
    if s.removesuffix("min").removesuffix("m").isdigit():
        return f"{int(s.removesuffix('min').removesuffix('m')):02d}:00" if absolute else "+" + s
    return s


PANEL_WORDS = ("panel", "パネル", "表示", "畳む", "開く", "fold")
PANEL_OPEN_ROWS = 36
"""A terminal at least this tall starts with the GM panel open."""


class GmPart(ConsoleBase):
    """The GM panel and the GM's overrides."""

    def gm_panel(
        self,
        cols: int | None = None,
        *,
        folded: bool = False,
        max_lines: int | None = None,
        key: str = "",
    ) -> list[Line]:
        """The GM panel (see render.gm_lines): whole, or folded to its summary line, or cut to
        ``max_lines``."""
        if self.state_ev is None or self.player_ev is None:
            return []
        if self._hidden_cache is None or self._hidden_cache[0] is not self.state:
            self._hidden_cache = (self.state, gm_hidden(self.player_ev, self.state_ev))
        return gm_lines(
            self.state_ev,
            self.story,
            self.lang,
            cols=cols or self.io.cols,
            hidden=self._hidden_cache[1],
            folded=folded,
            max_lines=max_lines,
            key=key,
        )

    def toggle_panel(self) -> None:
        """F2 (or ``gm panel``): folds the GM panel to its summary line, or opens it."""
        self.panel_open = not self.panel_is_open(getattr(self.io, "rows", None))

    def panel_is_open(self, rows: int | None = None) -> bool:
        """Whether the panel is open: as the GM left it; at first, open only on a terminal of
        at least PANEL_OPEN_ROWS rows (on a small one the game needs the room); folded on a
        plain terminal, where it follows every turn (``rows`` None)."""
        if self.panel_open is None:
            return rows is not None and rows >= PANEL_OPEN_ROWS
        return self.panel_open

    def cmd_gm(self, args: list[str], word: str = "gm") -> None:
        """``gm``: the panel; ``gm set VAR VALUE`` (or ``変数 VAR VALUE``) ...: an override,
        sent through step() as ``!set ...`` so it is logged, saved, undone and replayed."""
        if not self.gm:
            self.say(t("gm_only", self.lang), "class:error")
            return
        verb = GM_VERBS.get(word) if word.casefold() not in ("gm", "ｇｍ") else None
        if verb is None:
            if not args:
                self.io.write(self.gm_panel())
                return
            if args[0].casefold() in PANEL_WORDS:
                self.toggle_panel()
                self.say(
                    t(
                        "gm_panel_open" if self.panel_open else "gm_panel_folded",
                        self.lang,
                        key=PANEL_KEY if self.io.interactive else "gm panel",
                    ),
                    "class:hint",
                )
                return
            word = args[0]
            verb = GM_VERBS.get(args[0].casefold()) or GM_VERBS.get(args[0])
            args = args[1:]
        # Without words (or with a word that is no override) the engine answers with the usage.
        self.play(self._override(verb, args, word) if verb else "!?")

    def status_line(self, text: str) -> bool:
        """CCFOLIA's status syntax after ``:`` (``:HP-3``, ``:SAN-2``, ``:幸運=50``): a GM's
        ``!stat`` on the player character. False when ``text`` is not one (``:undo``)."""
        m = _STATUS_LINE.match(unicodedata.normalize("NFKC", text))
        if m is None or m.group(1).casefold() in _META:
            return False
        if not self.gm:
            self.say(t("gm_only", self.lang), "class:error")
            return True
        self.play(f"!stat {m.group(1)}{m.group(2)}{m.group(3).replace(' ', '')}")
        return True

    def _override(self, verb: str, args: list[str], word: str = "") -> str:
        """The engine's ``!verb args`` for an override typed in the GM's words. Names stay as
        typed: the engine finds what they name (ids, names, readings, unique parts)."""
        if not args:
            return f"!{verb}"
        if verb == "set":
            return f"!set {args[0]} {' '.join(args[1:])}".rstrip()  # (はい/yes: the engine's)
        if verb == "clock":
            return "!clock " + clock_words(" ".join(args), absolute=word in ("時刻",))
        if verb == "force":
            word = " ".join(args)
            return "!force " + (
                FORCE_WORDS.get(word) or outcome_key(word, self.lang, self.story.rules)
            )
        return f"!{verb} " + " ".join(args)
