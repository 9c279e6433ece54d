"""How long ``import whileai_env`` takes, and what it pulls in (target: under 0.3 s idle).

Each figure is the best of ``--runs`` fresh interpreters, measured inside the child with
``time.perf_counter`` around the import alone, and in CPU time too (``time.process_time``), which
a busy machine disturbs less. The baseline is ``import gymnasium`` alone in the same run, since
registering the env needs it: the ratio says what the package adds on top.

    python scripts/bench/import_time.py --runs 7
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

HEAVY = (
    "torch",
    "transformers",
    "trl",
    "verifiers",
    "openai",
    "peft",
    "datasets",
    "accelerate",
    "ray",
    "jsonschema",
)
CHILD = """
import json, sys, time
t, c = time.perf_counter(), time.process_time()
import {module}
print(json.dumps({{"wall": time.perf_counter() - t, "cpu": time.process_time() - c,
                  "heavy": [m for m in {heavy!r} if m in sys.modules], "modules": len(sys.modules)}}))
"""


def measure(module: str, runs: int) -> dict[str, object]:
    samples = [
        json.loads(
            subprocess.run(
                [sys.executable, "-c", CHILD.format(module=module, heavy=HEAVY)],
                capture_output=True,
                text=True,
                check=True,
            ).stdout
        )
        for _ in range(runs)
    ]
    return {
        "wall": min(s["wall"] for s in samples),
        "cpu": min(s["cpu"] for s in samples),
        "heavy": samples[0]["heavy"],
        "modules": samples[0]["modules"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    base = measure("gymnasium", args.runs)
    ours = measure("whileai_env", args.runs)
    print(
        f"import gymnasium    wall {base['wall']:.3f} s  cpu {base['cpu']:.3f} s  ({base['modules']} modules)"
    )
    print(
        f"import whileai_env  wall {ours['wall']:.3f} s  cpu {ours['cpu']:.3f} s  ({ours['modules']} modules)"
    )
    print(
        f"whileai_env / gymnasium (cpu): {ours['cpu'] / max(base['cpu'], 1e-9):.2f}x; "
        f"heavy modules loaded: {', '.join(ours['heavy']) or 'none'}; target wall < 0.300 s idle"
    )


if __name__ == "__main__":
    main()
