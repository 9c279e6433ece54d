"""Soak: a long ``simulate -o`` run's peak memory, and a 2,048-turn episode's final graded step.

1. Streams ``--rows`` rows (100,000 by default) of the seeded agent, graded by
   ``task_checklist``, to a JSONL file through ``whileai-env simulate``'s own code path, then
   prints the process's peak RSS (target: under 300 MB; rows stay on disk, not in memory) and
   checks the file holds every row once.
2. Plays ``--turns`` (2,048) identical tool calls through the Gymnasium env and prints the CPU and
   wall time of the final step, which grades the whole episode (target: under 20 ms), best of 3.
3. Plays an episode of 200 KB turns (three unclosed ``<tool_call>`` blocks, then a 200 KB reply
   of fence noise that ends it) and prints the final, graded step's time (target: under 50 ms),
   best of 3; each try's text is new, so no cache answers it.

    python scripts/bench/soak.py
    python scripts/bench/soak.py --rows 20000 --spec configs/specs/airline.yaml
    python scripts/bench/soak.py --rows 0     # only the two final-step figures
"""

from __future__ import annotations

import argparse
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import whileai_env as wenv  # noqa: E402
from whileai_env.data.jsonl import iter_rows  # noqa: E402
from whileai_env.envs.gym import AgentEnv  # noqa: E402
from whileai_env.grading.checklist import task_checklist  # noqa: E402
from whileai_env.simulation import simulate  # noqa: E402


def peak_rss_mb() -> float:
    """This process's peak resident set size so far, in MB (Linux reports KB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def soak(spec: wenv.Spec, rows: int, out: Path) -> None:
    start = time.perf_counter()
    data = simulate(
        "seeded", spec=spec, budget=rows, output=str(out), grader=task_checklist, quiet=True
    )
    elapsed = time.perf_counter() - start
    keys = {(r["task_id"], r["rollout_index"]) for r in iter_rows(out)}
    print(
        f"simulate -o: {data.search['rows']:,} rows in {elapsed:,.0f} s ({data.stopped_because}); "
        f"{len(keys):,} distinct rows on disk ({out.stat().st_size / 2**20:,.0f} MB); "
        f"peak RSS {peak_rss_mb():,.0f} MB"
    )


def final_step(spec: wenv.Spec, turns: int) -> None:
    env = AgentEnv(
        spec=spec, tasks=wenv.draw_tasks(spec, 2, seed=0), max_turns=turns, error_budget=10 * turns
    )
    tool = spec.tools[0]
    arg = next(iter(tool.properties), "id")
    call = {
        "role": "assistant",
        "content": "",
        "tool_calls": [
            {
                "id": "c",
                "type": "function",
                "function": {"name": tool.name, "arguments": f'{{"{arg}": "A1"}}'},
            }
        ],
    }
    best_cpu = best_wall = float("inf")
    for _ in range(3):
        env.reset(seed=0)
        for _ in range(turns - 1):
            env.step(call)
        cpu, wall = time.process_time(), time.perf_counter()
        *_, info = env.step(call)
        best_cpu = min(best_cpu, time.process_time() - cpu)
        best_wall = min(best_wall, time.perf_counter() - wall)
    assert "reward" in info, "the final step did not grade"
    print(
        f"final graded step of a {turns:,}-turn episode: {best_cpu * 1000:.1f} ms CPU, "
        f"{best_wall * 1000:.1f} ms wall (best of 3)"
    )


def long_turns(spec: wenv.Spec, size: int = 200_000, turns: int = 4) -> None:
    env = AgentEnv(spec=spec, tasks=wenv.draw_tasks(spec, 2, seed=0), max_turns=turns + 1)
    best_cpu = best_wall = float("inf")
    for attempt in range(3):
        env.reset(seed=0)
        for turn in range(turns - 1):
            *_, ended, cut, _ = env.step(f"{attempt}.{turn} <tool_call>a" + "\n" * size + "b")
            assert not (ended or cut), "a malformed call ended the episode"
        reply = f"{attempt} " + ("```{x}y" * (size // 7 + 1))[:size]
        cpu, wall = time.process_time(), time.perf_counter()
        *_, info = env.step(reply)
        best_cpu = min(best_cpu, time.process_time() - cpu)
        best_wall = min(best_wall, time.perf_counter() - wall)
    assert "reward" in info, "the final step did not grade"
    print(
        f"final graded step of a {turns}-turn episode of {size // 1000} KB turns: "
        f"{best_cpu * 1000:.1f} ms CPU, {best_wall * 1000:.1f} ms wall (best of 3)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--spec", type=Path, default=ROOT / "configs" / "specs" / "order-support.json"
    )
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--turns", type=int, default=2048)
    parser.add_argument(
        "--output", type=Path, default=None, help="JSONL to write (a temporary file by default)"
    )
    args = parser.parse_args()
    spec = wenv.load_spec(args.spec)
    print(f"spec {args.spec.name}: {len(spec.tools)} tools")
    if args.rows:
        with tempfile.TemporaryDirectory() as tmp:
            soak(spec, args.rows, args.output or Path(tmp) / "soak.jsonl")
    final_step(spec, args.turns)
    long_turns(spec)


if __name__ == "__main__":
    main()
