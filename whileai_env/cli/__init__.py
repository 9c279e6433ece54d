"""The ``whileai-env`` command line: one module per command group.

Every verb loads what it needs lazily, so ``whileai-env --help`` stays instant. Every error is
one line naming what and where: exit status 2 for bad input, 1 for a failure at run time, and
the traceback only with ``whileai-env --debug`` (:class:`~whileai_env.cli.common.OneLineErrors`).
"""

from __future__ import annotations

import click

from whileai_env.cli.common import OneLineErrors
from whileai_env.cli.export_command import export_cmd
from whileai_env.cli.probe_command import probe_reward_cmd
from whileai_env.cli.recommend_command import recommend_cmd
from whileai_env.cli.report_command import report_cmd
from whileai_env.cli.serve_command import serve_cmd
from whileai_env.cli.simulate_command import simulate_cmd
from whileai_env.cli.spec_commands import check_spec, draw_tasks_cmd
from whileai_env.cli.store_command import store_cmd
from whileai_env.cli.traces_command import traces_cmd


@click.group(cls=OneLineErrors, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="whileai-env")
@click.option(
    "--debug", is_flag=True, help="Show the full traceback of an error instead of one line."
)
def main(debug: bool) -> None:
    """Turn an agent's tools and system prompt into a seeded, verifiable RL environment."""


for _command in (
    check_spec,
    draw_tasks_cmd,
    simulate_cmd,
    export_cmd,
    serve_cmd,
    probe_reward_cmd,
    recommend_cmd,
    report_cmd,
    store_cmd,
    traces_cmd,
):
    main.add_command(_command)

__all__ = ["main"]
