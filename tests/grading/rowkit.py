"""Build rows by hand for reward tests: a conversation builder that writes messages and ledger together."""

from __future__ import annotations

import json
from typing import Any

SYSTEM = (
    "You are the support agent for a small online shop.\n"
    "- Always look up an order before changing it.\n"
    "- Never refund more than the order total."
)
KINDS = {
    "get_order": "read",
    "list_orders": "read",
    "cancel_order": "update",
    "issue_refund": "update",
    "update_address": "update",
    "delete_address": "delete",
}
TOOLS = list(KINDS)
FAULT_ERRORS = {"timeout", "permission_denied", "rate_limited", "server_error"}


def ok(**payload: Any) -> dict[str, Any]:
    return {"status": "ok", **payload}


def err(code: str, message: str = "") -> dict[str, Any]:
    return {
        "status": "error",
        "error": {"code": code, "message": message or code.replace("_", " ")},
    }


class Convo:
    """A conversation: ``call`` adds an assistant tool call and its result, ``say`` an assistant
    reply, ``user`` a user turn; ``row()`` returns the schema-v1-shaped row."""

    def __init__(
        self,
        opener: str = "Hi, where is my order 4412?",
        *,
        tool: str = "get_order",
        state: str = "exists",
        targets: list[str] | None = None,
        stance: str = "ordinary",
        ask: str = "tool",
        history: str = "fresh",
        condition: str = "success",
        entities: dict | None = None,
        withheld: tuple[str, ...] = (),
        fault_plan: dict | None = None,
        privileged: dict | None = None,
        tools: list[str] | None = None,
        system: str = SYSTEM,
    ) -> None:
        self.messages: list[dict[str, Any]] = [
            {"role": "system", "content": system},
            {"role": "user", "content": opener},
        ]
        self.steps: list[dict[str, Any]] = []
        self.turn = 0
        if targets is None:
            targets = [] if tool == "unrelated" else [tool]
        self.dims = {
            "tool": tool,
            "rule": "none",
            "world_state": state,
            "condition": condition,
            "history": history,
            "stance": stance,
            "ask": ask,
            "persona": "returning",
            "tone": "neutral",
            "texture": "standard",
        }
        self.world = {
            "state": state,
            "targets": targets,
            "entities": {"order_id": "4412"} if entities is None else entities,
            "details": {},
            "withheld": list(withheld),
            "history": history,
            "clause": None,
            "required": {},
        }
        self.fault_plan = fault_plan
        self.privileged = privileged
        self.tools = TOOLS if tools is None else tools
        self.opener = opener

    def call(
        self,
        tool: str,
        args: dict[str, Any],
        result: dict[str, Any] | None = None,
        *,
        fault: str | None = None,
        mode: str | None = None,
        text: str = "",
        kind: str | None = None,
    ) -> Convo:
        result = ok(**args) if result is None else result
        error = result["error"]["code"] if result.get("status") == "error" else None
        if fault is None and error in FAULT_ERRORS:
            fault = error
        index = len(self.steps)
        call_id = f"call_{self.turn}_{index}"
        self.messages.append(
            {
                "role": "assistant",
                "content": text,
                "tool_calls": [
                    {
                        "id": call_id,
                        "type": "function",
                        "function": {"name": tool, "arguments": json.dumps(args)},
                    }
                ],
            }
        )
        self.messages.append(
            {
                "role": "tool",
                "tool_call_id": call_id,
                "name": tool,
                "content": json.dumps(result, ensure_ascii=False, default=str),
            }
        )
        self.steps.append(
            {
                "index": index,
                "tool": tool,
                "arguments": args,
                "result": result,
                "ok": result.get("status") == "ok" and fault is None,
                "error": error,
                "fault": fault,
                "fault_mode": mode if fault else None,
                "kind": kind or KINDS.get(tool),
                "turn": self.turn,
                "call_id": call_id,
            }
        )
        self.turn += 1
        return self

    def say(self, text: str) -> Convo:
        self.messages.append({"role": "assistant", "content": text})
        self.turn += 1
        return self

    def user(self, text: str) -> Convo:
        self.messages.append({"role": "user", "content": text})
        return self

    def row(self, final: str | None = None, **extra: Any) -> dict[str, Any]:
        if final is not None:
            self.say(final)
        last = next(
            (
                m["content"]
                for m in reversed(self.messages)
                if m["role"] == "assistant" and m["content"]
            ),
            "",
        )
        faults = [
            {"index": s["index"], "tool": s["tool"], "kind": s["fault"], "mode": s["fault_mode"]}
            for s in self.steps
            if s["fault"]
        ]
        row = {
            "schema_version": "1",
            "task_id": "t-test",
            "scenario_id": "sc-test",
            "scenario_dimensions": self.dims,
            "seed": 0,
            "situation": 0,
            "phrasing": 0,
            "repeats": 1,
            "prompt": self.opener,
            "world": self.world,
            "fault_plan": self.fault_plan,
            "messages": self.messages,
            "steps": self.steps,
            "final_text": last,
            "faults": faults,
            "world_state": self.world["state"],
            "rollout_index": 0,
            "truncated": False,
            "tools": self.tools,
            "reward": None,
            "reason": None,
            "markers": {},
            "judge_name": None,
            "judge_status": None,
            "judge_meta": None,
        }
        if self.privileged is not None:
            row["privileged"] = self.privileged
        row.update(extra)
        return row


def plan(
    kind: str, tool: str, mode: str = "persistent", times: int = 1, **params: Any
) -> dict[str, Any]:
    rule: dict[str, Any] = {"kind": kind, "tool": tool, "start": 0, "mode": mode}
    if mode == "transient":
        rule["times"] = times
    if params:
        rule["params"] = params
    return {"rules": [rule]}
