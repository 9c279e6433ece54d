"""The ``whileai-env`` command line.

Every verb loads what it needs lazily, so ``whileai-env --help`` stays instant; a bad spec or
option prints what is wrong and where, and exits with status 2.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import click

from whileai_env.errors import WhileaiError


def _console():
    from rich.console import Console

    return Console(highlight=False, soft_wrap=True)


def _fail(message: str) -> None:
    click.echo(f"error: {message}", err=True)
    sys.exit(2)


def _parse_kinds(values: tuple[str, ...]) -> dict[str, str]:
    kinds = {}
    for item in values:
        name, sep, kind = item.partition("=")
        if not sep or not name or not kind:
            _fail(f"--kind expects TOOL=KIND (e.g. sync=write), got {item!r}")
        kinds[name] = kind
    return kinds


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="whileai-env")
def main() -> None:
    """Turn an agent's tools and system prompt into a seeded, verifiable RL environment."""


@main.command("check-spec")
@click.argument("path", type=click.Path(path_type=Path))
@click.option("--kind", "kinds", multiple=True, metavar="TOOL=KIND", help="Override a tool's kind.")
@click.option("--samples", default=5, show_default=True, help="Sample openers to print.")
@click.option("--seed", default=0, show_default=True)
def check_spec(path: Path, kinds: tuple[str, ...], samples: int, seed: int) -> None:
    """Load a spec and print its tools, policy clauses, grid size and sample openers."""
    from rich.markup import escape
    from rich.table import Table

    from whileai_env.scenarios.draw import draw_tasks
    from whileai_env.scenarios.grid import build_grid
    from whileai_env.spec.load import load_spec

    try:
        spec = load_spec(path, kinds=_parse_kinds(kinds) or None)
        grid = build_grid(spec)
        tasks = draw_tasks(spec, samples, seed=seed, grid=grid)
    except (WhileaiError, ValueError) as exc:
        _fail(str(exc))
        return
    console = _console()
    console.print(f"[bold]{spec.name}[/bold]  ({len(spec.tools)} tools, spec hash {spec.content_hash})")
    table = Table("tool", "kind", "required arguments", "returns", title="Tools", title_justify="left")
    for tool in spec.tools:
        table.add_row(tool.name, tool.kind, ", ".join(tool.required) or "-",
                      "schema" if tool.output_schema is not None else "-")
    console.print(table)
    console.print(f"[bold]Policy clauses[/bold] ({len(spec.clauses)})")
    for clause in spec.clauses:
        console.print(f"  {clause.id}  {escape(clause.text)}")
    if not spec.clauses:
        console.print("  (none: the system prompt has no rules, so the grid has no rule axis)")
    summary = grid.summary()
    console.print(
        f"[bold]Grid[/bold]: {summary['cells']} cells ({summary['base_cells']} base, "
        f"{sum(summary['clause_cells'].values())} in clause blocks), hard share {summary['hard_share']:.0%}"
    )
    if spec.rubric:
        console.print(f"[bold]Rubric[/bold]: {len(spec.rubric.splitlines())} lines")
    console.print(f"[bold]Sample openers[/bold] (seed {seed})")
    for task in tasks:
        d = task.dimensions
        console.print(escape(f"  [{d['tool']} · {d['stance']} · {d['ask']} · {d['world_state']} · {d['condition']}]"))
        console.print(f"    {escape(task.opener)}")


@main.command("draw-tasks")
@click.argument("path", type=click.Path(path_type=Path))
@click.option("-n", "--situations", default=20, show_default=True, help="Situations to draw.")
@click.option("--mode", type=click.Choice(["explore", "sft", "rl", "adaptive"]), default="explore", show_default=True)
@click.option("--seed", default=0, show_default=True)
@click.option("--fault-rate", type=float, default=None, help="0 switches faults off; default 0.5 (0.8 in rl).")
@click.option("-o", "--output", type=click.Path(path_type=Path), default=None, help="Write tasks as JSONL.")
def draw_tasks_cmd(path: Path, situations: int, mode: str, seed: int, fault_rate: float | None, output: Path | None) -> None:
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
        _fail(str(exc))
        return
    if output:
        with output.open("w", encoding="utf-8") as fh:
            for task in tasks:
                fh.write(json.dumps(task.to_dict(), sort_keys=True) + "\n")
    console = _console()
    console.print(f"[bold]{len(tasks)} tasks[/bold] from {spec.name} (mode {mode}, seed {seed})")
    coverage = grid.coverage(t.cell for t in tasks)
    console.print("coverage: " + ", ".join(f"{k} {v:.0%}" for k, v in coverage.items()))
    faults = Counter(r.kind for t in tasks if t.faults for r in t.faults.rules)
    console.print("faults planned: " + (", ".join(f"{k} {v}" for k, v in faults.most_common()) or "none"))
    for task in tasks[:5]:
        console.print(f"  {task.task_id}  {escape(task.opener)}")
    if output:
        console.print(f"wrote {output}")


@main.command("simulate")
@click.argument("path", type=click.Path(path_type=Path))
@click.option("--agent", default="seeded", show_default=True,
              help="seeded | oracle | silent | openai:MODEL | vllm:MODEL@URL | hf:PATH")
@click.option("--mode", type=click.Choice(["explore", "sft", "rl", "adaptive"]), default="explore", show_default=True)
@click.option("--budget", default=200, show_default=True, help="Row cap.")
@click.option("--time-budget", type=float, default=None, help="Seconds; off by default.")
@click.option("--situations", type=int, default=None)
@click.option("--phrasings", type=int, default=None)
@click.option("--repeats", type=int, default=None)
@click.option("--fault-rate", type=float, default=None, help="0 switches faults off; default 0.5 (0.8 in rl).")
@click.option("--seed", default=0, show_default=True)
@click.option("--concurrency", type=int, default=None)
@click.option("--until", type=click.Choice(["compute", "saturation"]), default="compute", show_default=True)
@click.option("--grade/--no-grade", default=True, show_default=True, help="Grade rows with task_checklist.")
@click.option("-o", "--output", type=click.Path(path_type=Path), default=None, help="Stream rows to this JSONL.")
@click.option("--resume", is_flag=True, help="Continue the run in --output.")
@click.option("--logprobs", is_flag=True, help="Record per-turn logprobs (model agents).")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar.")
def simulate_cmd(path: Path, agent: str, mode: str, budget: int, time_budget: float | None, situations: int | None,
                 phrasings: int | None, repeats: int | None, fault_rate: float | None, seed: int,
                 concurrency: int | None, until: str, grade: bool, output: Path | None, resume: bool,
                 logprobs: bool, quiet: bool) -> None:
    """Play an agent through tasks drawn from a spec and print a summary of the rows."""
    from whileai_env.simulation import simulate

    grader = None
    if grade:
        from whileai_env.grading import task_checklist

        grader = task_checklist
    try:
        data = simulate(agent, spec=path, mode=mode, budget=budget, time_budget=time_budget, situations=situations,
                        phrasings=phrasings, repeats=repeats, fault_rate=fault_rate, seed=seed,
                        concurrency=concurrency, until=until, grader=grader, output=output, resume=resume,
                        logprobs=logprobs, quiet=quiet)
    except (WhileaiError, ValueError, TypeError) as exc:
        _fail(str(exc))
        return
    _print_summary(data)


def _print_summary(data) -> None:
    from rich.markup import escape
    from rich.table import Table

    console = _console()
    search = data.search
    table = Table("", "", title=f"simulate: {data.spec.name} ({data.mode})", title_justify="left", show_header=False)
    table.add_row("rows", str(search["rows"]))
    table.add_row("tasks", f"{search['tasks']} ({search['scenarios']} grid cells of {search['grid_cells']})")
    table.add_row("stopped because", search["stopped_because"])
    table.add_row("rows/min", f"{search['rows_per_min']:,.0f}" if search.get("rows_per_min") else "-")
    table.add_row("coverage", ", ".join(f"{k} {v:.0%}" for k, v in search["coverage"].items()))
    faults = search.get("faults_fired") or {}
    table.add_row("faults fired", ", ".join(f"{k} {v}" for k, v in sorted(faults.items())) or "none")
    if search.get("groups"):
        table.add_row("groups", ", ".join(f"{k} {v}" for k, v in search["groups"].items()))
    if search.get("agent_errors"):
        table.add_row("lost rollouts", f"{search['agent_errors']} (first: {escape(str(search.get('first_agent_error')))})")
    rewards = [r.get("reward") for r in data.trajectories if isinstance(r.get("reward"), int | float)]
    if rewards:
        buckets = Counter("1" if r >= 1 else "0" if r <= 0 else "(0,1)" for r in rewards)
        table.add_row("reward", f"mean {sum(rewards) / len(rewards):.3f}; " + ", ".join(
            f"{k}: {v}" for k, v in sorted(buckets.items())))
        table.add_row("pass_at", escape(str(data.pass_at)))
    if data.output:
        table.add_row("output", str(data.output))
    console.print(table)


if __name__ == "__main__":
    main()
