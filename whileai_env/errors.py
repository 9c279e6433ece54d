"""Every exception whileai-env raises on purpose: one hierarchy under :class:`WhileaiError`.

Each names what is wrong and where, in one line. Catch ``WhileaiError`` to catch them all, or the
built-in base each also derives from (``ValueError``, ``ImportError``, ``FileExistsError`` …).
"""

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
        text = f"{': '.join(where)}: {message}" if where else message
        super().__init__(_one_line(text))


def _one_line(text: str) -> str:
    """``text`` with line breaks escaped: an error names a spec's key verbatim, and a key may
    hold a newline, but the message stays one line (what the CLI prints)."""
    return text.replace("\r", "\\r").replace("\n", "\\n")


class MissingExtraError(WhileaiError, ImportError):
    """An optional dependency is missing; the message names the extra to install."""

    def __init__(self, module: str, extra: str) -> None:
        super().__init__(
            f"{module!r} is not installed. Install the extra: pip install 'whileai-env[{extra}]'"
        )
        self.module = module
        self.extra = extra


class OutputExistsError(WhileaiError, FileExistsError):
    """The output file already holds rows and the run was not asked to resume."""


class ResumeMismatchError(WhileaiError, ValueError):
    """``resume=True`` was asked of a file written by a run with another configuration."""


class StoreError(WhileaiError, LookupError):
    """The dataset store cannot do what was asked: an unknown name or version, a version with no
    rows to finalize, or an unfinalized version sent to the Hub."""


class RowError(WhileaiError, ValueError):
    """A row that does not match the schema; ``errors`` lists ``"$.path: problem"`` strings."""

    def __init__(self, errors: list[str]) -> None:
        self.errors = errors
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        super().__init__(f"invalid row: {errors[0]}{more}")


class PrivilegedLeakError(WhileaiError, ValueError):
    """An export refused because a reply quotes privileged context."""


class EpisodeOver(WhileaiError, RuntimeError):
    """``step`` was called on an episode that already ended; call ``reset()`` or start another."""


class AgentError(WhileaiError, RuntimeError):
    """The agent raised or returned something the loop cannot use; the rollout is lost."""


class ConfigError(WhileaiError, ValueError):
    """A run's configuration (``SimulationConfig``, a ``--config`` file) that cannot be used."""


class JudgeOutputError(WhileaiError, ValueError):
    """A model judge answered, but not in the shape its prompt asked for (no JSON verdict, an
    unknown criterion, a score off the scale). The judge runner marks the row ``invalid_result``
    and keeps ``meta`` (the judge's provenance, the raw answer) in ``judge_meta``."""

    def __init__(self, message: str, meta: dict[str, object] | None = None) -> None:
        super().__init__(_one_line(message))
        self.meta = dict(meta or {})


class PublishGateError(WhileaiError, ValueError):
    """A dataset refused by the publish gate: RL-shaped rows that are ungraded or hold no task
    whose rollouts both pass and fail (a grouped update would learn nothing from them)."""


class TraceError(WhileaiError, ValueError):
    """Traces that cannot be read: a JSONL line or OTLP document that is not what it claims,
    named by file and line (or batch and span) where the reader knows them."""


class WorkerError(WhileaiError, RuntimeError):
    """A ``simulate(workers=N)`` worker that cannot do its job: it cannot start, cannot be sent
    the agent, or died again and again playing the same rollouts."""


class LabelsError(WhileaiError, ValueError):
    """A file of hand labels that cannot be read: a line that is not JSON, a record without an id
    or a label, a label that is not a pass or a fail. The message names the file and the line."""
