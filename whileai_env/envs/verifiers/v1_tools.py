"""The v1 task and its per-rollout tool server: the task's world behind MCP, schemas verbatim.

verifiers 0.4 starts a ``Task``'s toolsets once per rollout as their own process
(``python -m whileai_env.envs.verifiers.v1_tools``, hence the ``__main__`` guard) and hands the
server the rollout's task data. The server builds the task's :class:`~whileai_env.Episode` and
answers each MCP call with :meth:`Episode.call_tool`: faults, the ledger and the result text
exactly as the episode writes a tool message. ``TOOL_PREFIX = None`` keeps the spec's tool names.

The tools are listed with the spec's own JSON schemas: ``Toolset.register`` would derive them
from Python signatures, losing nested objects, formats and defaults, so :meth:`register` answers
the server's ``list_tools``/``call_tool`` itself (the two methods its MCP handlers call).

verifiers is imported when a class is first asked for, never when this module is.
"""

from __future__ import annotations

import functools
import json
from typing import Any

from whileai_env.envs.verifiers.common import tool_defs
from whileai_env.envs.verifiers.v1_source import episode_kwargs, read_source
from whileai_env.episode.engine import Episode

__all__ = ["WhileaiTask", "WhileaiTaskData", "WorldToolset"]  # noqa: F822 (built by __getattr__)


def __getattr__(name: str) -> Any:
    """The classes by name: a tool server finds the task data class as ``module:qualname``."""
    if name == "WorldToolset":
        return toolset_class()
    if name in ("WhileaiTaskData", "WhileaiTask"):
        return task_classes()[name == "WhileaiTask"]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@functools.cache
def task_classes() -> tuple[Any, Any]:
    """(``WhileaiTaskData``, ``WhileaiTask``): the task in ``info``; the world as its toolset."""
    import verifiers.v1 as vf
    from pydantic import Field

    class WhileaiTaskData(vf.TaskData):
        info: dict[str, Any] = Field(default_factory=dict)

    class WhileaiTaskConfig(vf.TaskConfig):
        source: str = ""
        options: dict[str, Any] = Field(default_factory=dict)

    class WhileaiTask(vf.Task[WhileaiTaskData, vf.State, WhileaiTaskConfig]):
        @property
        def key(self) -> str:
            return str(self.data.id)

        @classmethod
        def toolsets(cls, config: Any) -> list[Any]:
            server = toolset_class()
            return [server(server._config_cls()(source=config.source, options=config.options))]

    for cls in (WhileaiTaskData, WhileaiTaskConfig, WhileaiTask):
        cls.__qualname__ = cls.__name__
    return WhileaiTaskData, WhileaiTask


@functools.cache
def toolset_class() -> Any:
    """``WorldToolset``: one rollout's world answering MCP tool calls."""
    import verifiers.v1 as vf
    from mcp_types import CallToolResult, TextContent
    from mcp_types import Tool as MCPTool
    from pydantic import Field

    class WorldToolsetConfig(vf.ToolsetConfig):
        source: str = ""
        options: dict[str, Any] = Field(default_factory=dict)

    class WorldToolset(vf.Toolset[WorldToolsetConfig]):
        TOOL_PREFIX = None

        async def setup(self) -> None:
            self.spec = read_source(self.config.source)[0]
            self.episode: Episode | None = None

        async def setup_task(self, task: Any) -> None:
            # The simulated user and the judge live with the env, not here.
            options = {k: v for k, v in self.config.options.items() if k not in ("user", "judge")}
            self.episode = Episode.from_row(task.info, self.spec, **episode_kwargs(options))

        def register(self, mcp: Any) -> None:
            mcp.list_tools = self.list_tools
            mcp.call_tool = self.call_tool

        async def list_tools(self) -> list[Any]:
            return [
                MCPTool(name=d["name"], description=d["description"], input_schema=d["parameters"])
                for d in tool_defs(self.spec)
            ]

        async def call_tool(self, name: str, arguments: Any, context: Any = None) -> Any:
            if self.episode is None:
                raise RuntimeError("no task: this server runs per rollout")
            result = self.episode.call_tool(name, arguments)
            text = json.dumps(result, ensure_ascii=False, default=str)
            return CallToolResult(content=[TextContent(type="text", text=text)])

    for cls in (WorldToolsetConfig, WorldToolset):
        cls.__qualname__ = cls.__name__
    return WorldToolset


if __name__ == "__main__":
    toolset_class().run()
