from itertools import combinations

import whileai_env as wenv
from tests.conftest import ORDER_POLICY, ORDER_TOOLS
from whileai_env.scenarios import axes as ax


def _ids_by_rule(grid):
    out = {}
    for cell in grid:
        out.setdefault(cell.rule, set()).add(cell.scenario_id)
    return out


def test_base_block_covers_every_pair(order_spec):
    grid = wenv.build_grid(order_spec)
    base = [c for c in grid if c.rule == ax.NO_RULE]
    names = [
        "tool",
        "world_state",
        "condition",
        "history",
        "stance",
        "ask",
        "persona",
        "tone",
        "texture",
    ]
    for a, b in combinations(names, 2):
        seen = {(getattr(c, a), getattr(c, b)) for c in base}
        expected = {(x, y) for x in grid.axes[a] for y in grid.axes[b]}
        assert seen == expected, (a, b)


def test_each_clause_owns_a_block(order_spec):
    grid = wenv.build_grid(order_spec)
    by_rule = _ids_by_rule(grid)
    assert set(by_rule) == {ax.NO_RULE, *(c.id for c in order_spec.clauses)}
    for clause in order_spec.clauses:
        cells = [c for c in grid if c.rule == clause.id]
        assert {c.stance for c in cells} == set(ax.RULE_STANCES)
        assert {c.tool for c in cells} == {*order_spec.tool_names, ax.MULTI_TOOL}


def test_editing_one_clause_changes_only_its_cells(order_spec):
    before = _ids_by_rule(wenv.build_grid(order_spec))
    edited_prompt = ORDER_POLICY.replace(
        "Never refund more than the order total.", "Never refund more than 80% of the total."
    )
    edited = wenv.load_spec(tools=ORDER_TOOLS, system_prompt=edited_prompt)
    after = _ids_by_rule(wenv.build_grid(edited))
    old_id = next(c.id for c in order_spec.clauses if "refund" in c.text)
    new_id = next(c.id for c in edited.clauses if "refund" in c.text)
    assert old_id != new_id
    for rule, ids in before.items():
        if rule == old_id:
            assert not ids & set().union(*after.values())
        else:
            assert after[rule] == ids
    assert after.get(new_id)


def test_adding_and_removing_a_clause_keeps_other_ids(order_spec):
    before = _ids_by_rule(wenv.build_grid(order_spec))
    added = wenv.load_spec(
        tools=ORDER_TOOLS, system_prompt=ORDER_POLICY + "- Always confirm before cancelling.\n"
    )
    after_add = _ids_by_rule(wenv.build_grid(added))
    assert all(after_add[r] == ids for r, ids in before.items())
    assert len(after_add) == len(before) + 1
    removed = wenv.load_spec(
        tools=ORDER_TOOLS,
        system_prompt=ORDER_POLICY.replace(
            "- Do not cancel an order that has already shipped.\n", ""
        ),
    )
    after_remove = _ids_by_rule(wenv.build_grid(removed))
    assert len(after_remove) == len(before) - 1
    assert all(before[r] == ids for r, ids in after_remove.items())


def test_scenario_id_is_a_hash_of_coordinates(order_spec):
    grid = wenv.build_grid(order_spec)
    cell = grid.cells[3]
    again = wenv.Cell.from_coordinates(cell.coordinates())
    assert again.scenario_id == cell.scenario_id and grid.cell(cell.scenario_id) == cell
    assert len({c.scenario_id for c in grid}) == len(grid)


def test_coverage_and_summary(order_spec):
    grid = wenv.build_grid(order_spec)
    assert grid.coverage(grid.cells) == {k: 1.0 for k in grid.axes}
    partial = grid.coverage(grid.cells[:1])
    assert partial["stance"] == 1 / len(ax.STANCES)
    summary = grid.summary()
    assert (
        summary["cells"]
        == len(grid)
        == summary["base_cells"] + sum(summary["clause_cells"].values())
    )


def test_single_tool_spec_has_no_multi_tool():
    grid = wenv.build_grid(wenv.load_spec(tools=[ORDER_TOOLS[0]]))
    assert ax.MULTI_TOOL not in {c.tool for c in grid}
    assert {c.tool for c in grid} == {"get_order", ax.UNRELATED}
