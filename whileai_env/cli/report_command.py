"""``report``: graded rows as one self-contained HTML page, and a summary table in the terminal."""

from __future__ import annotations

from pathlib import Path

import click

_ROWS = click.Path(exists=True, dir_okay=False, path_type=Path)


@click.command("report")
@click.argument("rows", type=_ROWS)
@click.option(
    "-o",
    "--output",
    type=click.Path(file_okay=False, path_type=Path),
    required=True,
    help="Directory for index.html (created).",
)
@click.option("--before", type=_ROWS, default=None, help="Rows of an earlier run: adds the delta.")
@click.option(
    "--threshold", type=float, default=1.0, show_default=True, help="Reward that counts as a pass."
)
@click.option(
    "--endorsed",
    multiple=True,
    metavar="FEATURE",
    help="What the reward should track, for the hack scan (repeatable, e.g. tool:get_order).",
)
@click.option("--title", default="whileai-env report", show_default=True)
def report_cmd(
    rows: Path,
    output: Path,
    before: Path | None,
    threshold: float,
    endorsed: tuple[str, ...],
    title: str,
) -> None:
    """Write OUTPUT/index.html for the graded ROWS (JSONL): pass@1 / pass^k / pass@k with
    intervals, pass@1 by fault kind, world state and tool, the grid's coverage, the hack scan
    and, with --before, the before/after delta; print the summary table."""
    from whileai_env.analysis.features import keep_replies
    from whileai_env.data.jsonl import iter_rows
    from whileai_env.report import summary_table, write_report

    shared: dict = {}  # one copy of each value the rows repeat (see keep_replies)
    graded = [keep_replies(row, shared) for row in iter_rows(rows)]
    earlier = (
        [keep_replies(row, shared) for row in iter_rows(before)] if before is not None else None
    )
    page = write_report(
        graded, output, before=earlier, threshold=threshold, endorsed=endorsed, title=title
    )
    click.echo(summary_table(graded, threshold=threshold))
    click.echo(f"wrote {page}")
