"""Spec loading under hostile files and schemas: every refusal is a one-line SpecError naming the
file, the tool and the JSON path, and nothing costs more than a fraction of a second.

Each case failed before the safe reader (a traceback, a hang, minutes of CPU or gigabytes of
memory); the figures are in docs/reliability.md.
"""

from __future__ import annotations

import json
import os
import re
import threading
import time
import warnings
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import whileai_env as wenv
from tests.conftest import SPECS_DIR
from whileai_env._util.regex_safety import (
    _compile_nfa,
    linear_supported,
    pattern_risk,
    pattern_search,
)
from whileai_env.errors import SpecError, WhileaiError
from whileai_env.scenarios.axes import RESERVED_TOOL_VALUES
from whileai_env.scenarios.grid import build_grid
from whileai_env.spec.reading import MAX_SPEC_BYTES
from whileai_env.spec.safety import MAX_ENUM, SpecWarning

ALIAS_BOMB = """tools:
  - name: set_color
    parameters:
      type: object
      properties:
        color:
          type: string
          enum: &i [&a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"],
                    &b [*a,*a,*a,*a,*a,*a,*a,*a,*a], &c [*b,*b,*b,*b,*b,*b,*b,*b,*b],
                    &d [*c,*c,*c,*c,*c,*c,*c,*c,*c], &e [*d,*d,*d,*d,*d,*d,*d,*d,*d],
                    &f [*e,*e,*e,*e,*e,*e,*e,*e,*e], &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]]
"""


def _tool(name="get_thing", parameters=None):
    return {
        "name": name,
        "description": "x",
        "parameters": parameters or {"type": "object", "properties": {}},
    }


def _refused(source, *words, **kwargs) -> SpecError:
    start = time.perf_counter()
    with pytest.raises(SpecError) as caught:
        wenv.load_spec(source, **kwargs)
    assert time.perf_counter() - start < 2.0
    message = str(caught.value)
    assert "\n" not in message and isinstance(caught.value, WhileaiError)
    for word in words:
        assert word in message, message
    return caught.value


def _write(tmp_path: Path, name: str, content: str | bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
    return path


# ---------------------------------------------------------------------------------------------
# Files


def test_yaml_alias_bomb_fails_fast(tmp_path):
    path = _write(tmp_path, "bomb.yaml", ALIAS_BOMB)
    _refused(path, str(path), "alias")


def test_recursive_yaml_anchor(tmp_path):
    path = _write(
        tmp_path,
        "loop.yaml",
        "tools:\n  - &t {name: get_x, parameters: {type: object, properties: {a: *t}}}\n",
    )
    _refused(path, str(path), "refers to itself")


def test_deep_yaml(tmp_path):
    path = _write(tmp_path, "deep.yaml", "tools: " + "[" * 3000 + "]" * 3000 + "\n")
    _refused(path, str(path), "nested more than 64 levels")


def test_json_nested_3000_deep(tmp_path):
    path = _write(tmp_path, "deep.json", '{"tools": ' + "[" * 3000 + "]" * 3000 + "}")
    _refused(path, str(path), "nested 3001 levels deep")


def test_json_with_a_huge_integer(tmp_path):
    tool = json.dumps(_tool()).replace(
        '"properties": {}', '"properties": {}, "maxProperties": ' + "9" * 5000
    )
    path = _write(tmp_path, "big.json", '{"tools": [' + tool + "]}")
    _refused(path, str(path), "more than 100 digits")


def test_yaml_integer_property_keys_name_the_tool(tmp_path):
    path = _write(
        tmp_path,
        "keys.yaml",
        "tools:\n  - name: get_x\n    parameters:\n      type: object\n"
        "      properties:\n        1: {type: string}\n",
    )
    error = _refused(
        path, str(path), "tool 'get_x'", "$.parameters.properties", "not a string", "quote it"
    )
    assert error.tool == "get_x"


def test_yaml_boolean_key_and_date_value(tmp_path):
    path = _write(
        tmp_path,
        "odd.yaml",
        "tools:\n  - name: get_x\n    parameters:\n      type: object\n"
        "      properties:\n        on: {type: string}\n",
    )
    _refused(path, "tool 'get_x'", "not a string (bool)")
    path = _write(
        tmp_path,
        "date.yaml",
        "tools:\n  - name: get_x\n    parameters:\n      type: object\n"
        "      properties:\n        d: {type: string, default: 2024-01-01}\n",
    )
    _refused(path, "tool 'get_x'", "$.parameters.properties.d.default", "holds a date")


def test_integer_keys_in_an_inline_spec():
    _refused(
        {"tools": [_tool(parameters={"type": "object", "properties": {1: {"type": "string"}}})]},
        "tool 'get_thing'",
        "not a string (int)",
    )
    _refused({1: "x", "tools": [_tool()]}, "spec key is not a string")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_fifo_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "spec.json"
    os.mkfifo(fifo)
    result: list[Exception] = []
    worker = threading.Thread(target=lambda: result.append(_catch(fifo)), daemon=True)
    worker.start()
    worker.join(5)
    assert not worker.is_alive(), "loading a FIFO blocked"
    assert isinstance(result[0], SpecError) and "FIFO" in str(result[0])


def _catch(path):
    try:
        wenv.load_spec(path)
    except Exception as exc:
        return exc
    return None


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero")
def test_dev_zero_is_refused_before_reading():
    _refused("/dev/zero", "/dev/zero", "must end in .json")
    link_dir = Path(os.environ.get("TMPDIR", "/tmp")) / f"whileai-zero-{os.getpid()}"
    link_dir.mkdir(exist_ok=True)
    link = link_dir / "zero.json"
    if not link.exists():
        link.symlink_to("/dev/zero")
    try:
        _refused(link, str(link), "not a regular file (a character device)")
    finally:
        link.unlink()
        link_dir.rmdir()


def test_size_cap_is_checked_before_reading(tmp_path):
    path = tmp_path / "huge.json"
    with path.open("wb") as fh:
        fh.truncate(MAX_SPEC_BYTES + 1)
    _refused(path, str(path), "may be at most")


def test_encodings_from_a_byte_order_mark(tmp_path):
    body = json.dumps({"tools": [_tool()], "system_prompt": "Héllo. Never guess."})
    for name, data in (
        ("utf8bom.json", b"\xef\xbb\xbf" + body.encode()),
        ("utf16.json", body.encode("utf-16")),
        ("utf32.json", body.encode("utf-32")),
    ):
        spec = wenv.load_spec(_write(tmp_path, name, data))
        assert spec.system_prompt.startswith("Héllo")


def test_bad_encodings_are_named(tmp_path):
    latin1 = _write(
        tmp_path,
        "latin1.json",
        json.dumps({"tools": [_tool()], "system_prompt": "x"}).replace("x", "é").encode("latin-1"),
    )
    _refused(latin1, str(latin1), "not valid UTF-8", "0xe9")
    no_bom = _write(tmp_path, "nobom.json", json.dumps({"tools": [_tool()]}).encode("utf-16-le"))
    _refused(no_bom, str(no_bom), "UTF-16 without a byte-order mark")


def test_rubric_next_to_a_spec_is_read_safely(tmp_path):
    folder = tmp_path / "agent"
    folder.mkdir()
    (folder / "spec.json").write_text(json.dumps({"tools": [_tool()]}))
    (folder / "rubric.md").write_bytes(b"\xff\xfe" + "Be kind.".encode("utf-16-le"))
    assert wenv.load_spec(folder).rubric == "Be kind."


# ---------------------------------------------------------------------------------------------
# Schemas


def test_ref_cycle_is_refused_naming_the_path():
    params = {
        "type": "object",
        "$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"allOf": [{"$ref": "#/$defs/a"}]}},
        "properties": {"x": {"$ref": "#/$defs/a"}},
    }
    error = _refused(
        {"tools": [_tool(parameters=params)]},
        "tool 'get_thing'",
        "$ref cycle",
        "$.parameters.$defs.a -> $.parameters.$defs.b",
    )
    assert error.path


def test_recursive_schemas_that_descend_still_load():
    tree = {
        "type": "object",
        "$defs": {
            "node": {
                "type": "object",
                "properties": {"children": {"type": "array", "items": {"$ref": "#/$defs/node"}}},
            }
        },
        "properties": {"root": {"$ref": "#/$defs/node"}, "next": {"$ref": "#"}},
    }
    spec = wenv.load_spec(tools=[_tool(parameters=tree)])
    assert spec.tools[0].name == "get_thing"


@pytest.mark.parametrize("name", RESERVED_TOOL_VALUES)
def test_reserved_grid_values_cannot_be_tool_names(name):
    _refused({"tools": [_tool(), _tool(name)]}, f"tool {name!r}", "reserved", "$.name")


def test_example_specs_keep_their_scenario_ids():
    """The reserved values stay as they were (no namespacing), so no example id moved."""
    spec = wenv.load_spec(SPECS_DIR / "order-support.json")
    grid = build_grid(spec)
    assert {c.tool for c in grid.cells} >= set(RESERVED_TOOL_VALUES)
    assert not set(spec.tool_names) & set(RESERVED_TOOL_VALUES)


def test_huge_enum_is_refused():
    values = [f"v{i}" for i in range(MAX_ENUM + 1)]
    _refused(
        {"tools": [_tool(parameters={"type": "object", "properties": {"c": {"enum": values}}})]},
        "tool 'get_thing'",
        "$.parameters.properties.c.enum",
        f"{MAX_ENUM + 1:,} values",
    )


@pytest.mark.parametrize(
    "pattern", ["^(a+)+$", r"^(\w+\s?)*$", "(a|aa)*b", r"^(\w+|\d+)+$", "(x+x+)+y"]
)
def test_catastrophic_patterns_load_with_a_warning(pattern):
    params = {"type": "object", "properties": {"code": {"type": "string", "pattern": pattern}}}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        spec = wenv.load_spec(tools=[_tool(parameters=params)])
    (warning,) = spec.warnings
    assert "tool 'get_thing'" in warning and "$.parameters.properties.code.pattern" in warning
    assert "exponential" in warning and "\n" not in warning
    assert [w.category for w in caught] == [SpecWarning]


@pytest.mark.parametrize(
    "pattern",
    [
        "^[A-Z]{3}$",
        r"^\+?[0-9 ()-]{6,20}$",
        r"(\d{1,3}\.){3}\d{1,3}",
        r"^([a-z]+-)*[a-z]+$",
        "(a|ab)*c",
        r"^(?=.*\d).{8,}$",
        r"[a-z]+@[a-z]+\.com",
    ],
)
def test_ordinary_patterns_raise_no_warning(pattern):
    assert pattern_risk(pattern) is None


def test_a_risky_pattern_without_a_linear_matcher_is_refused():
    params = {
        "type": "object",
        "properties": {"code": {"type": "string", "pattern": r"^((a+)\2)+$"}},
    }
    _refused(
        {"tools": [_tool(parameters=params)]},
        "$.parameters.properties.code.pattern",
        "back-reference",
    )


def test_argument_validation_is_linear_on_catastrophic_patterns():
    params = {
        "type": "object",
        "properties": {"code": {"type": "string", "pattern": "^(a+)+$"}},
        "required": ["code"],
    }
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        spec = wenv.load_spec(tools=[_tool(parameters=params)])
    episode = wenv.Episode(spec, wenv.draw_tasks(spec, 1, seed=0, fault_rate=0.0)[0])
    for size in (41, 100_000):
        start = time.perf_counter()
        result = episode.call_tool("get_thing", {"code": "a" * size + "!"})
        assert time.perf_counter() - start < 0.5
        assert (
            result["error"]["code"] == "rejected"
            and "does not match the pattern" in result["error"]["message"]
        )


def test_check_spec_on_500_tools_is_fast(tmp_path):
    tools = [
        {
            "type": "function",
            "function": {
                "name": f"{v}_item_{i}",
                "description": f"{v} an item.",
                "parameters": {
                    "type": "object",
                    "properties": {"item_id": {"type": "string"}},
                    "required": ["item_id"],
                },
            },
        }
        for i, v in enumerate(["get", "update", "delete", "list", "create"] * 100)
    ]
    prompt = (
        "You help.\n\n- Always look an item up first.\n- Never delete twice.\n- Confirm the owner."
    )
    spec = wenv.load_spec({"tools": tools, "system_prompt": prompt})
    start = time.process_time()
    grid = build_grid(spec)
    wenv.draw_tasks(spec, 5, seed=0, grid=grid)
    assert time.process_time() - start < 3.0
    assert len(grid) > 10_000


# ---------------------------------------------------------------------------------------------
# The linear matcher agrees with re (differential, fixed seed)

ATOMS = st.sampled_from(
    [
        "a",
        "b",
        ".",
        r"\d",
        r"\w",
        r"\s",
        "[a-c]",
        "[^a]",
        "A",
        "é",
        r"\W",
        "\n",
        "^",
        "$",
        r"\b",
        r"\B",
        r"\Z",
    ]
)


def _pattern(tree) -> str:
    return tree if isinstance(tree, str) else tree[0].join(_pattern(t) for t in tree[1:])


PATTERNS = st.recursive(
    ATOMS,
    lambda kids: st.one_of(
        st.tuples(st.just(""), kids, kids),
        st.builds(lambda a, b: f"({a}|{b})", kids, kids),
        st.builds(
            lambda a, q: f"(?:{a}){q}", kids, st.sampled_from(["*", "+", "?", "{2}", "{1,3}", "*?"])
        ),
    ),
    max_leaves=6,
).map(_pattern)


@settings(
    derandomize=True, max_examples=300, deadline=None, suppress_health_check=list(HealthCheck)
)
@given(
    st.sampled_from(["", "(?i)", "(?m)", "(?s)", "(?a)"]),
    PATTERNS,
    st.lists(st.text(alphabet="abAé1 \n._K\u212a", max_size=20), min_size=1, max_size=4),
)
def test_linear_matcher_agrees_with_re(flags, pattern, texts):
    """The automaton itself (not the short-text shortcut through re) against re, on short texts
    (re is the reference here, and may be exponential on longer ones)."""
    pattern = flags + pattern
    try:
        re.compile(pattern)
    except re.error:
        return
    matcher = _compile_nfa(pattern)
    for text in texts:
        assert matcher.search(text) == (re.search(pattern, text) is not None), (pattern, text)
    assert linear_supported(pattern) and pattern_search(pattern)(texts[0] * 20) in (True, False)


# ---------------------------------------------------------------------------------------------
# Fuzz: any spec-shaped junk loads or is a SpecError (fixed seed, bounded)

JUNK = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(max_size=8)
    | st.binary(max_size=4),
    lambda kids: (
        st.lists(kids, max_size=3)
        | st.dictionaries(st.text(max_size=6) | st.integers(), kids, max_size=3)
    ),
    max_leaves=6,
)
SCHEMA_KEYS = st.sampled_from(
    [
        "type",
        "properties",
        "required",
        "items",
        "$ref",
        "$defs",
        "enum",
        "pattern",
        "anyOf",
        "allOf",
        "not",
        "additionalProperties",
        "minimum",
        "format",
        "const",
    ]
)
SCHEMAS = st.recursive(
    st.fixed_dictionaries(
        {},
        optional={
            "type": st.sampled_from(["object", "string", "integer", "array", 5]),
            "pattern": st.sampled_from(["^a+$", "^(a+)+$", "(", r"\d{2}"]),
            "$ref": st.sampled_from(["#", "#/$defs/a", "#/nope", "http://x"]),
        },
    ),
    lambda kids: st.dictionaries(SCHEMA_KEYS, kids | JUNK, max_size=3),
    max_leaves=8,
)
TOOLS = st.fixed_dictionaries(
    {
        "name": st.sampled_from(["get_order", "cancel_order", "unrelated", "", "bad name", 5])
        | st.text(max_size=10)
    },
    optional={"parameters": SCHEMAS | JUNK, "description": JUNK, "kind": JUNK, "strict": JUNK},
)
SPECS = st.one_of(
    st.fixed_dictionaries(
        {"tools": st.lists(TOOLS | JUNK, max_size=3)},
        optional={"system_prompt": JUNK, "kinds": JUNK, "rubric": JUNK, "name": JUNK},
    ),
    JUNK,
)


@settings(
    derandomize=True,
    max_examples=200,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    phases=[Phase.explicit, Phase.generate],
)
@given(SPECS)
def test_fuzz_spec_loads_or_is_a_spec_error(source):
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            spec = wenv.load_spec(source)
        except SpecError as exc:
            assert "\n" not in str(exc)
        else:
            json.dumps(spec.to_dict())
    assert time.perf_counter() - start < 1.0


def test_a_spec_error_is_one_line_whatever_the_key_holds():
    error = SpecError("unknown key '\u00a8\nG'", tool="get\norder", path="$.parameters\r")
    assert "\n" not in str(error) and "\r" not in str(error)
    assert "'\u00a8\\nG'" in str(error)
