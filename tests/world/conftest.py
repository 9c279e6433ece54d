"""Shared helpers for the world tests: the example specs (globbed at test time) and tasks in a
chosen world state."""

from __future__ import annotations

from pathlib import Path

import pytest

import whileai_env as wenv
from whileai_env.scenarios.grid import build_grid

ROOT = Path(__file__).resolve().parents[2]
SPECS_DIR = ROOT / "configs" / "specs"

ORDER_TOOLS = [
    {
        "name": "get_order",
        "description": "Look up an order: status (processing, shipped, delivered, cancelled).",
        "parameters": {
            "type": "object",
            "properties": {"order_id": {"type": "string", "description": "e.g. 48213"}},
            "required": ["order_id"],
        },
    },
    {
        "name": "list_orders",
        "description": "List a customer's orders.",
        "parameters": {
            "type": "object",
            "properties": {
                "customer_email": {"type": "string", "format": "email"},
                "status": {"type": "string", "enum": ["processing", "shipped"]},
                "limit": {"type": "integer", "minimum": 1, "maximum": 50},
            },
            "required": ["customer_email"],
        },
    },
    {
        "name": "cancel_order",
        "description": "Cancel an order.",
        "parameters": {
            "type": "object",
            "properties": {"order_id": {"type": "string"}, "reason": {"type": "string"}},
            "required": ["order_id", "reason"],
        },
    },
    {
        "name": "refund_order",
        "description": "Refund an order.",
        "parameters": {
            "type": "object",
            "properties": {
                "order_id": {"type": "string"},
                "amount": {"type": "number", "exclusiveMinimum": 0, "maximum": 5000},
            },
            "required": ["order_id", "amount"],
        },
    },
    {
        "name": "update_order",
        "description": "Change an order's status or note.",
        "parameters": {
            "type": "object",
            "properties": {
                "order_id": {"type": "string"},
                "status": {"type": "string"},
                "note": {"type": "string"},
            },
            "required": ["order_id"],
        },
    },
    {
        "name": "create_order",
        "description": "Place a new order for a customer.",
        "parameters": {
            "type": "object",
            "properties": {
                "customer_email": {"type": "string", "format": "email"},
                "note": {"type": "string"},
            },
            "required": ["customer_email"],
        },
    },
    {
        "name": "delete_order",
        "description": "Delete a draft order.",
        "parameters": {
            "type": "object",
            "properties": {"order_id": {"type": "string"}},
            "required": ["order_id"],
        },
    },
    {
        "name": "calculate",
        "description": "Evaluate arithmetic.",
        "parameters": {
            "type": "object",
            "properties": {"expression": {"type": "string"}},
            "required": ["expression"],
        },
    },
]


def example_spec_paths() -> list[Path]:
    """Every example spec there is right now: JSON/YAML files and spec folders."""
    if not SPECS_DIR.is_dir():
        return []
    found = []
    for path in sorted(SPECS_DIR.iterdir()):
        folder = path.is_dir() and any(
            (path / name).exists() for name in ("spec.json", "spec.yaml", "spec.yml")
        )
        if folder or path.suffix in (".json", ".yaml", ".yml"):
            found.append(path)
    return found


def load_examples() -> dict[str, wenv.Spec]:
    return {path.name: wenv.load_spec(path) for path in example_spec_paths()}


@pytest.fixture(scope="session")
def order_tools_spec() -> wenv.Spec:
    return wenv.load_spec(
        tools=ORDER_TOOLS, system_prompt="You are support. Never refund twice.", name="orders"
    )


def task_in_state(
    spec: wenv.Spec, state: str, tool: str, *, condition: str = "success"
) -> wenv.Task:
    """A task of ``spec`` whose world state is ``state`` and whose target is ``tool`` (no faults)."""
    for cell in build_grid(spec).cells:
        if (
            cell.world_state == state
            and cell.tool == tool
            and cell.ask != "vague"
            and cell.condition == condition
        ):
            return wenv.make_task(cell, spec, fault_rate=1.0 if condition != "success" else 0.0)
    for cell in build_grid(spec).cells:
        if cell.tool == tool and cell.ask != "vague":
            cell = wenv.Cell.from_coordinates(
                {**cell.coordinates(), "world_state": state, "condition": condition}
            )
            return wenv.make_task(cell, spec, fault_rate=1.0 if condition != "success" else 0.0)
    raise LookupError(f"no cell for {tool} in {spec.name}")
