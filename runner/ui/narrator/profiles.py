"""Voice profiles: which engine and voice speaks for each speaker, per language.

A voices file (``voices/*.yaml``)::

    description: ...
    profiles:
      default:  {ja: {engine: pyttsx3, voice: ja}, en: {engine: pyttsx3, voice: en-us}}
      narrator: {ja: {...}, en: {...}}
      monster:  {ja: {engine: pyttsx3, voice: ja+m3, rate: 0.8, pitch: -6}}

A story maps its speakers to profile names (``voices: {narrator: default, tentacle: monster}``);
a speaker with no mapping uses the profile of the same name, else ``default``.
``rate`` is relative (1.0 = the engine's normal speed), ``volume`` 0..1, ``pitch`` in semitones.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from runner.ui.narrator.readings import ENGINES

LANGS = ("ja", "en")
KEYS = {"engine", "voice", "rate", "volume", "pitch"}
DEFAULT_VOICE = {
    "pyttsx3": {"ja": "ja", "en": "en-us"},
    "openjtalk": {"ja": "mei", "en": "mei"},
    "kokoro": {"ja": "jf_alpha"},
    "voicevox": {"ja": "3"},
}
JAPANESE_ONLY = ("kokoro", "voicevox")
"""Engines that read Japanese only: ``--engine`` leaves the English profiles on pyttsx3."""
# Used when the shipped voices/ folder is not beside the package (e.g. a wheel install).
BUILTIN = {
    "description": "built-in: pyttsx3 + espeak-ng",
    "profiles": {
        "default": {
            "ja": {"engine": "pyttsx3", "voice": "ja"},
            "en": {"engine": "pyttsx3", "voice": "en-us"},
        },
    },
}


class ProfileError(ValueError):
    """A voices file or a story's speaker mapping is wrong; the message is one line."""


@dataclass(frozen=True)
class Profile:
    engine: str = "pyttsx3"
    voice: str = "ja"
    rate: float = 1.0
    volume: float = 1.0
    pitch: float = 0.0

    def as_dict(self) -> dict:
        return asdict(self)


@dataclass
class VoiceSet:
    """All profiles from one voices file."""

    name: str
    profiles: dict[str, dict[str, Profile]]
    description: str = ""
    source: str = ""

    def resolve(
        self, speaker: str | None, lang: str, mapping: Mapping[str, str] | None = None
    ) -> Profile:
        speaker = speaker or "narrator"
        name = (mapping or {}).get(speaker)
        if name is None:
            name = speaker if speaker in self.profiles else "default"
        if name not in self.profiles:
            raise ProfileError(
                f"voice profile {name!r} (for speaker {speaker!r}) is not in "
                f"{self.source or self.name}"
            )
        prof = self.profiles[name]
        if lang in prof:
            return prof[lang]
        fallback = self.profiles.get("default", {})
        if lang in fallback:
            return fallback[lang]
        return next(iter(prof.values()))

    def with_engine(self, engine: str) -> VoiceSet:
        """Every profile switched to ``engine`` (for ``--engine``), voices reset to its default."""
        if engine not in ENGINES:
            raise ProfileError(f"unknown engine {engine!r} (choose from {', '.join(ENGINES)})")
        out: dict[str, dict[str, Profile]] = {}
        for pname, langs in self.profiles.items():
            out[pname] = {}
            for lang, p in langs.items():
                if engine in JAPANESE_ONLY and lang != "ja":
                    out[pname][lang] = p
                    continue
                voice = p.voice if p.engine == engine else DEFAULT_VOICE[engine].get(lang, "ja")
                out[pname][lang] = replace(p, engine=engine, voice=voice)
        return VoiceSet(self.name, out, self.description, self.source)

    def check_mapping(self, mapping: Mapping[str, str] | None) -> None:
        for speaker, name in (mapping or {}).items():
            if name not in self.profiles:
                raise ProfileError(
                    f"story voices: speaker {speaker!r} → unknown profile {name!r} "
                    f"(known: {', '.join(sorted(self.profiles))})"
                )

    def used(self, mapping: Mapping[str, str] | None = None) -> list[Profile]:
        """Every distinct profile this set can hand out (what the worker must check)."""
        seen: list[Profile] = []
        for langs in self.profiles.values():
            for p in langs.values():
                if p not in seen:
                    seen.append(p)
        return seen


def _num(where: str, key: str, v, lo: float, hi: float) -> float:
    if isinstance(v, bool) or not isinstance(v, int | float):
        raise ProfileError(f"{where}: {key} must be a number, not {v!r}")
    if not lo <= v <= hi:
        raise ProfileError(f"{where}: {key} {v} is outside {lo}..{hi}")
    return float(v)


def parse_profile(data, where: str, lang: str) -> Profile:
    if not isinstance(data, dict):
        raise ProfileError(f"{where}: expected a mapping like {{engine: pyttsx3, voice: ja}}")
    unknown = set(data) - KEYS
    if unknown:
        raise ProfileError(
            f"{where}: unknown key(s) {', '.join(sorted(map(str, unknown)))} "
            f"(allowed: {', '.join(sorted(KEYS))})"
        )
    engine = data.get("engine", "pyttsx3")
    if engine not in ENGINES:
        raise ProfileError(f"{where}: unknown engine {engine!r} (choose from {', '.join(ENGINES)})")
    voice = data.get("voice", DEFAULT_VOICE[engine].get(lang, "ja"))
    if isinstance(voice, int) and not isinstance(voice, bool):
        voice = str(voice)  # a VOICEVOX style id
    if not isinstance(voice, str) or not voice.strip():
        raise ProfileError(f"{where}: voice must be a name such as 'ja' or 'en-us'")
    return Profile(
        engine=engine,
        voice=voice.strip(),
        rate=_num(where, "rate", data.get("rate", 1.0), 0.25, 4.0),
        volume=_num(where, "volume", data.get("volume", 1.0), 0.0, 1.0),
        pitch=_num(where, "pitch", data.get("pitch", 0.0), -24, 24),
    )


def parse_voices(data, name: str = "voices", source: str = "") -> VoiceSet:
    where = source or name
    if not isinstance(data, dict) or not isinstance(data.get("profiles"), dict):
        raise ProfileError(f"{where}: expected a top-level 'profiles:' mapping")
    unknown = set(data) - {"description", "profiles"}
    if unknown:
        raise ProfileError(f"{where}: unknown key(s) {', '.join(sorted(map(str, unknown)))}")
    profiles: dict[str, dict[str, Profile]] = {}
    for pname, langs in data["profiles"].items():
        if not isinstance(langs, dict) or not langs:
            raise ProfileError(f"{where}: profile {pname!r} needs languages, e.g. ja: {{...}}")
        profiles[str(pname)] = {}
        for lang, body in langs.items():
            if lang not in LANGS:
                raise ProfileError(
                    f"{where}: profile {pname!r}: unknown language {lang!r} "
                    f"(use {' or '.join(LANGS)})"
                )
            profiles[str(pname)][lang] = parse_profile(body, f"{where}: {pname}.{lang}", lang)
    if "default" not in profiles:
        raise ProfileError(f"{where}: needs a 'default' profile")
    return VoiceSet(name, profiles, str(data.get("description", "")), where)


def shipped_dir() -> Path:
    """The shipped voice profiles (``voices/`` in the repository, package data when installed)."""
    from runner.shipped import folder

    return folder("voices")


def shipped() -> dict[str, Path]:
    d = shipped_dir()
    return {p.stem: p for p in sorted(d.glob("*.yaml"))} if d.is_dir() else {}


VOICES_MAX_BYTES = 1 << 20
VOICES_MAX_DEPTH = 16
VOICES_MAX_NODES = 20_000


def _bounded_yaml(text: str, where: str):
    """``yaml.safe_load`` of a voices file, after walking its events (PyYAML's parser does not
    recurse): nesting, aliases and size are bounded before anything is built."""
    import yaml

    depth = nodes = 0
    for ev in yaml.parse(text, Loader=yaml.SafeLoader):
        if isinstance(ev, yaml.AliasEvent):
            raise ProfileError(f"{where}: aliases (*name) are not allowed in a voices file")
        if isinstance(ev, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            depth += 1
            if depth > VOICES_MAX_DEPTH:
                raise ProfileError(f"{where}: nested deeper than {VOICES_MAX_DEPTH} levels")
        elif isinstance(ev, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            depth -= 1
        nodes += 1
        if nodes > VOICES_MAX_NODES:
            raise ProfileError(f"{where}: too many entries for a voices file")
    return yaml.safe_load(text)


def load_voices(spec: str | Path | None = None) -> VoiceSet:
    """A voices file by path, or a shipped one by name (``default``, ``openjtalk``).

    The file is read as the saves are (runner.ui.files.read_regular): a regular file of at
    most 1 MB, UTF-8, bounded nesting; anything else is one ``ProfileError`` line."""
    import yaml

    from runner.ui.files import read_regular, reason

    if spec is None or str(spec) == "default":
        path = shipped().get("default")
        if path is None:
            return parse_voices(BUILTIN, "default", "built-in")
    else:
        path = Path(spec)
        if not path.exists() and str(spec) in shipped():
            path = shipped()[str(spec)]
        if not path.exists():
            known = ", ".join(shipped()) or "none"
            raise ProfileError(f"voices file {spec} not found (shipped profiles: {known})")
    try:
        text = read_regular(path, VOICES_MAX_BYTES).decode("utf-8")
        data = _bounded_yaml(text, str(path))
    except (OSError, ValueError) as e:  # (a FileError is a ValueError)
        if isinstance(e, ProfileError):
            raise
        why = reason(e, "en") if not isinstance(e, UnicodeDecodeError) else "not UTF-8 text"
        raise ProfileError(f"{path}: cannot read voices file: {why}") from None
    except yaml.YAMLError as e:
        first = str(e).splitlines()[0] if str(e) else type(e).__name__
        raise ProfileError(f"{path}: cannot read voices file: {first}") from None
    return parse_voices(data, path.stem, str(path))
