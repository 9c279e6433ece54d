"""Exceptions raised by whileai-env. Each names what is wrong and where."""

from __future__ import annotations


class WhileaiError(Exception):
    """Base class of every error this package raises on purpose."""


class SpecError(WhileaiError, ValueError):
    """A spec (tools, system prompt, rubric) that cannot be loaded.

    ``tool`` names the offending tool when there is one, ``path`` is the JSON path inside it
    (``$.parameters.properties.order_id.type``), ``source`` the file it came from and ``line``
    the line in that file when the parser knows it.
    """

    def __init__(
        self,
        message: str,
        *,
        tool: str | None = None,
        path: str | None = None,
        source: str | None = None,
        line: int | None = None,
    ) -> None:
        self.tool = tool
        self.path = path
        self.source = source
        self.line = line
        where = []
        if source:
            where.append(f"{source}:{line}" if line else source)
        if tool:
            where.append(f"tool {tool!r}")
        if path:
            where.append(path)
        super().__init__(f"{': '.join(where)}: {message}" if where else message)


class MissingExtraError(WhileaiError, ImportError):
    """An optional dependency is missing; the message names the extra to install."""

    def __init__(self, module: str, extra: str) -> None:
        super().__init__(
            f"{module!r} is not installed. Install the extra: pip install 'whileai-env[{extra}]'"
        )
        self.module = module
        self.extra = extra
