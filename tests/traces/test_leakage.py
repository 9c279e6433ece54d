"""The leakage rule: no generated ask near-copies a source trace."""

from __future__ import annotations

import numpy as np
import pytest

from whileai_env.simulation.run import simulate
from whileai_env.traces.leakage import LeakIndex, drop_leaky_rows, leakage_report
from whileai_env.traces.split import split_pseudo_production

TOOLS = [
    {
        "name": "get_order",
        "parameters": {
            "type": "object",
            "properties": {"order_id": {"type": "string"}},
            "required": ["order_id"],
        },
    },
    {
        "name": "cancel_order",
        "parameters": {
            "type": "object",
            "properties": {"order_id": {"type": "string"}},
            "required": ["order_id"],
        },
    },
]


def test_exact_matches_flag_whatever_the_embedder_says():
    never_similar = lambda text: np.eye(8)[len(text) % 8]  # noqa: E731
    report = leakage_report(
        ["Where is my ORDER 4412?!"],
        [{"prompt": "where is my order 4412"}],
        embedder=never_similar,
        threshold=1.0,
    )
    assert report["n_leaky"] == 1 and report["leaky"][0]["exact"] is True


def test_near_copies_flag_at_the_threshold_and_distinct_asks_do_not():
    source = "Could you please check the delivery status of order 4412 placed last Tuesday"
    near = "Could you please check the delivery status of order 4412 placed last Tuesday morning"
    other = "Cancel my subscription and refund the last invoice"
    report = leakage_report([near, other], [source])
    assert report["n_leaky"] == 1 and report["leaky"][0]["index"] == 0
    assert report["leaky"][0]["similarity"] >= 0.9 and not report["leaky"][0]["exact"]
    assert leakage_report([near], [source], threshold=0.999)["n_leaky"] == 0


def test_drop_leaky_rows_removes_and_reports():
    rows = [{"prompt": "a b c d"}, {"prompt": "something else entirely"}]
    kept, report = drop_leaky_rows(rows, [{"prompt": "A B C D"}], examples=0)
    assert kept == [rows[1]] and report["n_leaky"] == 1 and report["leaky"] == []


def test_bad_threshold_and_embedder_are_refused():
    with pytest.raises(ValueError, match="threshold"):
        LeakIndex([], threshold=0)
    with pytest.raises(TypeError, match="embedder"):
        LeakIndex([], embedder="bert")


def test_simulate_with_traces_generates_no_leaky_row():
    """Traces held out of a run of the same spec and seed: without the gate the next run would
    draw the very same asks again."""
    run = simulate("seeded", tools=TOOLS, budget=60, quiet=True, seed=5)
    prod, _train = split_pseudo_production(run.rows, fraction=0.3)
    again = simulate("seeded", tools=TOOLS, budget=60, quiet=True, seed=5)
    assert leakage_report(again.rows, prod)["n_leaky"] > 0
    aimed = simulate("seeded", tools=TOOLS, budget=60, quiet=True, seed=5, traces=prod)
    print(
        "leaky before the gate:",
        leakage_report(again.rows, prod)["n_leaky"],
        "after:",
        leakage_report(aimed.rows, prod)["n_leaky"],
        "tasks dropped:",
        aimed.search["traces"]["leaky_tasks_dropped"],
    )
    assert len(aimed.rows) == 60
    assert leakage_report(aimed.rows, prod)["n_leaky"] == 0
    assert aimed.search["traces"]["leaky_tasks_dropped"] > 0
