"""What the importer understood, before it is written as a story or a report."""

from __future__ import annotations

from dataclasses import dataclass, field


class ImportFailure(Exception):
    """Bad input: ``key`` names a one-line message in :mod:`runner.importer.messages`."""

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(key)
        self.key = key
        self.params = params

    def message(self, lang: str = "ja") -> str:
        from runner.importer.messages import text

        return text(self.key, lang, **self.params)


@dataclass
class Line:
    no: int
    """The document's own line number (1-based; for HTML, the source line)."""
    raw: str
    """The text as written (markup removed), stripped of surrounding space."""
    norm: str
    """The same text folded for recognition: NFKC (full-width → half-width), dice as 1d6."""
    indent: int = 0


@dataclass
class Document:
    path: str
    lines: list[Line]
    format: str
    """text, markdown or html."""
    encoding: str
    html_title: str = ""


@dataclass
class Outcome:
    key: str
    """success, failure, critical, fumble, extreme, hard, win, lose, pushed_failure."""
    text: str
    line: int
    san: SanRoll | None = None


@dataclass
class Check:
    skills: list[str]
    """The skills the player may choose from (7th-edition names; STR... for characteristics)."""
    line: int
    difficulty: str = "regular"
    bonus: int = 0
    """Bonus dice (negative: penalty dice)."""
    pushable: bool | None = None
    """True/False where the document says so; None: the rules' default."""
    opposed: bool = False
    opponent: str = ""
    """Who the opposed roll is against, as written (源蔵), and their value if given."""
    opponent_value: int | None = None
    opponent_skill: str = ""
    outcomes: list[Outcome] = field(default_factory=list)
    context: str = ""
    """The words before the check on its line (what is being done), for the action's label."""
    text: str = ""
    """The whole line as written."""
    written: list[str] = field(default_factory=list)
    """The skills as the document writes them (アイデア, 製作（人形）), for labels."""

    @property
    def skill(self) -> str:
        return self.skills[0]

    def default_pushable(self) -> bool:
        if self.pushable is not None:
            return self.pushable
        return not (self.opposed or all(s == "幸運" for s in self.skills))


@dataclass
class SanRoll:
    success: str
    failure: str
    line: int
    text: str = ""
    context: str = ""
    everyone: bool = False

    @property
    def loss(self) -> str:
        return f"{self.success}/{self.failure}"


@dataclass
class Attack:
    name: str
    skill: int | None = None
    damage: str = ""
    skill_name: str = ""


@dataclass
class Creature:
    name: str
    line: int
    kind: str
    """monster or npc."""
    stats: dict[str, int] = field(default_factory=dict)
    attacks: list[Attack] = field(default_factory=list)
    san: str = ""
    armor: int | None = None
    db: str = ""
    build: int | None = None
    move: int | None = None
    skills: dict[str, int] = field(default_factory=dict)
    notes: list[Line] = field(default_factory=list)
    id: str = ""


@dataclass
class TimedEntry:
    at: str
    """As normalised: "20:00", "1日目 17:00", "+1:00" (relative to ``after``)."""
    what: str
    line: int
    minutes: int | None = None
    """Minutes from day 1, 00:00 (None: relative to something the document names)."""
    after: str = ""
    """For a relative entry: what it counts from (電気をつけて), empty for the start."""
    offset: int | None = None
    """For a relative entry: minutes after ``after``."""
    lines: list[Line] = field(default_factory=list)
    checks: list[Check] = field(default_factory=list)
    san: list[SanRoll] = field(default_factory=list)
    goto_climax: bool = False


@dataclass
class Feature:
    """A part of a place that is looked at on its own (a sub-heading, a bullet)."""

    title: str
    line: int


@dataclass
class Place:
    name: str
    line: int
    role: str = "place"
    """place, intro, climax, handout, other."""
    narration: list[Line] = field(default_factory=list)
    keeper: list[Line] = field(default_factory=list)
    checks: list[Check] = field(default_factory=list)
    san: list[SanRoll] = field(default_factory=list)
    fights: list[str] = field(default_factory=list)
    """Names of creatures a fight with is written here."""
    handouts: list[str] = field(default_factory=list)
    """Handouts given here (their names)."""
    id: str = ""


@dataclass
class Ending:
    name: str
    kind: str
    """true, good, normal, bad or lost (the document's wording)."""
    line: int
    narration: list[Line] = field(default_factory=list)
    conditions: list[Line] = field(default_factory=list)
    rewards: list[Line] = field(default_factory=list)
    id: str = ""


@dataclass
class Handout:
    name: str
    line: int
    text: list[Line] = field(default_factory=list)


@dataclass
class Unplaced:
    line: int
    text: str
    why: str = ""


@dataclass
class Scenario:
    path: str
    format: str
    encoding: str
    title: str = ""
    edition: int | None = None
    players: str = ""
    time: str = ""
    recommended: list[str] = field(default_factory=list)
    search_cost: int | None = None
    background: list[Line] = field(default_factory=list)
    places: list[Place] = field(default_factory=list)
    timeline: list[TimedEntry] = field(default_factory=list)
    creatures: list[Creature] = field(default_factory=list)
    endings: list[Ending] = field(default_factory=list)
    handouts: list[Handout] = field(default_factory=list)
    unplaced: list[Unplaced] = field(default_factory=list)
    clock_start: int | None = None
    """Minutes from day 1 00:00 at which play begins, when the document says."""

    @property
    def monsters(self) -> list[Creature]:
        return [c for c in self.creatures if c.kind == "monster"]

    @property
    def npcs(self) -> list[Creature]:
        return [c for c in self.creatures if c.kind == "npc"]

    def all_checks(self) -> list[Check]:
        out = [c for p in self.places for c in p.checks]
        out += [c for t in self.timeline for c in t.checks]
        return sorted(out, key=lambda c: c.line)

    def all_san(self) -> list[SanRoll]:
        out = [s for p in self.places for s in p.san]
        out += [s for t in self.timeline for s in t.san]
        return sorted(out, key=lambda s: s.line)
