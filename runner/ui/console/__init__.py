"""The play console: a prompt_toolkit session over the pure engine (core.py puts its parts
together; ``katari play`` builds one in runner/commands/play.py)."""

from runner.ui.console.core import Console, Repl
from runner.ui.console.settings import Settings, Terminal, Voice
from runner.ui.console.terminal import PlainIO, PromptIO, Wake
from runner.ui.console.words import Quit, is_quit

__all__ = [
    "Console",
    "PlainIO",
    "PromptIO",
    "Quit",
    "Repl",
    "Settings",
    "Terminal",
    "Voice",
    "Wake",
    "is_quit",
]
