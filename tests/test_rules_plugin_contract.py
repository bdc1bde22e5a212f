"""What a third-party rule system may get wrong, and the one clear line Katari answers with
(#14 section 2, a plugin author's tour from docs/rules-api.md alone).

Each distribution here is installed the way an installed one is found (a ``*.dist-info``
with its ``entry_points.txt`` in a folder on the path, its package beside it), and Katari is
run as the author runs it (``katari rules``, ``check``, ``play --jsonl``, ``roll``, ``new``;
the console in-process through prompt_toolkit's pipe input):

1. a distribution declaring a shipped name (``coc7``, ``none``, ``core``) never takes it,
   whatever its name sorts as; ``rules`` and ``check`` say so in one line naming it. A name
   two other distributions declare is neither's (refused, said), never path or alphabet order;
2. a system's ``dice`` that raises or gives the wrong type is one line, the game goes on;
3. its ``init``, ``view``, ``offer``, ``after_command``, ``validate``, ``lint`` that raise are
   one line naming the system and the function (``--jsonl``: an ``internal`` error event);
4. a hook without its context parameter is refused when the system loads, the bare
   ``@SYSTEM.hook`` registers, an entry-point name a story cannot write is refused;
5. ``katari new --rules`` tells a system without a template from one not installed.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from conftest import katari as run_katari

ROOT = Path(__file__).resolve().parent.parent


def install(site: Path, dist: str, entry_points: str, modules: dict[str, str]) -> None:
    """A distribution ``dist`` installed in ``site``: its dist-info and its modules."""
    info = site / f"{dist.replace('-', '_')}-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(entry_points, encoding="utf-8")
    for name, text in modules.items():
        (site / f"{name}.py").write_text(text, encoding="utf-8")


def katari(site: Path, *args: str, stdin: str = "", cwd: Path | None = None):  # noqa: ANN201
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "KATARI_DEBUG")}
    env.update(PYTHONPATH=str(site), KATARI_HOME=str(site / "home"), KATARI_LANG="en")
    # (run from the site, not the checkout: its own katari.egg-info would come first)
    return run_katari(*args, stdin=stdin, env=env, cwd=cwd or site, timeout=300)


def story(folder: Path, rules: str, action: str = "say: went") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "story.yaml").write_text(
        f"story: {{id: s, title: S, language: en, rules: {rules}, start: a}}\n"
        "nodes:\n  a:\n    narration: [Here.]\n    actions:\n"
        f"      - {{id: go, label: Go, {action}}}\n"
        "      - {id: leave, label: Leave, end: fin}\n"
        "endings: {fin: {kind: good, title: Fin}}\n",
        encoding="utf-8",
    )
    return folder


# -- 1. names: Katari's own always win, and a clash is said once ----------------------------

CLASH = """\
from runner.rules.base import Context, RuleSystem

SYSTEM = RuleSystem("coc7", "my own coc7, clashing")
NONE = RuleSystem("none", "my none")
CORE = RuleSystem("core", "my core")
TWIN = RuleSystem("twin", "one twin")


@SYSTEM.hook(pure=True)
def hello(ctx: Context) -> int:
    return 1
"""


def test_a_shipped_name_is_always_kataris_and_a_clash_is_one_line(tmp_path: Path) -> None:
    site = tmp_path / "site"
    install(
        site,
        "aaa-clash",  # sorts before katari, and sits earlier on the path
        "[katari.rules]\ncoc7 = kt_clash:SYSTEM\nnone = kt_clash:NONE\ncore = kt_clash:CORE\n"
        "twin = kt_clash:TWIN\n",
        {"kt_clash": CLASH},
    )
    install(
        site,
        "zzz-twin",
        "[katari.rules]\ntwin = kt_twin:TWIN\n",
        {"kt_twin": CLASH.replace("one twin", "the other twin")},
    )
    r = katari(site, "rules", "--lang", "en")
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    rows = dict(ln.split(None, 1) for ln in r.stdout.splitlines() if not ln.startswith(" "))
    assert rows["coc7"] != "my own coc7, clashing" and "none" in rows and "twin" not in rows
    notes = [ln.strip() for ln in r.stdout.splitlines() if ln.startswith(" ")]
    assert notes == [
        "(rule system 'coc7' is Katari's own; aaa_clash 1.0 (kt_clash:SYSTEM) declares it too"
        " and is ignored (rename it in that distribution))",
        "(rule system 'none' is Katari's own; aaa_clash 1.0 (kt_clash:NONE) declares it too"
        " and is ignored (rename it in that distribution))",
        "(rule system 'core' is Katari's own; aaa_clash 1.0 (kt_clash:CORE) declares it too"
        " and is ignored (rename it in that distribution))",
        "(rule system 'twin' is declared by aaa_clash 1.0 and zzz_twin 1.0: neither is used"
        " (uninstall one, or rename its entry point))",
    ]
    # Every shipped coc7 story still checks, with one warning naming the distribution.
    r = katari(site, "check", str(ROOT / "stories" / "deep_sea_atelier"))
    assert r.returncode == 0, r.stdout[-3000:]
    warned = [ln for ln in r.stdout.splitlines() if "aaa_clash" in ln]
    assert len(warned) == 1 and warned[0].endswith("(warning) [K005]"), r.stdout
    assert "unknown function" not in r.stdout
    # A story on the twice-declared name: one error saying both, at its rules:.
    r = katari(site, "check", str(story(tmp_path / "t", "twin")))
    assert r.returncode == 1
    assert "rule system 'twin' is declared by aaa_clash 1.0 and zzz_twin 1.0" in r.stdout
    # And the shipped story plays as Katari's coc7.
    r = katari(site, "play", "deep_sea_atelier", "--jsonl", "--new", "--seed", "1", stdin="1\n")
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    assert '"type":"state"' in r.stdout and '"code":"internal"' not in r.stdout


def test_an_entry_point_name_a_story_cannot_write_is_refused(tmp_path: Path) -> None:
    site = tmp_path / "site"
    install(
        site,
        "katari-hyphen",
        "[katari.rules]\ntwo-dice = kt_hy:TD\n",
        {"kt_hy": "from runner.rules.base import RuleSystem\nTD = RuleSystem('two-dice', 'x')\n"},
    )
    r = katari(site, "rules", "--lang", "en")
    assert r.returncode == 0 and "Traceback" not in r.stderr
    line = (
        "rule system 'two-dice' (katari_hyphen 1.0 (kt_hy:TD)) is refused: a story writes the"
        " name before a dot (NAME.hook()), so it is a word: letters, digits and _, not"
        " starting with a digit"
    )
    assert r.stdout.count("two-dice") == 1 and f"  ({line})" in r.stdout
    r = katari(site, "check", str(story(tmp_path / "s", "two-dice")))
    assert r.returncode == 1 and line in r.stdout and "unknown variable" not in r.stdout


# -- 4. hooks: the context parameter, the bare decorator ------------------------------------


def test_a_hook_without_its_context_is_refused_when_the_system_loads(tmp_path: Path) -> None:
    from runner.rules.base import RuleSystem

    rs = RuleSystem("mine")
    with pytest.raises(TypeError) as e:

        @rs.hook(outcomes=("success", "failure"))
        def test(target):  # noqa: ANN001, ANN202 - the author's mistake
            return "success"

    assert str(e.value) == (
        "hook mine.test: a hook's first parameter is the context (def test(ctx, ...));"
        " its first parameter 'target' is not named ctx nor annotated Context"
    )
    with pytest.raises(TypeError, match="it has no parameters"):

        @rs.hook()
        def nothing():  # noqa: ANN202
            return 1

    with pytest.raises(TypeError, match=r"its first parameter is \*args"):

        @rs.hook()
        def star(*args):  # noqa: ANN002, ANN202
            return 1

    @rs.hook  # the bare form registers with the defaults
    def ready(ctx):  # noqa: ANN001, ANN202
        return True

    @rs.hook(pure=True)
    def level(context, who=""):  # noqa: ANN001, ANN202 - any name annotated Context works too
        return 1

    assert ready(None) is True  # (the function itself is returned)
    assert set(rs.hooks) == {"ready", "level"}
    assert rs.hooks["ready"].args == () and not rs.hooks["ready"].pure
    assert rs.hooks["level"].args == ("who",)
    # Installed: one line in `katari rules` and at the story's rules:, never "takes 0
    # argument(s), got 1".
    site = tmp_path / "site"
    install(
        site,
        "katari-badsig",
        "[katari.rules]\nbadsig = kt_badsig:SYSTEM\n",
        {
            "kt_badsig": "from runner.rules.base import RuleSystem\n"
            "SYSTEM = RuleSystem('badsig')\n\n\n"
            "@SYSTEM.hook(outcomes=('success', 'failure'))\n"
            "def test(target):\n    return 'success'\n"
        },
    )
    why = "a hook's first parameter is the context (def test(ctx, ...))"
    r = katari(site, "rules", "--lang", "en")
    assert r.returncode == 0 and why in r.stdout and "Traceback" not in r.stderr
    folder = story(tmp_path / "s", "badsig", 'check: "badsig.test(6)", outcomes: {success: {}}')
    r = katari(site, "check", str(folder))
    assert r.returncode == 1 and why in r.stdout and "argument(s)" not in r.stdout


# -- 5. katari new --rules -------------------------------------------------------------------


def test_katari_new_tells_no_template_from_not_installed(tmp_path: Path) -> None:
    site = tmp_path / "site"
    install(
        site,
        "katari-gone",
        "[katari.rules]\ngone = kt_gone_missing:SYSTEM\n",
        {},
    )
    r = katari(site, "new", "x", "--rules", "ktane", "--dir", str(tmp_path))
    assert r.returncode == 1 and not (tmp_path / "x").exists()
    assert r.stderr == (
        "katari new: rule system 'ktane' is installed but has no template for katari new;"
        " the systems with one: coc7, ureg, none\n"
    )
    r = katari(site, "new", "x", "--rules", "coc8", "--dir", str(tmp_path))
    assert r.stderr == (
        "katari new: unknown rule system 'coc8' (did you mean 'coc7'?);"
        " the systems with a template: coc7, ureg, none\n"
    )
    r = katari(site, "new", "x", "--rules", "gone", "--dir", str(tmp_path))
    assert r.stderr.startswith(
        "katari new: rule system 'gone' (kt_gone_missing:SYSTEM) cannot be loaded:"
        " ModuleNotFoundError"
    )
    assert r.stderr.count("\n") == 1


# -- 2. dice ---------------------------------------------------------------------------------

DICE = """\
from runner.rules.base import RuleSystem
from runner.rules.bcdice import BCResult

SYSTEM = RuleSystem("mydice", "dice of its own")


def dice(text, source):
    if text.startswith("MYX"):
        raise KeyError("oops")
    if text.startswith("MYS"):
        return "seven"
    if text.startswith("MY"):
        return BCResult(text="(MY) > 7", command=text, total=7)
    return None


SYSTEM.dice = dice
"""


def test_a_systems_dice_that_fails_is_one_line(tmp_path: Path) -> None:
    site = tmp_path / "site"
    install(
        site, "katari-mydice", "[katari.rules]\nmydice = kt_mydice:SYSTEM\n", {"kt_mydice": DICE}
    )
    r = katari(site, "roll", "MY", "--seed", "1")
    assert r.returncode == 0 and r.stdout == "(MY) > 7\n", r.stderr
    r = katari(site, "roll", "MYX", "--seed", "1")
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr == (
        "katari roll: rule system 'mydice': dice('MYX') failed (KeyError: 'oops'): a bug in"
        " the rule system, not the roll\n"
    )
    r = katari(site, "roll", "MYS", "--json")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert json.loads(r.stdout) == {
        "command": "MYS",
        "text": "rule system 'mydice': dice('MYS') gave a str, not None nor a BCResult: a bug"
        " in the rule system, not the roll",
        "error": True,
    }
    r = katari(site, "roll", "CC<=50", "--seed", "1")  # the others' dice still roll
    assert r.returncode == 0 and "1D100<=50" in r.stdout


# -- 3. the life-cycle functions ------------------------------------------------------------

BOOM = """\
from types import SimpleNamespace

from runner.rules.base import RuleSystem


def boom(*a, **k):
    raise KeyError("boom")

"""
LIFE = (
    BOOM
    + """
SYSTEMS = SimpleNamespace()
for part in ("init", "view", "offer", "after_command", "validate", "lint"):
    rs = RuleSystem("bad_" + part, part + " raises")
    setattr(rs, part, boom)
    setattr(SYSTEMS, part, rs)
"""
)


@pytest.fixture(scope="module")
def life(tmp_path_factory: pytest.TempPathFactory) -> Path:
    site = tmp_path_factory.mktemp("life")
    parts = ("init", "view", "offer", "after_command", "validate", "lint")
    install(
        site,
        "katari-life",
        "[katari.rules]\n" + "".join(f"bad_{p} = kt_life:SYSTEMS.{p}\n" for p in parts),
        {"kt_life": LIFE},
    )
    for p in parts:
        story(site / f"st_{p}", f"bad_{p}")
    return site


def _play(site: Path, part: str, commands: str) -> tuple[int, list[dict], str]:
    r = katari(site, "play", str(site / f"st_{part}"), "--jsonl", "--new", stdin=commands)
    return r.returncode, [json.loads(ln) for ln in r.stdout.splitlines()], r.stderr


def test_a_failing_init_is_one_error_event_and_no_game(life: Path) -> None:
    rc, events, err = _play(life, "init", "go\n")
    assert rc == 1 and "Traceback" not in err
    assert events == [
        {
            "type": "error",
            "code": "internal",
            "message": "rule system 'bad_init': init failed (KeyError: 'boom'): a bug in the rule"
            " system, not the story; the game did not start (KATARI_DEBUG=1 prints the traceback)",
            "data": {"system": "bad_init", "function": "init"},
        }
    ]


@pytest.mark.parametrize(
    ("part", "what"),
    [("view", "its view is left out"), ("offer", "the story's own actions are offered")],
)
def test_a_failing_view_or_offer_is_one_line_a_turn_and_the_game_goes_on(
    life: Path, part: str, what: str
) -> None:
    rc, events, err = _play(life, part, "go\nleave\n")
    assert rc == 0 and "Traceback" not in err
    line = (
        f"rule system 'bad_{part}': {part} failed (KeyError: 'boom'): a bug in the rule system,"
        f" not the story; {what}"
    )
    errors = [e for e in events if e["type"] == "error"]
    assert errors and all(e["message"] == line and e["code"] == "internal" for e in errors)
    assert errors[0]["data"] == {"system": f"bad_{part}", "function": part}
    assert "went" in [e.get("text") for e in events]  # the game went on, to its end
    assert events[-1] == {"type": "ending", "id": "fin", "kind": "good", "title": "Fin"}


def test_a_failing_after_command_names_the_system_and_costs_the_command(life: Path) -> None:
    rc, events, err = _play(life, "after_command", "go\nleave\n")
    assert rc == 0 and "Traceback" not in err
    errors = [e for e in events if e["type"] == "error"]
    assert [e["message"] for e in errors] == [
        "rule system 'bad_after_command': after_command failed (KeyError: 'boom'): a bug in"
        " the rule system, not the story; the command did not run (KATARI_DEBUG=1 prints the"
        " traceback)"
    ]
    assert "went" not in [e.get("text") for e in events]  # the command did not run
    states = [e for e in events if e["type"] == "state"]
    assert [s["turn"] for s in states] == [0, 0, 1]  # and the game went on to its end
    assert events[-1]["type"] == "ending"  # (after_command is not asked after an ending)


@pytest.mark.parametrize(("part", "code"), [("validate", "K040"), ("lint", "K300")])
def test_katari_check_says_a_failing_validate_or_lint_in_one_line(
    life: Path, part: str, code: str
) -> None:
    r = katari(life, "check", str(life / f"st_{part}"))
    assert r.returncode == 1 and "Traceback" not in r.stdout + r.stderr
    found = [ln for ln in r.stdout.splitlines() if f"[{code}]" in ln]
    assert len(found) == 1 and found[0].endswith(
        f"rule system 'bad_{part}': {part} failed (KeyError: 'boom'): a bug in the rule"
        f" system, not the story (its checks are left out) [{code}]"
    )


# -- the console, in-process: the same lines, the game goes on -------------------------------


def _console(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, rules: str, module: str, keys):  # noqa: ANN001, ANN202
    import io
    import types

    from prompt_toolkit.application import create_app_session
    from prompt_toolkit.data_structures import Size
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output.vt100 import Vt100_Output

    import runner.rules as registry
    from runner.story import load
    from runner.ui.console import Repl

    monkeypatch.setenv("KATARI_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("KATARI_DEBUG", raising=False)
    mod = types.ModuleType("kt_console_inline")
    exec(module, mod.__dict__)  # noqa: S102 - the test's own rule system, above
    found = dict(registry._found())
    found[rules] = types.SimpleNamespace(name=rules, value="kt:SYSTEM", dist=None)
    monkeypatch.setattr(registry, "_entries", found)
    monkeypatch.setitem(registry._loaded, rules, mod.SYSTEM)
    folder = story(tmp_path / "s", rules)
    buf = io.StringIO()
    out = Vt100_Output(buf, lambda: Size(rows=40, columns=220), term="xterm", enable_cpr=False)
    with create_pipe_input() as inp:
        inp.send_text("".join(f"{k}\r" for k in keys))
        with create_app_session(input=inp, output=out):
            rc = Repl(
                load(folder / "story.yaml"), use_prompt_toolkit=True, color=False, lang="en"
            ).run()
    screen = re.sub(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\r", "", buf.getvalue())
    return rc, " ".join(screen.split()), screen


def test_the_console_rolls_on_after_a_failing_dice(tmp_path: Path, monkeypatch) -> None:  # noqa: ANN001
    rc, flat, screen = _console(
        tmp_path, monkeypatch, "mydice", DICE, ["roll MYX", "roll MYS", "go", "quit"]
    )
    assert rc == 0 and "Traceback" not in screen
    assert "rule system 'mydice': dice('MYX') failed (KeyError: 'oops'): a bug in the rule" in flat
    assert "rule system 'mydice': dice('MYS') gave a str, not None nor a BCResult" in flat
    assert flat.index("dice('MYS')") < flat.index("went")  # and the game went on


def test_the_console_says_a_failing_after_command_in_one_line(tmp_path: Path, monkeypatch) -> None:  # noqa: ANN001
    module = BOOM + "SYSTEM = RuleSystem('bad_after', 'x')\nSYSTEM.after_command = boom\n"
    rc, flat, screen = _console(tmp_path, monkeypatch, "bad_after", module, ["go", "quit"])
    assert rc == 0 and "Traceback" not in screen
    assert (
        "rule system 'bad_after': after_command failed (KeyError: 'boom'): a bug in the rule"
        " system, not the story; the command did not run" in flat
    )


def test_the_console_says_a_failing_init_in_one_line(
    life: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # At the start: one line, and no game (nothing was saved).
    r = katari(life, "play", str(life / "st_init"), "--new", "--lang", "en", stdin="go\nquit\n")
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert r.stderr == (
        "katari: rule system 'bad_init': init failed (KeyError: 'boom'): a bug in the rule"
        " system, not the story; the game did not start (KATARI_DEBUG=1 prints the traceback)\n"
    )
    # At a restart: one line, and the game in play goes on.
    module = BOOM + (
        "CALLS = []\n\n\ndef init(ctx):\n    CALLS.append(1)\n"
        "    if len(CALLS) > 1:\n        boom()\n\n\n"
        "SYSTEM = RuleSystem('bad_init2', 'x')\nSYSTEM.init = init\n"
    )
    rc, flat, screen = _console(
        tmp_path, monkeypatch, "bad_init2", module, ["go", "restart", "go", "quit"]
    )
    assert rc == 0 and "Traceback" not in screen
    assert "rule system 'bad_init2': init failed (KeyError: 'boom'): a bug in the rule" in flat
    assert flat.count("went") == 2 and flat.index("init failed") < flat.rindex("went")
