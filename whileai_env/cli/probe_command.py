"""``probe-reward``: what the reward pays trivial policies on a spec, before anyone trains on it."""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any

import click

from whileai_env.cli.common import fail
from whileai_env.errors import WhileaiError


def _load_judge(target: str | None) -> Any:
    """``module:attribute`` → that callable (the user's own judge), or ``None`` for the checklist."""
    if target is None:
        return None
    module, sep, attribute = target.partition(":")
    if not sep or not module or not attribute:
        fail(f"--judge expects MODULE:CALLABLE (e.g. my_rewards:judge), got {target!r}")
    try:
        judge = getattr(importlib.import_module(module), attribute)
    except (ImportError, AttributeError) as exc:
        fail(f"cannot load the judge {target!r}: {exc}")
    if not callable(judge):
        fail(f"the judge {target!r} is not callable")
    return judge


@click.command("probe-reward")
@click.argument("path", type=click.Path(path_type=Path))
@click.option(
    "-n", "--n", "n", default=200, show_default=True, help="Tasks drawn (every policy plays each)."
)
@click.option("--seed", default=0, show_default=True)
@click.option(
    "--policy", "policies", multiple=True, metavar="NAME", help="Only these probes (repeatable)."
)
@click.option("--judge", default=None, metavar="MODULE:CALLABLE", help="Grade with your own judge.")
@click.option(
    "--restraint-share",
    type=float,
    default=None,
    help="Share of tasks whose right outcome is not to act; default: the grid's own mix.",
)
@click.option("--fault-rate", type=float, default=None, help="0 switches faults off; default 0.5.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option(
    "--strict",
    is_flag=True,
    help="Exit 1 when a probe passes more often than its behaviour is right.",
)
def probe_reward_cmd(
    path: Path,
    n: int,
    seed: int,
    policies: tuple[str, ...],
    judge: str | None,
    restraint_share: float | None,
    fault_rate: float | None,
    as_json: bool,
    strict: bool,
) -> None:
    """Play trivial policies (unrelated text, blanket refusal / hand-off / question, a claim with no
    action, an echo, reads then a claim, placeholder arguments, endless retries) and the oracle on
    a spec's tasks, and print each one's pass rate beside the share of tasks where it is right."""
    from whileai_env.analysis.probes import probe_reward

    try:
        report = probe_reward(
            path,
            policies=list(policies) or "all",
            n=n,
            judge=_load_judge(judge),
            seed=seed,
            restraint_share=restraint_share,
            fault_rate=fault_rate,
        )
    except (WhileaiError, ValueError) as exc:
        fail(str(exc))
        return
    click.echo(json.dumps(report.to_dict(), indent=2) if as_json else report.format())
    if strict and report.flagged:
        raise SystemExit(1)
