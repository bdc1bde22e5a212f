"""What a console is asked to do, in three frozen groups: the game (:class:`Settings`), the
terminal it runs on (:class:`Terminal`) and its voice (:class:`Voice`).

``katari play`` (runner/commands/play.py) builds them from its options; :func:`split` builds
them from the flat keywords of ``Repl(story, gm=True, seed=3, ...)``."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Settings:
    """The game played and its rules of the session (``katari play``'s options)."""

    lang: str = "ja"
    """The console's language (messages, help, the rules' words)."""
    gm: bool = False
    """Game master mode: keeper notes, hidden state, the GM panel and overrides."""
    manual: bool = False
    """``--dice manual``: every roll asks the table for its faces."""
    seed: int | None = None
    """The dice's seed for a new game (None: a random one)."""
    new: bool = False
    """Start a new game even when an unfinished one could be resumed."""
    transcript: str | Path | None = None
    """Write the session as Markdown here."""
    first_command: str | None = None
    """Sent after every new game, as if typed (a campaign's ``@carry``)."""
    player_view: str | Path | None = None
    """``--player-view FILE``: what the players may see, for ``katari watch FILE``."""
    watch: bool = False
    """``--watch``: every save of the story's files reloads it and replays the game."""
    replay_commands: Sequence[str] | None = None
    """``--replay-commands``: played after the new game starts, as if typed."""
    replay_since: str | None = None
    """The story version the replayed commands were made on (its migrations rename them)."""


@dataclass(frozen=True)
class Terminal:
    """How the console meets its player: input and output, and the clock it keeps time by."""

    color: bool | None = None
    """Colour (None: when stdout is a terminal and NO_COLOR is not set)."""
    use_prompt_toolkit: bool | None = None
    """The prompt_toolkit session (None: when stdin and stdout are terminals)."""
    history: bool = True
    """Keep the typed lines' history in a file (prompt_toolkit only)."""
    echo_delay: float = 0.3
    """Seconds a heard command stays in the input line before it runs."""
    screen_reader: bool | str = False
    """Output for screen readers (``"piped"``: the same without a prompt of its own)."""
    clock: Callable[[], float] | None = None
    """The monotonic clock real time is counted by (None: time.monotonic)."""
    tick: float = 0.2
    """Seconds between the background checks of real time and speech."""
    report_every: float = 30.0
    """Real seconds between reports of real time to the engine."""


@dataclass(frozen=True)
class Voice:
    """The console's voice: a narrator reading aloud, a listener taking spoken commands."""

    narrator: Any = None
    """Gets every turn's events through ``runner.ui.narrator.narrate_events``."""
    listener: Any = None
    """Told the phrases valid now; what it hears is typed in with ``Console.feed``."""
    voice_inputs: Sequence[str] = ()
    """``--voice-input``: recorded utterances played before the keyboard takes over."""


def split(options: dict[str, Any]) -> tuple[Settings, Terminal, Voice]:
    """The three groups from flat keywords (each the name of one group's field); an unknown
    keyword is a TypeError, as for any function."""
    groups: list[Any] = [Settings, Terminal, Voice]
    given: list[dict[str, Any]] = [{} for _ in groups]
    for key, value in options.items():
        for i, cls in enumerate(groups):
            if key in {f.name for f in fields(cls)}:
                given[i][key] = value
                break
        else:
            raise TypeError(f"unexpected keyword argument {key!r}")
    return Settings(**given[0]), Terminal(**given[1]), Voice(**given[2])
