"""The play console: a prompt_toolkit session over the pure engine (see core.py)."""

from runner.ui.console.core import PlainIO, Repl, is_quit

__all__ = ["PlainIO", "Repl", "is_quit"]
