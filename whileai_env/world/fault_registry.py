"""Fault kinds: what a call looks like when the schedule fails it. A registry, so users can add kinds.

A kind is a *gateway* fault (``timeout``, ``permission_denied``, ``rate_limited``,
``server_error``): it fires before the arguments are even looked at, as a gateway, an auth
layer or a load balancer would, and the call does nothing. Or it is a *payload* fault
(``stale``, ``malformed``, ``truncated``): the call runs and the builder degrades its successful
result; on a call that failed anyway a payload fault does not fire. ``stale`` and ``truncated``
are degraded successes (a write behind them is applied); every other payload kind fails the call,
so on a write the world answers from a dry run and does not apply it (a failed call did nothing).

A builder is ``builder(tool, arguments, fresh, params, key) -> dict``: ``fresh`` is the result
the call would have had (``None`` for gateway kinds), ``params`` the rule's ``params`` over the
world's defaults (plus ``now``, the episode clock as ISO text, and ``now_epoch``), ``key`` a
string to seed any choice with :mod:`whileai_env._util.hashing`.

>>> from whileai_env.world.fault_registry import register_fault_kind, fault_kind
>>> register_fault_kind("maintenance", lambda tool, args, fresh, params, key: {"status": "error",
...     "error": {"code": "server_error", "message": "503 down for maintenance", "http_status": 503}})
>>> fault_kind("maintenance").needs_result
False
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from whileai_env._util.hashing import hex_id, pick, stable_hash
from whileai_env.spec.load import Tool
from whileai_env.world.context import error
from whileai_env.world.naming import slug
from whileai_env.world.profile import tool_noun
from whileai_env.world.values import iso

Builder = Callable[
    [Tool, dict[str, Any], "dict[str, Any] | None", Mapping[str, Any], str], dict[str, Any]
]


@dataclass(frozen=True)
class FaultKind:
    """A registered kind: its builder and its traits, which the world, the reward and the
    reference agents all read from here (no copied sets).

    ``needs_result``: a payload fault (gets the call's real result; fires only when it is ok);
    otherwise a gateway fault, whose error code is the kind's name. ``degraded``: the result is
    still usable (a write behind it is applied). ``retryable``: when the schedule makes it
    transient, retrying is the right move.
    """

    name: str
    builder: Builder
    needs_result: bool = False
    degraded: bool = False
    retryable: bool = False

    @property
    def gateway(self) -> bool:
        return not self.needs_result


_REGISTRY: dict[str, FaultKind] = {}


def register_fault_kind(
    name: str,
    builder: Builder,
    *,
    needs_result: bool = False,
    degraded: bool = False,
    retryable: bool = False,
    replace: bool = False,
) -> None:
    """Register fault kind ``name``. ``needs_result=True`` makes it a payload fault (it gets the
    call's real result and fires only when that result is ok); ``degraded`` and ``retryable``
    are its traits (see :class:`FaultKind`). Re-registering a name needs ``replace=True``."""
    if not isinstance(name, str) or not name:
        raise ValueError("a fault kind needs a non-empty name")
    if not callable(builder):
        raise TypeError(f"the builder of fault kind {name!r} must be callable")
    if name in _REGISTRY and not replace:
        raise ValueError(
            f"fault kind {name!r} is already registered; pass replace=True to override it"
        )
    _REGISTRY[name] = FaultKind(
        name=name,
        builder=builder,
        needs_result=needs_result,
        degraded=degraded,
        retryable=retryable,
    )


def fault_kind(name: str) -> FaultKind:
    """The registered kind ``name``; ``KeyError`` naming the known kinds otherwise."""
    found = _REGISTRY.get(name)
    if found is None:
        raise KeyError(f"unknown fault kind {name!r}; known kinds: {', '.join(sorted(_REGISTRY))}")
    return found


def fault_kinds() -> tuple[str, ...]:
    """The names of every registered kind."""
    return tuple(sorted(_REGISTRY))


def gateway_kinds() -> frozenset[str]:
    """Kinds that fail a call before it runs; their error code is their name."""
    return frozenset(k.name for k in _REGISTRY.values() if k.gateway)


def degraded_kinds() -> frozenset[str]:
    """Kinds whose result is still usable: a degraded success, not a failed call."""
    return frozenset(k.name for k in _REGISTRY.values() if k.degraded)


def retryable_kinds() -> frozenset[str]:
    """Kinds a retry can fix when the schedule makes them transient."""
    return frozenset(k.name for k in _REGISTRY.values() if k.retryable)


# -- gateway kinds -------------------------------------------------------------------------


def _timeout(
    tool: Tool,
    args: dict[str, Any],
    fresh: dict[str, Any] | None,
    params: Mapping[str, Any],
    key: str,
) -> dict[str, Any]:
    seconds = params.get("timeout_s", 30)
    return error(
        "timeout", f"upstream did not answer within {seconds}s", timeout_s=seconds, retryable=True
    )


def _permission_denied(
    tool: Tool,
    args: dict[str, Any],
    fresh: dict[str, Any] | None,
    params: Mapping[str, Any],
    key: str,
) -> dict[str, Any]:
    role = params.get("role", "support_agent")
    scope = (
        params.get("scope")
        or f"{slug(tool_noun(tool.name)[0])}s:{'write' if tool.is_write else 'read'}"
    )
    return error(
        "permission_denied",
        f"403 Forbidden: role '{role}' lacks the '{scope}' permission required by {tool.name}",
        http_status=403,
        required_scope=scope,
    )


def _rate_limited(
    tool: Tool,
    args: dict[str, Any],
    fresh: dict[str, Any] | None,
    params: Mapping[str, Any],
    key: str,
) -> dict[str, Any]:
    wait = params.get("retry_after", 5)
    limit = params.get("limit", 60)
    return error(
        "rate_limited",
        f"429 Too Many Requests: more than {limit} calls a minute; retry after {wait}s",
        http_status=429,
        retry_after=wait,
        limit=limit,
    )


_SERVER_MESSAGES = {
    500: "500 Internal Server Error: the service failed to handle the request",
    502: "502 Bad Gateway: the upstream service reset the connection",
    503: "503 Service Unavailable: the service is overloaded, try again later",
    504: "504 Gateway Timeout: the upstream service did not respond in time",
}


def _server_error(
    tool: Tool,
    args: dict[str, Any],
    fresh: dict[str, Any] | None,
    params: Mapping[str, Any],
    key: str,
) -> dict[str, Any]:
    status = params.get("http_status")
    if not isinstance(status, int):
        status = pick(tuple(params.get("http_statuses") or (500, 502, 503)), "server-status", key)
    message = _SERVER_MESSAGES.get(status, f"{status} Server Error")
    return error(
        "server_error",
        message,
        http_status=status,
        request_id="req_" + hex_id("request", key, length=16),
    )


# -- payload kinds -------------------------------------------------------------------------


def _stale(
    tool: Tool,
    args: dict[str, Any],
    fresh: dict[str, Any] | None,
    params: Mapping[str, Any],
    key: str,
) -> dict[str, Any]:
    out = dict(fresh or {"status": "ok"})
    age = float(params.get("age_hours", 26))
    out["stale"] = True
    out["as_of"] = iso(int(params.get("now_epoch", 0)) - int(age * 3600))
    out["source"] = params.get("source", "read replica (cached)")
    return out


def _malformed(
    tool: Tool,
    args: dict[str, Any],
    fresh: dict[str, Any] | None,
    params: Mapping[str, Any],
    key: str,
) -> dict[str, Any]:
    payload = {k: v for k, v in (fresh or {}).items() if k != "status"}
    text = json.dumps(payload, ensure_ascii=False)
    style = params.get("style") or pick(
        ("truncated_json", "mojibake", "html"), "malformed-style", key
    )
    if style == "html":
        raw = (
            "<!DOCTYPE html><html><head><title>Just a moment...</title></head><body>"
            "<noscript>Please enable JavaScript and cookies to continue</noscript></body></html>"
        )
        return {"status": "ok", "raw": raw, "content_type": "text/html"}
    if style == "mojibake":
        garbled = text.encode("utf-8").decode("latin-1")
        cut = len(garbled) * 3 // 4
        raw = garbled[:cut].replace('":', ":", 2) + "\ufffd\ufffd"
    else:
        cut = max(1, len(text) * (40 + stable_hash("malformed-cut", key) % 30) // 100)
        raw = text[:cut]
    return {"status": "ok", "raw": raw, "content_type": "application/json"}


#: The list a listing's page is (a record's own lists, an order's ``items`` beside its
#: ``total``, are no page).
_PAGES = frozenset({"items", "results", "matches", "data", "records", "entries", "hits"})


def _truncated(
    tool: Tool,
    args: dict[str, Any],
    fresh: dict[str, Any] | None,
    params: Mapping[str, Any],
    key: str,
) -> dict[str, Any]:
    out = dict(fresh or {"status": "ok"})
    token = "pt_" + hex_id("page-token", key, length=20)
    lists = [k for k, v in out.items() if isinstance(v, list) and v]
    texts = [k for k, v in out.items() if isinstance(v, str) and len(v) > 40]
    paged = False
    if lists:
        name = "items" if "items" in lists else max(lists, key=lambda k: len(out[k]))
        record = any(k == "id" or k.endswith(("_id", "Id")) for k in out)
        paged = "count" in out or (name in _PAGES and not record)
        full = out[name]
        keep = params.get("keep")
        keep = (
            keep
            if isinstance(keep, int) and 0 <= keep < len(full)
            else max(0, min(len(full) - 1, (len(full) + 1) // 2))
        )
        out[name] = full[:keep]
        if "count" in out:
            out["count"] = keep
    elif texts:
        name = max(texts, key=lambda k: len(out[k]))
        out[name] = out[name][: len(out[name]) // 2]
    else:
        fields = [k for k in out if k != "status"]
        for k in fields[(len(fields) + 1) // 2 :]:
            del out[k]
    out["truncated"] = True
    if paged:  # a page token only where a listing was cut: a record has no next page
        out["has_more"] = True
        out["next_page_token"] = token
    return out


# name, builder, payload (needs the result), degraded, retryable. A rate limit is not retryable:
# waiting is its fix, and the agent is told how long.
for _name, _builder, _needs, _degraded, _retry in (
    ("timeout", _timeout, False, False, True),
    ("permission_denied", _permission_denied, False, False, True),
    ("rate_limited", _rate_limited, False, False, False),
    ("server_error", _server_error, False, False, True),
    ("stale", _stale, True, True, False),
    ("malformed", _malformed, True, False, True),
    ("truncated", _truncated, True, True, False),
):
    register_fault_kind(_name, _builder, needs_result=_needs, degraded=_degraded, retryable=_retry)
