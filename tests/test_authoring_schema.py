"""The JSON Schema of stories: in step with the loader, valid, and true of the shipped stories."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from runner.cli import main
from runner.rules import names
from runner.stories import shipped
from runner.story import loader, story_files
from runner.story.schema import EFFECT_SCHEMAS, playtest_schema, story_schema

S = story_schema()
DEFS = S["$defs"]


def props(schema: dict) -> set[str]:
    return set(schema["properties"])


def test_keys_match_the_loader() -> None:
    # Every installed rule system (runner.rules' registry) may have a section of its name.
    assert props(S) == loader.TOP_KEYS | set(names())
    assert props(S["properties"]["story"]) == loader.STORY_KEYS
    node = DEFS["node"]
    assert props(node) == loader.NODE_KEYS
    assert set(node["properties"]["kind"]["enum"]) == set(loader.NODE_KINDS)
    assert props(DEFS["action"]) == loader.ACTION_KEYS
    assert set(EFFECT_SCHEMAS) == loader.EFFECT_KEYS
    for key, sch in EFFECT_SCHEMAS.items():
        assert props(sch) == {key} | loader.EFFECT_COMPANIONS.get(key, set())
    assert set(S["properties"]["story"]["properties"]["rules"]["enum"]) == set(names())
    ending_obj = DEFS["ending"]["anyOf"][1]
    assert set(ending_obj["properties"]["kind"]["enum"]) == set(loader.ENDING_KINDS)


# A tiny validator for the keywords the schema uses (jsonschema is optional).
def validate(inst: Any, sch: dict, root: dict, path: str = "$") -> list[str]:
    if "$ref" in sch:
        name = sch["$ref"].split("/")[-1]
        return validate(inst, root["$defs"][name], root, path)
    errs: list[str] = []
    if "anyOf" in sch:
        branches = [validate(inst, b, root, path) for b in sch["anyOf"]]
        if all(branches):
            return [f"{path}: matches none of {len(branches)} forms ({min(branches, key=len)[0]})"]
    if "enum" in sch and inst not in sch["enum"]:
        return [f"{path}: {inst!r} not one of {sch['enum']}"]
    if "type" in sch:
        types = sch["type"] if isinstance(sch["type"], list) else [sch["type"]]
        ok = {
            "object": isinstance(inst, dict),
            "array": isinstance(inst, list),
            "string": isinstance(inst, str),
            "boolean": isinstance(inst, bool),
            "null": inst is None,
            "integer": isinstance(inst, int) and not isinstance(inst, bool),
            "number": isinstance(inst, (int, float)) and not isinstance(inst, bool),
        }
        if not any(ok[t] for t in types):
            return [f"{path}: {type(inst).__name__} is not {types}"]
    if isinstance(inst, dict):
        for k in sch.get("required", []):
            if k not in inst:
                errs.append(f"{path}: missing {k!r}")
        known = sch.get("properties", {})
        for k, v in inst.items():
            if k in known:
                errs += validate(v, known[k], root, f"{path}.{k}")
            elif sch.get("additionalProperties") is False:
                errs.append(f"{path}: unknown key {k!r}")
            elif isinstance(sch.get("additionalProperties"), dict):
                errs += validate(v, sch["additionalProperties"], root, f"{path}.{k}")
    if isinstance(inst, list) and "items" in sch:
        for i, v in enumerate(inst):
            errs += validate(v, sch["items"], root, f"{path}[{i}]")
    if "minimum" in sch and isinstance(inst, (int, float)) and inst < sch["minimum"]:
        errs.append(f"{path}: below {sch['minimum']}")
    return errs


FILES = [f for d in shipped() for f in story_files(d)]


@pytest.mark.parametrize("f", FILES, ids=[f"{f.parent.name}/{f.name}" for f in FILES])
def test_shipped_story_files_fit_the_schema(f: Path) -> None:
    data = yaml.safe_load(f.read_text(encoding="utf-8"))
    assert validate(data, S, S) == []
    try:
        import jsonschema
    except ImportError:
        return
    assert [e.message for e in jsonschema.Draft202012Validator(S).iter_errors(data)] == []


def test_schema_catches_typos_and_wrong_shapes() -> None:
    bad = {
        "story": {"id": "x", "title": "x", "start": "a", "rule": "coc7"},
        "nodes": {
            "a": {
                "kind": "room",
                "naration": ["x"],
                "actions": [
                    {"label": "go", "goto": "b", "effects": [{"got": "b"}]},
                    {"id": "no_label"},
                ],
            }
        },
        "endings": {"e": "happy"},
    }
    errs = "\n".join(validate(bad, S, S))
    assert "unknown key 'rule'" in errs
    assert "$.nodes.a.kind" in errs and "unknown key 'naration'" in errs
    assert "$.nodes.a.actions[0].effects" in errs
    assert "$.nodes.a.actions[1]: missing 'label'" in errs
    assert "$.endings.e" in errs


def test_schemas_are_valid_draft_2020_12() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    jsonschema.Draft202012Validator.check_schema(S)
    jsonschema.Draft202012Validator.check_schema(playtest_schema())


def test_playtest_files_fit_their_schema() -> None:
    P = playtest_schema()
    for f in sorted(f for d in shipped() for f in Path(d).glob("tests/*.yaml")):
        assert validate(yaml.safe_load(f.read_text(encoding="utf-8")), P, P) == [], f
    assert validate([{"commands": ["a"], "expect": [{"after": -1}]}], P, P)


def test_cli_prints_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["schema"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["$schema"].endswith("2020-12/schema") and "nodes" in data["properties"]
    out = tmp_path / "s" / "t.json"
    assert main(["schema", "--tests", "-o", str(out)]) == 0
    assert json.loads(out.read_text(encoding="utf-8"))["title"] == "Katari play-tests"


def test_editor_doc_names_the_settings() -> None:
    doc = (Path(__file__).resolve().parent.parent / "docs" / "editor.md").read_text(
        encoding="utf-8"
    )
    assert "yaml.schemas" in doc and re.search(r"# yaml-language-server: \$schema=", doc)
