"""What every ``whileai-env`` verb shares: the console and one-line errors."""

from __future__ import annotations

import sys

import click


def console():
    from rich.console import Console

    return Console(highlight=False, soft_wrap=True)


def fail(message: str) -> None:
    click.echo(f"error: {message}", err=True)
    sys.exit(2)


def parse_kinds(values: tuple[str, ...]) -> dict[str, str]:
    kinds = {}
    for item in values:
        name, sep, kind = item.partition("=")
        if not sep or not name or not kind:
            fail(f"--kind expects TOOL=KIND (e.g. sync=write), got {item!r}")
        kinds[name] = kind
    return kinds
