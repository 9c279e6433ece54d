"""The grid's cells are built once per spec content; each grid keeps the spec it was given."""

import whileai_env as wenv

TOOLS = [{"name": "get_order"}, {"name": "cancel_order"}]


def test_equal_specs_share_cells_and_keep_their_own_spec():
    a = wenv.load_spec(tools=TOOLS, system_prompt="Never cancel a shipped order.")
    b = wenv.load_spec(tools=TOOLS, system_prompt="Never cancel a shipped order.")
    grid_a, grid_b = wenv.build_grid(a), wenv.build_grid(b)
    assert grid_a.cells is grid_b.cells
    assert grid_a.spec is a and grid_b.spec is b


def test_another_prompt_gets_its_own_cells():
    a = wenv.load_spec(tools=TOOLS, system_prompt="Never cancel a shipped order.")
    b = wenv.load_spec(tools=TOOLS, system_prompt="Always confirm before cancelling.")
    rules_a = {c.rule for c in wenv.build_grid(a).cells}
    rules_b = {c.rule for c in wenv.build_grid(b).cells}
    assert rules_a != rules_b and {b.clauses[0].id, "none"} == rules_b
