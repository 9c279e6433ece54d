"""What the three programs share: their arguments, the model, the run record, the held-out check.

``python -m trainers.grpo|dpo|sft --config configs/train/<name>.yaml`` parse three dataclasses
with TRL's ``TrlParser`` (YAML keys fill the defaults, command-line flags override them): the
environment's :class:`EnvArguments`, the method's TRL config (``GRPOConfig``, ``DPOConfig``,
``SFTConfig``) and TRL's ``ModelConfig`` (model path, LoRA).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass
class EnvArguments:
    """The environment side of a training run."""

    spec: str = field(
        default="configs/specs/order-support.json",
        metadata={"help": "The spec (tools + system prompt)."},
    )
    tasks: int = field(
        default=64, metadata={"help": "Situations drawn from the grid (then split by scenario)."}
    )
    mode: str = field(
        default="rl", metadata={"help": "The draw's mode: explore, sft, rl, adaptive."}
    )
    task_seed: int = field(default=0, metadata={"help": "Seed of the task draw and of the split."})
    holdout: float = field(default=0.2, metadata={"help": "Share of scenarios held out."})
    eval_tasks: int = field(
        default=0, metadata={"help": "Held-out tasks played before and after (0: no check)."}
    )
    eval_max_new_tokens: int = field(
        default=256, metadata={"help": "Tokens per turn when evaluating."}
    )
    eval_max_turns: int = field(default=8, metadata={"help": "Model turns per evaluated rollout."})
    eval_before: str | None = field(
        default=None,
        metadata={
            "help": "Graded rows (eval-after.jsonl) of an earlier check of this starting model on "
            "this holdout, used as the before check instead of playing it again (GRPO from SFT's "
            "adapter starts where SFT's after check ended)."
        },
    )
    run_dir: str = field(
        default="runs/train", metadata={"help": "Where the run record is written."}
    )
    template: str = field(
        default="auto", metadata={"help": "Chat template: auto (keep a tool-aware one) or qwen2_5."}
    )
    adapter: str | None = field(
        default=None, metadata={"help": "A LoRA adapter to start from (SFT's output)."}
    )
    rows: str | None = field(
        default=None, metadata={"help": "SFT: graded rows (JSONL); default oracle rows."}
    )
    pairs: str = field(
        default="policy",
        metadata={
            "help": "DPO pairs: 'policy' (on-policy rollouts, best vs worst), 'reference' (oracle vs seeded agent), "
            "or a JSONL path (preference lines with chosen/rejected, or graded rows)."
        },
    )
    rollouts_per_task: int = field(default=4, metadata={"help": "DPO on-policy rollouts per task."})


def parse(config_class: type, argv: Sequence[str] | None = None) -> tuple[EnvArguments, Any, Any]:
    """``(EnvArguments, <method config>, ModelConfig)`` from ``--config FILE`` and flags."""
    from trl import ModelConfig, TrlParser

    parsed = TrlParser((EnvArguments, config_class, ModelConfig)).parse_args_and_config(
        args=None if argv is None else list(argv)
    )
    return parsed[0], parsed[1], parsed[2]


def load_model(model_args: Any, env: EnvArguments, *, trainable: bool = True) -> tuple[Any, Any]:
    """The model (with ``env.adapter`` loaded trainable on top when given) and its tokenizer."""
    from transformers import AutoModelForCausalLM

    from trainers.models import load_tokenizer

    tokenizer = load_tokenizer(model_args.model_name_or_path, env.template)
    model = AutoModelForCausalLM.from_pretrained(
        model_args.model_name_or_path, dtype=model_args.dtype or "auto"
    )
    if env.adapter:
        from peft import PeftModel

        model = PeftModel.from_pretrained(model, env.adapter, is_trainable=trainable)
    return model, tokenizer


def peft_config(model_args: Any, env: EnvArguments) -> Any:
    """TRL's LoRA config from ``ModelConfig``, unless an adapter is already loaded."""
    from trl import get_peft_config

    return None if env.adapter else get_peft_config(model_args)


def run_logger(env: EnvArguments, *configs: Any) -> Any:
    """The run record, its config holding every argument of the run."""
    from trainers.run_logger import RunLogger

    merged = {"env": dataclasses.asdict(env)}
    for config in configs:
        merged[type(config).__name__] = (
            config.to_dict() if hasattr(config, "to_dict") else dataclasses.asdict(config)
        )
    return RunLogger(env.run_dir, config=merged)


def holdout_rows(spec: Any, env: EnvArguments) -> list[dict[str, Any]]:
    """The first ``eval_tasks`` held-out task rows (drawn like the training tasks)."""
    from trainers.data import task_dataset

    if env.eval_tasks <= 0:
        return []
    data = task_dataset(
        spec, env.tasks, mode=env.mode, split="holdout", seed=env.task_seed, holdout=env.holdout
    )
    return [data[i] for i in range(min(env.eval_tasks, len(data)))]


def check_holdout(
    model: Any,
    tokenizer: Any,
    spec: Any,
    env: EnvArguments,
    rows: list,
    needs: dict | None,
    name: str,
) -> dict[str, Any] | None:
    """Evaluate on the holdout rows and write ``eval-<name>.json`` (the report) and
    ``eval-<name>.jsonl`` (the graded rows) beside the run record; the before check reads
    ``env.eval_before`` instead when given."""
    import whileai_env as wenv
    from trainers.environment import environment_factory
    from trainers.evaluate import evaluate, report, summary_line

    if not rows:
        return None
    if name == "before" and env.eval_before:
        result = report(_earlier_rows(env.eval_before, rows), needs)
    else:
        result = evaluate(
            model,
            tokenizer,
            environment_factory(spec),
            rows,
            needs=needs,
            max_new_tokens=env.eval_max_new_tokens,
            max_turns=env.eval_max_turns,
        )
    out = {k: v for k, v in result.items() if k != "rows"}
    out["line"] = summary_line(name, result)
    Path(env.run_dir).mkdir(parents=True, exist_ok=True)
    (Path(env.run_dir) / f"eval-{name}.json").write_text(json.dumps(out, indent=2))
    wenv.write_rows(result["rows"], Path(env.run_dir) / f"eval-{name}.jsonl")
    print(out["line"], flush=True)
    return result


def _earlier_rows(path: str, rows: list) -> list[dict[str, Any]]:
    """The graded rows at ``path``, which must be those of this holdout's tasks."""
    import whileai_env as wenv

    earlier = wenv.read_rows(path)
    if sorted(r["task_id"] for r in earlier) != sorted(r["task_id"] for r in rows):
        raise ValueError(f"{path} holds other tasks than this run's holdout")
    return earlier


def train_and_check(
    trainer: Any, run: Any, spec: Any, env: EnvArguments, tokenizer: Any
) -> dict[str, Any]:
    """Held-out check before, train, save, check after, verdict on the run record."""
    from trainers.evaluate import needs_tool

    rows = holdout_rows(spec, env)
    needs = needs_tool(spec, rows) if rows else None
    before = check_holdout(trainer.model, tokenizer, spec, env, rows, needs, "before")
    trainer.train()
    trainer.save_model(trainer.args.output_dir)
    after = check_holdout(trainer.model, tokenizer, spec, env, rows, needs, "after")
    if before and after:
        run.holdout(before["rows"], after["rows"])
        run.note(summary_line_pair(before, after))
    return run.summary()


def summary_line_pair(before: dict[str, Any], after: dict[str, Any]) -> str:
    from trainers.evaluate import summary_line

    return f"{summary_line('before', before)} | {summary_line('after', after)}"


def train_tasks(spec: Any, env: EnvArguments) -> list[Any]:
    """The training side of the run's draw (the tasks ``task_dataset`` serves)."""
    from trainers.data import draw_split

    return draw_split(
        spec, env.tasks, mode=env.mode, split="train", seed=env.task_seed, holdout=env.holdout
    )


def training_rows(spec: Any, env: EnvArguments) -> list[dict[str, Any]]:
    """SFT's graded rows: ``env.rows`` (JSONL) or the oracle's play of the training tasks."""
    import whileai_env as wenv

    if env.rows:
        return wenv.read_rows(env.rows)
    return (
        wenv.simulate("oracle", spec=spec, tasks=train_tasks(spec, env), repeats=1, quiet=True)
        .grade()
        .rows
    )


def preference_data(model: Any, tokenizer: Any, spec: Any, env: EnvArguments) -> Any:
    """DPO's dataset from ``env.pairs`` (see :class:`EnvArguments`)."""
    import whileai_env as wenv
    from trainers.data import preference_dataset, preference_file_dataset, rollout_pairs

    if env.pairs == "policy":
        from trainers.data import task_row
        from trainers.environment import environment_factory
        from trainers.rollout import play, rollout_rows

        rows = [task_row(spec, t) for t in train_tasks(spec, env)]
        rollouts = play(
            model,
            tokenizer,
            environment_factory(spec),
            rows,
            k=env.rollouts_per_task,
            temperature=1.0,
            max_new_tokens=env.eval_max_new_tokens,
            max_turns=env.eval_max_turns,
        )
        graded = rollout_rows(rollouts)
    elif env.pairs == "reference":
        tasks = train_tasks(spec, env)
        graded = [
            *wenv.simulate("oracle", spec=spec, tasks=tasks, repeats=1, quiet=True).grade().rows,
            *wenv.simulate(
                wenv.seeded_agent(spec, rate=1.0), spec=spec, tasks=tasks, repeats=1, quiet=True
            )
            .grade()
            .rows,
        ]
    else:
        lines = wenv.read_rows(env.pairs)
        if lines and "chosen" in lines[0]:
            return preference_file_dataset(env.pairs, spec)
        graded = lines
    pairs = rollout_pairs(graded)
    if not pairs:
        raise ValueError(
            f"no preference pairs from {env.pairs!r}: every task's rollouts scored the same"
        )
    return preference_dataset(pairs, spec)
