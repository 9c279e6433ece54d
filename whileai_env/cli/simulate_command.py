"""``simulate``: play an agent through drawn tasks and summarise the rows."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import click

from whileai_env.cli.common import console, fail
from whileai_env.errors import WhileaiError

_KNOB_OPTIONS = (
    "mode",
    "budget",
    "time_budget",
    "situations",
    "phrasings",
    "repeats",
    "fault_rate",
    "seed",
    "concurrency",
    "workers",
    "until",
    "output",
    "resume",
    "logprobs",
    "quiet",
)


@click.command("simulate")
@click.argument("path", type=click.Path(path_type=Path))
@click.option(
    "--agent",
    default="seeded",
    show_default=True,
    help="seeded | oracle | silent | openai:MODEL | vllm:MODEL@URL | hf:PATH",
)
@click.option(
    "--config",
    "config_file",
    type=click.Path(path_type=Path),
    default=None,
    help="A YAML file of SimulationConfig knobs (configs/simulate/); options given here win.",
)
@click.option(
    "--mode",
    type=click.Choice(["explore", "sft", "rl", "adaptive"]),
    default="explore",
    show_default=True,
)
@click.option("--budget", default=200, show_default=True, help="Row cap.")
@click.option("--time-budget", type=float, default=None, help="Seconds; off by default.")
@click.option("--situations", type=int, default=None)
@click.option("--phrasings", type=int, default=None)
@click.option("--repeats", type=int, default=None)
@click.option(
    "--fault-rate", type=float, default=None, help="0 switches faults off; default 0.5 (0.8 in rl)."
)
@click.option("--seed", default=0, show_default=True)
@click.option("--concurrency", type=int, default=None)
@click.option(
    "--workers",
    type=int,
    default=None,
    help="Play in N worker processes (with --ray: N Ray actors); rows as with one.",
)
@click.option(
    "--ray",
    "ray_address",
    is_flag=False,
    flag_value="",
    default=None,
    metavar="[ADDRESS]",
    help="Play on Ray: a local instance, or the cluster at ADDRESS (or RAY_ADDRESS).",
)
@click.option(
    "--until", type=click.Choice(["compute", "saturation"]), default="compute", show_default=True
)
@click.option(
    "--grade/--no-grade", default=True, show_default=True, help="Grade rows with task_checklist."
)
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path),
    default=None,
    help="Stream rows to this JSONL.",
)
@click.option("--resume", is_flag=True, help="Continue the run in --output.")
@click.option(
    "--traces",
    "traces_file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="Graded traces (JSONL or OTLP JSON) to aim the grid at; see `traces report`.",
)
@click.option(
    "--rubric",
    "rubric_file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="Grade with a model judge reading this rubric (every row carries it).",
)
@click.option(
    "--judge",
    "judge_model",
    default=None,
    metavar="MODEL",
    help="The rubric judge: openai:M, vllm:M@URL or hf:PATH (default $WHILEAI_JUDGE).",
)
@click.option("--logprobs", is_flag=True, help="Record per-turn logprobs (model agents).")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar.")
@click.pass_context
def simulate_cmd(
    ctx: click.Context,
    path: Path,
    agent: str,
    config_file: Path | None,
    grade: bool,
    traces_file: Path | None,
    ray_address: str | None,
    rubric_file: Path | None,
    judge_model: str | None,
    **options: Any,
) -> None:
    """Play an agent through tasks drawn from a spec and print a summary of the rows."""
    from whileai_env.simulation.config import SimulationConfig
    from whileai_env.simulation.run import simulate
    from whileai_env.spec.load import load_spec

    try:
        config = SimulationConfig.from_file(config_file) if config_file is not None else None
        knobs = _knobs(ctx, options, explicit_only=config is not None)
        spec = load_spec(path)
        traces = _traces(traces_file)
        if ray_address is not None:
            knobs.update(backend="ray", ray_address=ray_address or None)
        grader = _grader(grade, rubric_file, judge_model)
    except (WhileaiError, ValueError, TypeError) as exc:
        fail(str(exc))
    player = _player(
        agent, spec, logprobs=bool(knobs.get("logprobs", config.logprobs if config else False))
    )
    remote = "backend" in knobs or knobs.get("workers") or (config and config.workers)
    data = simulate(
        agent if remote else player,  # a worker starts its own agent from the name
        spec=spec,
        config=config,
        grader=grader,
        traces=traces,
        rubric=rubric_file,
        **knobs,
    )
    _print_summary(data)


def _grader(grade: bool, rubric: Path | None, judge: str | None) -> Any:
    """``task_checklist`` (``None`` with ``--no-grade``), or with ``--rubric`` the rubric judge
    on ``--judge`` or ``$WHILEAI_JUDGE`` (a missing model is a one-line error before any row)."""
    if rubric is None:
        from whileai_env.grading.checklist import task_checklist

        return task_checklist if grade else None
    from whileai_env.judges.rubric import rubric_judge

    return rubric_judge(model=judge)


def _traces(path: Path | None) -> Any:
    """The trace rows of ``--traces`` (``None`` without it)."""
    if path is None:
        return None
    from whileai_env.traces.otel import load_trace_file

    return load_trace_file(path)


def _player(agent: str, spec: Any, *, logprobs: bool) -> Any:
    """The agent ``--agent`` names, started now so that one that cannot start (no API key, no
    such model path) is bad input named by its option, not a traceback from inside the run."""
    from whileai_env.simulation.players import make_player

    try:
        return make_player(agent, spec=spec, logprobs=logprobs)
    except Exception as exc:  # any library's failure to start the agent is the agent's bad input
        fail(f"--agent {agent}: cannot start the agent ({type(exc).__name__}: {exc})")


def _knobs(ctx: click.Context, options: dict[str, Any], *, explicit_only: bool) -> dict[str, Any]:
    """The knobs the command line sets: all of them, or with ``--config`` only those typed out."""
    from click.core import ParameterSource

    out = {}
    for name in _KNOB_OPTIONS:
        source = ctx.get_parameter_source(name)
        if not explicit_only or source in (
            ParameterSource.COMMANDLINE,
            ParameterSource.ENVIRONMENT,
        ):
            value = options[name]
            out[name] = str(value) if isinstance(value, Path) else value
    return out


def _print_summary(data) -> None:
    from rich.markup import escape
    from rich.table import Table

    out = console()
    search = data.search
    table = Table(
        "",
        "",
        title=f"simulate: {data.spec.name} ({data.mode})",
        title_justify="left",
        show_header=False,
    )
    table.add_row("rows", str(search["rows"]))
    table.add_row(
        "tasks", f"{search['tasks']} ({search['scenarios']} grid cells of {search['grid_cells']})"
    )
    table.add_row("stopped because", search["stopped_because"])
    table.add_row(
        "rows/min", f"{search['rows_per_min']:,.0f}" if search.get("rows_per_min") else "-"
    )
    table.add_row("coverage", ", ".join(f"{k} {v:.0%}" for k, v in search["coverage"].items()))
    faults = search.get("faults_fired") or {}
    table.add_row(
        "faults fired", ", ".join(f"{k} {v}" for k, v in sorted(faults.items())) or "none"
    )
    if search.get("traces"):
        aim = search["traces"]
        aimed = "; ".join(f"{k}: {', '.join(v)}" for k, v in aim["emphasis"].items() if v)
        table.add_row(
            "traces",
            f"{aim['traces']} read, aimed at {escape(aimed) or 'nothing'}; "
            f"{aim['leaky_tasks_dropped']} tasks copying a trace dropped",
        )
    if search.get("groups"):
        table.add_row("groups", ", ".join(f"{k} {v}" for k, v in search["groups"].items()))
    if search.get("agent_errors"):
        table.add_row(
            "lost rollouts",
            f"{search['agent_errors']} (first: {escape(str(search.get('first_agent_error')))})",
        )
    rewards = [r.get("reward") for r in data.rows if isinstance(r.get("reward"), int | float)]
    if rewards:
        buckets = Counter("1" if r >= 1 else "0" if r <= 0 else "(0,1)" for r in rewards)
        table.add_row(
            "reward",
            f"mean {sum(rewards) / len(rewards):.3f}; "
            + ", ".join(f"{k}: {v}" for k, v in sorted(buckets.items())),
        )
        table.add_row("pass_at", escape(str(data.pass_at)))
    if data.output:
        table.add_row("output", str(data.output))
    out.print(table)
