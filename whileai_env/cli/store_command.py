"""``store``: the local dataset store from the shell (``push``, ``pull``, ``ls``, ``show``).

Errors reach the group's one-line handler (:class:`~whileai_env.cli.common.OneLineErrors`): an
unknown version or a bad name is exit status 2 with one line, never a traceback.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

_ROOT = click.option(
    "--root",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="The store directory (default: $WHILEAI_STORE or ~/.cache/whileai-env/store).",
)


@click.group("store")
def store_cmd() -> None:
    """Keep versions of a run's rows with lineage, a profile and a card each."""


@store_cmd.command("push")
@click.argument("rows", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--name", required=True, help="The dataset's name (letters, digits, . _ -).")
@click.option("--parent", default=None, help="The version (id or name) this one iterates on.")
@click.option("--description", default="", help="A line saying what this version is.")
@_ROOT
def push_cmd(
    rows: Path, name: str, parent: str | None, description: str, root: Path | None
) -> None:
    """Store ROWS (a run's JSONL) as a new version of --name; prints its id."""
    from whileai_env.store import push

    click.echo(push(rows, name, parent=parent, description=description, root=root))


@store_cmd.command("pull")
@click.argument("version")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default=None)
@_ROOT
def pull_cmd(version: str, output: Path | None, root: Path | None) -> None:
    """Write VERSION's rows (an id, or a name for its latest) to --output, or to stdout."""
    from whileai_env.data.jsonl import dumps_row
    from whileai_env.store import pull

    if output is not None:
        click.echo(pull(version, output, root=root))
        return
    for row in pull(version, root=root):
        sys.stdout.write(dumps_row(row) + "\n")


@store_cmd.command("ls")
@click.argument("name", required=False)
@_ROOT
def ls_cmd(name: str | None, root: Path | None) -> None:
    """List the versions of NAME (every name when omitted), oldest first."""
    from whileai_env.store import versions

    for v in versions(name, root=root):
        state = "final" if v["finalized"] else "draft"
        parent = v["parent"] or "-"
        click.echo(
            f"{v['id']}  {v['name']}  {v['rows']} rows  {state}  parent {parent}  {v['created']}"
        )


@store_cmd.command("show")
@click.argument("version")
@_ROOT
def show_cmd(version: str, root: Path | None) -> None:
    """Print VERSION's lineage and profile as JSON."""
    from whileai_env.store import lineage, profile

    shown = {"lineage": lineage(version, root=root), "profile": profile(version, root=root)}
    click.echo(json.dumps(shown, indent=2, sort_keys=True))
