"""Shared fixtures: small inline specs so unit tests do not depend on example files."""

from __future__ import annotations

from pathlib import Path

import pytest

import whileai_env as wenv

ROOT = Path(__file__).resolve().parent.parent
SPECS_DIR = ROOT / "configs" / "specs"

ORDER_TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_order",
            "description": "Look up an order by id.",
            "parameters": {
                "type": "object",
                "properties": {"order_id": {"type": "string"}},
                "required": ["order_id"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "list_orders",
            "description": "List a customer's orders.",
            "parameters": {
                "type": "object",
                "properties": {"customer_email": {"type": "string"}},
                "required": ["customer_email"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "cancel_order",
            "description": "Cancel an order.",
            "parameters": {
                "type": "object",
                "properties": {"order_id": {"type": "string"}, "reason": {"type": "string"}},
                "required": ["order_id", "reason"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "issue_refund",
            "description": "Refund an order.",
            "parameters": {
                "type": "object",
                "properties": {
                    "order_id": {"type": "string"},
                    "amount": {"type": "number", "minimum": 0},
                },
                "required": ["order_id", "amount"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "delete_address",
            "description": "Remove a saved address.",
            "parameters": {
                "type": "object",
                "properties": {"address_id": {"type": "string"}},
                "required": ["address_id"],
            },
        },
    },
]
ORDER_POLICY = """You are the support agent for a small online shop.

Rules:
- Always look up an order before changing it.
- Never refund more than the order total.
- Do not cancel an order that has already shipped.
"""


@pytest.fixture
def order_spec() -> wenv.Spec:
    return wenv.load_spec(tools=ORDER_TOOLS, system_prompt=ORDER_POLICY, name="orders")
