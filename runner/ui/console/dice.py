"""Manual dice (``--dice manual``): the faces the table rolled, asked for at a prompt that keeps
the status bar on screen, read as the dice asked for (47 for a d100, 00 as 100)."""

from __future__ import annotations

import unicodedata

from runner.engine import NeedDice
from runner.rules.dice import DiceError, percentile_faces
from runner.ui.console.base import ConsoleBase
from runner.ui.console.words import _META, Quit, is_quit
from runner.ui.i18n import t
from runner.ui.render import clip


class ManualDicePart(ConsoleBase):
    """Asks the table for the dice step() needs."""

    def ask_dice(self, need: NeedDice) -> list[int] | None:
        """Asks the table for the faces of ``need``; None if the player cancels."""
        sides = list(need.sides)
        groups: list[str] = []
        for s in sides:
            if groups and groups[-1].split("×")[0] == f"d{s}":
                head, _, k = groups[-1].partition("×")
                groups[-1] = f"{head}×{int(k or 1) + 1}"
            else:
                groups.append(f"d{s}")
        percentile = (
            len(sides) >= 2
            and set(sides) == {10}
            and unicodedata.normalize("NFKC", need.expr).lower().startswith(("1d100", "d100"))
        )
        # One number reads as the whole roll when the table rolls the usual two d10s (47).
        natural = percentile and len(sides) == 2
        hint = t("dice_percentile", self.lang) if percentile and not natural else ""
        label = str(getattr(need, "label", "") or "")
        target = getattr(need, "target", None)
        what = (
            t("dice_for_target", self.lang, label=label, target=target)
            if label and target is not None
            else t("dice_for", self.lang, label=label)
            if label
            else ""
        )
        # An example that fits the dice asked for: 47 for a d100, 40 7 for its two dice, 3 4 for 2d6.
        example = (
            "47"
            if natural
            else "40 7"
            if percentile and len(sides) == 2
            else " ".join(str(max(1, min(sd, (sd + 1) // 2 + i))) for i, sd in enumerate(sides[:4]))
        )
        ask = getattr(self.io, "ask_status", self.io.ask)
        while True:
            try:
                raw = ask(
                    t(
                        "dice_prompt_d100" if natural else "dice_prompt",
                        self.lang,
                        what=what,
                        expr=need.expr,
                        dice=" ".join(groups) + hint,
                        n=len(sides),
                        n_dice="die" if len(sides) == 1 else "dice",  # (English only)
                    )
                )
            except (KeyboardInterrupt, EOFError):
                return None
            if is_quit(raw):
                raise Quit
            raw = unicodedata.normalize("NFKC", raw).replace(",", " ").strip()
            if not raw:
                continue
            word = raw.lstrip("/:").strip().casefold()
            if _META.get(word) in ("help", "status"):
                # Looking at the rules of this prompt or at the status does not answer it.
                if _META[word] == "help":
                    self.say(t("dice_help", self.lang, example=example), "class:hint")
                else:
                    self.cmd_status([])
                continue
            try:
                faces = [int(x) for x in raw.split()][: len(sides)]
            except ValueError:
                self.say(
                    t("dice_bad", self.lang, text=clip(raw, 40), example=example), "class:error"
                )
                continue
            if percentile:
                # Read as --jsonl's :dice reads the same numbers (runner.rules.dice): 47 is the
                # roll, 00 is 100, 9 0 is tens and units; tens dice 00-90 with bonus dice.
                numbers = [int(x) for x in raw.split()]
                try:
                    faces, used = percentile_faces(numbers, len(sides))
                except DiceError as e:
                    face, of = e.values.get("face", 0), e.values.get("sides", 10)
                    if of == 100:
                        self.say(t("dice_range_d100", self.lang, face=face), "class:error")
                    else:
                        self.say(t("dice_range", self.lang, face=face, sides=of), "class:error")
                    continue
                if used < len(numbers) and natural:  # 40 7: one roll is one number or two digits
                    self.say(
                        t("dice_bad", self.lang, text=clip(raw, 40), example=example),
                        "class:error",
                    )
                    continue
            bad = next(
                (
                    (f, s)
                    for f, s in zip(faces, sides, strict=False)
                    if not (1 <= f <= s or (f == 0 and s in (10, 100)))
                ),
                None,
            )
            if bad is not None:
                self.say(t("dice_range", self.lang, face=bad[0], sides=bad[1]), "class:error")
                continue
            return faces
