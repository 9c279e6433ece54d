"""What every ``whileai-env`` verb shares: the console and one-line errors.

Every error the command line reports is one line, ``error: <where>: <what>``, with exit status 2
for bad input (a spec, an option, a path, an agent that cannot start) and 1 for a failure at run
time (a full disk, an agent that broke mid-run, a bug); the traceback is shown only under
``whileai-env --debug``. :class:`OneLineErrors` is the group class that enforces it.
"""

from __future__ import annotations

import errno
import sys
import traceback
import warnings
from typing import Any, NoReturn

import click

#: OSError codes that mean the path given is wrong (bad input), not that the run failed.
_BAD_PATH = frozenset(
    {
        errno.EACCES,
        errno.EPERM,
        errno.ENOENT,
        errno.ENOTDIR,
        errno.EISDIR,
        errno.EROFS,
        errno.ENAMETOOLONG,
        errno.EEXIST,
        errno.ELOOP,
    }
)
_MAX_LINE = 400


def console():
    from rich.console import Console

    return Console(highlight=False, soft_wrap=True)


def one_line(message: str) -> str:
    """``message`` on one line (later lines joined with "; "), capped in length."""
    text = (
        "; ".join(part.strip() for part in str(message).splitlines() if part.strip())
        or "unknown error"
    )
    return text if len(text) <= _MAX_LINE else text[: _MAX_LINE - 1] + "…"


def fail(message: str, code: int = 2) -> NoReturn:
    """Print ``error: message`` (one line) and exit with ``code`` (2: bad input, 1: run time)."""
    click.echo(f"error: {one_line(message)}", err=True)
    sys.exit(code)


def os_error_message(exc: OSError) -> str:
    """``<path>: <reason>`` for a failed file operation."""
    where = exc.filename if exc.filename is not None else None
    reason = exc.strerror or str(exc)
    return f"{where}: {reason}" if where else reason


def describe(exc: BaseException) -> tuple[str, int]:
    """The one-line message and exit status for an exception that reached the command line."""
    from whileai_env.errors import AgentError, EpisodeOver, WhileaiError

    if isinstance(exc, OSError) and not isinstance(exc, WhileaiError):
        return os_error_message(exc), 2 if exc.errno in _BAD_PATH else 1
    if isinstance(exc, AgentError | EpisodeOver):
        return str(exc), 1
    if isinstance(exc, WhileaiError | ValueError | TypeError | LookupError):
        return str(exc), 2
    return (
        f"{type(exc).__name__}: {exc} (an internal error; rerun with --debug for the traceback)",
        1,
    )


class OneLineErrors(click.Group):
    """A click group whose every error is one line (see the module docstring).

    ``--debug`` (the group's option) turns the one line back into the full traceback.
    """

    def main(
        self,
        args: Any = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        argv = list(sys.argv[1:] if args is None else args)
        debug = "--debug" in argv[: _first_command(argv, self)]
        shown = warnings.showwarning
        if not debug:
            warnings.showwarning = _warning_line
        try:
            return super().main(argv, prog_name, complete_var, standalone_mode=False, **extra)
        except click.exceptions.Exit as exc:
            sys.exit(exc.exit_code)
        except click.Abort:
            fail("aborted", 1)
        except click.ClickException as exc:
            if debug:
                raise
            ctx = getattr(exc, "ctx", None)  # usage errors carry the command they came from
            hint = f" (see {ctx.command_path} --help)" if ctx is not None else ""
            fail(exc.format_message() + hint, exc.exit_code)
        except KeyboardInterrupt:
            fail("interrupted; the rows written so far are kept (continue with --resume)", 130)
        except Exception as exc:
            if debug:
                traceback.print_exc()
                sys.exit(1)
            message, code = describe(exc)
            fail(message, code)
        finally:
            warnings.showwarning = shown


def _warning_line(
    message: Warning | str,
    category: type[Warning],
    filename: str,
    lineno: int,
    file: Any = None,
    line: str | None = None,
) -> None:
    """A warning as one line, ``warning: <message>`` (the message names its own where)."""
    click.echo(f"warning: {one_line(str(message))}", err=True)


def _first_command(argv: list[str], group: click.Group) -> int:
    """Index of the first argument that names a command (``--debug`` must come before it)."""
    for i, arg in enumerate(argv):
        if arg in group.commands:
            return i
    return len(argv)


def parse_kinds(values: tuple[str, ...]) -> dict[str, str]:
    kinds = {}
    for item in values:
        name, sep, kind = item.partition("=")
        if not sep or not name or not kind:
            fail(f"--kind expects TOOL=KIND (e.g. sync=write), got {item!r}")
        kinds[name] = kind
    return kinds
