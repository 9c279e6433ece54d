"""``export``: a spec's tasks (or a run's rows) as an installable verifiers environment package."""

from __future__ import annotations

import json
from pathlib import Path

import click

from whileai_env.cli.common import fail
from whileai_env.errors import WhileaiError


@click.command("export")
@click.argument("source", type=click.Path(path_type=Path))
@click.option(
    "-o", "--output", type=click.Path(path_type=Path), required=True, help="A new, empty directory."
)
@click.option(
    "--rows",
    type=click.Path(path_type=Path),
    default=None,
    help="A run's rows (JSONL) to export instead of drawing from SOURCE (the spec they were played on).",
)
@click.option(
    "-n", "--n", "n", default=50, show_default=True, help="Situations drawn when no --rows."
)
@click.option("--seed", default=0, show_default=True)
@click.option("--mode", default="rl", show_default=True)
@click.option("--holdout", default=0.2, show_default=True, help="Share of scenarios held out.")
@click.option(
    "--band",
    nargs=2,
    type=float,
    default=(0.2, 0.8),
    show_default=True,
    help="Pass-rate band kept (graded rows).",
)
@click.option("--judge", default=None, metavar="MODULE:CALLABLE")
@click.option("--execute", default=None, metavar="MODULE:CALLABLE")
@click.option("--name", default=None, help="The package's module name (default: the spec's name).")
@click.option(
    "--share",
    is_flag=True,
    help="Instead of a package, write --rows as OUTPUT/rows.jsonl fit to publish: "
    "export_row(share=True) drops the columns that rebuild the hidden state (world, fault_plan, "
    "seed, situation, phrasing); rows quoting privileged context are withheld and counted.",
)
def export_cmd(
    source: Path,
    output: Path,
    rows: Path | None,
    n: int,
    seed: int,
    mode: str,
    holdout: float,
    band: tuple[float, float],
    judge: str | None,
    execute: str | None,
    name: str | None,
    share: bool,
) -> None:
    """Write SOURCE's tasks as a verifiers package in OUTPUT (pip install -e OUTPUT; vf-eval NAME);
    with --share, write the run's --rows (played on the spec SOURCE) fit to publish instead."""
    from whileai_env.data.jsonl import iter_rows
    from whileai_env.export.package import export_environment

    if share:
        _share(source, rows, output)
        return
    try:
        data = iter_rows(rows) if rows else source
        report = export_environment(
            data,
            output,
            judge=judge,
            execute=execute,
            holdout=holdout,
            band=band,
            spec=source if rows else None,
            n=n,
            seed=seed,
            mode=mode,
            name=name,
        )
    except (WhileaiError, ValueError, FileExistsError) as exc:
        fail(str(exc))
        return
    click.echo(json.dumps(report, indent=2))


def _share(source: Path, rows: Path | None, output: Path) -> None:
    """``export --share``: the shared rows and their report, or one line saying why not."""
    from whileai_env.export.shared import export_shared_rows
    from whileai_env.spec.load import load_spec

    if rows is None:
        fail("--share publishes a run's rows: give them with --rows RUN.jsonl")
    try:
        report = export_shared_rows(rows, output, load_spec(source))
    except (WhileaiError, ValueError, FileExistsError, FileNotFoundError) as exc:
        fail(str(exc))
    click.echo(json.dumps(report, indent=2))
