"""Read this before spending a budget: what the traces hold and what they will aim the grid at.

>>> traces = [{"prompt": "where is order 4412",
...            "steps": [{"tool": "get_order", "result": {"error": "timeout"}}], "reward": 0},
...           {"prompt": "hi", "reward": 1}, {"reward": 1}]
>>> report = trace_report(traces, tools=[{"name": "get_order"}, {"name": "cancel_order"}])
>>> report["dropped"], report["emphasis"]["tool"], report["emphasis"]["condition"]
(1, ['get_order'], ['timeout'])
>>> print(format_trace_report(report).splitlines()[0])
traces: 2 read, 1 dropped (neither an ask nor a step)
"""

from __future__ import annotations

from typing import Any

from whileai_env.spec.load import Spec, load_spec
from whileai_env.traces.aim import FOCUS, called_tools, emphasis_of
from whileai_env.traces.load import TraceStream
from whileai_env.traces.mining import TraceCounts, opens_with_assistant
from whileai_env.traces.tools import ToolDraft


def trace_report(
    traces: Any, tools: list[dict] | None = None, policy: str = "", *, spec: Spec | None = None
) -> dict[str, Any]:
    """What these traces contain and what they will aim generation at.

    ``traces``/``dropped`` (rows read and rows discarded by :func:`load_traces`), ``graded``,
    ``ungraded``, ``failed``, ``flaws``, ``tools_called``, ``failures`` (by name), ``opening_share``,
    and ``emphasis``: per axis, the values that move forward in the grid, most often wrong
    first (``aimed`` holds their shares of the flaw rows). Without ``tools`` the tool surface is
    drafted from the traces (``tools_source`` says which); ``unknown_tools`` are tools the
    traces call that the spec does not declare (ignored by the aim). ``spec``, a loaded
    :class:`~whileai_env.Spec`, stands for ``tools`` and ``policy`` with everything it was
    loaded with (its per-tool ``kinds`` overrides among them).
    """
    rows = TraceStream(traces)
    counts, draft, called, opened = TraceCounts(), ToolDraft(), set(), 0
    for row in rows:  # one pass, holding no row: a file of any length is read in bounded memory
        counts.add(row)
        draft.add(row)
        called |= called_tools([row])
        opened += opens_with_assistant(row)
    mined = counts.result()
    if spec is not None:
        tools, policy = spec.openai_tools(), spec.system_prompt
    surface = tools if tools is not None else draft.tools()
    report: dict[str, Any] = {
        "traces": counts.rows,
        "dropped": rows.dropped,
        **{k: mined[k] for k in ("graded", "ungraded", "failed", "flaws")},
        "tools_called": mined["tools"],
        "failures": mined["faults"],
        "opening_share": opened / counts.rows if counts.rows else 0.0,
        "tools_source": "given" if tools is not None else "drafted from traces",
    }
    if not surface:
        report.update(emphasis={}, aimed={}, unknown_tools=[], focus=FOCUS)
        return report
    if spec is None:
        spec = load_spec(tools=surface, system_prompt=policy)
    aimed = emphasis_of(mined, spec)
    report.update(
        emphasis={axis: sorted(v, key=lambda k: (-v[k], k)) for axis, v in aimed.items()},
        aimed=aimed,
        unknown_tools=sorted(called - set(spec.tool_names) - {""}),
        focus=FOCUS,
    )
    return report


def format_trace_report(report: dict[str, Any]) -> str:
    """The trace report as a text block, the aim stated in plain words."""
    flaws = report["flaws"]
    lines = [
        f"traces: {report['traces']} read, {report['dropped']} dropped (neither an ask nor a step)",
        f"graded: {report['graded']} ({report['failed']} labelled 0), "
        f"ungraded: {report['ungraded']}",
        f"flaw rows (a failed call or a 0 label): {flaws}",
        "tools called: " + _counts(report["tools_called"]),
        "failures seen: " + _counts(report["failures"]),
        f"conversations the assistant opens: {report['opening_share']:.0%}",
    ]
    emphasis = {axis: values for axis, values in report.get("emphasis", {}).items() if values}
    if not emphasis:
        lines.append("aim: nothing to aim at; the grid is drawn as without traces")
    else:
        lines.append(f"aim (tools {report['tools_source']}): these values are drawn more often")
        for axis, values in emphasis.items():
            shares = report["aimed"][axis]
            lines.append(
                f"  {axis}: "
                + ", ".join(
                    f"{v} ({round(shares[v] * flaws)} of {flaws} flaw rows)" for v in values
                )
            )
        lines.append("  clean values (success, exists) stay on the grid for contrast")
    if report.get("unknown_tools"):
        lines.append("not in the spec, ignored: " + ", ".join(report["unknown_tools"]))
    return "\n".join(lines)


def _counts(counts: dict[str, int]) -> str:
    return ", ".join(f"{k or '?'} {v}" for k, v in counts.items()) or "none"
