"""A version's dataset card: ``README.md`` with Hugging Face front matter and the profile.

The front matter names the data file, so ``datasets.load_dataset`` on a Hub repo made by
:func:`~whileai_env.store.hub.to_hub` finds the rows; the body is the lineage and the profile.

>>> card = render_card({"id": "ds_1", "name": "a", "parent": None, "description": "demo"},
...                    {"rows": 2, "tasks": 1, "graded": 0})
>>> card.startswith("---"), "# a (ds_1)" in card, "| rows | 2 |" in card
(True, True, True)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from whileai_env.store.profile import AXES

ROWS_FILE = "rows.jsonl"
CARD_FILE = "README.md"
_FRONT = f"""---
configs:
- config_name: default
  data_files: {ROWS_FILE}
tags:
- whileai-env
- agents
---
"""


def render_card(entry: Mapping[str, Any], profile: Mapping[str, Any]) -> str:
    """The card's Markdown for a version (``entry``: id, name, parent, description)."""
    lines = [_FRONT, f"# {entry['name']} ({entry['id']})", "", str(entry.get("description") or "")]
    lines += ["", f"Parent: {entry.get('parent') or 'none'}", "", "| number | value |", "|---|---|"]
    lines += [f"| {k} | {_cell(v)} |" for k, v in profile.items() if k not in AXES]
    for key in AXES:
        if profile.get(key):
            lines += [
                "",
                f"## {key.replace('_', ' ')}",
                "",
                "| value | rows | reward mean | pass rate |",
            ]
            lines.append("|---|---|---|---|")
            lines += [
                f"| {v} | {g['rows']} | {_cell(g['reward_mean'])} | {_cell(g['pass_rate'])} |"
                for v, g in profile[key].items()
            ]
    return "\n".join(lines) + "\n"


def _cell(value: Any) -> str:
    if value is None:
        return "n/a"
    if isinstance(value, list):
        return ", ".join(map(str, value)) or "none"
    return str(value)
