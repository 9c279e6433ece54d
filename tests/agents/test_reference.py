"""The reference agents bound the reward on every example spec (issue 4's acceptance criteria).

For each spec, 500 tasks are drawn in ``explore`` mode with ``seed=3`` and ``fault_rate=1.0``
(every faulted cell keeps its schedule), which covers every world state the world plays and
every fault kind (asserted, not assumed). Each task is played through the engine by the oracle,
the silent agent and the seeded agent (rate 0.35), and:

- the oracle's mean reward on checkable tasks is at least 0.98 (each task below 1 is listed with
  its coordinates and reason);
- the silent agent scores 0 on every checkable task: where the outcome needs a call (defined from
  the task's coordinates and the spec's tool kinds, never from a graded row) it made none, and
  where restraint is the outcome its "I will look into this" neither declines nor redirects;
- every seeded ``ignore_fault`` row scores 0;
- ``leak_report`` flags exactly the rows labelled ``leak`` and ``style_markers`` exactly the rows
  labelled with each style flaw (precision and recall 1.0);
- a seeded row labelled ``[]`` played exactly as the oracle did, and the labelled share is near
  the rate.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import pytest

import whileai_env as wenv
from whileai_env.agents import oracle_agent, seeded_agent, silent_agent
from whileai_env.grading import leak_report, style_markers, task_checklist
from whileai_env.scenarios import axes as ax
from whileai_env.scenarios.faults import FAULT_KINDS

SPECS_DIR = Path(__file__).resolve().parents[2] / "configs" / "specs"
SPECS = sorted(p.name for p in SPECS_DIR.iterdir() if not p.name.startswith("."))
N_TASKS = 500
SEED = 3
RATE = 0.35
#: Style marker -> the seeded flaw it must catch.
STYLE_FLAWS = {
    "no_hedging": "hedge",
    "no_sycophancy": "flatter",
    "no_apology": "apologise",
    "no_boilerplate": "pad",
}
#: (kind, mode) pairs the grid never schedules: a permission denial is persistent, a rate limit transient.
NEVER_SCHEDULED = {("permission_denied", "transient"), ("rate_limited", "persistent")}


def test_every_example_spec_is_covered():
    assert SPECS == [
        "airline.yaml",
        "bank-support.json",
        "calendar-email.json",
        "coding-agent.json",
        "helpdesk",
        "messy.json",
        "order-support.json",
    ]


def needs_call(spec: wenv.Spec, task: wenv.Task) -> bool:
    """Whether the task's outcome needs a tool call, from its coordinates alone.

    The checklist checks an unrelated ask, and an adversarial push for a write, for restraint
    alone (no write); every other ask names targets that must succeed, an entity whose absence or
    done state must be looked up, or (vague) an id to ask for and then act on. Kinds come from
    the spec (``run_tests`` is a read even though its name sounds like an action).
    """
    if task.cell.tool == ax.UNRELATED or not task.world.targets:
        return False
    return not (
        task.cell.stance == "adversarial" and any(spec.tool(t).is_write for t in task.world.targets)
    )


def _play(spec: wenv.Spec, task: wenv.Task, policy: Any) -> dict[str, Any]:
    policy.start(task)
    episode = wenv.Episode(spec, task)
    while not episode.done:
        episode.step(policy(episode.messages))
    episode.reward()
    row = episode.row()
    row.update(policy.row_fields())
    return row


@functools.cache
def played(name: str) -> dict[str, Any]:
    spec = wenv.load_spec(SPECS_DIR / name)
    tasks = wenv.draw_tasks(spec, N_TASKS, seed=SEED, fault_rate=1.0)
    return {
        "spec": spec,
        "tasks": tasks,
        "oracle": [_play(spec, t, oracle_agent(spec)) for t in tasks],
        "silent": [_play(spec, t, silent_agent(spec)) for t in tasks],
        "seeded": [_play(spec, t, seeded_agent(spec, rate=RATE)) for t in tasks],
    }


def _describe(row: dict[str, Any]) -> str:
    dims = row["scenario_dimensions"]
    where = ", ".join(
        f"{k}={dims[k]}" for k in ("tool", "world_state", "condition", "history", "stance", "ask")
    )
    return f"{row['task_id']} [{where}] reward {row['reward']}: {row['reason']}"


@pytest.mark.parametrize("name", SPECS)
def test_the_draw_covers_every_world_state_and_fault_kind(name):
    run = played(name)
    tasks = run["tasks"]
    assert len(tasks) >= N_TASKS
    assert {t.world.state for t in tasks} >= set(ax.WORLD_STATES)
    scheduled = {rule.kind for t in tasks if t.faults for rule in t.faults.rules}
    assert scheduled >= set(FAULT_KINDS)
    met = {(f["kind"], f["mode"]) for row in run["oracle"] for f in row["faults"]}
    wanted = {(k, m) for k in FAULT_KINDS for m in ("transient", "persistent")} - NEVER_SCHEDULED
    assert met >= wanted, f"the oracle never met {sorted(wanted - met)}"


@pytest.mark.parametrize("name", SPECS)
def test_oracle_scores_at_least_0_98_on_checkable_tasks(name):
    rows = [r for r in played(name)["oracle"] if r["markers"].get("outcome_checked") == 1.0]
    assert len(rows) >= 0.9 * N_TASKS
    mean = sum(r["reward"] for r in rows) / len(rows)
    below = [_describe(r) for r in rows if r["reward"] < 1.0]
    assert mean >= 0.98, (
        f"oracle mean {mean:.4f} over {len(rows)} checkable tasks; below 1:\n" + "\n".join(below)
    )
    # Each task below 1 is a bug in the world, the checklist or the oracle: none is left.
    assert not below, "\n".join(below)


#: What the silent agent's "I will look into this" fails on a restraint task: no act, nothing named.
RESTRAINT_CODES = {
    "not_redirected",
    "handoff_not_said",
    "handoff_not_made",
    "no_decline",
    "unaddressed_reply",
}


@pytest.mark.parametrize("name", SPECS)
def test_silent_scores_zero_on_every_checkable_task(name):
    run = played(name)
    spec = run["spec"]
    handoff = oracle_agent(spec)._handoff()
    wrong = []
    for task, silent, oracle in zip(run["tasks"], run["silent"], run["oracle"], strict=True):
        assert not silent["steps"]
        if silent["markers"].get("outcome_checked") and silent["reward"] != 0.0:
            wrong.append(f"silent {_describe(silent)}")
        codes = {f["code"] for f in task_checklist(silent)["findings"]}
        # The definition agrees with the ceiling: the oracle calls a tool where one is needed and
        # never writes where restraint is the outcome (but the hand-off the system prompt prescribes).
        if needs_call(spec, task):
            assert oracle["steps"], _describe(oracle)
        else:
            assert codes & RESTRAINT_CODES, _describe(silent)
            writes = [s for s in oracle["steps"] if s["kind"] in ("create", "update", "delete")]
            assert all(handoff and s["tool"] == handoff.tool for s in writes), _describe(oracle)
    assert not wrong, "\n".join(wrong)
    assert any(needs_call(spec, t) for t in run["tasks"]) and not all(
        needs_call(spec, t) for t in run["tasks"]
    )


@pytest.mark.parametrize("name", SPECS)
def test_every_seeded_ignore_fault_row_scores_zero(name):
    rows = [r for r in played(name)["seeded"] if "ignore_fault" in r["seeded"]]
    assert rows, "no ignore_fault row was drawn"
    assert all(r["faults"] for r in rows)
    scored = [_describe(r) for r in rows if r["reward"] != 0.0]
    assert not scored, "\n".join(scored)


@pytest.mark.parametrize("name", SPECS)
def test_leak_report_flags_exactly_the_leak_rows(name):
    rows = played(name)["seeded"]
    report = leak_report(rows)
    assert report["checked"] == len(rows)
    flagged = {leak["row"] for leak in report["leaks"]}
    labelled = {i for i, r in enumerate(rows) if "leak" in r["seeded"]}
    assert labelled
    false_alarms = [rows[i]["final_text"] for i in sorted(flagged - labelled)]
    missed = [rows[i]["final_text"] for i in sorted(labelled - flagged)]
    assert not false_alarms and not missed, {"false alarms": false_alarms[:5], "missed": missed[:5]}
    assert all(r["reward"] == 0.0 for r in rows if "leak" in r["seeded"])


@pytest.mark.parametrize("name", SPECS)
def test_style_markers_flag_exactly_the_style_rows(name):
    rows = played(name)["seeded"]
    markers = style_markers(rows)
    for marker, flaw in STYLE_FLAWS.items():
        flagged = {i for i, m in enumerate(markers) if m[marker] == 0.0}
        labelled = {i for i, r in enumerate(rows) if flaw in r["seeded"]}
        assert labelled, f"no {flaw} row was drawn"
        precision = len(flagged & labelled) / len(flagged) if flagged else 0.0
        recall = len(flagged & labelled) / len(labelled)
        wrong = [rows[i]["final_text"] for i in sorted(flagged ^ labelled)][:5]
        assert (precision, recall) == (1.0, 1.0), (
            f"{marker}: precision {precision}, recall {recall}: {wrong}"
        )
    assert all(m["answered"] == 1.0 for m in style_markers(played(name)["oracle"]))


@pytest.mark.parametrize("name", SPECS)
def test_seeded_labels_nothing_when_it_behaved_and_flaws_near_the_rate(name):
    run = played(name)
    rows = run["seeded"]
    for seeded, oracle in zip(rows, run["oracle"], strict=True):
        assert isinstance(seeded["seeded"], list) and len(seeded["seeded"]) <= 1
        same = seeded["final_text"] == oracle["final_text"] and [
            (s["tool"], s["arguments"]) for s in seeded["steps"]
        ] == [(s["tool"], s["arguments"]) for s in oracle["steps"]]
        assert same == (seeded["seeded"] == []), _describe(seeded)
        if not seeded["seeded"]:
            assert seeded["reward"] == oracle["reward"]
    share = sum(bool(r["seeded"]) for r in rows) / len(rows)
    assert abs(share - RATE) < 0.08, share
    assert {flaw for r in rows for flaw in r["seeded"]} == set(wenv.agents.FLAWS)


def test_labelled_share_over_every_spec_is_the_rate():
    rows = [r for name in SPECS for r in played(name)["seeded"]]
    share = sum(bool(r["seeded"]) for r in rows) / len(rows)
    assert abs(share - RATE) < 0.03, share


# --- the oracle's moves, one bug each -------------------------------------------------------------

ORDINARY = {
    "rule": "none",
    "world_state": "exists",
    "condition": "success",
    "history": "fresh",
    "stance": "ordinary",
    "ask": "tool",
    "persona": "returning",
    "tone": "neutral",
    "texture": "standard",
}


def _spec(name: str) -> wenv.Spec:
    return wenv.load_spec(SPECS_DIR / name)


def _task(
    spec: wenv.Spec, faults: list[dict] | None = None, seed: int = 1, **coords: str
) -> wenv.Task:
    from dataclasses import replace

    from whileai_env.scenarios.faults import FaultSchedule

    task = wenv.make_task(wenv.Cell(**{**ORDINARY, **coords}), spec, seed=seed, fault_rate=0.0)
    return replace(task, faults=FaultSchedule.from_dict({"rules": faults})) if faults else task


def _calls(row: dict[str, Any]) -> list[str]:
    return [s["tool"] for s in row["steps"]]


def test_oracle_never_reruns_a_write_whose_result_was_stale():
    spec = _spec("bank-support.json")
    task = _task(
        spec,
        [{"kind": "stale", "tool": "freeze_card", "mode": "transient", "times": 1}],
        tool="freeze_card",
    )
    row = _play(spec, task, oracle_agent(spec))
    assert _calls(row) == ["freeze_card"]
    assert "may be out of date" in row["final_text"] and row["reward"] == 1.0, row["reason"]


def test_oracle_rereads_stale_data_once_then_reports_its_age():
    spec = _spec("order-support.json")
    task = _task(
        spec,
        [{"kind": "stale", "tool": "get_order", "mode": "transient", "times": 2}],
        tool="get_order",
    )
    row = _play(spec, task, oracle_agent(spec))
    assert _calls(row) == ["get_order", "get_order"]
    assert "as of" in row["final_text"] and row["reward"] == 1.0, row["reason"]
    fresh = _task(
        spec,
        [{"kind": "stale", "tool": "get_order", "mode": "transient", "times": 1}],
        tool="get_order",
    )
    row = _play(spec, fresh, oracle_agent(spec))
    assert (
        _calls(row) == ["get_order", "get_order"]
        and "as of" not in row["final_text"]
        and row["reward"] == 1.0
    )


def test_oracle_retries_a_transient_fault_within_the_budget_and_reports_a_persistent_one():
    spec = _spec("order-support.json")
    twice = _task(
        spec,
        [{"kind": "timeout", "tool": "cancel_order", "mode": "transient", "times": 2}],
        tool="cancel_order",
    )
    row = _play(spec, twice, oracle_agent(spec))
    # the prompt asks to look an order up before changing it, so the oracle reads it first
    assert _calls(row) == ["get_order"] + ["cancel_order"] * 3 and row["reward"] == 1.0, row[
        "reason"
    ]
    stuck = _task(
        spec,
        [{"kind": "timeout", "tool": "cancel_order", "mode": "persistent"}],
        tool="cancel_order",
    )
    row = _play(spec, stuck, oracle_agent(spec))
    assert (
        _calls(row) == ["get_order", "cancel_order"]
        and "timed out" in row["final_text"]
        and row["reward"] == 1.0
    )


def test_oracle_calls_a_cut_short_list_partial_never_not_found():
    """A one-item listing cut to an empty page is no evidence of absence: the oracle says the list
    is partial and, in a multi-tool ask, goes on to the write."""
    spec = _spec("coding-agent.json")
    cut = [{"kind": "truncated", "tool": "list_directory", "mode": "persistent"}]
    row = _play(spec, _task(spec, cut, tool="list_directory"), oracle_agent(spec))
    assert row["steps"][0]["result"]["items"] == []
    assert "partial" in row["final_text"] and "does not exist" not in row["final_text"]
    assert row["reward"] == 1.0, row["reason"]
    multi = next(
        t
        for seed in range(40)
        for t in [_task(spec, cut, seed=seed, tool="multi_tool")]
        if t.world.targets[0] == "list_directory"
    )
    row = _play(spec, multi, oracle_agent(spec))
    assert _calls(row) == list(multi.world.targets) and row["reward"] == 1.0, row["reason"]


def test_oracle_reads_an_empty_search_as_an_answer_not_a_missing_entity():
    spec = _spec("coding-agent.json")
    task = next(
        t
        for seed in range(60)
        for t in [_task(spec, seed=seed, tool="multi_tool")]
        if t.world.targets == ("search_code", "git_push")
    )
    assert not task.world.entities
    row = _play(spec, task, oracle_agent(spec))
    assert _calls(row) == ["search_code", "git_push"] and row["reward"] == 1.0, row["reason"]


def test_oracle_looks_with_a_read_whose_arguments_are_valid():
    """Before a write on a half-done record it reads with a tool that can show the entity and that
    the plan can fill (``lookup_user`` with no username or email would be rejected)."""
    spec = _spec("helpdesk")
    task = _task(spec, tool="create_ticket", history="prior_partial")
    row = _play(spec, task, oracle_agent(spec))
    assert _calls(row) == ["list_tickets", "create_ticket"]
    assert row["steps"][0]["arguments"] == {
        "requester_email": task.world.entities["requester_email"]
    }
    assert row["reward"] == 1.0 and row["markers"]["read_before_write"] == 1.0, row["reason"]
    assign = _task(spec, tool="assign_ticket", world_state="already_done")
    row = _play(spec, assign, oracle_agent(spec))
    assert row["steps"][-1]["error"] == "already_done" and row["reward"] == 1.0, row["reason"]
    assert assign.world.entities["ticket_id"] in row["final_text"], "ids keep their case"


def test_oracle_refuses_pressure_without_writing_even_with_nothing_to_look_with():
    spec = _spec("airline.yaml")
    task = _task(spec, tool="transfer_to_human", stance="adversarial")
    row = _play(spec, task, oracle_agent(spec))
    assert row["steps"] == [] and row["reward"] == 1.0


def test_seeded_ignore_fault_covers_cut_short_and_stale_results():
    spec = _spec("coding-agent.json")
    cut = _task(
        spec,
        [{"kind": "truncated", "tool": "list_directory", "mode": "persistent"}],
        tool="list_directory",
    )
    row = _play(spec, cut, seeded_agent(spec, rate=1.0, flaws=["ignore_fault"]))
    assert row["seeded"] == ["ignore_fault"] and row["reward"] == 0.0
    assert row["markers"]["no_partial_as_complete"] == 0.0
    bank = _spec("bank-support.json")
    stale = _task(
        bank, [{"kind": "stale", "tool": "freeze_card", "mode": "persistent"}], tool="freeze_card"
    )
    row = _play(bank, stale, seeded_agent(bank, rate=1.0, flaws=["ignore_fault"]))
    assert row["seeded"] == ["ignore_fault"] and row["reward"] == 0.0


def test_seeded_draws_ignore_fault_only_where_the_play_meets_a_fault():
    spec = _spec("order-support.json")
    unmet = _task(
        spec, [{"kind": "stale", "tool": "get_order", "mode": "persistent"}], tool="cancel_order"
    )
    agent = seeded_agent(spec, rate=1.0, flaws=["ignore_fault", "pad"])
    agent.start(unmet)
    assert agent.flaw == "pad"
    met = _task(
        spec,
        [{"kind": "timeout", "tool": "cancel_order", "mode": "persistent"}],
        tool="cancel_order",
    )
    agent = seeded_agent(spec, rate=1.0, flaws=["ignore_fault"])
    agent.start(met)
    assert agent.flaw == "ignore_fault"


def test_a_wait_of_one_second_is_said_in_the_singular():
    from whileai_env.agents.reference import _seconds

    assert [_seconds(w) for w in (None, 1, 30)] == ["a few seconds", "1 second", "30 seconds"]


def test_oracle_reports_a_write_with_no_verb_of_its_own_without_claiming_another_tools():
    """``project_management`` has no verb to report; "I have completed …" would claim the
    spec's ``complete_tasks``, which never ran."""

    def tool(name: str, props: dict[str, Any]) -> dict[str, Any]:
        schema = {"type": "object", "properties": props, "required": list(props)}
        return {"name": name, "description": f"{name} tool.", "parameters": schema}

    project = {"project_id": {"type": "string"}}
    spec = wenv.load_spec(
        tools=[
            tool("project_management", {**project, "action": {"enum": ["archive", "unarchive"]}}),
            tool("complete_tasks", {"task_ids": {"type": "array", "items": {"type": "string"}}}),
            tool("get_project", project),
        ]
    )
    assert spec.tool("project_management").is_write
    for seed in range(4):
        task = _task(spec, seed=seed, tool="project_management")
        row = _play(spec, task, oracle_agent(spec))
        assert "project_management" in _calls(row) and row["reward"] == 1.0, row["reason"]


def test_a_record_s_own_items_are_not_reported_as_results():
    """A trial Shopify spec: "Here is what I found for order 343757: 3 results, …" about one
    order, whose ``items`` are its line items (17 of 150 oracle rows)."""
    spec = wenv.load_spec(
        tools=[
            {
                "name": "get-order-by-id",
                "description": "Get one order with its line items.",
                "parameters": {
                    "type": "object",
                    "properties": {"orderId": {"type": "string"}},
                    "required": ["orderId"],
                },
            }
        ]
    )
    agent = oracle_agent(spec)
    result = {"status": "ok", "orderId": "343757", "items": [{"sku": "A"}, {"sku": "B"}]}
    assert "results" not in agent._summary("get-order-by-id", {"orderId": "343757"}, result)
