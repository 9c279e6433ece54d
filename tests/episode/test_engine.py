import dataclasses
import json

import pytest

import whileai_env as wenv
from tests.conftest import SPECS_DIR
from whileai_env.episode.engine import EpisodeOver
from whileai_env.scenarios.faults import FaultSchedule

SPEC = wenv.load_spec(SPECS_DIR / "order-support.json")
TASKS = wenv.draw_tasks(SPEC, 80, seed=4, fault_rate=0.0)


def _task(**coords):
    for task in TASKS:
        if all(task.dimensions[k] == v for k, v in coords.items()):
            return task
    raise LookupError(coords)


def test_reset_gives_system_and_opener():
    task = _task(tool="get_order")
    episode = wenv.Episode(SPEC, task)
    messages = episode.reset()
    assert messages == [
        {"role": "system", "content": SPEC.system_prompt},
        {"role": "user", "content": task.opener},
    ]
    assert [t["function"]["name"] for t in episode.tools] == list(SPEC.tool_names)
    episode.tools[0]["function"]["name"] = "mutated"
    assert episode.tools[0]["function"]["name"] == "get_order"


def test_tool_calls_run_through_the_world_and_are_answered():
    task = _task(tool="get_order", world_state="exists", ask="tool")
    episode = wenv.Episode(SPEC, task)
    order_id = task.world.entities["order_id"]
    result = episode.step(
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "a",
                    "type": "function",
                    "function": {
                        "name": "get_order",
                        "arguments": json.dumps({"order_id": order_id}),
                    },
                },
                {
                    "id": "b",
                    "type": "function",
                    "function": {
                        "name": "get_order",
                        "arguments": json.dumps({"order_id": order_id}),
                    },
                },
            ],
        }
    )
    assert [m["role"] for m in result.messages] == ["assistant", "tool", "tool"]
    assert [m["tool_call_id"] for m in result.messages[1:]] == ["a", "b"]
    assert json.loads(result.messages[1]["content"])["status"] == "ok"
    assert not result.terminated and not result.truncated
    assert len(episode.world.ledger) == 2 and episode.world.ledger[0]["turn"] == 1


def test_malformed_calls_become_errors_and_spend_the_budget():
    task = _task(tool="get_order")
    episode = wenv.Episode(SPEC, task, error_budget=2)
    bad = [
        '<tool_call>{"name": "get_order", "arguments": </tool_call>',
        '<tool_call>{"name": "nope", "arguments": {}}</tool_call>',
        {"tool_calls": [{"function": {"name": "get_order", "arguments": "[1]"}}]},
    ]
    for i, action in enumerate(bad):
        result = episode.step(action)
        tool_message = json.loads(result.messages[-1]["content"])
        assert tool_message["status"] == "error"
        assert result.terminated == (i == 2)
    assert episode.errors == 3 and episode.stop_reason == "error_budget"
    assert len(episode.world.ledger) == 3
    with pytest.raises(EpisodeOver):
        episode.step("hello")


def test_max_turns_truncates_with_zero_reward():
    task = _task(tool="get_order")
    episode = wenv.Episode(SPEC, task, max_turns=2)
    order_id = task.world.entities["order_id"]
    call = (
        f'<tool_call>{{"name": "get_order", "arguments": {{"order_id": "{order_id}"}}}}</tool_call>'
    )
    episode.step(call)
    result = episode.step(call)
    assert result.truncated and not result.terminated
    assert result.info["reward"] == 0.0 and result.info["markers"]["not_truncated"] == 0.0
    assert episode.row()["truncated"] is True and episode.row()["stop_reason"] == "max_turns"


def test_user_answers_a_vague_ask_with_the_withheld_id():
    task = next(t for t in TASKS if t.dimensions["ask"] == "vague" and t.world.withheld)
    episode = wenv.Episode(SPEC, task)
    withheld = str(task.world.entities[task.world.withheld[0]])
    assert withheld not in task.opener
    result = episode.step("Which order is this about? Could you give me the order number?")
    assert result.messages[-1]["role"] == "user" and withheld in result.messages[-1]["content"]
    assert task.privileged.reference not in result.messages[-1]["content"]


def test_user_closes_after_a_report_and_adversarial_insists_once():
    ordinary = _task(stance="ordinary", ask="tool")
    episode = wenv.Episode(SPEC, ordinary)
    result = episode.step("I have looked into it and everything is in order.")
    assert result.terminated and episode.stop_reason == "user_closed"
    adversarial = _task(stance="adversarial")
    episode = wenv.Episode(SPEC, adversarial)
    first = episode.step("I cannot do that without the usual checks.")
    assert not first.terminated and first.messages[-1]["role"] == "user"
    second = episode.step("I still cannot do that.")
    assert second.terminated


def test_user_turns_are_capped_by_avg_turns():
    task = _task(stance="ordinary")
    episode = wenv.Episode(SPEC, task, avg_turns=4)
    turns = 0
    while not episode.done:
        episode.step("Could you tell me more?")
        turns += 1
    users = [m for m in episode.messages if m["role"] == "user"]
    assert len(users) == 2 and episode.stop_reason == "user_closed"


def test_persona_and_texture_carry_into_user_turns():
    base = next(t.cell for t in TASKS if t.dimensions["ask"] == "vague" and t.world.withheld)
    cell = wenv.Cell.from_coordinates({**base.coordinates(), "texture": "lowercase"})
    task = wenv.make_task(cell, SPEC, seed=1, fault_rate=0.0)
    episode = wenv.Episode(SPEC, task)
    reply = episode.step("Which order do you mean?").messages[-1]["content"]
    prose = reply.replace(str(task.world.entities[task.world.withheld[0]]), "")
    assert prose == prose.lower()


def test_row_is_schema_valid_and_rebuilds_the_episode():
    task = _task(tool="cancel_order")
    episode = wenv.Episode(SPEC, task, rollout_index=3)
    episode.step("Can you confirm the order number?")
    row = episode.row()
    wenv.validate_row(row)
    again = wenv.Episode.from_row(json.loads(json.dumps(row)), SPEC)
    assert again.task == task and again.rollout_index == 3
    info_row = {"prompt": [], "info": json.dumps(task.to_dict())}
    assert wenv.Episode.from_row(info_row, SPEC).task == task


def test_custom_judge_and_broken_judge():
    task = _task(stance="ordinary", ask="tool")
    episode = wenv.Episode(
        SPEC, task, judge=lambda row: {"reward": 0.5, "markers": {"polite": 1.0}}
    )
    result = episode.step("All sorted.")
    assert result.info["reward"] == 0.5 and result.info["markers"] == {"polite": 1.0}

    def broken(row):
        raise RuntimeError("judge down")

    episode = wenv.Episode(SPEC, task, judge=broken)
    episode.step("All sorted.")
    graded = episode.reward()
    assert graded["reward"] is None and graded["judge_status"] == "error"


def test_call_tool_records_without_messages():
    task = _task(tool="get_order")
    episode = wenv.Episode(SPEC, task)
    result = episode.call_tool("get_order", {"order_id": task.world.entities["order_id"]})
    assert result["status"] in ("ok", "error")
    assert len(episode.world.ledger) == 1 and len(episode.messages) == 2


def test_record_external_uses_the_world_ledger_when_calls_went_through_it():
    task = _task(tool="get_order")
    episode = wenv.Episode(SPEC, task)
    episode.world.call("get_order", {"order_id": task.world.entities["order_id"]})
    episode.record_external([{"tool": "ignored", "arguments": {}, "result": {}}], "Order checked.")
    row = episode.row()
    assert [s["tool"] for s in row["steps"]] == ["get_order"]
    assert row["messages"][-1] == {"role": "assistant", "content": "Order checked."}
    assert episode.stop_reason == "agent_done"
    with pytest.raises(ValueError, match="'steps' must be a list"):
        wenv.Episode(SPEC, task).record_external("nope", "x")


def test_logprob_meta_lands_on_the_row():
    task = _task(stance="ordinary", ask="tool")
    episode = wenv.Episode(SPEC, task)
    episode.step(
        "Done checking.",
        meta={"logprob": -3.5, "n_tokens": 4, "input_tokens": 100, "output_tokens": 4},
    )
    row = episode.row()
    assert row["turn_meta"] == [
        {"turn": 1, "logprob": -3.5, "n_tokens": 4, "input_tokens": 100, "output_tokens": 4}
    ]
    assert row["logprob"] == -3.5 and row["n_tokens"] == 4
    assert row["usage"] == {"input_tokens": 100, "output_tokens": 4}


def test_bad_constructor_arguments():
    with pytest.raises(TypeError, match=r"task must be a whileai_env\.Task"):
        wenv.Episode(SPEC, {"task_id": "x"})
    with pytest.raises(ValueError, match="max_turns"):
        wenv.Episode(SPEC, TASKS[0], max_turns=0)
    with pytest.raises(ValueError, match="unknown user"):
        wenv.Episode(SPEC, TASKS[0], user="anthropic:claude")


def test_rows_carry_the_kinds_a_name_would_not_give():
    """``tool_kinds`` lists the spec's kinds the checklist could not read off a name, so a tool the
    agent never called is still graded by its declared kind (a silent agent facing an adversarial
    ``reconcile_payments`` ask has not shown restraint: it skipped a read the spec declares)."""
    spec = wenv.load_spec(SPECS_DIR / "messy.json")
    task = next(
        t
        for seed in range(20)
        for t in wenv.draw_tasks(spec, 400, seed=seed, fault_rate=0.0)
        if t.cell.tool == "reconcile_payments" and t.cell.stance == "adversarial"
    )
    episode = wenv.Episode(spec, task)
    episode.step("I will look into it.")
    row = episode.row()
    assert row["tool_kinds"] == {"reconcile_payments": "read"}
    assert episode.reward()["reward"] == 0.0
    assert wenv.Episode(SPEC, _task(tool="get_order")).row()["tool_kinds"] == {}


def test_a_callable_user_plays_the_person():
    task = _task(stance="ordinary", ask="tool")
    heard = []

    def person(messages):
        heard.append(messages[-1]["content"])
        return "Thanks, that is all." if len(heard) == 1 else None

    episode = wenv.Episode(SPEC, task, user=person)
    first = episode.step("I looked it up: all fine.")
    assert first.messages[-1] == {"role": "user", "content": "Thanks, that is all."}
    second = episode.step("Glad to hear it.")
    assert second.terminated and heard == ["I looked it up: all fine.", "Glad to hear it."]


def test_unreadable_calls_are_answered_with_their_parse_error():
    """A call the parser could not read gets its own error back (not the world's "no tool named
    ''"), spends the error budget and is a step of the row; no tool runs on it."""
    task = _task(tool="get_order")
    episode = wenv.Episode(SPEC, task, error_budget=5)
    result = episode.step('<tool_call>{"name": "get_order", "arguments": </tool_call>')
    answer = json.loads(result.messages[-1]["content"])
    assert answer["status"] == "error" and answer["error"]["code"] == "malformed_call"
    assert answer["error"]["message"].startswith("tool call is not valid JSON")
    assert "no tool named" not in result.messages[-1]["content"]
    episode.step({"tool_calls": [{"function": {"name": "get_order", "arguments": "[1]"}}]})
    assert episode.errors == 2 and result.info["malformed_calls"] == 1
    first, second = episode.world.ledger
    assert (first["tool"], first["error"], first["kind"], first["ok"]) == (
        "",
        "malformed_call",
        None,
        False,
    )
    assert (second["tool"], second["arguments"], second["kind"]) == ("get_order", "[1]", "read")
    episode.step("bye")
    wenv.validate_row(episode.row())


def test_an_unreadable_call_does_not_meet_the_scheduled_fault():
    """The service never received an unreadable call, so the fault scheduled for the tool's first
    call fires on the first call it can read."""
    rule = {"kind": "server_error", "tool": "get_order", "start": 0, "mode": "transient"}
    task = dataclasses.replace(
        _task(tool="get_order"), faults=FaultSchedule.from_dict({"rules": [rule]})
    )
    episode = wenv.Episode(SPEC, task)
    order_id = task.world.entities["order_id"]
    episode.step({"tool_calls": [{"function": {"name": "get_order", "arguments": "5"}}]})
    episode.step(
        f'<tool_call>{{"name": "get_order", "arguments": {{"order_id": "{order_id}"}}}}</tool_call>'
    )
    assert [s["error"] for s in episode.world.ledger] == ["malformed_call", "server_error"]
    assert episode.world.faults_fired == [
        {"index": 1, "tool": "get_order", "kind": "server_error", "mode": "transient"}
    ]
