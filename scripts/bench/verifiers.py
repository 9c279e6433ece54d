"""Rollouts per second through verifiers 0.3 in-process, and the time the environment adds per
rollout (setup, env responses and scoring as verifiers times them), against ``serve``'s oracle.

Run with a venv that has verifiers 0.3.x (e.g. the one scripts/test-verifiers.sh caches):

    ~/.cache/whileai-env/venvs/vf03/bin/python scripts/bench/verifiers.py [--tasks 40] [--rollouts 4]

Target: the environment adds under 2 ms per rollout.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

# The checkout, in place of this script's folder: run as a file, "import verifiers" would find
# this script itself.
sys.path[0] = str(Path(__file__).resolve().parents[2])

import verifiers as vf  # noqa: E402 (after the path line, to run from a checkout)

import whileai_env as wenv  # noqa: E402
from scripts.bench._specs import largest_spec  # noqa: E402
from whileai_env.serving.chat_server import ChatServer  # noqa: E402
from whileai_env.serving.policies import policy_script  # noqa: E402


def _env_ms(output: dict) -> float:
    """What verifiers timed on the environment's side of one rollout, in milliseconds."""
    timing = output["timing"]
    spans = lambda part: sum(s["end"] - s["start"] for s in timing[part]["spans"])  # noqa: E731
    return 1000 * (
        timing["setup"]["end"]
        - timing["setup"]["start"]
        + spans("env")
        + timing["scoring"]["end"]
        - timing["scoring"]["start"]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=40)
    parser.add_argument("--rollouts", type=int, default=4)
    parser.add_argument("--spec", default=None, help="default: the largest example spec")
    args = parser.parse_args()
    spec = wenv.load_spec(args.spec or largest_spec())
    tasks = wenv.draw_tasks(spec, args.tasks, mode="rl", seed=0)
    env = wenv.load_environment(spec, tasks=tasks)
    os.environ.setdefault("WHILEAI_BENCH_KEY", "unused")
    with ChatServer(policy_script("oracle", spec, tasks)) as server:
        client = vf.ClientConfig(
            api_base_url=server.base_url, api_key_var="WHILEAI_BENCH_KEY", max_retries=0
        )

        def run(concurrency: int) -> tuple[list[dict], float]:
            start = time.perf_counter()
            out = env.evaluate_sync(
                client,
                model="whileai-policy",
                rollouts_per_example=args.rollouts,
                max_concurrent=concurrency,
            )["outputs"]
            return out, time.perf_counter() - start

        outputs, elapsed = run(-1)
        # One rollout at a time for the env's share: concurrent spans would count the others' waits.
        serial, _ = run(1)
    errors = sum(o["error"] is not None for o in outputs)
    env_ms = [_env_ms(o) for o in serial]
    rewards = [o["reward"] for o in outputs]
    print(
        f"spec {spec.name}: {len(outputs)} rollouts in {elapsed:.2f} s = {len(outputs) / elapsed:.1f} rollouts/s "
        f"(in-process verifiers {vf.__version__}, oracle over a local HTTP endpoint; {errors} errors)"
    )
    print(
        f"env time per rollout: median {statistics.median(env_ms):.2f} ms, mean {statistics.fmean(env_ms):.2f} ms, "
        f"p95 {sorted(env_ms)[int(0.95 * (len(env_ms) - 1))]:.2f} ms (target < 2 ms); mean reward {statistics.fmean(rewards):.3f}"
    )


if __name__ == "__main__":
    main()
