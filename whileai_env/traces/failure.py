"""What went wrong in one traced tool call, named on the grid's own axes.

A deployed agent's tool results do not speak this package's fault vocabulary: one API answers
``{"error": "timeout"}``, another ``{"status": 504, "message": "Gateway Timeout"}``, a third raises
``DeadlineExceeded``. :func:`step_failure` reads the error code, message and HTTP status a step
carries and names the axis value that reproduces it: a fault kind on the ``condition`` axis
(:data:`FAULT_TO_AXIS`), or a world state (``missing``, ``already_done``, ``duplicate``) on the
``world_state`` axis. A failure it cannot name is ``("condition", "error")``: observed, counted,
and aimed at nothing.

>>> step_failure({"tool": "get_order", "result": {"error": "timeout"}})
('condition', 'timeout')
>>> step_failure({"tool": "get_order", "result": {"status": 404, "message": "Order not found"}})
('world_state', 'missing')
>>> step_failure({"tool": "get_order", "result": {"id": "4412", "status": "shipped"}}) is None
True
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from whileai_env.scenarios.faults import FAULT_KINDS

#: An observed fault (the step's ``fault``, or an error named like one) to the axis value that
#: reproduces it. Every fault kind of the grid maps to itself; a caller can pass its own map.
FAULT_TO_AXIS: dict[str, tuple[str, str]] = {kind: ("condition", kind) for kind in FAULT_KINDS} | {
    "not_found": ("world_state", "missing"),
    "missing": ("world_state", "missing"),
    "already_done": ("world_state", "already_done"),
    "duplicate": ("world_state", "duplicate"),
}

#: Words of an error's text, first match wins (gateway faults before world states: a
#: "timeout while looking up order" is a timeout, not a missing order).
_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile(pattern))
    for name, pattern in (
        ("timeout", r"time[ds]?[ _-]?out|deadline[ _-]?exceeded|did not (?:answer|respond)"),
        ("rate_limited", r"rate[ _-]?limit|too[ _-]?many[ _-]?requests|throttl|quota"),
        (
            "permission_denied",
            r"permission|forbidden|unauthori[sz]ed|access[ _-]?denied|not[ _-]?allowed|denied",
        ),
        (
            "server_error",
            r"server[ _-]?error|internal[ _-]?error|unavailable|bad[ _-]?gateway|upstream|(?:http|status)\W*5\d\d\b",
        ),
        ("stale", r"\bstale\b|out[ _-]?of[ _-]?date|outdated"),
        ("malformed", r"malformed|invalid json|parse error|garbled|unparseable|decode"),
        ("truncated", r"truncat|next[ _-]?page|continuation"),
        ("not_found", r"not[ _-]?found|no such|does not exist|doesn't exist|unknown id"),
        ("already_done", r"already|conflict"),
        ("duplicate", r"multiple (?:matches|records|results)|ambiguous|duplicate"),
    )
)
#: HTTP statuses with one meaning.
_HTTP = {
    401: "permission_denied",
    403: "permission_denied",
    404: "not_found",
    408: "timeout",
    409: "already_done",
    429: "rate_limited",
    504: "timeout",
}
_ERROR_WORDS = ("error", "errors", "exception", "fault", "failure")


def step_failure(
    step: Mapping[str, Any], fault_to_axis: Mapping[str, tuple[str, str]] | None = None
) -> tuple[str, str] | None:
    """``(axis, value)`` of what went wrong in ``step``, or ``None`` when it went through.

    Read from the step's ``fault`` (this package's rows), else its ``error``, else its result:
    an error object, an error status, or an HTTP status of 400 or more.
    """
    table = FAULT_TO_AXIS if fault_to_axis is None else fault_to_axis
    name = failure_name(step)
    if name is None:
        return None
    return table.get(name, ("condition", "error"))


def failure_name(step: Mapping[str, Any]) -> str | None:
    """The failure's name (a fault kind, ``not_found``, ``already_done``, ``duplicate`` or
    ``error``), or ``None`` when the step shows none."""
    fault = step.get("fault")
    if isinstance(fault, str) and fault:
        return fault
    error = step.get("error")
    result = step.get("result")
    evidence = _error_evidence(result)
    if error in (None, False, "") and evidence is None and step.get("ok") is not False:
        return None
    text = " ".join(str(part) for part in (error, evidence) if part not in (None, False, ""))
    return _name_of(text.lower(), _status_of(result))


def _error_evidence(result: Any) -> str | None:
    """The error part of a result as text, or ``None`` when the result looks successful."""
    if isinstance(result, str):
        lowered = result.lower()
        return result if any(w in lowered for w in ("error", "exception", "failed")) else None
    if not isinstance(result, Mapping):
        return None
    found = [result[k] for k in _ERROR_WORDS if result.get(k) not in (None, False, "", [], {})]
    status = result.get("status")
    if isinstance(status, str) and status.lower() in ("error", "failed", "failure"):
        found.append(result.get("message") or status)
    code = _status_of(result)
    if code is not None and code >= 400:
        found.append(f"{code} {result.get('message') or result.get('detail') or ''}")
    if result.get("ok") is False or result.get("success") is False:
        found.append(result.get("message") or "error")
    return " ".join(map(str, found)) if found else None


def _status_of(result: Any) -> int | None:
    if not isinstance(result, Mapping):
        return None
    for key in ("status_code", "http_status", "status", "code"):
        value = result.get(key)
        if isinstance(value, int) and not isinstance(value, bool) and 100 <= value <= 599:
            return value
    return None


def _name_of(text: str, status: int | None) -> str:
    for name, pattern in _PATTERNS:
        if pattern.search(text):
            return name
    if status in _HTTP:
        return _HTTP[status]
    return "server_error" if status is not None and status >= 500 else "error"
