"""``probe_reward``: the trivial policies earn no more than the share of tasks where their
behaviour is right, on the example specs and the foreign corpus; the oracle stays the ceiling;
the restraint-share knob sets how much of the draw can be earned by saying no."""

from __future__ import annotations

import functools
import json

import pytest

import whileai_env as wenv
from tests.conftest import ORDER_POLICY, ORDER_TOOLS, SPECS_DIR
from tests.corpus import corpus_specs
from whileai_env.analysis import probe_reward
from whileai_env.analysis.probes import PROBES, _play
from whileai_env.scenarios.draw import draw_tasks, is_restraint

EXAMPLES = [
    "airline.yaml",
    "order-support.json",
    "bank-support.json",
    "coding-agent.json",
    "helpdesk",
]
N = 60


@functools.cache
def report(path: str, n: int = N):
    return probe_reward(path, n=n, seed=1)


def _loadable_corpus() -> list[str]:
    out = []
    for path in corpus_specs():
        try:
            wenv.load_spec(path)
        except wenv.WhileaiError:
            continue
        out.append(str(path))
    return out


@pytest.mark.parametrize("name", EXAMPLES)
def test_no_probe_beats_the_share_where_it_is_right_on_an_example_spec(name):
    result = report(str(SPECS_DIR / name))
    assert not result.flagged, result.format()
    assert result.oracle_pass_rate == 1.0, result.format()


@pytest.mark.parametrize("probe", list(PROBES))
def test_each_probe_on_the_order_spec(probe):
    """One probe at a time: never-right behaviours pass nothing; blanket acts no more than their share."""
    row = next(r for r in report(str(SPECS_DIR / "order-support.json")).table if r.name == probe)
    assert row.graded == N
    assert row.pass_rate <= row.right_share
    if not row.right_share:
        assert row.pass_rate == 0.0 and row.mean_reward < 0.5


def test_swapped_details_earn_nothing_where_the_oracle_would_write_them():
    """The right tool on the right record with other values than the person stated (a user's
    phone spec paid that on 147 of 147 tasks) passes only where no details are written."""
    spec = wenv.load_spec(SPECS_DIR / "order-support.json")
    probe = PROBES["invented_details"]
    for task in draw_tasks(spec, 40, seed=2, fault_rate=0.0):
        player = probe(spec)
        row = _play(spec, task, player)
        if player.swapped and task.world.state not in ("missing", "already_done"):
            assert wenv.task_checklist(row)["reward"] == 0.0, row["messages"]


def test_the_foreign_corpus_pays_no_trivial_policy():
    paths = _loadable_corpus()[::4]
    assert paths, "no corpus spec loads"
    flagged = {}
    for path in paths:
        result = probe_reward(
            path,
            n=30,
            seed=2,
            policies=[
                "unrelated_text",
                "blanket_refusal",
                "echo_user",
                "claim_without_acting",
                "placeholder_target",
            ],
        )
        if result.flagged:
            flagged[path] = result.format()
    assert not flagged, "\n\n".join(flagged.values())


def test_the_report_prints_every_probe_the_oracle_and_the_shares():
    result = report(str(SPECS_DIR / "order-support.json"))
    text = result.format()
    for name in PROBES:
        assert name in text
    assert "oracle" in text and "right outcome is not to act" in text
    data = json.loads(json.dumps(result.to_dict()))
    assert {row["name"] for row in data["table"]} == set(PROBES)
    assert sum(data["act_shares"].values()) > 0


def test_a_judge_that_pays_everything_is_flagged():
    result = probe_reward(
        str(SPECS_DIR / "order-support.json"),
        n=20,
        judge=lambda row: 1.0,
        policies=["unrelated_text", "blanket_refusal"],
    )
    assert result.flagged == ["unrelated_text", "blanket_refusal"]
    assert result.judge == "<lambda>"
    assert "!" in result.format()


def test_unknown_probes_and_bad_sizes_are_refused():
    with pytest.raises(ValueError, match="unknown probe 'poem'"):
        probe_reward(str(SPECS_DIR / "order-support.json"), policies=["poem"], n=5)
    with pytest.raises(ValueError, match="n must be at least 1"):
        probe_reward(str(SPECS_DIR / "order-support.json"), n=0)


@pytest.mark.parametrize("share", [0.0, 0.3, 1.0])
def test_the_restraint_share_knob_sets_the_draw(share):
    spec = wenv.load_spec(tools=ORDER_TOOLS, system_prompt=ORDER_POLICY)
    tasks = draw_tasks(spec, 200, seed=4, restraint_share=share)
    drawn = sum(is_restraint(t.cell, spec) for t in tasks) / len(tasks)
    assert abs(drawn - share) < 0.08, drawn
    result = probe_reward(spec, n=40, seed=4, restraint_share=share, policies=["blanket_refusal"])
    restraint = sum(result.act_shares[a] for a in ("handoff", "redirect", "decline"))
    assert abs(restraint - share) < 0.15, result.format()
    assert not result.flagged


def test_the_knob_off_keeps_the_draw_and_out_of_range_is_refused():
    spec = wenv.load_spec(tools=ORDER_TOOLS, system_prompt=ORDER_POLICY)
    assert [t.task_id for t in draw_tasks(spec, 20, seed=5)] == [
        t.task_id for t in draw_tasks(spec, 20, seed=5, restraint_share=None)
    ]
    with pytest.raises(ValueError, match="restraint_share"):
        draw_tasks(spec, 5, restraint_share=1.5)


def test_probe_reward_is_public_and_deterministic():
    assert wenv.probe_reward is probe_reward
    one = probe_reward(str(SPECS_DIR / "order-support.json"), n=15, seed=3, policies=["echo_user"])
    two = probe_reward(str(SPECS_DIR / "order-support.json"), n=15, seed=3, policies=["echo_user"])
    assert one.to_dict() == two.to_dict()
