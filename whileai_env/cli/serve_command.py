"""``serve``: an OpenAI-compatible chat-completions endpoint played by a reference agent or a model."""

from __future__ import annotations

import time
from pathlib import Path

import click

from whileai_env.cli.common import fail
from whileai_env.errors import WhileaiError


@click.command("serve")
@click.argument("source", type=click.Path(path_type=Path))
@click.option(
    "--policy",
    default="oracle",
    show_default=True,
    help="oracle | seeded | silent, or a model: vllm:MODEL@URL | openai:MODEL | hf:PATH",
)
@click.option("--port", default=8000, show_default=True, help="0 picks a free port.")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option(
    "-n",
    "--n",
    "n",
    default=20,
    show_default=True,
    help="Situations drawn from a spec (as load_environment).",
)
@click.option("--seed", default=0, show_default=True)
@click.option("--mode", default="rl", show_default=True)
@click.option(
    "--model",
    "model_name",
    default="whileai-policy",
    show_default=True,
    help="The id /v1/models lists.",
)
def serve_cmd(
    source: Path, policy: str, port: int, host: str, n: int, seed: int, mode: str, model_name: str
) -> None:
    """Serve /v1/chat/completions (tool calls, streaming and not) and /v1/models for SOURCE's tasks
    (an exported package or a spec), finding each conversation's task from its first user message:
    for wiring and testing evals with no model service."""
    from whileai_env.serving.chat_server import ChatServer
    from whileai_env.serving.policies import policy_script
    from whileai_env.serving.tasks import served_tasks

    try:
        spec, tasks = served_tasks(source, n=n, seed=seed, mode=mode)
        server = ChatServer(
            policy_script(policy, spec, tasks), model=model_name, host=host, port=port
        ).start()
    except (WhileaiError, ValueError, OSError) as exc:
        fail(str(exc))
        return
    click.echo(f"serving {len(tasks)} tasks with {policy} at {server.base_url}", err=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        server.close()
