"""The reference agents' rows do not depend on the process: two hash seeds, identical JSONL."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

from tests.corpus import corpus_specs

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = textwrap.dedent("""
    import hashlib, sys, tempfile, pathlib
    from whileai_env.simulation import simulate
    for path in sys.argv[1:]:
        with tempfile.TemporaryDirectory() as d:
            out = pathlib.Path(d) / "rows.jsonl"
            simulate("seeded", spec=path, budget=40, seed=3, output=out, quiet=True,
                     reproducible=True)
            print(pathlib.Path(path).name, hashlib.sha256(out.read_bytes()).hexdigest())
""")


def _digests(paths: list[str], hash_seed: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, *paths],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONHASHSEED": hash_seed},
        cwd=ROOT,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_seeded_rows_agree_across_hash_seeds():
    # specs whose tools take several locators: a set's order once leaked into a look's arguments
    names = {"tau2-telecom.json", "tau2-retail.json", "mcp-gitlab.json", "google-calendar-mcp.json"}
    paths = [str(p) for p in corpus_specs() if p.name in names]
    assert len(paths) == len(names)
    first, second = _digests(paths, "1"), _digests(paths, "2")
    assert first == second
    assert len(first.splitlines()) == len(names)
