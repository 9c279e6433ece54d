"""Which argument of a tool plays which part for a result family, found by role, never by one
literal name: the path of a file tool (``cat(file_name)``, ``move_file(source, destination)``),
the command of a shell tool (``run_command(argv, cwd)``), the expression of a calculator, the
text to write, the pattern to search for, the numbers to compute with.

A role is read off the argument's name words, its schema type and its description, so
``file_name``, ``filePath``, ``dir_name`` and a ``source`` "path of the file to copy" are all paths.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from whileai_env._util.lexicon import name_tokens
from whileai_env.spec.arguments import schema_types

_PATH_WORDS = frozenset(
    {
        "path",
        "paths",
        "file",
        "files",
        "filename",
        "filenames",
        "filepath",
        "dir",
        "dirs",
        "directory",
        "directories",
        "folder",
        "folders",
        "dirname",
        "cwd",
        "workdir",
    }
)
_NOT_PATH = frozenset(
    {
        "content",
        "contents",
        "type",
        "size",
        "mode",
        "format",
        "count",
        "data",
        "text",
        "body",
        "encoding",
        "extension",
        "permission",
        "permissions",
        "id",
        "ids",
        "repo",
        "repository",
        "root",
        "project",
        "workspace",
        "worktree",
    }
)
_ENDS = frozenset(
    {"source", "src", "destination", "dest", "dst", "target", "from", "to", "old", "new"}
)
_DESTINATION = frozenset({"destination", "dest", "dst", "target", "to", "new"})
_PATH_TEXT = ("path", "file", "directory", "folder")
_CONTENT_WORDS = frozenset(
    {"content", "contents", "text", "body", "data", "code", "source", "lines", "line"}
)
_QUERY_WORDS = frozenset(
    {
        "query",
        "pattern",
        "regex",
        "regexp",
        "q",
        "search",
        "keyword",
        "keywords",
        "term",
        "needle",
        "glob",
        "grep",
    }
)
_COMMAND_WORDS = frozenset({"command", "cmd", "script", "commandline", "shell"})
_ARGV_WORDS = frozenset({"argv", "args", "arguments", "command", "cmd"})
_EXPRESSION_WORDS = frozenset({"expression", "expr", "formula", "equation", "calculation", "math"})
#: Words of a tool name that say it calculates (``calculate``, ``eval``).
CALCULATOR_WORDS = frozenset(
    {"calculator", "calculate", "calc", "evaluate", "eval", "math", "arithmetic"}
)
#: Names of the operand that comes second (``a - b``, ``minuend - subtrahend``, ``base ** exponent``).
_SECOND_OPERAND = frozenset(
    {
        "b",
        "y",
        "subtrahend",
        "divisor",
        "denominator",
        "exponent",
        "whole",
        "second",
        "num2",
        "number2",
        "decimals",
        "places",
        "precision",
        "base_of",
    }
)
_FREE_INPUT = frozenset({"input", "query", "q", "text", "question", "problem"})


def _words(arg: str) -> set[str]:
    return set(name_tokens(arg))


def _is_string(schema: Any) -> bool:
    types = schema_types(schema) if isinstance(schema, Mapping) else set()
    return not types or "string" in types


def _is_string_list(schema: Any) -> bool:
    if not isinstance(schema, Mapping) or "array" not in schema_types(schema):
        return False
    items = schema.get("items")
    return isinstance(items, Mapping) and _is_string(items)


def _says_path(schema: Any) -> bool:
    text = schema.get("description") if isinstance(schema, Mapping) else None
    return _mentions_path(text)


def _mentions_path(text: Any) -> bool:
    return isinstance(text, str) and any(w in text.lower() for w in _PATH_TEXT)


def is_path(arg: str, schema: Any, tool_text: str = "") -> bool:
    """Whether an argument names a file or folder: a path word in its name (``file_name``,
    ``dirPath``, ``cwd``) that is not about the file's contents or kind, nor the repository's own
    root (``repo_path``), or an end of a move (``source``, ``destination``) whose description
    speaks of a path or file, or, when it has none, whose tool's description does (``move_file``:
    "Move or rename files and directories")."""
    if not (_is_string(schema) or _is_string_list(schema)):
        return False
    words = _words(arg)
    if words & _PATH_WORDS and not words & _NOT_PATH:
        return True
    if not words & _ENDS:
        return False
    own = schema.get("description") if isinstance(schema, Mapping) else None
    return _says_path(schema) if own else _mentions_path(tool_text)


@dataclass(frozen=True)
class Roles:
    """The arguments of one tool by role (``None`` or empty when the tool has none)."""

    paths: tuple[str, ...] = ()
    destination: str | None = None
    content: str | None = None
    query: str | None = None
    command: str | None = None
    argv: str | None = None
    expression: str | None = None
    numbers: tuple[str, ...] = ()

    @property
    def source(self) -> str | None:
        """The path a move or copy reads from (the first path that is not the destination)."""
        return next((p for p in self.paths if p != self.destination), None)


_ZONE_WORDS = frozenset({"timezone", "tz", "zone"})


def is_zone_argument(name: str) -> bool:
    """An argument that names a time zone (``timezone``, ``timeZone``, ``target_tz``).

    >>> is_zone_argument("timeZone"), is_zone_argument("source_tz"), is_zone_argument("time")
    (True, True, False)
    """
    words = set(name_tokens(name))
    return bool(words & _ZONE_WORDS)


def _first(
    props: Mapping[str, Any], words: frozenset[str], skip: tuple[str, ...] = ()
) -> str | None:
    return next(
        (a for a, s in props.items() if a not in skip and _words(a) & words and _is_string(s)), None
    )


def _expression(props: Mapping[str, Any], tool_words: set[str]) -> str | None:
    found = _first(props, _EXPRESSION_WORDS)
    if found is None and tool_words & CALCULATOR_WORDS:
        found = _first(props, _FREE_INPUT)
    return found


def find_roles(
    tool_name: str,
    props: Mapping[str, Any],
    required: tuple[str, ...] = (),
    description: str = "",
) -> Roles:
    """The arguments of a tool by role (see the module docstring). Arguments are taken in the
    order of the ``required`` list (the author's order: a loaded schema's keys are sorted), then
    the optional ones, so ``subtract(minuend, subtrahend)`` and ``cp(source, destination)`` keep
    theirs. ``description`` is the tool's: it says whether bare move ends are paths."""
    order = {name: i for i, name in enumerate(required)}
    props = {
        a: props[a]
        for a in sorted(props, key=lambda a: order.get(a, len(order)))
        if isinstance(props[a], Mapping)
    }
    paths = tuple(a for a, s in props.items() if is_path(a, s, description))
    destination = next(
        (p for p in paths if _words(p) & _DESTINATION), paths[1] if len(paths) > 1 else None
    )
    command = next(
        (
            a
            for a, s in props.items()
            if _words(a) & _COMMAND_WORDS and _is_string(s) and not _is_string_list(s)
        ),
        None,
    )
    argv = next(
        (a for a, s in props.items() if _words(a) & _ARGV_WORDS and _is_string_list(s)), None
    )
    numbers = tuple(
        sorted(
            (
                a
                for a, s in props.items()
                if schema_types(s) & {"number", "integer"}
                or (
                    "array" in schema_types(s)
                    and isinstance(s.get("items"), Mapping)
                    and schema_types(s["items"]) & {"number", "integer"}
                )
            ),
            key=lambda a: bool(_words(a) & _SECOND_OPERAND),
        )
    )
    return Roles(
        paths=paths,
        destination=destination,
        content=_first(props, _CONTENT_WORDS, paths),
        query=_first(props, _QUERY_WORDS, paths),
        command=command,
        argv=argv,
        expression=_expression(props, _words(tool_name)),
        numbers=numbers,
    )
