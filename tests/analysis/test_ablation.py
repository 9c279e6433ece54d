"""fault_ablation_pairs(): on a seeded agent, the chosen side handled the fault it met."""

from __future__ import annotations

import pytest

import whileai_env as wenv
from whileai_env.analysis.ablation import fault_ablation_pairs


@pytest.fixture(scope="module")
def played():
    spec = wenv.load_spec("configs/specs/order-support.json")
    tasks = [t for t in wenv.draw_tasks(spec, 40, seed=1) if t.faults][:6]
    clean = [t for t in wenv.draw_tasks(spec, 40, seed=1) if not t.faults][:1]
    agent = wenv.seeded_agent(spec, rate=0.5, flaws=["ignore_fault"])
    return fault_ablation_pairs(spec, tasks + clean, agent, repeats=4)


def test_the_chosen_side_handled_the_fault_and_the_rejected_did_not(played):
    pairs, report = played
    assert pairs and report["pairs"] == len(pairs)
    for pair in pairs:
        chosen, rejected = pair["chosen"], pair["rejected"]
        assert chosen["task_id"] == rejected["task_id"] == pair["task_id"]
        assert chosen["faults"] and rejected["faults"]  # both met the fault
        assert chosen["markers"]["acknowledged_failed_call"] == 1.0
        assert rejected["markers"]["acknowledged_failed_call"] == 0.0
        assert "ignore_fault" in rejected["seeded"] and "ignore_fault" not in chosen["seeded"]
        assert pair["margin"] >= 0.5
        assert pair["fault_kind"] == chosen["scenario_dimensions"]["condition"]


def test_the_clean_play_is_the_control(played):
    pairs, report = played
    assert report["no_fault"] == 1
    assert report["tasks"] == 6
    for pair in pairs:
        assert pair["clean_pass_rate"] == 1.0  # without the fault the agent passes
        assert pair["fault_sensitive"] is (pair["faulted_pass_rate"] < 1.0)
    assert report["fault_sensitive"] >= len(pairs)


def test_a_judge_can_replace_the_checklist():
    spec = wenv.load_spec("configs/specs/order-support.json")
    tasks = [t for t in wenv.draw_tasks(spec, 40, seed=1) if t.faults][:2]
    agent = wenv.seeded_agent(spec, rate=0.5, flaws=["ignore_fault"])
    pairs, _ = fault_ablation_pairs(spec, tasks, agent, judge=lambda row: 1.0, repeats=2)
    assert pairs == []  # a judge that pays everything separates nothing
