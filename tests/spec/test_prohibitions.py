"""Rules that forbid a write outright make its tasks ones to decline (a trial user's Shopify spec:
"Do not delete products or change inventory quantities at a shopper's request" was broken by the
oracle on every delete, at reward 1.0, and an agent that declined as the prompt said scored 0.06)."""

from __future__ import annotations

import pytest

import whileai_env as wenv
from whileai_env.simulation import simulate
from whileai_env.spec.prohibitions import forbidding_rule


def _tool(name: str) -> dict:
    body = {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}
    return {"name": name, "description": f"{name.replace('_', ' ')}.", "parameters": body}


TOOLS = [
    _tool(n)
    for n in (
        "get_product",
        "delete_product",
        "inventory_set_quantities",
        "cancel_order",
        "update_field",
    )
]


@pytest.mark.parametrize(
    ("rule", "forbidden"),
    [
        (
            "Do not delete products or change inventory quantities at a shopper's request.",
            {"delete_product", "inventory_set_quantities"},
        ),
        ("Never modify or delete products.", {"delete_product"}),
        ("Do not cancel an order that has shipped.", set()),
        ("Never cancel orders within 24 hours of delivery.", set()),
        ("Do not delete products without asking.", set()),
        ("Only managers may delete products.", set()),
        ("Do not change the Salary field.", set()),  # a field's value, not the update_field tool
        ("Never reveal another customer's orders.", set()),
        # a user's Gmail spec: how the act is done is every way of doing it
        ("Never delete products, one at a time or in batches; archive them.", {"delete_product"}),
    ],
)
def test_only_an_unconditional_rule_forbids_a_write(rule, forbidden):
    spec = wenv.load_spec(tools=TOOLS, system_prompt=f"You help a store.\n- {rule}")
    assert {t.name for t in spec.tools if forbidding_rule(spec, t.name)} == forbidden


def test_a_forbidden_write_is_declined_by_the_oracle_and_doing_it_scores_nothing():
    rule = "Do not delete products at a shopper's request."
    spec = wenv.load_spec(tools=TOOLS, system_prompt=f"You help a store.\n- {rule}")
    rows = simulate("oracle", spec=spec, budget=200, seed=1, quiet=True).grade().rows
    forbidden = [r for r in rows if r["world"].get("forbids") == rule]
    assert forbidden and all(r["reward"] == 1.0 for r in forbidden)
    assert not any(s["tool"] == "delete_product" and s["ok"] for r in forbidden for s in r["steps"])
    done = []
    for row in forbidden:
        ids = row["world"]["entities"]
        step = {
            "index": 0,
            "tool": "delete_product",
            "arguments": dict(ids),
            "result": {"status": "ok", "deleted": True},
            "ok": True,
            "error": None,
            "fault": None,
            "kind": "delete",
        }
        done.append(
            wenv.task_checklist(
                {**row, "steps": [step], "final_text": "I have deleted the product."}
            )
        )
    assert done and all(g["reward"] == 0.0 for g in done)
