"""Properties of the draw on generated specs: it always moves on, and no two cells share an
opener, however few wordings a cell has (argument-free tools, long policies)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import whileai_env as wenv
from whileai_env.scenarios.grid import build_grid

CLAUSES = (
    "Never cancel a booking without an explicit yes from the user.",
    "Always verify the user's identity before reading an account.",
    "Do not share another customer's data.",
    "Offer a refund only within 24 hours of purchase.",
    "Transfer to a human agent when the request is out of scope.",
    "Use the calculator for every total.",
    "Do not change an order once it has shipped.",
    "Confirm the details before any write.",
    "Keep replies under three sentences.",
    "Never guess an identifier; ask for it.",
)
PARAMETERS = {
    "none": {},
    "id": {"order_id": {"type": "string"}},
    "enum": {"status": {"type": "string", "enum": ["open", "closed"]}},
    "count": {"limit": {"type": "integer", "minimum": 1, "maximum": 50}},
}


@st.composite
def specs(draw: st.DrawFn) -> wenv.Spec:
    names = draw(
        st.lists(
            st.sampled_from(("list_airports", "get_order", "cancel_order", "search_items")),
            min_size=1,
            max_size=3,
            unique=True,
        )
    )
    tools = []
    for name in names:
        properties = PARAMETERS[draw(st.sampled_from(sorted(PARAMETERS)))]
        tools.append(
            {"name": name, "parameters": {"type": "object", "properties": dict(properties)}}
        )
    clauses = draw(st.lists(st.sampled_from(CLAUSES), max_size=len(CLAUSES), unique=True))
    policy = "You help customers.\n\nPolicy:\n" + "".join(f"- {c}\n" for c in clauses)
    return wenv.load_spec(tools=tools, system_prompt=policy)


@settings(
    max_examples=12,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(specs(), st.sampled_from(("explore", "sft")))
def test_a_long_draw_ends_or_goes_on_and_never_shares_an_opener(spec, mode):
    cells = len(build_grid(spec).cells)
    tasks = wenv.draw_tasks(spec, min(2 * cells, 600), mode=mode)
    owner: dict[str, str] = {}
    for task in tasks:
        assert owner.setdefault(task.opener, task.scenario_id) == task.scenario_id
    assert tasks and len({t.task_id for t in tasks}) == len(tasks)
