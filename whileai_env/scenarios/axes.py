"""The coverage axes: world axes come from the spec, human axes are the writer's.

Values are listed ordinary first, edges after: the covering array and the draw both read that
order, so a small run sees ordinary asks before the edges.
"""

from __future__ import annotations

WORLD_STATES = ("exists", "missing", "already_done", "duplicate", "partial")
CONDITIONS = (
    "success",
    "timeout",
    "permission_denied",
    "stale",
    "malformed",
    "rate_limited",
    "server_error",
    "truncated",
)
HISTORIES = ("fresh", "prior_failure", "prior_partial", "contradicts_earlier", "repeat_visit")
STANCES = (
    "ordinary",
    "ambiguous",
    "boundary",
    "adversarial",
    "hurried",
    "unsure",
    "retry",
    "mistaken",
    "exploratory",
    "conflicting",
)
ASKS = ("tool", "general", "vague")
PERSONAS = ("first_time", "returning", "busy_professional", "expert", "non_native", "older_adult")
TONES = ("neutral", "polite", "impatient", "frustrated", "friendly", "terse")
TEXTURES = ("standard", "lowercase", "typo", "clipped", "run_on", "no_punctuation")

UNRELATED = "unrelated"
MULTI_TOOL = "multi_tool"
NO_RULE = "none"
#: Values of the tool axis that are not tools: a spec may not name a tool after one of them.
RESERVED_TOOL_VALUES = (UNRELATED, MULTI_TOOL)

#: Stances that push against a rule; a clause's own cells pair the tools with these.
RULE_STANCES = ("ordinary", "boundary", "adversarial", "conflicting", "mistaken", "hurried")
#: Stances and states that make a cell "hard" for the weighted draw.
HARD_STANCES = frozenset({"adversarial", "boundary", "conflicting", "mistaken", "ambiguous"})
HARD_STATES = frozenset({"missing", "duplicate", "partial", "already_done"})

HUMAN_AXES = ("stance", "ask", "persona", "tone", "texture")
WORLD_AXES = ("tool", "rule", "world_state", "condition", "history")
AXES = WORLD_AXES + HUMAN_AXES
