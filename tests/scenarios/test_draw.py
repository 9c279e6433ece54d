import json
import os
import subprocess
import sys
from collections import Counter

import pytest

import whileai_env as wenv
from tests.conftest import ROOT, SPECS_DIR
from whileai_env.scenarios import axes as ax

DRAW_SCRIPT = """
import json, sys
import whileai_env as wenv
sys.path.insert(0, {root!r})
from tests.conftest import ORDER_TOOLS, ORDER_POLICY
spec = wenv.load_spec(tools=ORDER_TOOLS, system_prompt=ORDER_POLICY)
tasks = wenv.draw_tasks(spec, 60, mode="sft", seed=7)
print(json.dumps([t.to_dict() for t in tasks], sort_keys=True))
"""


def test_draws_are_identical_across_processes_and_hash_seeds():
    outputs = []
    for hash_seed in ("1", "4242"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        proc = subprocess.run(
            [sys.executable, "-c", DRAW_SCRIPT.format(root=str(ROOT))],
            capture_output=True,
            text=True,
            env=env,
            check=True,
        )
        outputs.append(proc.stdout)
    assert outputs[0] == outputs[1]
    assert len(json.loads(outputs[0])) == 180


def test_same_seed_same_tasks_other_seed_other_tasks(order_spec):
    a = wenv.draw_tasks(order_spec, 30, seed=1)
    b = wenv.draw_tasks(order_spec, 30, seed=1)
    c = wenv.draw_tasks(order_spec, 30, seed=2)
    assert [t.to_dict() for t in a] == [t.to_dict() for t in b]
    assert [t.opener for t in a] != [t.opener for t in c]


@pytest.mark.parametrize(
    ("mode", "n", "k"), [("explore", 1, 1), ("sft", 3, 2), ("rl", 1, 8), ("adaptive", 2, 2)]
)
def test_mode_topology(order_spec, mode, n, k):
    tasks = wenv.draw_tasks(order_spec, 10, mode=mode, seed=0)
    assert len(tasks) == 10 * n
    assert all(t.repeats == k for t in tasks)
    by_situation = Counter((t.scenario_id, t.situation) for t in tasks)
    assert set(by_situation.values()) == {n}
    if n > 1:
        first = tasks[:n]
        assert len({t.opener for t in first}) == n
        assert len({t.task_id for t in first}) == n
        assert len({json.dumps(t.world.to_dict(), sort_keys=True) for t in first}) == 1


def test_explicit_phrasings_and_repeats(order_spec):
    tasks = wenv.draw_tasks(order_spec, 4, mode="rl", phrasings=2, repeats=3)
    assert len(tasks) == 8 and {t.repeats for t in tasks} == {3}
    with pytest.raises(ValueError, match="unknown mode 'fast'"):
        wenv.draw_tasks(order_spec, 4, mode="fast")
    with pytest.raises(ValueError, match="at least 1"):
        wenv.draw_tasks(order_spec, 4, repeats=0)
    with pytest.raises(ValueError, match="fault_rate"):
        wenv.draw_tasks(order_spec, 4, fault_rate=1.5)


def test_fault_rate_controls_schedules(order_spec):
    none = wenv.draw_tasks(order_spec, 80, fault_rate=0.0)
    assert all(t.faults is None for t in none)
    every = wenv.draw_tasks(order_spec, 80, fault_rate=1.0)
    faulted = [t for t in every if t.cell.condition != "success"]
    assert faulted and all(t.faults and t.faults.rules[0].kind == t.cell.condition for t in faulted)
    assert all(t.faults is None for t in every if t.cell.condition == "success")
    half = wenv.draw_tasks(order_spec, 200, fault_rate=0.5)
    faulted = [t for t in half if t.cell.condition != "success"]
    kept = sum(t.faults is not None for t in faulted) / len(faulted)
    assert 0.3 < kept < 0.7


def test_hard_share_and_coverage(order_spec):
    grid = wenv.build_grid(order_spec)
    tasks = wenv.draw_tasks(order_spec, 400, seed=3, grid=grid)
    hard = sum(t.cell.hard for t in tasks) / len(tasks)
    assert 0.3 < hard < 0.5
    coverage = grid.coverage(t.cell for t in tasks)
    assert min(coverage.values()) == 1.0
    tools = Counter(t.cell.tool for t in tasks)
    assert set(tools) == {*order_spec.tool_names, ax.UNRELATED, ax.MULTI_TOOL}
    assert max(tools.values()) < 0.4 * len(tasks)


def test_task_round_trip(order_spec):
    for task in wenv.draw_tasks(order_spec, 40, seed=5, fault_rate=1.0):
        again = wenv.Task.from_dict(json.loads(json.dumps(task.to_dict())))
        assert again == task
        assert "privileged" not in task.public_dict()
    with pytest.raises(ValueError, match="lacks the field 'prompt'"):
        wenv.Task.from_dict({k: v for k, v in task.to_dict().items() if k != "prompt"})


def test_task_carries_plan_and_privileged_block(order_spec):
    tasks = wenv.draw_tasks(order_spec, 200, seed=11)
    for task in tasks:
        assert task.privileged.reference
        expected_state = task.cell.world_state if task.world.entities else "exists"
        assert task.world.state == expected_state
        assert task.privileged.hidden_state["world_state"] == expected_state
        if task.cell.tool == ax.UNRELATED:
            assert task.world.targets == ()
        elif task.cell.tool == ax.MULTI_TOOL:
            assert len(task.world.targets) == 2
        else:
            assert task.world.targets == (task.cell.tool,)
        if task.cell.ask == "vague" and task.world.entities:
            withheld = task.privileged.hidden_state["withheld"]
            assert withheld and all(str(v) not in task.opener for v in withheld.values())
        if task.cell.rule != ax.NO_RULE:
            assert task.privileged.principle in [c.text for c in order_spec.clauses]


def test_openers_name_their_entities(order_spec):
    for task in wenv.draw_tasks(order_spec, 200, seed=2):
        if task.cell.ask == "vague" or not task.world.targets:
            continue
        for value in task.world.entities.values():
            assert str(value) in task.opener, (task.cell.texture, task.opener)


def _plan_arguments(task: wenv.Task, tool: wenv.Tool) -> dict:
    """What the plan tells an agent to send ``tool``: its entities and the stated details."""
    plan = task.world
    args = {name: value for name, value in plan.entities.items() if name in tool.properties}
    args.update(plan.details.get(tool.name, {}))
    return args


@pytest.mark.parametrize("state", ax.WORLD_STATES)
def test_a_plan_states_a_valid_set_of_arguments_for_every_tool_of_every_example_spec(state):
    """``required``, an ``anyOf``/``oneOf`` branch of required names and ``dependentRequired``:
    the planned arguments validate against the tool's JSON Schema (``assign_ticket`` needs
    ``assignee_email`` or ``queue`` besides ``ticket_id``)."""
    import jsonschema

    from whileai_env.world.validation import FORMAT_CHECKER

    invalid = []
    for path in sorted(SPECS_DIR.iterdir()):
        spec = wenv.load_spec(path)
        for tool in spec.tools:
            cls = jsonschema.validators.validator_for(
                tool.parameters, default=jsonschema.Draft202012Validator
            )
            validator = cls(tool.parameters, format_checker=FORMAT_CHECKER)
            for seed in range(3):
                cell = wenv.Cell(
                    tool=tool.name,
                    rule="none",
                    world_state=state,
                    condition="success",
                    history="fresh",
                    stance="ordinary",
                    ask="tool",
                    persona="returning",
                    tone="neutral",
                    texture="standard",
                )
                task = wenv.make_task(cell, spec, seed=seed, fault_rate=0.0)
                args = _plan_arguments(task, tool)
                errors = [e.message for e in validator.iter_errors(args)]
                if errors:
                    invalid.append(f"{path.name} {tool.name} {args}: {errors[0]}")
    assert not invalid, "\n".join(invalid)


def test_a_plan_picks_the_anyof_branch_that_names_no_second_entity():
    spec = wenv.load_spec(SPECS_DIR / "helpdesk")
    cell = wenv.Cell(
        tool="assign_ticket",
        rule="none",
        world_state="exists",
        condition="success",
        history="fresh",
        stance="ordinary",
        ask="tool",
        persona="returning",
        tone="neutral",
        texture="standard",
    )
    task = wenv.make_task(cell, spec, seed=1, fault_rate=0.0)
    assert set(task.world.entities) == {"ticket_id"}
    queue = task.world.details["assign_ticket"]["queue"]
    assert queue in spec.tool("assign_ticket").properties["queue"]["enum"]
    assert queue.replace("_", " ") in task.opener
    world = wenv.World(spec, task)
    assert (
        world.call("assign_ticket", _plan_arguments(task, spec.tool("assign_ticket")))["status"]
        == "ok"
    )


def test_required_sets_read_every_requirement_keyword():
    from whileai_env.spec.arguments import required_sets

    assert required_sets({"required": ["a"]}) == [("a",)]
    assert required_sets({}) == [()]
    assert required_sets(
        {"required": ["id"], "oneOf": [{"required": ["x"]}, {"required": ["y", "z"]}]}
    ) == [("id", "x"), ("id", "y", "z")]
    assert required_sets(
        {"allOf": [{"required": ["a"]}, {"anyOf": [{"required": ["b"]}, {"required": ["c"]}]}]}
    ) == [("a", "b"), ("a", "c")]
    assert required_sets(
        {"required": ["card"], "dependentRequired": {"card": ["cvv"], "cvv": ["expiry"]}}
    ) == [("card", "cvv", "expiry")]
    assert required_sets(
        {"required": ["a"], "dependencies": {"a": ["b"], "c": {"required": ["d"]}}}
    ) == [("a", "b")]
    assert required_sets({"anyOf": [{"type": "object"}, {"required": ["q"]}]}) == [(), ("q",)]


def test_a_plan_satisfies_dependent_required_fields():
    spec = wenv.load_spec(
        tools=[
            {
                "name": "charge_card",
                "parameters": {
                    "type": "object",
                    "required": ["card_id", "amount"],
                    "properties": {
                        "card_id": {"type": "string"},
                        "amount": {"type": "number"},
                        "currency": {"type": "string"},
                        "receipt_email": {"type": "string", "format": "email"},
                    },
                    "dependentRequired": {"amount": ["currency"]},
                },
            }
        ]
    )
    cell = wenv.Cell(
        tool="charge_card",
        rule="none",
        world_state="exists",
        condition="success",
        history="fresh",
        stance="ordinary",
        ask="tool",
        persona="returning",
        tone="neutral",
        texture="standard",
    )
    task = wenv.make_task(cell, spec, seed=0, fault_rate=0.0)
    assert set(task.world.details["charge_card"]) == {"amount", "currency"}


LONG_DRAW_SCRIPT = """
import json, sys
import whileai_env as wenv
corpus = json.load(open({path!r}))
tools = [t for t in corpus["tools"] if t["function"]["name"] == "list_all_airports"]
spec = wenv.load_spec(tools=tools, system_prompt=corpus["system_prompt"])
tasks = wenv.draw_tasks(spec, 3000)
owner = {{}}
shared = sum(owner.setdefault(t.opener, t.scenario_id) != t.scenario_id for t in tasks)
print(json.dumps([len(tasks), len({{t.scenario_id for t in tasks}}), shared]))
"""


def test_a_long_draw_on_cells_with_few_wordings_ends_and_shares_no_opener():
    """tau2-airline's argument-free ``list_all_airports`` under its 77-clause policy: 2,392 cells,
    most asked in a handful of wordings. Once the others own every wording a cell has, the cell
    is spent and drawn no more (the draw used to try phrasings without end before the 3,000th
    situation)."""
    script = LONG_DRAW_SCRIPT.format(path=str(ROOT / "tests" / "corpus" / "tau2-airline.json"))
    proc = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True
    )
    drawn, cells, shared = json.loads(proc.stdout)
    assert drawn == 3000 and shared == 0
    assert 500 < cells < 2392


def _airports_spec():
    tools = [{"name": "list_all_airports", "parameters": {"type": "object", "properties": {}}}]
    return wenv.load_spec(tools=tools, system_prompt="You help travellers. Be brief.")


def test_a_cell_whose_wordings_all_belong_to_others_is_spent():
    from whileai_env._util.hashing import stable_hash
    from whileai_env.scenarios.draw import STALE_PHRASINGS, _worded, make_task
    from whileai_env.scenarios.grid import build_grid
    from whileai_env.scenarios.task import topology

    spec = _airports_spec()
    # a vague ask, tersely: a handful of wordings, which is what makes a cell run out
    cell = next(c for c in build_grid(spec).cells if c.tone == "terse" and c.ask == "vague")
    first = make_task(cell, spec)
    wordings = {make_task(cell, spec, phrasing=p).opener for p in range(4 * STALE_PHRASINGS)}
    assert 1 < len(wordings) < STALE_PHRASINGS
    owner = {stable_hash(w): "another-cell" for w in wordings}
    before = dict(owner)
    assert _worded(first, spec, topology("sft"), 0.5, owner) is None
    assert owner == before

    free = sorted(wordings)[0]
    del owner[stable_hash(free)]
    situation = _worded(first, spec, topology("sft"), 0.5, owner)
    assert situation is not None and {t.opener for t in situation} == {free}  # its own, reused
    assert owner[stable_hash(free)] == cell.scenario_id


def test_a_value_weighted_zero_is_never_drawn_and_all_zero_draws_nothing(order_spec):
    from whileai_env.scenarios.grid import build_grid

    stances = sorted({c.stance for c in build_grid(order_spec).cells})
    others = {s: 0 for s in stances if s != "ordinary"}
    tasks = wenv.draw_tasks(order_spec, 200, weights={"stance": others})
    assert len(tasks) == 200 and {t.cell.stance for t in tasks} == {"ordinary"}
    # every hard cell weighted 0 too: the draw falls back on the easy ones
    hard_asks = {a: 0 for a in ("vague",)}
    tasks = wenv.draw_tasks(order_spec, 100, weights={"stance": others, "ask": hard_asks})
    assert len(tasks) == 100 and all(t.cell.ask != "vague" for t in tasks)
    assert wenv.draw_tasks(order_spec, 50, weights={"stance": dict.fromkeys(stances, 0)}) == []


@pytest.mark.parametrize("axes", [1, 2, 7, 8, 9, 10, 15, 16, 17, 40, 128, 129, 300])
def test_row_sums_are_numpys_row_sums_bit_for_bit(axes):
    # the draw's weights add a cell's per-axis novelties a row of the grid at a time; a last-bit
    # difference from numpy's own sum would move a pick the odd time, so the draw would change
    import numpy as np

    from whileai_env.scenarios.draw import _row_sums

    rng = np.random.default_rng(axes)
    cells = rng.random((2000, axes)) * rng.choice([1e-3, 1.0, 1e3], size=(2000, axes))
    assert np.array_equal(_row_sums(np.ascontiguousarray(cells.T)), cells.sum(axis=1))


def test_tasks_from_rows_names_an_item_that_is_neither_a_task_nor_a_row():
    from whileai_env.errors import RowError
    from whileai_env.scenarios.draw import tasks_from_rows

    spec = wenv.load_spec(tools=[{"name": "get_order", "parameters": {"properties": {}}}])
    task = wenv.draw_tasks(spec, 1, seed=0)[0]
    with pytest.raises(
        RowError, match=r"\$\[1\]: expected a Task or a row \(a dict\), got NoneType"
    ):
        tasks_from_rows([task, None], spec)
