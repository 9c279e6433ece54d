"""split_pseudo_production: by task, every flaw signature held out."""

from __future__ import annotations

from whileai_env.simulation.run import simulate
from whileai_env.traces.split import flaw_signature, split_pseudo_production, task_key

TOOLS = [{"name": "get_order"}, {"name": "cancel_order"}, {"name": "refund_order"}]


def _run():
    return simulate(
        "seeded", tools=TOOLS, budget=80, mode="rl", repeats=4, quiet=True, fault_rate=0.8
    )


def test_split_is_by_task_and_holds_out_every_flaw_signature():
    rows = _run().rows
    held, train = split_pseudo_production(rows, fraction=0.2, seed=0)
    assert len(held) + len(train) == len(rows)
    assert not {task_key(r) for r in held} & {task_key(r) for r in train}
    signatures = {flaw_signature(r) for r in rows} - {None}
    assert len(signatures) > 1
    assert signatures <= {flaw_signature(r) for r in held}
    assert len(held) >= 0.2 * len(rows)


def test_split_is_deterministic_in_the_seed_and_keeps_input_order():
    rows = _run().rows
    first = split_pseudo_production(rows, seed=1)
    assert split_pseudo_production(rows, seed=1) == first
    positions = [rows.index(r) for r in first[0]]
    assert positions == sorted(positions)


def test_fraction_is_counted_in_rows_of_whole_tasks():
    rows = [{"task_id": f"t{i // 3}", "prompt": f"p{i // 3}"} for i in range(30)]
    held, _ = split_pseudo_production(rows, fraction=0.2)
    assert len(held) == 6
    assert split_pseudo_production(rows, fraction=0.0)[0] == []
