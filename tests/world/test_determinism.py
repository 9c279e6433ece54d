"""Determinism: the same task in two processes (different hash seeds) gives identical results."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

from .conftest import ROOT, example_spec_paths

SCRIPT = textwrap.dedent("""
    import json, sys
    import whileai_env as wenv
    from whileai_env.world.arguments import detail_value, locator_value

    out = []
    for path in sys.argv[1:]:
        spec = wenv.load_spec(path)
        for task in wenv.draw_tasks(spec, 6, seed=7, fault_rate=1.0):
            world = wenv.World(spec, task)
            for tool in spec.tools:
                for i in range(2):
                    args = {n: (task.world.entities.get(n) or locator_value(n, s, i)) if n in task.world.entities
                            else detail_value(n, s, i, root=tool.parameters)
                            for n, s in tool.properties.items() if n in tool.required or n in task.world.entities}
                    world.call(tool.name, args)
            out.append({"task": task.task_id, "ledger": world.ledger, "faults": world.faults_fired})
    print(json.dumps(out, sort_keys=True))
""")


def _run(paths: list[str], hash_seed: str) -> str:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, *paths],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_two_processes_with_different_hash_seeds_agree():
    paths = [str(p) for p in example_spec_paths()]
    first, second = _run(paths, "1"), _run(paths, "4242")
    assert first == second
    runs = json.loads(first)
    assert len(runs) == 6 * len(paths)
    assert any(run["faults"] for run in runs), "the tasks carry faults and they fired"
    assert sum(step["result"]["status"] == "ok" for run in runs for step in run["ledger"]) > 50
