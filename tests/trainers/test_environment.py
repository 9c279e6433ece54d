"""The environment class TRL plays: its tools as TRL reads them back, calls through the engine."""

from __future__ import annotations

import inspect
import json

import pytest
from transformers.utils import get_json_schema

import whileai_env as wenv
from tests.conftest import SPECS_DIR
from tests.corpus import corpus_specs
from trainers import environment_factory, finish_rollout
from trainers.environment import ENDED


def _loadable(paths: list) -> list:
    """The specs that load (the corpus keeps some raw, invalid conversions on purpose)."""
    out = []
    for path in paths:
        try:
            wenv.load_spec(path)
        except wenv.SpecError:
            continue
        out.append(path)
    return out


SPECS = _loadable(
    sorted(p for p in SPECS_DIR.glob("*") if p.suffix in (".json", ".yaml")) + corpus_specs()
)


def _methods(env_class: type) -> dict:
    return {
        n: f
        for n, f in inspect.getmembers(env_class, inspect.isfunction)
        if n not in ("reset", "get_reward") and not n.startswith("_")
    }


@pytest.mark.parametrize("path", SPECS, ids=lambda p: p.stem)
def test_every_tool_reads_back_with_its_names_types_and_required(path) -> None:
    spec = wenv.load_spec(path)
    env_class = environment_factory(spec)
    instance = env_class()
    methods = _methods(env_class)
    assert set(methods) == {*env_class._tool_names, "ask_user"}
    for method_name, tool_name in env_class._tool_names.items():
        tool = spec.tool(tool_name)
        back = get_json_schema(getattr(instance, method_name))["function"]["parameters"]
        assert len(back["properties"]) == len(tool.properties), tool_name
        assert len(back.get("required", [])) == len(
            [r for r in tool.required if r in tool.properties]
        )
        for (schema_name, schema), (py_name, read) in zip(
            _ordered(tool), back["properties"].items(), strict=True
        ):
            assert read["description"], (tool_name, py_name)
            if (
                isinstance(schema, dict)
                and isinstance(schema.get("type"), str)
                and "enum" not in schema
            ):
                assert read.get("type") == schema["type"], (tool_name, schema_name, read)
            if isinstance(schema, dict) and isinstance(schema.get("enum"), list) and schema["enum"]:
                assert read.get("enum") == list(dict.fromkeys(schema["enum"])), (
                    tool_name,
                    schema_name,
                )


def _ordered(tool) -> list:
    required = [k for k in tool.required if k in tool.properties]
    return [
        (k, tool.properties[k])
        for k in required + [k for k in tool.properties if k not in required]
    ]


def test_a_dashed_tool_is_a_method_whose_call_reaches_the_spec_tool() -> None:
    spec = wenv.load_spec(
        tools=[
            {
                "name": "get-order",
                "description": "Look up an order.",
                "parameters": {
                    "type": "object",
                    "properties": {"order-id": {"type": "string"}},
                    "required": ["order-id"],
                },
            }
        ]
    )
    env_class = environment_factory(spec)
    env = env_class()
    task = wenv.draw_tasks(spec, 1, seed=0)[0]
    env.reset(info=json.dumps(task.public_dict()))
    result = json.loads(env.get_order(order_id="4412"))
    assert "status" in result
    assert env.episode.world.ledger[0]["tool"] == "get-order"
    assert env.episode.world.ledger[0]["arguments"] == {"order-id": "4412"}


def test_constraints_a_hint_cannot_carry_are_written_in_the_description() -> None:
    spec = wenv.load_spec(
        tools=[
            {
                "name": "book",
                "description": "Book a slot.",
                "parameters": {
                    "type": "object",
                    "properties": {
                        "day": {"type": "string", "format": "date", "description": "The day."},
                        "seats": {"type": "integer", "minimum": 1, "maximum": 8},
                        "where": {
                            "type": "object",
                            "properties": {"city": {"type": "string"}},
                            "required": ["city"],
                        },
                    },
                    "required": ["day"],
                },
            }
        ]
    )
    env = environment_factory(spec)()
    props = get_json_schema(env.book)["function"]["parameters"]["properties"]
    assert "format date" in props["day"]["description"]
    assert (
        "at least 1" in props["seats"]["description"]
        and "at most 8" in props["seats"]["description"]
    )
    assert props["where"]["type"] == "object" and "city" in props["where"]["description"]


def test_after_the_episode_ends_tools_and_questions_do_nothing() -> None:
    spec = wenv.load_spec(SPECS_DIR / "order-support.json")
    env = environment_factory(spec)()
    task = wenv.draw_tasks(spec, 1, seed=0)[0]
    env.reset(info=json.dumps(task.public_dict()))
    episode = finish_rollout(env, [{"role": "assistant", "content": "All done."}])
    assert (
        episode.done and episode.stop_reason == "agent_done" and episode.final_text == "All done."
    )
    assert env.ask_user("Anything else?") == ENDED
    assert env.get_order(order_id="1") == ENDED
    assert not episode.world.ledger
    finish_rollout(env, [{"role": "assistant", "content": "Again."}])
    assert episode.final_text == "All done."


def test_a_question_without_a_question_mark_is_still_asked() -> None:
    spec = wenv.load_spec(SPECS_DIR / "order-support.json")
    env = environment_factory(spec)()
    task = next(
        t
        for t in wenv.draw_tasks(spec, 40, mode="rl", seed=3)
        if t.privileged.hidden_state.get("withheld")
    )
    env.reset(info=json.dumps(task.public_dict()))
    reply = env.ask_user("Please give me the order number")
    assert not env.episode.done and reply.strip()
