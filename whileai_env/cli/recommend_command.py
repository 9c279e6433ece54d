"""``recommend``: how much to simulate for a spec, sized from its own grid, before any rollout."""

from __future__ import annotations

import json
from pathlib import Path

import click

from whileai_env.cli.common import fail
from whileai_env.errors import WhileaiError


@click.command("recommend")
@click.argument("path", type=click.Path(path_type=Path))
@click.option("--mode", type=click.Choice(["sft", "rl"]), default="sft", show_default=True)
@click.option("--target", type=int, default=None, help="Selected rows wanted (default 800).")
@click.option(
    "--mixed-rate",
    type=float,
    default=None,
    help="rl: the measured share of prompts whose rollouts disagree (default: 0.5 assumed).",
)
@click.option("--seed", default=0, show_default=True, help="The draw's seed.")
@click.option("--json", "as_json", is_flag=True, help="Print the recommendation as JSON.")
def recommend_cmd(
    path: Path,
    mode: str,
    target: int | None,
    mixed_rate: float | None,
    seed: int,
    as_json: bool,
) -> None:
    """Print the reasoning (grid cells, saturation, selection head-room or mixed rate) and the
    simulate() call that sizes a MODE run for the spec at PATH."""
    from whileai_env.analysis.recommend import recommend

    try:
        rec = recommend(path, mode=mode, target=target, mixed_rate=mixed_rate, seed=seed)
    except (WhileaiError, ValueError) as exc:
        fail(str(exc))
        return
    if as_json:
        fields = ("mode", "reasoning", "simulate_kwargs", "numbers", "probe_kwargs")
        click.echo(json.dumps({name: rec[name] for name in fields}, indent=2))
    else:
        click.echo(rec.format())
