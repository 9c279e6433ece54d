"""``python -m trainers.grpo --config configs/train/grpo-*.yaml``: GRPO in the spec's environment.

TRL plays each task through :func:`trainers.environment_factory` (the spec's tools, faults and
the person as ``ask_user``) and :func:`trainers.checklist_reward` grades every rollout; the run
record (and the held-out check before and after, with ``eval_tasks``) goes to ``run_dir``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    from trl import GRPOConfig, GRPOTrainer

    from trainers.data import task_dataset
    from trainers.environment import environment_factory
    from trainers.programs import load_model, parse, peft_config, run_logger, train_and_check
    from trainers.rewards import checklist_reward
    from whileai_env.spec.load import load_spec

    env, args, model_args = parse(GRPOConfig, argv)
    spec = load_spec(env.spec)
    model, tokenizer = load_model(model_args, env)
    dataset = task_dataset(
        spec, env.tasks, mode=env.mode, split="train", seed=env.task_seed, holdout=env.holdout
    )
    run = run_logger(env, args, model_args)
    trainer = GRPOTrainer(
        model=model,
        processing_class=tokenizer,
        reward_funcs=[checklist_reward],
        args=args,
        train_dataset=dataset,
        environment_factory=environment_factory(spec),
        peft_config=peft_config(model_args, env),
        callbacks=[run],
    )
    return train_and_check(trainer, run, spec, env, tokenizer)


if __name__ == "__main__":
    main()
