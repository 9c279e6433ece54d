"""A failed check: which marker it zeroed, why (a short code and a sentence) and the evidence.

Every 0 the checklist gives carries one of these, so a reward can always be explained by
pointing at a step index or a quoted phrase.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Finding:
    """One check that failed. ``evidence`` is ``{"step": i}``, ``{"phrase": "..."}`` or both."""

    marker: str
    code: str
    message: str
    evidence: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return {
            "marker": self.marker,
            "code": self.code,
            "message": self.message,
            "evidence": self.evidence,
        }

    def reason(self) -> str:
        return f"{self.code}: {self.message}"


def step_evidence(index: int, tool: str | None = None, **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"step": index}
    if tool is not None:
        out["tool"] = tool
    out.update(extra)
    return out


def join_reasons(findings: list[Finding]) -> str:
    return "; ".join(f.reason() for f in findings)
