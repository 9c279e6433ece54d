"""Gymnasium env: tool-call steps per second by episode length, memory per live episode, and
``AsyncVectorEnv`` throughput at N envs, this tree against an earlier commit in the same run.

Plays each task's oracle tool calls, cycled, through ``AgentEnv.step`` in episodes of ``--turns``
turns each (8, 128 and 512 by default) and reports steps/s of CPU time per length, then holds
``--live`` episodes of 12 turns at once and reports the traced Python memory each one holds
(tracemalloc). Both run in a child process per version (``--against``, default ``HEAD~1``).
Last, this tree only: ``gymnasium.vector.AsyncVectorEnv`` at each of ``--vector`` env counts (8-turn
episodes, ``observation="new_messages"``, as docs/gymnasium.md recommends), steps/s of
wall-clock and the CPU per step of the driver and its worker processes together; then one env in
``AsyncVectorEnv`` at each ``--turns`` length with each observation, since there the whole
observation crosses a pipe at every step.

    python scripts/bench/gym.py
    python scripts/bench/gym.py --against 962b984 --turns 8 512 --vector 1 2
"""

from __future__ import annotations

import argparse
import functools
import gc
import itertools
import json
import sys
import time
import tracemalloc
from pathlib import Path

from _baseline import PACKAGE_ROOT, ROOT, child, worktree

sys.path.insert(0, str(PACKAGE_ROOT))

from _specs import largest_spec

import whileai_env as wenv
from whileai_env.agents import oracle_agent
from whileai_env.envs.gym import AgentEnv

LIVE_TURNS = 12


def tool_calls(spec: wenv.Spec, tasks: list[wenv.Task]) -> list[tuple[wenv.Task, list]]:
    """For each task, the oracle's tool-call turns (tasks without one are left out)."""
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
            out.append((task, actions))
    return out


def play(env: AgentEnv, task: wenv.Task, actions: list, turns: int) -> int:
    """One episode of ``turns`` tool-call turns (``actions`` cycled); the steps played."""
    env.reset(options={"task_id": task.task_id})
    for steps, action in enumerate(itertools.islice(itertools.cycle(actions), turns), 1):
        _, _, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            return steps
    return turns


def steps_per_s(spec: wenv.Spec, scripts: list, turns: int, total: int) -> float:
    """Tool-call steps per CPU second over ``total`` steps in episodes of ``turns`` turns."""
    env = AgentEnv(spec=spec, tasks=[t for t, _ in scripts], max_turns=turns + 1)
    steps, cpu = 0, time.process_time()
    for task, actions in itertools.cycle(scripts):
        steps += play(env, task, actions, turns)
        if steps >= total:
            break
    return steps / (time.process_time() - cpu)


def kb_per_live_episode(spec: wenv.Spec, scripts: list, live: int) -> float:
    """Traced memory each of ``live`` envs holds after a 12-turn episode (tasks shared)."""
    tasks = [t for t, _ in scripts]
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    held = []
    for i in range(live):
        task, actions = scripts[i % len(scripts)]
        env = AgentEnv(spec=spec, tasks=tasks, max_turns=LIVE_TURNS + 1)
        play(env, task, actions, LIVE_TURNS)
        held.append(env)
    gc.collect()
    per = (tracemalloc.get_traced_memory()[0] - before) / len(held)
    tracemalloc.stop()
    return per / 1024


def measure(spec_path: Path, turns: list[int], total: int, live: int) -> dict:
    spec = wenv.load_spec(spec_path)
    scripts = tool_calls(spec, wenv.draw_tasks(spec, 200, seed=0))
    return {
        "steps_per_s_cpu": {str(n): round(steps_per_s(spec, scripts, n, total)) for n in turns},
        "kb_per_live_episode_12_turns": round(kb_per_live_episode(spec, scripts, live), 1),
    }


def vector_steps(
    spec_path: Path, n: int, total: int, turns: int = 8, observation: str = "new_messages"
) -> dict[str, float]:
    """Tool-call steps/s of wall-clock of ``n`` envs in ``AsyncVectorEnv`` (each its own task),
    and the CPU each step cost the driver and its workers together (the workers' from their
    rusage once they are joined): a cost per step that does not grow with ``n`` means the
    throughput grows with the cores there are to run the workers on."""
    import resource

    import gymnasium as gym

    def cpu() -> float:
        own = resource.getrusage(resource.RUSAGE_SELF)
        kids = resource.getrusage(resource.RUSAGE_CHILDREN)
        return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime

    spec = wenv.load_spec(spec_path)
    scripts = tool_calls(spec, wenv.draw_tasks(spec, 40, seed=0))[:n]
    fns = [
        functools.partial(AgentEnv, spec=spec, tasks=[t], max_turns=turns, observation=observation)
        for t, _ in scripts
    ]
    vec = gym.vector.AsyncVectorEnv(fns, shared_memory=False, copy=False)
    vec.reset(seed=0)
    turn, ended, steps = [0] * n, [False] * n, 0
    wall, cpu0 = time.perf_counter(), cpu()
    while steps < total:
        actions = [a[turn[i] % len(a)] for i, (_, a) in enumerate(scripts)]
        _, _, terms, truncs, _ = vec.step(actions)
        for i in range(n):
            steps += not ended[i]
            turn[i] = 0 if ended[i] else turn[i] + 1
            ended[i] = bool(terms[i] or truncs[i])
    wall = time.perf_counter() - wall
    vec.close()
    used = cpu() - cpu0
    return {"steps_per_s_wall": round(steps / wall), "cpu_us_per_step": round(1e6 * used / steps)}


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--spec", type=Path, default=None)
    parser.add_argument("--turns", type=int, nargs="+", default=[8, 128, 512])
    parser.add_argument("--steps", type=int, default=6000, help="steps per episode length")
    parser.add_argument("--live", type=int, default=300)
    parser.add_argument("--vector", type=int, nargs="*", default=[1, 2])
    parser.add_argument("--against", default="HEAD~1")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    spec_path = (args.spec or largest_spec()).resolve()
    child_args = ["--spec", str(spec_path), "--steps", str(args.steps), "--live", str(args.live)]
    child_args += ["--turns", *map(str, args.turns)]
    if args.child:
        print(json.dumps(measure(spec_path, args.turns, args.steps, args.live)))
        return
    with worktree(args.against) as old_root:
        old = child(Path(__file__), child_args, old_root)
    now = child(Path(__file__), child_args, ROOT)
    short, long = str(min(args.turns)), str(max(args.turns))
    vector = {str(n): vector_steps(spec_path, n, args.steps) for n in args.vector}
    by_turns = {
        observation: {
            str(t): vector_steps(spec_path, 1, args.steps, t, observation)["steps_per_s_wall"]
            for t in args.turns
        }
        for observation in ("messages", "new_messages")
    }
    report = {
        "spec": str(spec_path.relative_to(ROOT)),
        args.against: old,
        "now": now,
        f"now_{long}_over_{short}_turns": round(
            now["steps_per_s_cpu"][long] / now["steps_per_s_cpu"][short], 2
        ),
        f"{args.against}_{long}_over_{short}_turns": round(
            old["steps_per_s_cpu"][long] / old["steps_per_s_cpu"][short], 2
        ),
        "async_vector_by_envs": vector,
        "async_vector_1_env_steps_per_s_by_turns": by_turns,
        "targets": {"long_over_short": 0.8, "kb_per_live_episode_12_turns": 100},
    }
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
