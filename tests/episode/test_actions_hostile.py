"""The action parser under hostile input: it never raises, it is linear time, and what it cannot
read becomes a malformed call that the engine answers and the row records validly.

Each case here failed on the parser before the bounded rewrite (a raise, a timeout or an invalid
row); the figures are in docs/reliability.md.
"""

from __future__ import annotations

import json
import math
import time
import warnings

import gymnasium
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import whileai_env as wenv
from tests.conftest import SPECS_DIR
from whileai_env.episode.actions import MAX_ACTION_CHARS, MAX_CALLS, Action, ToolCall, parse_action

SPEC_PATH = SPECS_DIR / "order-support.json"
SPEC = wenv.load_spec(SPEC_PATH)
TASKS = wenv.draw_tasks(SPEC, 6, seed=3, fault_rate=0.0)


class _Unprintable:
    def __str__(self) -> str:
        raise RuntimeError("no str for you")

    __repr__ = __str__


def _cyclic() -> dict:
    value: dict = {"order_id": "1"}
    value["self"] = value
    return value


def _call(arguments: object) -> dict:
    return {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": "c1",
                "type": "function",
                "function": {"name": "get_order", "arguments": arguments},
            }
        ],
    }


HOSTILE: dict[str, object] = {
    "deep list text": "[" * 1000,
    "deep object text": '{"a":' * 3000,
    "deep block": "<tool_call>" + "[" * 1000 + "</tool_call>",
    "deep arguments text": _call('{"a":' * 3000 + "1" + "}" * 3000),
    "5000-digit integer in a block": '<tool_call>{"name": "get_order", "arguments": {"order_id": '
    + "9" * 5000
    + "}}</tool_call>",
    "5000-digit integer in arguments text": _call('{"order_id": ' + "9" * 5000 + "}"),
    "10**5000 in arguments": _call({"order_id": 10**5000}),
    "text part None": {"role": "assistant", "content": [{"type": "text", "text": None}]},
    "text part int": {"role": "assistant", "content": [{"type": "text", "text": 5}]},
    "text part bytes": {"role": "assistant", "content": [{"type": "text", "text": b"hi \xff"}]},
    "tuple key arguments": _call({(1, 2): "x"}),
    "int key arguments": _call({1: "x"}),
    "cyclic arguments": _call(_cyclic()),
    "unprintable action": _Unprintable(),
    "unprintable content": {"role": "assistant", "content": _Unprintable()},
    "unprintable argument": _call({"order_id": _Unprintable()}),
    "None": None,
    "bytes": b"\xff\xfe<tool_call>\x00",
    "nan": math.nan,
    "set": {1, 2},
    "mixed list": [1, None, "a", {"x": 1}, b"z", math.inf],
    "empty list": [],
    "non-object arguments": '<tool_call>{"name": "get_order", "arguments": 5}</tool_call>',
    "list arguments": _call([1, 2]),
    "name not a string": {"tool_calls": [{"function": {"name": 5, "arguments": {}}}]},
    "tool_calls not a list": {"tool_calls": 7},
    "unclosed block and newlines": "<tool_call>a" + "\n" * 65536 + "b",
    "fence pattern 64 KB": ("```{x}y" * 9400)[:65536],
    "over the size cap": "x" * (MAX_ACTION_CHARS + 1),
    "huge content in a dict": {"role": "assistant", "content": "y" * (MAX_ACTION_CHARS + 1)},
    "many blocks": '<tool_call>{"name": "get_order", "arguments": {}}</tool_call>' * 1000,
    "many calls in a dict": {
        "tool_calls": [{"function": {"name": "get_order", "arguments": {}}}] * 5000
    },
    "Action with junk inside": Action(
        content=5, tool_calls=(ToolCall("x", "get_order", _cyclic()),)
    ),  # type: ignore[arg-type]
}


def _assert_sane(action: Action) -> None:
    assert isinstance(action, Action) and type(action.content) is str
    assert len(action.tool_calls) <= MAX_CALLS + 1
    for call in action.tool_calls:
        assert type(call.name) is str and type(call.id) is str
        assert type(call.arguments) in (dict, str)
        assert call.error is None or type(call.error) is str
    json.dumps(action.to_message(), ensure_ascii=False)


@pytest.mark.parametrize("name", list(HOSTILE))
def test_parse_never_raises_and_is_fast(name):
    start = time.process_time()  # CPU time: a shared, loaded machine stretches the wall clock
    action = parse_action(HOSTILE[name])
    elapsed = time.process_time() - start
    _assert_sane(action)
    assert elapsed < 0.25, f"{name}: {elapsed:.2f} s"


@pytest.mark.parametrize("name", ["nan", "set", "mixed list", "unprintable action", "empty list"])
def test_values_that_are_not_turns_are_malformed_calls(name):
    (call,) = parse_action(HOSTILE[name]).tool_calls
    assert call.error and "must be text or an assistant message" in call.error
    assert call.name == "" and isinstance(call.arguments, str)


@pytest.mark.parametrize(
    "name, words",
    [
        ("deep block", "nested 1000 levels deep"),
        ("deep arguments text", "nested 3000 levels deep"),
        ("5000-digit integer in a block", "more than 100 digits"),
        ("5000-digit integer in arguments text", "more than 100 digits"),
        ("10**5000 in arguments", "integer of 16610 bits"),
        ("cyclic arguments", "refers to itself"),
        ("tuple key arguments", "key that is not a string"),
        ("unprintable argument", "holds a _Unprintable"),
        ("over the size cap", "the limit is 262,144"),
        ("huge content in a dict", "too big"),
    ],
)
def test_unreadable_calls_name_the_problem(name, words):
    errors = [c.error for c in parse_action(HOSTILE[name]).tool_calls if c.error]
    assert errors and words in errors[0], errors


def test_argument_paths_are_named():
    (call,) = parse_action(HOSTILE["10**5000 in arguments"]).tool_calls
    assert "tool_calls[0].function.arguments.order_id" in call.error


def test_content_parts_keep_only_text():
    assert parse_action(HOSTILE["text part None"]).content == ""
    assert parse_action(HOSTILE["text part int"]).content == ""
    assert parse_action(HOSTILE["text part bytes"]).content == "hi \ufffd"
    parts = {
        "role": "assistant",
        "content": [{"type": "text", "text": "a"}, "b", {"type": "image_url"}],
    }
    assert parse_action(parts).content == "ab"


def test_non_object_arguments_are_recorded_as_text():
    (call,) = parse_action(HOSTILE["non-object arguments"]).tool_calls
    assert (call.name, call.arguments, call.error) == (
        "get_order",
        "5",
        "arguments must be a JSON object, got int",
    )
    (listed,) = parse_action(HOSTILE["list arguments"]).tool_calls
    assert listed.arguments == "[1, 2]" and "got list" in listed.error


def test_a_turn_is_capped_at_max_calls():
    for name in ("many blocks", "many calls in a dict"):
        calls = parse_action(HOSTILE[name]).tool_calls
        assert len(calls) == MAX_CALLS + 1
        assert calls[-1].error and "were not run" in calls[-1].error
        assert all(c.error is None for c in calls[:-1])


def test_the_scanners_keep_the_old_meaning():
    unclosed = parse_action('Checking.<tool_call>{"name": "f", "arguments": {}}')
    assert unclosed.content == "Checking." and unclosed.tool_calls[0].name == "f"
    two_fences = parse_action(
        '```python\nprint(1)\n```\nthen\n```json\n{"name": "f", "arguments": {}}\n```'
    )
    assert two_fences.tool_calls[0].name == "f" and two_fences.content.startswith("```python")
    inner = parse_action("<tool_call>{a}<tool_call>{b}</tool_call> tail")
    assert len(inner.tool_calls) == 1 and inner.content == "tail"


@pytest.mark.parametrize("size", [65536, MAX_ACTION_CHARS])
def test_linear_time_at_the_cap(size):
    texts = [
        "<tool_call>a" + "\n" * size + "b",
        ("```{x}y" * (size // 7 + 1))[:size],
        '"' + '\\"' * (size // 2),
        "<tool_call>" + '{"a":' * (size // 5),
        "[]" * (size // 2),
    ]
    for text in texts:
        start = time.perf_counter()
        _assert_sane(parse_action(text[:MAX_ACTION_CHARS]))
        assert time.perf_counter() - start < 0.25


def _episode() -> wenv.Episode:
    return wenv.Episode(SPEC, TASKS[0], grade=False, error_budget=10_000, max_turns=10_000)


def test_non_object_arguments_give_a_valid_row():
    episode = _episode()
    result = episode.step(HOSTILE["non-object arguments"])
    tool = json.loads(result.messages[-1]["content"])
    assert tool["status"] == "error" and "must be a JSON object" in tool["error"]["message"]
    episode.step("bye")
    row = episode.row()
    wenv.validate_row(row)
    assert row["steps"][0]["arguments"] == "5"


def test_episode_steps_never_raise_and_rows_stay_valid():
    episode = _episode()
    for name, action in HOSTILE.items():
        if episode.done:
            episode = _episode()
        start = time.perf_counter()
        episode.step(action)
        assert time.perf_counter() - start < 0.5, name
        wenv.validate_row(episode.row())


def test_gym_step_never_raises_and_rows_stay_valid():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env = gymnasium.make("whileai/agent", spec=str(SPEC_PATH))
    env.reset(seed=0)
    for action in HOSTILE.values():
        _, reward, terminated, truncated, _ = env.step(action)
        assert isinstance(reward, float)
        wenv.validate_row(env.unwrapped.row())
        if terminated or truncated:
            env.reset()


# ---------------------------------------------------------------------------------------------
# Fuzz (fixed seed, bounded)

FRAGMENTS = st.sampled_from(
    [
        "<tool_call>",
        "</tool_call>",
        "```",
        "```json",
        "{",
        "}",
        "[",
        "]",
        '"',
        "\\",
        "\n",
        " ",
        ",",
        ":",
        '"name"',
        '"arguments"',
        '"get_order"',
        '"order_id"',
        "9" * 120,
        "NaN",
        "-1e999",
        "\ud800",
        "\x00",
        "x",
        '{"role": "assistant", "content": ',
        '"tool_calls": [',
        "null",
        "true",
    ]
)
HOSTILE_TEXT = st.builds(
    lambda parts, repeat: "".join(parts) * repeat,
    st.lists(FRAGMENTS, max_size=24),
    st.sampled_from([1, 1, 2, 50, 400]),
)
LEAVES = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=True)
    | st.text(max_size=12)
    | st.binary(max_size=8)
    | st.just(10**400)
    | st.builds(_Unprintable)
    | st.sets(st.integers(), max_size=2)
)
JUNK = st.recursive(
    LEAVES,
    lambda kids: (
        st.lists(kids, max_size=4)
        | st.tuples(kids, kids)
        | st.dictionaries(st.text(max_size=6) | st.integers(), kids, max_size=4)
    ),
    max_leaves=16,
)
MESSAGES = st.fixed_dictionaries(
    {},
    optional={
        "role": st.sampled_from(["assistant", "user", 5]),
        "content": JUNK | HOSTILE_TEXT,
        "tool_calls": JUNK
        | st.lists(
            st.fixed_dictionaries(
                {},
                optional={
                    "id": JUNK,
                    "type": JUNK,
                    "function": st.fixed_dictionaries(
                        {},
                        optional={
                            "name": st.sampled_from(["get_order", "", "nope"]) | JUNK,
                            "arguments": JUNK | HOSTILE_TEXT,
                        },
                    ),
                },
            ),
            max_size=4,
        ),
    },
)
ACTIONS = HOSTILE_TEXT | JUNK | MESSAGES


@settings(
    derandomize=True, max_examples=400, deadline=None, suppress_health_check=list(HealthCheck)
)
@given(ACTIONS)
def test_fuzz_parser(action):
    start = time.perf_counter()
    parsed = parse_action(action)
    assert time.perf_counter() - start < 0.25
    _assert_sane(parsed)


@settings(
    derandomize=True, max_examples=120, deadline=None, suppress_health_check=list(HealthCheck)
)
@given(st.lists(ACTIONS, min_size=1, max_size=3))
def test_fuzz_episode(actions):
    episode = _episode()
    for action in actions:
        if episode.done:
            episode = _episode()
        episode.step(action)
        wenv.validate_row(episode.row())
