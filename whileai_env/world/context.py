"""One call as the result builders see it, and the result shapes they share (``docs/internals.md``)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from whileai_env._util.hashing import canonical_json
from whileai_env.world.options import WorldOptions
from whileai_env.world.profile import SpecProfile, ToolProfile
from whileai_env.world.records import RecordContext
from whileai_env.world.store import Store
from whileai_env.world.values import draw


@dataclass
class Call:
    """A validated call: the tool's profile, its arguments, and the world it acts on."""

    profile: ToolProfile
    args: dict[str, Any]
    index: int
    now: int
    key: str
    store: Store
    spec: SpecProfile
    ctx: RecordContext
    options: WorldOptions
    workspace: Any = None

    def rng(self, *parts: str) -> random.Random:
        """A private RNG for this tool and these arguments (same call, same draw)."""
        return draw(self.key, self.profile.name, canonical_json(self.args), *parts)

    def echo(self) -> dict[str, Any]:
        """The locator arguments, echoed back as a real API does."""
        return {a: self.args[a] for a in self.profile.locators if a in self.args}

    def present(self, arg: str | None) -> bool:
        return arg is not None and type(self.args.get(arg)) in (str, int)


def ok(payload: dict[str, Any] | None = None, /, **fields: Any) -> dict[str, Any]:
    """``{"status": "ok", ...}``; positional-only, so a record field named ``payload`` is a field."""
    out: dict[str, Any] = {"status": "ok"}
    if payload:
        out.update(payload)
    out.update(fields)
    return out


def error(code: str, message: str, /, **fields: Any) -> dict[str, Any]:
    """``{"status": "error", "error": {"code", "message", ...}}``."""
    return {"status": "error", "error": {"code": code, "message": message, **fields}}


def not_found(noun: str, value: Any, arg: str) -> dict[str, Any]:
    return error("not_found", f"{noun} {value} not found", field=arg, http_status=404)
