"""``python -m trainers.dpo --config configs/train/dpo-*.yaml``: DPO on pairs from the environment.

Pairs are best vs worst rollout per training task: the policy's own rollouts through the GRPO
environment (``pairs: policy``), the oracle against the seeded agent (``pairs: reference``), or
an exported file (``pairs: path.jsonl``: preference lines with ``chosen``/``rejected``, or
graded rows). Each side is in the tool face, with the environment's ``tools``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    from trl import DPOConfig, DPOTrainer

    from trainers.programs import (
        load_model,
        parse,
        peft_config,
        preference_data,
        run_logger,
        train_and_check,
    )
    from whileai_env.spec.load import load_spec

    env, args, model_args = parse(DPOConfig, argv)
    spec = load_spec(env.spec)
    model, tokenizer = load_model(model_args, env)
    dataset = preference_data(model, tokenizer, spec, env)
    run = run_logger(env, args, model_args)
    trainer = DPOTrainer(
        model=model,
        processing_class=tokenizer,
        args=args,
        train_dataset=dataset,
        peft_config=peft_config(model_args, env),
        callbacks=[run],
    )
    return train_and_check(trainer, run, spec, env, tokenizer)


if __name__ == "__main__":
    main()
