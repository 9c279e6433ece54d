"""The programs: every config under configs/train parses; SFT and DPO take 2 steps on the tiny model."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import whileai_env as wenv
from tests.conftest import ROOT
from tests.trainers.conftest import SPEC

CONFIGS = sorted((ROOT / "configs" / "train").glob("*.yaml"))


def _config_class(path: Path) -> type:
    from trl import DPOConfig, GRPOConfig, RewardConfig, SFTConfig

    configs = {"grpo": GRPOConfig, "dpo": DPOConfig, "sft": SFTConfig, "rm": RewardConfig}
    return configs[path.name.split("-")[0]]


@pytest.mark.parametrize("path", CONFIGS, ids=lambda p: p.stem)
def test_every_config_parses_into_its_programs_arguments(path: Path, tmp_path: Path) -> None:
    from trainers.programs import parse

    config_class = _config_class(path)
    try:
        env, _args, model = parse(
            config_class, ["--config", str(path), "--output_dir", str(tmp_path)]
        )
    except (
        ImportError,
        ValueError,
    ) as exc:  # a GPU config asks for bf16 or vLLM this machine lacks
        assert "gpu" in path.name, exc
        return
    assert Path(ROOT / env.spec).exists()
    assert model.model_name_or_path


def _flags(config: str, tiny_model: str, tmp_path: Path, *extra: str) -> list[str]:
    return [
        "--config",
        str(ROOT / "configs" / "train" / config),
        "--model_name_or_path",
        tiny_model,
        "--run_dir",
        str(tmp_path / "run"),
        "--output_dir",
        str(tmp_path / "model"),
        "--spec",
        SPEC,
        *extra,
    ]


def test_sft_takes_two_steps_on_exported_rows(tiny_model: str, tmp_path: Path) -> None:
    from trainers.sft import main

    spec = wenv.load_spec(SPEC)
    rows = wenv.simulate("oracle", spec=spec, budget=6, quiet=True, seed=1).grade().rows
    path = wenv.write_rows([wenv.export_row(r) for r in rows], tmp_path / "rows.jsonl")
    summary = main(_flags("sft-tiny-cpu.yaml", tiny_model, tmp_path, "--rows", str(path)))
    assert summary["status"] == "done"
    metrics = [
        json.loads(line) for line in (tmp_path / "run" / "metrics.jsonl").read_text().splitlines()
    ]
    assert [m["step"] for m in metrics if "loss" in m] == [1, 2]


def test_dpo_takes_two_steps_on_pairs_from_rollouts(tiny_model: str, tmp_path: Path) -> None:
    from trainers.dpo import main

    summary = main(_flags("dpo-tiny-cpu.yaml", tiny_model, tmp_path))
    assert summary["status"] == "done"
    metrics = [
        json.loads(line) for line in (tmp_path / "run" / "metrics.jsonl").read_text().splitlines()
    ]
    assert [m["step"] for m in metrics if "loss" in m] == [1, 2]
    assert any("rewards/margins" in m for m in metrics)


def test_the_held_out_check_runs_before_and_after_and_a_later_run_reuses_it(
    tiny_model: str, tmp_path: Path
) -> None:
    from trainers.sft import main

    check = ["--eval_tasks", "2", "--eval_max_new_tokens", "4", "--eval_max_turns", "1"]
    first = main(_flags("sft-tiny-cpu.yaml", tiny_model, tmp_path, *check))
    assert first["holdout"]["tasks"] == 2
    after = json.loads((tmp_path / "run" / "eval-after.json").read_text())
    assert after["all"]["tasks"] == 2 and after["line"].startswith("after: all ")
    later = tmp_path / "later"
    rows = str(tmp_path / "run" / "eval-after.jsonl")
    main(_flags("sft-tiny-cpu.yaml", tiny_model, later, *check, "--eval_before", rows))
    before = json.loads((later / "run" / "eval-before.json").read_text())
    assert before["all"] == after["all"] and before["tool_calls"] == after["tool_calls"]
