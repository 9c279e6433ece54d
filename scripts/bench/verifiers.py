"""Rollouts per second through verifiers in-process against ``serve``'s oracle, and the time the
environment adds per rollout, for whichever verifiers the running venv has (0.3 or 0.4).

Two figures for the environment's time per rollout:

- *env code*: the environment's own work on one rollout, timed by replaying each rollout's
  transcript outside verifiers: the episode built from the row, every assistant turn stepped
  (tools, faults, the user), the grade and the metrics; for 0.4 also the tool server's side (its
  episode, one ``call_tool`` per call). This is what the < 2 ms target is about.
- *as verifiers times it* (0.3 only): setup, env responses and scoring spans from verifiers'
  own timing, one rollout at a time; verifiers' message handling and the event loop included.
  0.4 starts a harness and a tool server process per rollout; its setup median is printed.

    ~/.cache/whileai-env/venvs/vf03/bin/python scripts/bench/verifiers.py [--tasks 40] [--rollouts 4]
    PATH=~/.cache/whileai-env/venvs/vf04/bin:$PATH \\
        ~/.cache/whileai-env/venvs/vf04/bin/python scripts/bench/verifiers.py --tasks 8 --rollouts 1
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

# The checkout, in place of this script's folder: run as a file, "import verifiers" would find
# this script itself.
sys.path[0] = str(Path(__file__).resolve().parents[2])

import whileai_env as wenv  # noqa: E402
from scripts.bench._specs import largest_spec  # noqa: E402
from whileai_env.envs.verifiers.common import (  # noqa: E402
    graded,
    rollout_metrics,
    verifiers_generation,
)
from whileai_env.envs.verifiers.v1_play import play_segment  # noqa: E402
from whileai_env.serving.chat_server import ChatServer  # noqa: E402
from whileai_env.serving.policies import policy_script  # noqa: E402

KEY = "WHILEAI_BENCH_KEY"


def _ms(values: list[float]) -> str:
    ordered = sorted(values)
    return (
        f"median {1000 * statistics.median(ordered):.2f} ms, mean {1000 * statistics.fmean(ordered):.2f} ms, "
        f"p95 {1000 * ordered[int(0.95 * (len(ordered) - 1))]:.2f} ms"
    )


def _replay_classic(spec: wenv.Spec, task: wenv.Task, transcript: list[dict]) -> float:
    """Seconds the classic env's own work takes on one rollout's transcript."""
    start = time.perf_counter()
    episode = wenv.Episode.from_row(task.to_dict(), spec)
    for turn in (m for m in transcript if m["role"] == "assistant"):
        episode.step(turn)
    graded(episode)
    rollout_metrics(episode, spec.tool_names)
    return time.perf_counter() - start


def _segments(transcript: list[dict]) -> list[list[Any]]:
    """A transcript as the v1 harness hands it over: one segment per user turn answered."""
    segments: list[list[Any]] = [[]]
    for m in transcript[2:]:
        if m["role"] == "user":
            segments.append([])
            continue
        calls = [
            SimpleNamespace(
                id=c["id"], name=c["function"]["name"], arguments=c["function"]["arguments"]
            )
            for c in m.get("tool_calls") or []
        ]
        segments[-1].append(SimpleNamespace(role=m["role"], content=m["content"], tool_calls=calls))
    return segments


def _replay_v1(spec: wenv.Spec, task: wenv.Task, transcript: list[dict]) -> float:
    """Seconds the v1 env (host and tool server) spends on one rollout's transcript."""
    start = time.perf_counter()
    server = wenv.Episode.from_row(task.to_dict(), spec)
    for m in transcript:
        for c in m.get("tool_calls") or []:
            server.call_tool(c["function"]["name"], json.loads(c["function"]["arguments"]))
    episode = wenv.Episode.from_row(task.to_dict(), spec)
    for segment in _segments(transcript):
        play_segment(episode, segment)
    graded(episode)
    rollout_metrics(episode, spec.tool_names)
    return time.perf_counter() - start


def _classic_env_ms(output: dict) -> float:
    """What verifiers 0.3 timed on the environment's side of one rollout, in seconds."""
    timing = output["timing"]
    spans = sum(s["end"] - s["start"] for s in timing["env"]["spans"])
    setup = timing["setup"]["end"] - timing["setup"]["start"]
    return setup + spans + timing["scoring"]["end"] - timing["scoring"]["start"]


def bench_classic(spec: wenv.Spec, tasks: list[wenv.Task], rollouts: int) -> None:
    import verifiers as vf

    env = wenv.load_environment(spec, tasks=tasks)
    by_id = {t.task_id: t for t in tasks}
    with ChatServer(policy_script("oracle", spec, tasks)) as server:
        client = vf.ClientConfig(api_base_url=server.base_url, api_key_var=KEY, max_retries=0)

        def run(concurrency: int) -> tuple[list[dict], float]:
            start = time.perf_counter()
            out = env.evaluate_sync(
                client,
                model="whileai-policy",
                rollouts_per_example=rollouts,
                max_concurrent=concurrency,
                state_columns=["transcript"],
            )["outputs"]
            return out, time.perf_counter() - start

        outputs, elapsed = run(-1)
        # One rollout at a time for the env's share: concurrent spans would count the others' waits.
        serial, _ = run(1)
    _report(
        outputs, elapsed, f"in-process verifiers {vf.__version__}", [o["reward"] for o in outputs]
    )
    replays = [(by_id[o["info"]["task_id"]], o["transcript"]) for o in serial]
    _replay_classic(spec, *replays[0])  # warm-up: the first grade imports the grading modules
    code = [_replay_classic(spec, task, transcript) for task, transcript in replays]
    print(f"env code per rollout: {_ms(code)} (target < 2 ms)")
    print(f"env time as verifiers times it: {_ms([_classic_env_ms(o) for o in serial])}")


def bench_v1(spec: wenv.Spec, tasks: list[wenv.Task], rollouts: int) -> None:
    import verifiers.v1 as vf
    from verifiers import __version__

    env = wenv.load_environment(spec, tasks=tasks)
    by_id = {t.task_id: t for t in tasks}

    async def run(base_url: str) -> list[Any]:
        client = vf.EvalClientConfig(base_url=base_url, api_key_var=KEY)
        ctx = vf.ModelContext(model="whileai-policy", client=client)
        async with env.serving():
            slots = [s for task in env.taskset for s in env.slots(task, rollouts)]
            return await asyncio.gather(*(env.run_slot(s, ctx) for s in slots))

    with ChatServer(policy_script("oracle", spec, tasks)) as server:
        start = time.perf_counter()
        episodes = asyncio.run(run(server.base_url))
        elapsed = time.perf_counter() - start
    traces = [e.traces[0] for e in episodes if e.traces]
    outputs = [{"error": None if e.ok else e.errors} for e in episodes]
    _report(
        outputs, elapsed, f"in-process verifiers {__version__} (v1)", [t.reward for t in traces]
    )
    replays = [(by_id[t.task.data.id], t.info["transcript"]) for t in traces]
    _replay_v1(spec, *replays[0])  # warm-up, as for classic
    code = [_replay_v1(spec, task, transcript) for task, transcript in replays]
    print(f"env code per rollout (host and tool server): {_ms(code)} (target < 2 ms)")
    print(
        f"verifiers' setup per rollout (harness and tool server processes): {_ms([t.timing.setup.duration for t in traces])}"
    )


def _report(outputs: list[dict], elapsed: float, what: str, rewards: list[float]) -> None:
    errors = sum(o["error"] is not None for o in outputs)
    print(
        f"{len(outputs)} rollouts in {elapsed:.2f} s = {len(outputs) / elapsed:.2f} rollouts/s "
        f"({what}, oracle over a local HTTP endpoint; {errors} errors; "
        f"mean reward {statistics.fmean(rewards or [0.0]):.3f})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=40)
    parser.add_argument("--rollouts", type=int, default=4)
    parser.add_argument("--spec", default=None, help="default: the largest example spec")
    args = parser.parse_args()
    spec = wenv.load_spec(args.spec or largest_spec())
    tasks = wenv.draw_tasks(spec, args.tasks, mode="rl", seed=0)
    os.environ.setdefault(KEY, "unused")
    print(f"spec {spec.name}: {len(tasks)} tasks x {args.rollouts} rollouts")
    bench = bench_classic if verifiers_generation() == "classic" else bench_v1
    bench(spec, tasks, args.rollouts)


if __name__ == "__main__":
    main()
