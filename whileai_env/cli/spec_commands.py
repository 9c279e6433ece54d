"""``check-spec`` and ``draw-tasks``: what a spec compiles to, before any run."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import click

from whileai_env.cli.common import console, fail, parse_kinds
from whileai_env.errors import WhileaiError


@click.command("check-spec")
@click.argument("path", type=click.Path(path_type=Path))
@click.option("--kind", "kinds", multiple=True, metavar="TOOL=KIND", help="Override a tool's kind.")
@click.option("--samples", default=5, show_default=True, help="Sample openers to print.")
@click.option("--seed", default=0, show_default=True)
@click.option(
    "--values",
    "show_values",
    is_flag=True,
    help="Print sample values per argument and flag those the world could not fill well.",
)
def check_spec(
    path: Path, kinds: tuple[str, ...], samples: int, seed: int, show_values: bool
) -> None:
    """Load a spec and print its tools, policy clauses, grid size and sample openers (with
    ``--values``, what the world will state for every argument)."""
    from rich.markup import escape
    from rich.table import Table

    from whileai_env.scenarios.draw import draw_tasks
    from whileai_env.scenarios.grid import build_grid
    from whileai_env.spec.load import load_spec

    try:
        spec = load_spec(path, kinds=parse_kinds(kinds) or None)
        grid = build_grid(spec)
        tasks = draw_tasks(spec, samples, seed=seed, grid=grid)
    except (WhileaiError, ValueError) as exc:
        fail(str(exc))
        return
    out = console()
    out.print(f"[bold]{spec.name}[/bold]  ({len(spec.tools)} tools, spec hash {spec.content_hash})")
    table = Table(
        "tool", "kind", "required arguments", "returns", title="Tools", title_justify="left"
    )
    for tool in spec.tools:
        table.add_row(
            tool.name,
            tool.kind,
            ", ".join(tool.required) or "-",
            "schema" if tool.output_schema is not None else "-",
        )
    out.print(table)
    _print_id_conflicts(out, spec)
    _print_unsatisfiable(out, spec)
    if show_values:
        _print_values(out, spec, seed)
    out.print(f"[bold]Policy clauses[/bold] ({len(spec.clauses)})")
    for clause in spec.clauses:
        out.print(f"  {clause.id}  {escape(clause.text)}")
    if not spec.clauses:
        out.print("  (none: the system prompt has no rules, so the grid has no rule axis)")
    summary = grid.summary()
    out.print(
        f"[bold]Grid[/bold]: {summary['cells']} cells ({summary['base_cells']} base, "
        f"{sum(summary['clause_cells'].values())} in clause blocks), hard share {summary['hard_share']:.0%}"
    )
    if spec.rubric:
        out.print(f"[bold]Rubric[/bold]: {len(spec.rubric.splitlines())} lines")
    out.print(f"[bold]Sample openers[/bold] (seed {seed})")
    for task in tasks:
        d = task.dimensions
        out.print(
            escape(
                f"  [{d['tool']} · {d['stance']} · {d['ask']} · {d['world_state']} · {d['condition']}]"
            )
        )
        out.print(f"    {escape(task.opener)}")


def _print_id_conflicts(out, spec) -> None:
    """The entity types whose id formats the tools disagree on: each tool, argument and format
    (the world then mints ids in the first tool's format, which the others refuse)."""
    from rich.markup import escape

    from whileai_env.world.entity_ids import find_id_conflicts

    conflicts = find_id_conflicts(spec)
    if not conflicts:
        out.print("[bold]Id formats[/bold]: one per entity type (no tools disagree)")
        return
    out.print(f"[bold]Id conflicts[/bold] ({len(conflicts)}): tools disagree on an id's format")
    for c in conflicts:
        out.print(f"  [red]![/red] {escape(c.noun)} {c.form}s: no value satisfies every tool")
        for tool, arg, fmt in c.uses:
            out.print(f"      {escape(tool)}.{escape(arg)}  {escape(fmt)}")


def _print_unsatisfiable(out, spec) -> None:
    """The argument schemas no value satisfies (an empty enum, a minimum above the maximum): no
    call of those tools can be valid, so no task needing them can be done."""
    from rich.markup import escape

    from whileai_env.spec.unsatisfiable import unsatisfiable

    lines = [line for tool in spec.tools for line in unsatisfiable(tool.name, tool.parameters)]
    if not lines:
        out.print("[bold]Argument schemas[/bold]: every one can be satisfied")
        return
    out.print(
        f"[bold]Argument schema problems[/bold] ({len(lines)}): calls of these tools cannot be "
        "valid, or must carry an undescribed field"
    )
    for line in lines:
        out.print(f"  [red]![/red] {escape(line)}")


def _print_values(out, spec, seed: int) -> None:
    """Three sample values per argument, the flagged ones marked ``!`` with what is wrong."""
    from rich.markup import escape

    from whileai_env.world.preview import preview_values

    previews = preview_values(spec, samples=3, seed=seed)
    out.print(f"[bold]Values[/bold] (3 samples per argument, seed {seed}; ! = could not fill well)")
    current = None
    for p in previews:
        if p.tool != current:
            current = p.tool
            out.print(f"  [bold]{escape(p.tool)}[/bold]")
        shown = " | ".join(
            escape(json.dumps(v, ensure_ascii=False, default=str))[:60] for v in p.values
        )
        mark = "[red]![/red]" if p.flagged else " "
        out.print(f"  {mark} {escape(p.argument)} ({p.role}): {shown}")
        for problem in p.problems:
            out.print(f"      [red]{escape(problem)}[/red]")
    flagged = sum(p.flagged for p in previews)
    out.print(f"  {flagged} of {len(previews)} arguments flagged")


@click.command("draw-tasks")
@click.argument("path", type=click.Path(path_type=Path))
@click.option("-n", "--situations", default=20, show_default=True, help="Situations to draw.")
@click.option(
    "--mode",
    type=click.Choice(["explore", "sft", "rl", "adaptive"]),
    default="explore",
    show_default=True,
)
@click.option("--seed", default=0, show_default=True)
@click.option(
    "--fault-rate", type=float, default=None, help="0 switches faults off; default 0.5 (0.8 in rl)."
)
@click.option(
    "-o", "--output", type=click.Path(path_type=Path), default=None, help="Write tasks as JSONL."
)
def draw_tasks_cmd(
    path: Path, situations: int, mode: str, seed: int, fault_rate: float | None, output: Path | None
) -> None:
    """Draw tasks from a spec's grid and summarise them (optionally writing JSONL)."""
    from rich.markup import escape

    from whileai_env.scenarios.draw import draw_tasks
    from whileai_env.scenarios.grid import build_grid
    from whileai_env.spec.load import load_spec

    try:
        spec = load_spec(path)
        grid = build_grid(spec)
        tasks = draw_tasks(spec, situations, mode=mode, seed=seed, fault_rate=fault_rate, grid=grid)
    except (WhileaiError, ValueError) as exc:
        fail(str(exc))
        return
    if output:
        from whileai_env.data.jsonl import write_rows

        write_rows((task.to_dict() for task in tasks), output)
    out = console()
    out.print(f"[bold]{len(tasks)} tasks[/bold] from {spec.name} (mode {mode}, seed {seed})")
    coverage = grid.coverage(t.cell for t in tasks)
    out.print("coverage: " + ", ".join(f"{k} {v:.0%}" for k, v in coverage.items()))
    faults = Counter(r.kind for t in tasks if t.faults for r in t.faults.rules)
    out.print(
        "faults planned: " + (", ".join(f"{k} {v}" for k, v in faults.most_common()) or "none")
    )
    for task in tasks[:5]:
        out.print(f"  {task.task_id}  {escape(task.opener)}")
    if output:
        out.print(f"wrote {output}")
