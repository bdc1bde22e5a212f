"""The online table (#16): BCDice rolls typed at the console, secret rolls and their reveal, and
investigators brought from CCFOLIA or キャラクター保管所 (a file, or JSON pasted at the prompt)."""

from __future__ import annotations

import os
from typing import Any

from runner.engine import NeedDice
from runner.rules.dice import DiceError
from runner.ui.console.base import ConsoleBase, Events
from runner.ui.i18n import t
from runner.ui.render import clip


class TablePart(ConsoleBase):
    """Table rolls and imported investigators."""

    def handle_json(self, first: str) -> bool:
        """JSON pasted at the prompt (a CCFOLIA piece, a キャラクター保管所 sheet): the rest of
        it is read, then it is imported as the investigator (#16)."""
        from runner.ui import investigators

        read = investigators.adapter(self.investigators())
        got = first + "\n"
        while not read.complete(got) and len(got) <= read.MAX_BYTES:
            try:
                line = self.io.ask("{ ")
            except EOFError:
                break
            if not line.strip():
                break
            got += line + "\n"
        try:
            doc = read.parse(got, "paste")
        except read.SheetError as e:
            self.say(e.message(self.lang), "class:error")
            return True
        self.import_document(doc, "paste")
        return True

    def cmd_roll(self, args: list[str]) -> None:
        """The table's own roll (#16): any BCDice command, chat-palette style against the
        active investigator (``roll 目星``, ``roll CC<={SAN}``); a secret one (``SCC<=50``)
        is kept off the shared screen and the players' view until ``reveal``/``公開``."""
        import secrets

        from runner.ccfolia import table
        from runner.rules.dice import SeededDice, seed_state

        expr = " ".join(args)
        if not expr:
            self.say(t("roll_usage", self.lang), "class:hint")
            return
        # A roll at the table, outside the story: it must not touch the game's dice.
        source = SeededDice(seed_state(secrets.randbits(63)))
        try:
            res, (why, label) = table.table_roll(
                expr, source, table.active_sheet(self.state, self.story.rules) if self.tl else None
            )
        except (DiceError, NeedDice, ValueError):
            res, why, label = None, "not_dice", ""
        if res is None:
            self.say(
                t("roll_err", self.lang, expr=clip(expr, 40))
                if why in ("not_dice", "dice_error")
                else table.text(why, self.lang, label=label, expr=clip(expr, 40)),
                "class:error",
            )
            return
        if not res.secret:
            self._say_exact(res.line())
            self._table_to_view(expr, res.line())
            return
        self.table_secrets.keep(table.shown_with_command(res))
        if self.gm:  # the GM's own screen: the result; the players see only that a roll was made
            self._say_exact(table.text("secret_gm", self.lang, line=table.shown_with_command(res)))
        else:
            self.say(table.text("secret", self.lang, command=clip(expr, 40)), "class:roll")
        self._table_to_view(expr, table.text("secret_view", self.lang))

    def cmd_reveal(self, args: list[str]) -> None:
        """``reveal``/``公開``: the secret rolls made so far, on the screen and the players' view."""
        from runner.ccfolia import table

        lines = self.table_secrets.reveal()
        if not lines:
            self.say(table.text("nothing_hidden", self.lang), "class:hint")
            return
        self.say(table.text("revealed", self.lang), "class:hint")
        for line in lines:
            self._say_exact(line)
        self._table_to_view("reveal", "\n".join(lines))

    def _say_exact(self, text: str, style: str = "class:roll") -> None:
        """A dice line as BCDice wrote it: its spaces kept (``＞ ハード成功``), wrapped."""
        from runner.ui.render import wrap

        self.io.write([[(style, line)] for line in wrap(text, self.io.cols, keep_spaces=True)])

    def _table_to_view(self, command: str, text: str) -> None:
        """A table roll on the players' view (``--player-view``), as a line of its own."""
        if self.view is not None and self.tl is not None:
            self.view.turn(
                command,
                [{"type": "narration", "text": text, "speaker": "system", "id": "table.roll"}],
                self.state,
            )
            self._view_failed()

    def cmd_import(self, args: list[str]) -> None:
        """``import [FILE]``/``取り込む``: an investigator from CCFOLIA or キャラクター保管所 at
        the character choice; without FILE, the JSON is pasted."""
        from runner.ui import investigators

        inv = self.investigators()
        if inv is None:  # this story's rule system has none: say so before reading anything
            self.say(investigators.refusal(self.story, "import", self.lang), "class:error")
            return
        read = investigators.adapter(inv)
        if args:
            try:
                doc, where = read.read_file(os.path.expanduser(" ".join(args)))
            except read.SheetError as e:
                self.say(e.message(self.lang), "class:error")
                return
            self.import_document(doc, where)
            return
        self.say(self._import_text("paste"), "class:hint")
        got = ""
        for _ in range(2000):
            try:
                line = self.io.ask("{ ")
            except EOFError:
                break
            if not line.strip() and got:
                break
            got += line + "\n"
            if read.complete(got) or len(got) > read.MAX_BYTES:
                break
        try:
            doc = read.parse(got, "paste")
        except read.SheetError as e:
            self.say(e.message(self.lang), "class:error")
            return
        self.import_document(doc, "paste")

    def import_document(self, doc: Any, where: str) -> None:
        """Reads an investigator (CCFOLIA or キャラクター保管所 JSON) and plays it in, its notes said."""
        from runner.ui import investigators

        inv = self.investigators()
        if inv is None:
            self.say(investigators.refusal(self.story, "import", self.lang), "class:error")
            return
        ad = investigators.adapter(inv)
        try:
            imp = ad.investigator(doc, where)
        except ad.SheetError as e:
            self.say(e.message(self.lang), "class:error")
            return
        self._say_exact(
            ad.say("imported", self.lang, name=imp.sheet["name"], source=imp.source), "class:hint"
        )
        for n in imp.notes:
            self._say_exact("  " + n.message(self.lang), "class:hint")
        self.play(inv.command(imp.sheet))

    def investigators(self) -> Any:
        """What this story's rule system declares about investigators brought from the online
        table (``RuleSystem.investigators``), or None when it has none."""
        from runner.ui import investigators

        return investigators.of(self.story.rules)

    def _import_hint(self, events: Events) -> None:
        """At a character choice (of a rule system with investigators), below its actions: how to bring an
        investigator from CCFOLIA or キャラクター保管所 instead (#16)."""
        inv = self.investigators()
        if inv is None or self.tl is None or not any(e.get("type") == "prompt" for e in events):
            return
        from runner.ui.render import wrap

        st = self.state
        if (
            st.turn
            or inv.creation(self.story, st.node) is None
            or any(
                isinstance(v, dict) and v.get("kind") == "investigator" for v in st.stats.values()
            )
        ):
            return
        self.io.write(
            [
                [("class:hint", line)]
                for line in wrap(self._import_text("hint"), self.io.cols, keep_spaces=True)
            ]
        )

    def _import_text(self, key: str) -> str:
        ja = {
            "hint": "  import：CCFOLIA・キャラクター保管所の探索者を取り込む（JSON を貼り付けても）",
            "paste": "CCFOLIA の駒かキャラクター保管所の JSON を貼り付けてください（終わりは空行）",
        }
        en = {
            "hint": "  import: bring an investigator from CCFOLIA or キャラクター保管所 (or paste its JSON)",
            "paste": "Paste the JSON of a CCFOLIA piece or a キャラクター保管所 sheet (an empty line ends it)",
        }
        return (ja if self.lang == "ja" else en)[key]
