"""``python -m trainers.sft --config configs/train/sft-*.yaml``: SFT on graded rows of the spec.

The rows are ``rows`` (an exported JSONL of graded rows) or, by default, the oracle's play of
the training tasks; only passing rows are kept, each in the tool face the GRPO environment
uses, so an SFT adapter warm-starts GRPO on the same conversation shape.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    from trl import SFTConfig, SFTTrainer

    from trainers.data import sft_dataset
    from trainers.programs import (
        load_model,
        parse,
        peft_config,
        run_logger,
        train_and_check,
        training_rows,
    )
    from whileai_env.spec.load import load_spec

    env, args, model_args = parse(SFTConfig, argv)
    spec = load_spec(env.spec)
    model, tokenizer = load_model(model_args, env)
    dataset = sft_dataset(training_rows(spec, env), spec)
    run = run_logger(env, args, model_args)
    trainer = SFTTrainer(
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
