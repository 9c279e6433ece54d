"""``python -m trainers.rm --config configs/train/rm-*.yaml``: a reward model on pass-vs-fail pairs.

Pairs come from graded rows (``rows: path.jsonl``), or from the oracle and the seeded agent
(every rollout one labelled wrong thing, ``rollouts_per_task`` rollouts of each task) playing the
spec's drawn tasks, graded by the checklist:
per task, its best passing rollout (reward ``>= 1``) against its worst failing one. Pairs are
split by scenario (``holdout``), TRL's ``RewardTrainer`` trains a one-output sequence classifier
on the training side (a Bradley-Terry loss), and the held-out pairs' accuracy (chosen scored
above rejected) is measured before and after. The run record (:class:`~trainers.RunLogger`) gets
the two accuracies as a note; ``rm.json`` beside the saved model keeps them with the pair counts
and ``max_length``, which :func:`trainers.reward_model` reads back.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from whileai_env._util.hashing import unit

Pair = tuple[Mapping[str, Any], Mapping[str, Any]]


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    from trl import RewardConfig, RewardTrainer

    from trainers.models import load_tokenizer
    from trainers.programs import parse, peft_config, run_logger
    from trainers.rm_judge import pair_accuracy
    from whileai_env.spec.load import load_spec

    env, args, model_args = parse(RewardConfig, argv)
    train, held = split_pairs(pass_fail_pairs(graded_rows(load_spec(env.spec), env)), env)
    tokenizer = load_tokenizer(model_args.model_name_or_path, env.template)
    run = run_logger(env, args, model_args)
    trainer = RewardTrainer(
        model=model_args.model_name_or_path,
        args=args,
        train_dataset=pair_dataset(train, tokenizer, args.max_length),
        processing_class=tokenizer,
        peft_config=peft_config(model_args, env),
        callbacks=[run],
    )
    before = pair_accuracy(trainer.model, tokenizer, held, args.max_length)
    trainer.train()
    trainer.save_model(args.output_dir)
    after = pair_accuracy(trainer.model, tokenizer, held, args.max_length)
    record = {"train_pairs": len(train), "held_out_pairs": len(held), "before": before}
    record.update(after=after, max_length=args.max_length)
    (Path(args.output_dir) / "rm.json").write_text(json.dumps(record, indent=2))
    run.note(f"pair accuracy on {len(held)} held-out pairs: {_fmt(before)} -> {_fmt(after)}")
    return run.summary()


def graded_rows(spec: Any, env: Any) -> list[dict[str, Any]]:
    """``env.rows`` (graded JSONL), or the oracle once and the seeded agent
    ``env.rollouts_per_task`` times on ``env.tasks`` drawn tasks, graded by the checklist (most
    of the seeded agent's flaws are style the checklist passes, so one rollout per task rarely
    fails; on the order-support spec's 64 tasks 1, 2 and 4 rollouts gave 11, 25 and 38 pairs)."""
    import whileai_env as wenv
    from trainers.data import draw_split

    if env.rows:
        return wenv.read_rows(env.rows)
    tasks = draw_split(spec, env.tasks, mode=env.mode, split=None, seed=env.task_seed)
    plays = (("oracle", 1), (wenv.seeded_agent(spec, rate=1.0), env.rollouts_per_task))
    return [
        row
        for agent, k in plays
        for row in wenv.simulate(agent, spec=spec, tasks=tasks, repeats=k, quiet=True).grade().rows
    ]


def pass_fail_pairs(rows: Sequence[Mapping[str, Any]]) -> list[Pair]:
    """Per task, its best rollout against its worst when the best passes and the worst fails.

    >>> rows = [{"task_id": "a", "reward": 1.0}, {"task_id": "a", "reward": 0.5},
    ...         {"task_id": "b", "reward": 0.5}, {"task_id": "b", "reward": 0.0}]
    >>> [(good["reward"], bad["reward"]) for good, bad in pass_fail_pairs(rows)]
    [(1.0, 0.5)]
    """
    from trainers.data import rollout_pairs

    pairs = [(g, b) for g, b in rollout_pairs(rows) if g["reward"] >= 1.0 > b["reward"]]
    if not pairs:
        raise ValueError(
            f"no pass-vs-fail pairs in {len(rows)} graded rows: no task has both a passing "
            "(reward >= 1) and a failing rollout"
        )
    return pairs


def split_pairs(pairs: Sequence[Pair], env: Any) -> tuple[list[Pair], list[Pair]]:
    """``(train, held out)`` by scenario: the share ``env.holdout`` of scenarios (at least one,
    and one left to train on, when there are two), chosen by a seeded hash of their ids.

    >>> class Env: holdout, task_seed = 0.5, 0
    >>> pairs = [({"scenario_id": s}, {"scenario_id": s}) for s in "abcd"]
    >>> [len(side) for side in split_pairs(pairs, Env())]
    [2, 2]
    """
    scenarios = sorted({_scenario(p) for p in pairs}, key=lambda s: unit("rm", env.task_seed, s))
    count = round(env.holdout * len(scenarios))
    if env.holdout > 0 and len(scenarios) >= 2:
        count = min(max(count, 1), len(scenarios) - 1)
    held = set(scenarios[:count])
    return [p for p in pairs if _scenario(p) not in held], [
        p for p in pairs if _scenario(p) in held
    ]


def _scenario(pair: Pair) -> str:
    return str(pair[0].get("scenario_id") or pair[0].get("task_id") or pair[0].get("prompt"))


def pair_dataset(pairs: Sequence[Pair], tokenizer: Any, max_length: int) -> Any:
    """The training pairs as ``RewardTrainer``'s processed columns (``chosen_ids``,
    ``rejected_ids``), rendered as the judge reads rows (:func:`trainers.rm_judge.row_ids`)."""
    import datasets

    from trainers.rm_judge import row_ids

    return datasets.Dataset.from_list(
        [
            {
                "chosen_ids": row_ids(good, tokenizer, max_length),
                "rejected_ids": row_ids(bad, tokenizer, max_length),
            }
            for good, bad in pairs
        ]
    )


def _fmt(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}"


if __name__ == "__main__":
    main()
