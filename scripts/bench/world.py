"""World calls per second on the largest example spec, on one core.

The mix is what an agent's episode looks like: reads of known and unknown ids, lists and
searches, writes (updates, creates), calculator calls, rejected calls (a missing field, a
placeholder), and a fault schedule that fires on about one call in four (gateway faults and
stale/truncated payloads). Each episode of 12 calls is a fresh ``World.reset(task)`` over 64
drawn tasks, as rollouts would be. The figure is calls per second of CPU time of this one
process (wall-clock too, which a busy machine makes slower), measured twice: with the world's
record cache emptied before every episode (every record generated from scratch, the worst
case, and the headline), and with it kept (a task's rollouts share records, as in ``rl`` mode).

    python scripts/bench/world.py            # the largest spec in configs/specs
    python scripts/bench/world.py --spec configs/specs/order-support.json --calls 50000
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from _specs import largest_spec  # noqa: E402

import whileai_env as wenv  # noqa: E402
from whileai_env.world import store as world_store  # noqa: E402
from whileai_env.world.arguments import detail_value, locator_value  # noqa: E402
from whileai_env.world.profile import profile_for  # noqa: E402

CALLS_PER_EPISODE = 12


def call_pool(spec: wenv.Spec, rnd: random.Random, size: int) -> list[tuple[str, Any]]:
    """``size`` prepared calls: valid ones over a pool of ids, plus some rejected ones."""
    profile = profile_for(spec)
    ids: dict[str, list[Any]] = {}
    calls: list[tuple[str, Any]] = []
    for i in range(size):
        tool = rnd.choice(spec.tools)
        args: dict[str, Any] = {}
        for name, schema in tool.properties.items():
            tp = profile.tools[tool.name]
            if name in tp.locators:
                if tp.nouns[name] not in ids:
                    ids[tp.nouns[name]] = [
                        locator_value(name, schema, "bench", j) for j in range(200)
                    ]
                pool = ids[tp.nouns[name]]
                args[name] = rnd.choice(pool)
            elif name in tool.required or rnd.random() < 0.3:
                args[name] = detail_value(name, schema, "bench", i, root=tool.parameters)
        if tool.name == "calculate":
            args = {
                "expression": f"{rnd.randint(2, 400)} * ({rnd.randint(1, 99)} + {rnd.randint(1, 30)}) / 4"
            }
        roll = rnd.random()
        if roll < 0.04 and tool.required:
            args.pop(tool.required[0], None)
        elif roll < 0.06 and args:
            args[next(iter(args))] = "<placeholder>"
        calls.append((tool.name, args))
    return calls


def schedule(spec: wenv.Spec) -> wenv.FaultSchedule:
    names = spec.tool_names
    rules = [
        {"kind": "timeout", "tool": names[0], "start": 1, "mode": "transient", "times": 1},
        {
            "kind": "rate_limited",
            "tool": names[1 % len(names)],
            "start": 0,
            "mode": "transient",
            "times": 1,
            "params": {"retry_after": 5},
        },
        {
            "kind": "stale",
            "tool": names[2 % len(names)],
            "mode": "persistent",
            "params": {"age_hours": 26},
        },
        {"kind": "truncated", "tool": names[3 % len(names)], "mode": "persistent"},
        {"kind": "server_error", "tool": "*", "start": 9, "mode": "transient", "times": 1},
    ]
    return wenv.FaultSchedule.from_dict({"rules": rules})


def run(spec_path: Path, calls: int, seed: int, *, cold: bool) -> dict[str, Any]:
    spec = wenv.load_spec(spec_path)
    rnd = random.Random(seed)
    pool = call_pool(spec, rnd, 4000)
    tasks = wenv.draw_tasks(spec, 64, seed=seed, fault_rate=0.0)
    faults = schedule(spec)
    world = wenv.World(spec, faults=faults, seed=seed)
    world.call(*pool[0])  # build the value pools once, outside the clock
    statuses: dict[str, int] = {}
    fired = 0
    done = 0
    start = time.perf_counter()
    cpu = time.process_time()
    episode = 0
    while done < calls:
        if cold:
            world_store.clear_cache()
        world.reset(tasks[episode % len(tasks)], faults=faults)
        episode += 1
        for _ in range(CALLS_PER_EPISODE):
            name, args = pool[done % len(pool)]
            result = world.call(name, args)
            code = result["status"] if result["status"] == "ok" else result["error"]["code"]
            statuses[code] = statuses.get(code, 0) + 1
            done += 1
        fired += len(world.faults_fired)
    elapsed = time.perf_counter() - start
    cpu_elapsed = time.process_time() - cpu
    return {
        "spec": spec.name,
        "tools": len(spec.tools),
        "calls": done,
        "episodes": episode,
        "seconds": round(elapsed, 3),
        "cpu_seconds": round(cpu_elapsed, 3),
        "calls_per_second": round(done / cpu_elapsed),
        "calls_per_wall_second": round(done / elapsed),
        "faults_fired": fired,
        "results": dict(sorted(statuses.items())),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--spec", type=Path, default=None, help="spec file or folder (default: the largest example)"
    )
    parser.add_argument("--calls", type=int, default=60_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="print the full report as JSON")
    ns = parser.parse_args()
    path = ns.spec or largest_spec()
    cold = run(path, ns.calls, ns.seed, cold=True)
    warm = run(path, ns.calls, ns.seed, cold=False)
    if ns.json:
        print(json.dumps({"cold": cold, "warm": warm}, indent=2))
        return
    print(
        f"{cold['calls_per_second']:,} world calls/s (one core, CPU time, records generated afresh every "
        f"episode) on '{cold['spec']}' ({cold['tools']} tools)"
    )
    print(
        f"  {cold['calls']:,} calls in {cold['cpu_seconds']}s CPU ({cold['calls_per_wall_second']:,}/s wall), "
        f"{cold['episodes']:,} episodes, {cold['faults_fired']:,} faults fired"
    )
    print("  results:", ", ".join(f"{k} {v}" for k, v in cold["results"].items()))
    print(f"{warm['calls_per_second']:,} world calls/s with the record cache kept across episodes")


if __name__ == "__main__":
    main()
