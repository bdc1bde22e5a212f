"""Input and completion: the terminals the console reads from and writes to (prompt_toolkit's
session, plain lines, and the lines and wakes other threads post to them) and the completer
of the actions and meta commands valid now."""

from __future__ import annotations

import os
import sys
import threading
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from runner.story.text import printable
from runner.ui.console.words import _META, _PREFIXES, ECHO_MAX
from runner.ui.i18n import META
from runner.ui.render import STYLE, Line, clip, plain, toolbar


class Served(Protocol):
    """What the prompt, its status bar and its completer ask of the console they serve."""

    story: Any
    lang: str
    gm: bool
    state_ev: dict | None

    def key_skip(self) -> None: ...
    def key_talk(self) -> None: ...
    def toggle_panel(self) -> None: ...
    def panel_is_open(self, rows: int | None = None) -> bool: ...
    def gm_panel(
        self,
        cols: int | None = None,
        *,
        folded: bool = False,
        max_lines: int | None = None,
        key: str = "",
    ) -> list[Line]: ...
    def toolbar_event(self) -> dict | None: ...
    def realtime_items(self) -> list[tuple[str, str]]: ...
    def voice_items(self) -> list[tuple[str, str]]: ...
    def offers(self, name: str) -> bool: ...
    def meta_help(self, name: str) -> str: ...
    def choices(self) -> list: ...


def _isatty(f: Any) -> bool:
    try:
        return bool(f.isatty())
    except (AttributeError, ValueError):
        return False


class Wake:
    """Not a typed line: something the loop must handle on its own thread (time, speech)."""

    __slots__ = ("kind", "data")

    def __init__(self, kind: str, data: Any = None) -> None:
        self.kind = kind
        self.data = data


class _Posted:
    """Lines and wakes handed to the console from other threads (listener, timer)."""

    def __init__(self) -> None:
        self._items: deque[Any] = deque()
        self._lock = threading.Lock()
        self.on_wake: Callable[[Wake], None] | None = None

    def post(self, item: str | Wake) -> None:
        with self._lock:
            self._items.append(item)

    def has_posted(self) -> bool:
        with self._lock:
            return bool(self._items)

    def _take(self) -> Any:
        with self._lock:
            return self._items.popleft() if self._items else None

    def _handle(self, w: Wake) -> None:
        if self.on_wake is not None:
            self.on_wake(w)


class PlainIO(_Posted):
    """Lines in, plain text out: for pipes, scripts and terminals without prompt_toolkit.

    With ``live`` set (real time or speech), a file-descriptor input is read with select()
    so that timers and heard commands are handled while no line is typed."""

    interactive = False

    def __init__(self, inp: Any = None, out: Any = None, cols: int | None = None) -> None:
        super().__init__()
        self.inp = inp or sys.stdin
        self.out = out or sys.stdout
        self._cols = cols
        self.live = False
        self.wait_step = 0.05
        self._raw = b""
        self._eof = False
        self._open_prompt = ""

    @property
    def cols(self) -> int:
        if self._cols:
            return self._cols
        try:
            return max(20, int(os.environ.get("COLUMNS", "80")) - 1)
        except ValueError:
            return 79

    def _fd(self) -> int | None:
        try:
            return int(self.inp.fileno())
        except (AttributeError, ValueError, OSError):
            return None

    def _readline(self, wakes: bool) -> str | Wake | None:
        """One raw line (without its newline), a wake, or None at the end of input."""
        fd = self._fd() if self.live else None
        if fd is None:
            line = self.inp.readline()
            return line.rstrip("\r\n") if line else None
        import select

        while True:
            if wakes:
                item = self._take()
                if item is not None:
                    return item
            if b"\n" in self._raw:
                line, _, self._raw = self._raw.partition(b"\n")
                return line.decode("utf-8", "replace").rstrip("\r")
            if self._eof:
                if self._raw:
                    line, self._raw = self._raw, b""
                    return line.decode("utf-8", "replace")
                return None
            try:
                ready, _, _ = select.select([fd], [], [], self.wait_step)
            except (OSError, ValueError):
                ready = [fd]
            if ready:
                chunk = os.read(fd, 65536)
                if chunk:
                    self._raw += chunk
                else:
                    self._eof = True

    def read(self, message: str, *, wakes: bool = True, **_: Any) -> str:
        self._open_prompt = ""
        while True:
            if not self._open_prompt:  # (again, after a wake printed something)
                self.out.write(printable(message))
                self.out.flush()
                self._open_prompt = message
            item = self._take() if wakes else None
            if item is None:
                item = self._readline(wakes)
            if isinstance(item, Wake):
                self._handle(item)
                continue
            self._open_prompt = ""
            if item is None:
                self.out.write("\n")
                raise EOFError
            if not _isatty(self.inp):
                # Echo scripted input so the output reads as a session (a runaway line, cut short).
                self.out.write(printable(clip(item, ECHO_MAX)) + "\n")
            return item

    def ask(self, message: str) -> str:
        return self.read(message, wakes=False)

    def write(self, lines: list[Line]) -> None:
        if lines:
            if self._open_prompt:
                self.out.write("\n")
                self._open_prompt = ""
            self.out.write(plain(lines) + "\n")
            self.out.flush()

    def feed(self, text: str) -> bool:
        self.post(text)
        return True

    def wake(self) -> None:
        pass

    def close(self) -> None:
        pass


_WAKE = object()


def _quiet_history_class() -> Any:
    from prompt_toolkit.history import FileHistory

    class QuietFileHistory(FileHistory):
        """Line history that a folder we cannot read or write never turns into a crash."""

        def load_history_strings(self) -> Any:
            try:
                yield from super().load_history_strings()
            except OSError:
                return

        def store_string(self, string: str) -> None:
            try:
                super().store_string(string)
            except OSError:
                pass

    return QuietFileHistory


def _quiet_file_history(path: str) -> Any:
    return _quiet_history_class()(path)


class PromptIO(_Posted):
    """A prompt_toolkit ``PromptSession`` with completion, history and a status bar.

    Keys: Ctrl-S stops the line being read aloud; F5 (or Ctrl-Space) starts and ends a
    push-to-talk utterance."""

    interactive = True

    def __init__(
        self,
        repl: Served,
        history_file: Path | None,
        *,
        color: bool,
        refresh: float | None = None,
        echo_delay: float = 0.3,
    ) -> None:
        from prompt_toolkit import PromptSession
        from prompt_toolkit.history import InMemoryHistory
        from prompt_toolkit.key_binding import KeyBindings
        from prompt_toolkit.output import ColorDepth
        from prompt_toolkit.styles import Style

        super().__init__()
        self.repl = repl
        self.echo_delay = echo_delay
        self._carry = ""
        self.style = Style.from_dict(STYLE if color else {"bottom-toolbar": "reverse"})
        self.depth = None if color else ColorDepth.DEPTH_1_BIT
        history: Any = InMemoryHistory()
        if history_file is not None:
            try:
                history_file.parent.mkdir(parents=True, exist_ok=True)
                history = _quiet_file_history(str(history_file))
            except OSError:
                pass
        kb = KeyBindings()

        @kb.add("c-s")  # replaces forward history search; raw mode keeps XON/XOFF off
        def _skip(event: Any) -> None:
            repl.key_skip()

        @kb.add("f5")
        @kb.add("c-space")
        def _talk(event: Any) -> None:
            repl.key_talk()
            event.app.invalidate()

        @kb.add("f2")
        def _panel(event: Any) -> None:
            if repl.gm:
                repl.toggle_panel()
                event.app.invalidate()

        from prompt_toolkit.filters import Condition

        # Room for the completion menu is kept only once something is typed (or Tab pressed):
        # on an empty line those rows belong to the game (a small terminal has none to spare).
        typing = Condition(lambda: bool(self.session.default_buffer.text))
        self.session: Any = PromptSession(
            history=history,
            completer=ActionCompleter(repl),
            complete_while_typing=typing,
            bottom_toolbar=self._toolbar,
            style=self.style,
            color_depth=self.depth,
            reserve_space_for_menu=6,
            key_bindings=kb,
            refresh_interval=refresh or 0.0,  # (0: no refresh)
        )
        self.asker: Any = PromptSession(style=self.style, color_depth=self.depth)

    @property
    def cols(self) -> int:
        try:
            return max(20, self.session.output.get_size().columns - 1)
        except Exception:  # noqa: BLE001 - an output without a size
            return 79

    @property
    def rows(self) -> int:
        try:
            return max(8, self.session.output.get_size().rows)
        except Exception:  # noqa: BLE001 - an output without a size
            return 24

    def panel_rows(self, rows: int) -> int:
        """Rows the open GM panel may take: what is left once the status bar, the prompt, two
        spare rows and the game's own GAME_ROWS (or half the screen) are counted. At least
        its summary line. (The completion menu's room is kept only while typing.)"""
        game = max(GAME_ROWS, rows // 2)
        return max(1, rows - 2 - game - 2)

    def _toolbar(self) -> Any:
        from prompt_toolkit.formatted_text import FormattedText

        r = self.repl
        frags: list[tuple[str, str]] = []
        if r.gm and r.state_ev is not None:
            rows = self.rows
            open_ = r.panel_is_open(rows)
            for line in r.gm_panel(
                self.cols + 1, folded=not open_, max_lines=self.panel_rows(rows), key=PANEL_KEY
            ):
                frags.extend(line)
                frags.append(("", "\n"))
        frags.extend(
            toolbar(
                r.toolbar_event(),
                r.story,
                r.lang,
                cols=self.cols + 1,
                gm=r.gm,
                extra=r.realtime_items(),
                lead=r.voice_items(),
            )
        )
        return FormattedText(frags)

    def read(self, message: str, **_: Any) -> str:
        while True:
            item = self._take()
            if isinstance(item, Wake):
                self._handle(item)
                continue
            accept = isinstance(item, str)
            default = item if accept else self._carry
            self._carry = ""

            def pre_run(accept: bool = accept) -> None:
                import asyncio

                loop = asyncio.get_running_loop()
                if accept:
                    # What was heard stays in the input line a moment before it runs.
                    loop.call_later(self.echo_delay, self._accept)
                else:
                    loop.call_soon(self._wake)  # something posted before the prompt was up

            res = self.session.prompt(message, default=default, pre_run=pre_run)
            if res is _WAKE:
                if accept:  # interrupted before it ran: it runs after the wake is handled
                    self._carry = ""
                    with self._lock:
                        self._items.insert(1 if self._items else 0, item)
                continue
            return res

    def _accept(self) -> None:
        app = self.session.app
        if app.is_running and not app.is_done:
            self.session.default_buffer.validate_and_handle()

    def _wake(self) -> None:
        app = self.session.app
        if not app.is_running or not self.has_posted():
            return
        try:
            self._carry = self.session.default_buffer.text  # a half-typed line survives
            app.exit(result=_WAKE)
        except Exception:  # noqa: BLE001 - already leaving: the next read takes the item
            pass

    def post(self, item: str | Wake) -> None:
        super().post(item)
        self.wake()

    def wake(self) -> None:
        """Interrupts the running prompt (from any thread) so posted items are handled."""
        app = self.session.app
        loop = getattr(app, "loop", None)
        if app.is_running and loop is not None:
            loop.call_soon_threadsafe(self._wake)

    def ask(self, message: str) -> str:
        return self.asker.prompt(message)

    def ask_status(self, message: str) -> str:
        """A question asked in the middle of the game (the dice the table rolled): the status
        bar (and a GM's panel) stays on screen while it waits."""
        return self.asker.prompt(message, bottom_toolbar=self._toolbar)

    def typed(self) -> str:
        """What was in the input line when the last prompt ended (Ctrl-C keeps it there)."""
        try:
            return str(self.session.default_buffer.text)
        except Exception:  # noqa: BLE001 - no session yet
            return ""

    def write(self, lines: list[Line]) -> None:
        if not lines:
            return
        from prompt_toolkit import print_formatted_text
        from prompt_toolkit.formatted_text import FormattedText

        frags: list[tuple[str, str]] = []
        for line in lines:
            frags.extend(line)
            frags.append(("", "\n"))
        print_formatted_text(FormattedText(frags), style=self.style, color_depth=self.depth, end="")

    def feed(self, text: str) -> bool:
        """Types ``text`` into the prompt and presses Enter (from any thread)."""
        self.post(text)
        return True

    def close(self) -> None:
        pass


def _completer_base() -> type:
    from prompt_toolkit.completion import Completer

    return Completer


class ActionCompleter(_completer_base()):  # type: ignore[misc]  # a base from a call: prompt_toolkit loads only here
    """Completes the actions valid now (label, aliases, number) and, after / or :, meta commands."""

    def __init__(self, repl: Served) -> None:
        self.repl = repl

    def get_completions(self, document: Any, complete_event: Any) -> Any:
        from prompt_toolkit.completion import Completion

        from runner.engine.match import forms, in_order, normalise

        text = document.text_before_cursor
        stripped = text.lstrip()
        if not stripped and not complete_event.completion_requested:
            return
        r = self.repl
        if stripped[:1] in _PREFIXES:
            word = stripped[1:].casefold()
            for name, (ja, en, _, _) in META.items():
                if not r.offers(name):
                    continue
                words = (name, *(ja if r.lang == "ja" else en))
                for w in words:
                    if w.casefold().startswith(word):
                        yield Completion(
                            stripped[0] + w,
                            start_position=-len(stripped),
                            display=stripped[0] + w,
                            display_meta=r.meta_help(name),
                        )
                        break
            return
        key = normalise(stripped)
        prefix: list[Any] = []
        inner: list[Any] = []
        for c in r.choices():
            if not c.n:
                continue  # hidden actions are secrets: never offered
            meta = " / ".join(a for a in c.aliases if a != c.label)[:60]
            comp = Completion(
                c.label, start_position=-len(text), display=f"{c.n}. {c.label}", display_meta=meta
            )
            if not key:
                prefix.append(comp)
                continue
            if stripped.isdigit():
                if str(c.n).startswith(stripped):
                    prefix.append(comp)
                continue
            # The forms typing matches (label without its annotation, aliases, kana readings).
            f = forms(r.story, c.action, c.label)
            if any(n.startswith(key) for n in (*f.exact, *f.parts)):
                prefix.append(comp)
            elif (
                any(key in n for n in (*f.exact, *f.parts))
                or key in f.full
                or any(in_order(key, n) for n in f.parts)
            ):
                inner.append(comp)
        yield from prefix
        yield from inner
        if key and not stripped.isdigit():
            for w, name in _META.items():
                if not r.offers(name):
                    continue
                if len(key) >= 2 and w.startswith(stripped.casefold()) and w != stripped.casefold():
                    yield Completion(w, start_position=-len(text), display=w, display_meta="meta")


PUSH_KEY = "F5 / Ctrl-Space"
PANEL_KEY = "F2"
GAME_ROWS = 12
"""Rows the game (narration, actions, the prompt) keeps at least, whatever the panel shows."""
