"""``traces``: read a deployed agent's traces before aiming a run with them."""

from __future__ import annotations

import json
from pathlib import Path

import click

from whileai_env.cli.common import fail
from whileai_env.errors import WhileaiError

_FILE = click.Path(exists=True, dir_okay=False, path_type=Path)


@click.group("traces")
def traces_cmd() -> None:
    """Graded traces of a deployed agent: what they hold and what they aim a run at."""


@traces_cmd.command("report")
@click.argument("path", type=_FILE)
@click.option(
    "--spec",
    "spec_path",
    type=click.Path(exists=True, path_type=Path),
    default=None,
    help="The agent's spec; without it the tool surface is drafted from the traces' calls.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def report_traces_cmd(path: Path, spec_path: Path | None, as_json: bool) -> None:
    """What the traces in PATH (trace JSONL or OTLP JSON) hold and what
    `simulate --traces PATH` will aim the grid at."""
    from whileai_env.spec.load import load_spec
    from whileai_env.traces.otel import load_trace_file
    from whileai_env.traces.report import format_trace_report, trace_report

    try:
        rows = load_trace_file(path)
        spec = load_spec(spec_path) if spec_path is not None else None
        report = trace_report(rows, spec=spec)
    except (WhileaiError, ValueError) as exc:
        fail(str(exc))
    if as_json:
        click.echo(json.dumps(report, indent=2, sort_keys=True, default=str))
    else:
        click.echo(format_trace_report(report))
