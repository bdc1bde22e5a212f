"""`katari play [STORY]`: play in the console, or headless with --jsonl."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "play",
        help="play a story (the default story if none is named)",
        description="Play a story in the console. With --jsonl, read one command a line "
        "and write one JSON event a line (see docs/jsonl.md).",
    )
    p.add_argument(
        "story", nargs="?", help="story file, folder, or shipped story id (see `katari list`)"
    )
    p.add_argument("--jsonl", action="store_true", help="headless: JSON lines on stdin/stdout")
    p.add_argument(
        "--seed",
        type=_seed,
        default=None,
        help="seed for the dice (same seed + same commands = same game)",
    )
    p.add_argument(
        "--gm", action="store_true", help="game master mode: keeper notes and hidden state"
    )
    p.add_argument(
        "--dice",
        default=None,
        metavar="manual",
        help="'manual': every roll asks for the faces the table rolled",
    )
    p.add_argument(
        "--lang",
        choices=["ja", "en"],
        default=None,
        help="the language played: the console, the rules' words and the story (when it "
        "has a translation, docs/translating.md); default $KATARI_LANG, else the "
        "story's own language",
    )
    p.add_argument("--transcript", metavar="FILE", help="write the session as Markdown to FILE")
    p.add_argument("--new", action="store_true", help="start a new game even if one can be resumed")
    p.add_argument(
        "--player-view",
        metavar="FILE",
        default=None,
        help="write what the players may see to FILE (no keeper notes, overrides or GM "
        "panel); show it on another screen with `katari watch FILE`",
    )
    p.add_argument(
        "--campaign-from",
        metavar="PREVIOUS",
        default=None,
        help="a campaign: carry the PCs who made it through PREVIOUS (a story id or path, whose "
        "autosave is used, or a save/transcript file) into a new game of STORY",
    )
    p.add_argument(
        "--investigator",
        metavar="FILE",
        default=None,
        help="stories whose rule system has investigators (Call of Cthulhu): play one from CCFOLIA (a piece's clipboard JSON) "
        "or キャラクター保管所 (a sheet's JSON); - reads pasted JSON from standard input "
        "(see docs/ccfolia.md)",
    )
    p.add_argument("--narrate", action="store_true", help="read narration aloud")
    p.add_argument(
        "--engine",
        default=None,
        choices=["pyttsx3", "openjtalk", "kokoro", "voicevox"],
        help="speech engine: pyttsx3 (default), openjtalk, kokoro (katari[neural]) or "
        "voicevox (a VOICEVOX ENGINE you run); see `katari voices`",
    )
    p.add_argument(
        "--voicevox-url",
        metavar="URL",
        default=None,
        help="the VOICEVOX ENGINE's address (default http://127.0.0.1:50021)",
    )
    p.add_argument(
        "--screen-reader",
        action="store_true",
        default=None,
        help="output for screen readers and listening: no redraws, no colour, each line "
        "once, the status on request (also on when TERM=dumb or output is no terminal)",
    )
    p.add_argument(
        "--voices", metavar="FILE", help="voice profile YAML overriding the shipped ones"
    )
    p.add_argument(
        "--audio-out",
        metavar="OUT",
        default=None,
        help="where narration goes: default (the sound card), alsa:DEVICE, or dir:FOLDER "
        "(WAV files; also $KATARI_AUDIO_OUT)",
    )
    p.add_argument(
        "--voice",
        nargs="?",
        const="push",
        choices=["push", "continuous"],
        default=None,
        help="speak commands: push-to-talk with F5 or Ctrl-Space (default), or continuous",
    )
    p.add_argument(
        "--voice-input",
        nargs="+",
        metavar="WAV",
        help="play from recorded utterances (16-bit mono WAVs at the model's rate), "
        "then go on by keyboard",
    )
    p.add_argument("--model", metavar="PATH", help="vosk model folder for --voice / --voice-input")
    p.add_argument(
        "--watch",
        action="store_true",
        help="for authors: every save of a story file re-checks it and, if it loads, "
        "replays the game on it to the same point (docs/authoring.md)",
    )
    p.add_argument(
        "--replay-commands",
        metavar="FILE",
        default=None,
        help="start a new game and play FILE's commands first (one a line; '# seed: N' "
        "gives the seed): a game `katari simulate --failures` wrote, reproduced",
    )
    p.set_defaults(func=run)


def read_commands(path: str) -> tuple[int | None, list[str], str | None]:
    """The commands of a ``--replay-commands`` file, its seed and the story version it was
    made on, when it gives them.

    Text: one command a line; blank lines and ``#`` comments are skipped, ``# seed: N``
    gives the seed and ``# story version: V`` the version (the story's ``migrations:`` rename
    the commands of older versions). Or JSON: ``{"seed": N, "commands": [...],
    "story_version": V}`` (a ``katari simulate --json`` failure). Raises ValueError with a
    one-line reason."""
    import json
    import re
    from pathlib import Path

    from runner.ui.files import MAX_COMMAND, MAX_TEXT_BYTES, read_regular

    try:
        raw = read_regular(Path(path), MAX_TEXT_BYTES)
        text = raw.decode("utf-8")
    except OSError as e:
        from runner.ui.files import os_reason

        raise ValueError(f"cannot read {path}: {os_reason(e, 'en')}") from None
    except UnicodeDecodeError:
        raise ValueError(f"{path} is not UTF-8 text") from None
    except Exception as e:  # noqa: BLE001 - (a FileError from the bounded reader)
        raise ValueError(f"cannot read {path}: {e}") from None
    seed = None
    version = None
    if text.lstrip().startswith("{"):
        try:
            data = json.loads(text)
        except ValueError:
            raise ValueError(f"{path}: not JSON") from None
        cmds = data.get("commands") if isinstance(data, dict) else None
        if not isinstance(cmds, list) or not all(isinstance(c, str) for c in cmds):
            raise ValueError(f'{path}: a JSON file needs "commands": a list of text')
        if isinstance(data.get("seed"), int) and not isinstance(data.get("seed"), bool):
            seed = int(data["seed"])
        if isinstance(data.get("story_version"), (str, int)) and not isinstance(
            data.get("story_version"), bool
        ):
            version = str(data["story_version"])[:40]
    else:
        cmds = []
        for line in text.splitlines():
            s = line.strip()
            m = re.fullmatch(r"#\s*seed\s*:\s*(-?\d{1,19})", s)
            v = re.fullmatch(r"#\s*story version\s*:\s*(\S{1,40})", s)
            if m:
                seed = int(m.group(1))
            elif v:
                version = v.group(1)
            elif s and not s.startswith("#"):
                cmds.append(s)
    if any(len(c) > MAX_COMMAND for c in cmds):
        raise ValueError(f"{path}: a command longer than {MAX_COMMAND} characters")
    if seed is not None and not -(1 << 63) <= seed < (1 << 63):
        raise ValueError(f"{path}: the seed must be between -2^63 and 2^63-1")
    return seed, cmds, version


def _seed(text: str) -> int:
    """A seed a save can hold: a whole number below 2^63 either way."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text[:40]!r}") from None
    if not -(1 << 63) <= n < (1 << 63):
        raise argparse.ArgumentTypeError("must be between -2^63 and 2^63-1")
    return n


def run(args: argparse.Namespace) -> int:
    from runner.commands._common import open_story

    if getattr(args, "watch", False) and args.jsonl:
        print(
            "katari play: --watch is for the console (a story reloaded under a --jsonl front end "
            "would change under it); play without --jsonl",
            file=sys.stderr,
        )
        return 2
    if getattr(args, "replay_commands", None):
        if args.jsonl:
            print(
                "katari play: --replay-commands is for the console; with --jsonl, send the "
                "commands on standard input",
                file=sys.stderr,
            )
            return 2
        try:
            seed, cmds, version = read_commands(args.replay_commands)
        except ValueError as e:
            print(f"katari play: {e}", file=sys.stderr)
            return 2
        if args.seed is None:
            args.seed = seed if seed is not None else 0
        args.replay_commands_list = cmds
        args.replay_commands_version = version
    story = open_story(args.story, "play", events=sys.stdout.buffer if args.jsonl else None)
    if story is None:
        return 1
    from runner.commands._common import translated
    from runner.ui.i18n import played_lang

    if not args.jsonl and not args.new and not getattr(args, "replay_commands", None):
        _resume_lang(story, args)
    args.lang = played_lang(args.lang, story.language)
    story = translated(story, args.lang, events=sys.stdout.buffer if args.jsonl else None)
    if story is None:
        return 1
    first = None
    if getattr(args, "campaign_from", None):
        from runner.ui.i18n import default_lang

        first, problem = campaign_command(
            story, args.campaign_from, args.lang or default_lang(story.language)
        )
        if first is None:
            print(f"katari play: {problem}", file=sys.stderr)
            return 1
    if getattr(args, "investigator", None):
        if first is not None:
            print(
                "katari play: --investigator and --campaign-from cannot be used together",
                file=sys.stderr,
            )
            return 2
        first = investigator_command(story, args.investigator, args.lang)
        if first is None:
            return 2
    if args.jsonl:
        from runner.ui.jsonl import play

        seed = args.seed if args.seed is not None else 0
        # Bytes in and out, whatever the locale: the carry is the game's first line, as if
        # the player had sent it.
        return play(story, sys.stdin.buffer, sys.stdout.buffer, seed=seed, gm=args.gm, first=first)
    return play_console(story, args, first_command=first)


def _resume_lang(story: Any, args: argparse.Namespace) -> None:
    """The console will offer to resume an autosave: it resumes in the language the game was
    played in (the names the rules set at the start are in it), said in one line. An explicit
    ``--lang`` wins, with a line saying that names already set stay as they were. A save from
    before Katari recorded the language was played in the story's own language."""
    from runner.commands._common import translated
    from runner.ui import files
    from runner.ui.i18n import LANGS, played_lang, t

    info = files.resumable(story.id)
    if info is None:
        return
    played = info.lang or story.language
    if played not in LANGS:
        return
    want = played_lang(args.lang, story.language)
    now = translated(story, want)
    if now is None or now.language == played:
        return
    if args.lang:
        msg = t("resume_lang_kept", args.lang, played=t(f"lang_{played}", args.lang), lang=want)
    else:
        args.lang = played
        msg = t("resume_lang", played, played=t(f"lang_{played}", played))
    _err(msg)


def investigator_command(story: Any, source: str, lang: str | None = None) -> str | None:
    """``@investigator {...}`` for an investigator from CCFOLIA or キャラクター保管所 (a file, or
    ``-``: pasted JSON at the start of standard input), its notes said on stderr; None (the
    reason said, one line) when it cannot be read."""
    from runner.ui import investigators
    from runner.ui.i18n import default_lang

    lang = lang or default_lang()
    inv = investigators.of(getattr(story, "rules", ""))
    if inv is None:  # the story's rule system has no investigators (RuleSystem.investigators)
        print(
            f"katari play: {investigators.refusal(story, '--investigator', lang)}", file=sys.stderr
        )
        return None
    ad = investigators.adapter(inv)
    if source == "-" and sys.stdin.isatty():
        print(
            {
                "ja": "CCFOLIA かキャラクター保管所の JSON を貼り付けてください（終わりは空行）：",
                "en": "Paste the JSON from CCFOLIA or キャラクター保管所 (an empty line ends it):",
            }.get(lang, "Paste the JSON:"),
            file=sys.stderr,
        )
    try:
        imp = ad.load(source)
    except ad.SheetError as e:
        print(f"katari play: {e.message(lang)}", file=sys.stderr)
        return None
    print(ad.say("imported", lang, name=imp.sheet["name"], source=imp.source), file=sys.stderr)
    for n in imp.notes:
        print(f"  {n.message(lang)}", file=sys.stderr)
    return inv.command(imp.sheet)


_MSG = {
    "ja": {
        "not_campaign": "{story} はキャンペーンのシナリオではありません（キャラクターを引き継ぐルールの物語で、options に campaign: true が必要です）",
        "no_save": "{prev} の終わったゲームが見つかりません（セーブがありません。先に katari play {prev} で遊んでください）",
        "no_story": "{prev} は物語でもセーブでもトランスクリプトでもありません",
        "bad_file": "{prev} を読めません：{why}",
        "other_rules": "{prev} のルールは {have}、{story} は {want} です：キャンペーンは同じルールの物語でだけ続けられます",
        "not_finished": "{prev} のゲームはまだ終わっていません（最後まで遊んでから続けてください）",
    },
    "en": {
        "not_campaign": "{story} is not a campaign scenario (a story whose rule system carries characters over, with campaign: true in its options)",
        "no_save": "no finished game of {prev} found (no save; play it first with katari play {prev})",
        "no_story": "{prev} is not a story, a save or a transcript",
        "bad_file": "cannot read {prev}: {why}",
        "other_rules": "{prev} uses the {have} rules and {story} the {want} rules: a campaign goes on only with the same rules",
        "not_finished": "the game of {prev} has not ended yet (play it to the end first)",
    },
}


def _rules_of(state: dict, prev_story: object | None) -> str:
    if prev_story is not None:
        return str(getattr(prev_story, "rules", "") or "none")
    keys = [k for k in (state.get("rules") or {}) if not str(k).startswith("_")]
    return keys[0] if keys else "none"


def campaign_command(story: Any, prev: str, lang: str = "ja") -> tuple[str | None, str]:
    """``@carry {...}`` for a new game of ``story`` after the game ``prev`` (a story id or path,
    whose newest autosave is read, or a save/transcript file), or (None, one-line reason)."""
    from pathlib import Path

    from runner.engine.state import SaveError
    from runner.rules import system
    from runner.rules.base import RuleError
    from runner.stories import resolve
    from runner.ui import files

    m = _MSG.get(lang, _MSG["en"])
    sid = getattr(story, "id", "?")
    rules = str(getattr(story, "rules", ""))
    # The story's rule system says what a campaign is and what goes on (RuleSystem.campaign).
    campaign = system(rules).campaign
    if campaign is None or not campaign.wants(story):
        return None, m["not_campaign"].format(story=sid)
    given = Path(prev)
    prev_story = None
    try:
        if given.is_file() and given.suffix.lower() in (".json", ".md", ".markdown", ".txt"):
            data = files.finished_game(given)
            name = data["story"]
        else:
            path = resolve(prev)
            if not path.exists():
                return None, m["no_story"].format(prev=prev)
            from runner.story import StoryError, load

            try:
                prev_story = load(path)
            except StoryError:
                prev_story = None
            name = getattr(prev_story, "id", None) or (path.stem if path.suffix else path.name)
            if prev_story is not None and prev_story.rules != story.rules:
                return None, m["other_rules"].format(
                    prev=name, have=prev_story.rules, story=sid, want=story.rules
                )
            # The newest finished game, wherever a new game has set it aside; else the newest
            # autosave (to say it has not ended yet).
            info = files.newest_finished(name) or files.newest_autosave(name)
            if info is None:
                return None, m["no_save"].format(prev=prev)
            data = files.finished_game(info.path)
    except SaveError as e:
        return None, m["bad_file"].format(prev=prev, why=files.reason(e, lang))
    state = data["state"]  # (a State by the save schema: typed tables, bounded numbers)
    have = _rules_of(state, prev_story)
    if have != rules or (campaign.rules_key or rules) not in (state.get("rules") or {}):
        return None, m["other_rules"].format(prev=name, have=have, story=sid, want=story.rules)
    if state.get("ending") is None:
        return None, m["not_finished"].format(prev=name)
    try:
        # Only what the rule system takes on goes on: nothing else of the file enters the game.
        return campaign.carry(state, name, lang), ""
    except RuleError as e:
        return None, str(e)
    except (TypeError, KeyError, AttributeError, ValueError):
        from runner.ui.i18n import t

        return None, m["bad_file"].format(prev=prev, why=t("why_not_playable", lang, what="state"))


# -- the console: parsed options into a Console --------------------------------


def _err(text: str) -> None:
    """One notice before the game, on standard error; on a terminal, wrapped at its width
    between words (as the console wraps), not cut mid-word by the terminal."""
    if sys.stderr.isatty():
        import shutil

        from runner.ui.render import wrap

        text = "\n".join(wrap(text, shutil.get_terminal_size().columns - 1))
    sys.stderr.write(text + "\n")


def make_narrator(story: Any, args: argparse.Namespace, lang: str) -> Any:
    """The narrator for ``--narrate``, or None (after one line saying why)."""
    from runner.ui.i18n import t

    try:
        from runner.ui.narrator import make_narrator as mk
    except ImportError as e:
        _err(t("narrate_none", lang, why=e))
        return None
    try:
        nar, problem = mk(
            voices=getattr(args, "voices", None),
            mapping=story.voices or None,
            lang=story.language or lang,
            readings=story.readings or None,
            engine=getattr(args, "engine", None),
            output=getattr(args, "audio_out", None) or None,
            story=story.id,
        )
    except Exception as e:  # noqa: BLE001 - speech must never stop the game
        nar, problem = None, str(e)
    if problem or nar is None or not getattr(nar, "enabled", True):
        _err(
            problem or t("narrate_none", lang, why="?")
        )  # already one line, in the story's language
        return None
    return nar


def make_listener(
    args: argparse.Namespace, lang: str, *, story_lang: str | None = None, microphone: bool = True
) -> Any:
    """The listener for ``--voice`` / ``--voice-input``, or None (after one line saying why).
    It listens in the story's language (its model and meta words); messages are in ``lang``."""
    from runner.ui.i18n import t

    try:
        from runner.ui.listener import make_listener as mk

        listener, problem = mk(
            lang=story_lang or lang,
            model=getattr(args, "model", None),
            mode=getattr(args, "voice", None) or "push",
            microphone=microphone,
            msg_lang=lang,
        )
    except Exception as e:  # noqa: BLE001
        listener, problem = None, str(e)
    if listener is None:
        # The listener's own reasons already begin "音声入力:" / "Voice input:"; others do not.
        own = str(problem).startswith(("音声入力", "Voice input"))
        _err(str(problem) if own else t("voice_none", lang, why=problem))
    return listener


def play_console(story: Any, args: argparse.Namespace, *, first_command: str | None = None) -> int:
    """``katari play`` without ``--jsonl``: the parsed options made into a console, played;
    ``first_command`` follows every new game (``--campaign-from``'s ``@carry``)."""
    import os

    from runner.ui.console import Console, Settings, Terminal, Voice
    from runner.ui.i18n import default_lang

    lang = getattr(args, "lang", None) or default_lang()
    dice = getattr(args, "dice", None)
    if dice not in (None, "manual", "auto"):
        _err(f"katari play: --dice takes 'manual', not {dice!r}")
        return 2
    if getattr(args, "voicevox_url", None):
        os.environ["KATARI_VOICEVOX_URL"] = args.voicevox_url
    screen_reader: bool | str | None = getattr(args, "screen_reader", None)
    if screen_reader is None:
        # A screen reader, or output that is not a terminal: each line once, nothing redrawn.
        screen_reader = (
            True
            if os.environ.get("TERM") == "dumb"
            else "piped"
            if not sys.stdout.isatty()
            else False
        )
    narrator = make_narrator(story, args, lang) if getattr(args, "narrate", False) else None
    voice_inputs = list(getattr(args, "voice_input", None) or [])
    listener = None
    if getattr(args, "voice", None) or voice_inputs:
        # Recorded utterances need no microphone; with none, the game goes on by keyboard.
        listener = make_listener(args, lang, story_lang=story.language, microphone=not voice_inputs)
        if listener is None:
            voice_inputs = []
    settings = Settings(
        lang=lang,
        gm=bool(getattr(args, "gm", False)),
        manual=dice == "manual",
        seed=getattr(args, "seed", None),
        new=bool(getattr(args, "new", False)),
        transcript=getattr(args, "transcript", None),
        first_command=first_command,
        player_view=getattr(args, "player_view", None),
        watch=bool(getattr(args, "watch", False)),
        replay_commands=getattr(args, "replay_commands_list", None),
        replay_since=getattr(args, "replay_commands_version", None),
    )
    voice = Voice(narrator=narrator, listener=listener, voice_inputs=tuple(voice_inputs))
    console = Console(story, settings, Terminal(screen_reader=screen_reader), voice)
    code = console.run()
    return 1 if first_command and (console.tl is None or not console.tl.log) else code
