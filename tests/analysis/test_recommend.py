"""recommend(): sizes read off the grid, the draw and the selection; kwargs simulate() accepts."""

from __future__ import annotations

import math

import pytest

import whileai_env as wenv
from tests.conftest import ORDER_POLICY, ORDER_TOOLS, SPECS_DIR
from whileai_env.analysis.recommend import recommend, saturation
from whileai_env.errors import ConfigError
from whileai_env.scenarios.grid import build_grid

SPEC = SPECS_DIR / "order-support.json"


def test_a_target_above_saturation_drives_the_sft_size() -> None:
    found = saturation(wenv.load_spec(SPEC))
    assert found.measured and found.covered >= 0.95
    target = 3 * found.situations + 3  # 3 phrasings: one situation more than saturation
    rec = recommend(SPEC, mode="sft", target=target)
    assert rec.numbers["situations"] == found.situations + 1
    assert rec.simulate_kwargs == {"mode": "sft", "budget": (found.situations + 1) * 6, "seed": 0}


def test_past_the_measurement_cap_saturation_is_extrapolated() -> None:
    spec = wenv.load_spec(SPEC)
    cells = len(build_grid(spec))
    exact = saturation(spec)
    capped = saturation(spec, budget=2 * cells * cells)  # two situations per cell, then stop
    assert not capped.measured and capped.drawn == 2 * cells and capped.covered < 0.95
    expected = 2 * cells * math.log(20) / math.log(1 / (1 - capped.covered))
    assert capped.situations == math.ceil(expected)
    assert 0.7 * exact.situations <= capped.situations <= 1.3 * exact.situations


def test_a_measured_mixed_rate_changes_the_rl_cost_and_drops_the_probe() -> None:
    assumed = recommend(SPEC, mode="rl")
    measured = recommend(SPEC, mode="rl", mixed_rate=0.25)
    prompts = assumed.numbers["prompts"]
    assert assumed.numbers["rows"] == math.ceil(prompts * (2 + 0.5 * 6))
    assert measured.numbers["rows"] == math.ceil(prompts * (2 + 0.25 * 6))
    assert assumed.probe_kwargs == {"mode": "rl", "budget": 25 * 8, "repeats": 8, "seed": 0}
    assert measured.probe_kwargs is None
    assert any("probe 25 asks" in line for line in assumed.reasoning)
    low = recommend(SPEC, mode="rl", mixed_rate=0.1)
    assert "aim it before buying rollouts" in low.reasoning[-1]


def test_a_small_mixed_rate_needs_more_prompts_than_saturation() -> None:
    rec = recommend(SPEC, mode="rl", target=8000, mixed_rate=0.5)
    assert rec.numbers["prompts"] == max(rec.numbers["saturation_situations"], 2000)


def test_inline_tools_and_the_seed_style_subscript() -> None:
    rec = recommend(ORDER_TOOLS, system_prompt=ORDER_POLICY, mode="sft", target=10)
    cells = len(build_grid(wenv.load_spec(tools=ORDER_TOOLS, system_prompt=ORDER_POLICY)))
    assert rec["reasoning"][0].startswith(f"covering grid: {cells} cells")


def test_the_kwargs_run_as_given() -> None:
    for mode in ("sft", "rl"):
        kwargs = {**recommend(SPEC, mode=mode).simulate_kwargs, "budget": 4}
        data = wenv.simulate("oracle", spec=SPEC, quiet=True, **kwargs)
        assert len(data.rows) == 4


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"mode": "explore"}, "mode 'sft' or 'rl'"),
        ({"target": 0}, "target must be a positive"),
        ({"mixed_rate": 0.0}, "mixed_rate must be in"),
    ],
)
def test_bad_arguments_are_one_line_errors(kwargs: dict, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        recommend(SPEC, **kwargs)
