"""Gymnasium env steps per second (tool-call steps) and memory per live episode.

Plays the oracle's tool-call turns through ``AgentEnv.step`` on the largest example spec and
reports steps/s of this process's CPU time (wall-clock too), then opens ``--live`` episodes at
once and reports the traced Python memory each one holds (tracemalloc).

    python scripts/bench/gym.py
    python scripts/bench/gym.py --spec configs/specs/order-support.json --steps 20000
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from _specs import largest_spec  # noqa: E402

import whileai_env as wenv  # noqa: E402
from whileai_env.agents import oracle_agent  # noqa: E402
from whileai_env.envs.gym import AgentEnv  # noqa: E402


def tool_call_actions(spec: wenv.Spec, tasks: list[wenv.Task]) -> list[tuple[str, list]]:
    """For each task, the oracle's turns up to and including its last tool call."""
    out = []
    for task in tasks:
        policy = oracle_agent(spec)
        policy.start(task)
        episode = wenv.Episode(spec, task, grade=False)
        actions = []
        while not episode.done:
            action = policy(episode.messages)
            if not action.get("tool_calls"):
                break
            actions.append(action)
            episode.step(action)
        if actions:
            out.append((task.task_id, actions))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--spec", type=Path, default=None)
    parser.add_argument("--steps", type=int, default=20000)
    parser.add_argument("--live", type=int, default=500)
    args = parser.parse_args()
    spec_path = args.spec or largest_spec()
    spec = wenv.load_spec(spec_path)
    tasks = wenv.draw_tasks(spec, 200, seed=0)
    scripts = tool_call_actions(spec, tasks)
    env = AgentEnv(spec=spec, tasks=tasks)

    steps = 0
    cpu0, wall0 = time.process_time(), time.perf_counter()
    while steps < args.steps:
        for task_id, actions in scripts:
            env.reset(options={"task_id": task_id})
            for action in actions:
                env.step(action)
                steps += 1
            if steps >= args.steps:
                break
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0

    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    live = []
    for i in range(args.live):
        task_id, actions = scripts[i % len(scripts)]
        episode_env = AgentEnv(spec=spec, tasks=[t for t in tasks if t.task_id == task_id])
        episode_env.reset(seed=i)
        for action in actions:
            episode_env.step(action)
        live.append(episode_env.episode)
    gc.collect()
    held = (tracemalloc.get_traced_memory()[0] - before) / len(live)
    tracemalloc.stop()

    report = {
        "spec": str(spec_path.relative_to(ROOT)) if spec_path.is_absolute() else str(spec_path),
        "tools": len(spec.tools),
        "tool_call_steps": steps,
        "steps_per_s_cpu": round(steps / cpu),
        "steps_per_s_wall": round(steps / wall),
        "live_episodes": len(live),
        "kb_per_live_episode": round(held / 1024, 1),
        "targets": {"steps_per_s": 10000, "kb_per_live_episode": 100},
    }
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
