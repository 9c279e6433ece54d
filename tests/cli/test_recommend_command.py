"""``whileai-env recommend SPEC``: on every example spec the printed sizes match the grid."""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path

import pytest
from click.testing import CliRunner

import whileai_env as wenv
from tests.conftest import SPECS_DIR
from whileai_env.cli import main
from whileai_env.scenarios.draw import iter_situations
from whileai_env.scenarios.grid import build_grid

EXAMPLES = sorted(p for p in SPECS_DIR.iterdir() if not p.name.startswith("."))


def _saturation(spec: wenv.Spec, cells: int) -> tuple[int, str]:
    """Situations until 95% of the cells were drawn, counted here from the public draw within the
    measurement's cap (5M cells x situations), else extrapolated; and the words that say which."""
    seen: set[str] = set()
    cap = max(1, 5_000_000 // cells)
    for n, situation in enumerate(itertools.islice(iter_situations(spec, seed=0), cap)):
        seen.add(situation[0].scenario_id)
        if len(seen) >= math.ceil(0.95 * cells):
            return n + 1, f"after {n + 1} situations, {(n + 1) / cells:.2f} visits per cell"
    covered = len(seen) / cells
    situations = math.ceil(cap * math.log(20) / math.log(1 / (1 - covered)))
    return situations, f"takes about {situations} situations, {situations / cells:.2f} visits"


def _run(*args: str) -> str:
    result = CliRunner().invoke(main, ["recommend", *args])
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.slow
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_printed_sizes_match_the_grid_on_every_example_spec(path: Path) -> None:
    spec = wenv.load_spec(path)
    cells = len(build_grid(spec))
    saturation, words = _saturation(spec, cells)
    sft = _run(str(path))
    assert f"covering grid: {cells} cells" in sft
    assert words in sft
    sft_rows = max(saturation, math.ceil(800 / 3)) * 6
    assert f"generate {sft_rows}, select 800" in sft
    assert f"simulate(mode='sft', budget={sft_rows}, seed=0)" in sft
    rl = json.loads(_run(str(path), "--mode", "rl", "--json"))
    prompts = max(saturation, math.ceil(100 / 0.5))
    assert rl["numbers"]["cells"] == cells and rl["numbers"]["prompts"] == prompts
    assert rl["simulate_kwargs"] == {"mode": "rl", "budget": prompts * 5, "repeats": 8, "seed": 0}


def test_a_bad_spec_path_is_a_one_line_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["recommend", str(tmp_path / "missing.json")])
    assert result.exit_code == 2 and result.output.count("\n") == 1
