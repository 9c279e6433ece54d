"""Share of a GRPO step spent in environment code (tiny model, scripted generation).

TRL's GRPOTrainer runs ``--steps`` steps over tasks of a spec through
``trainers.environment_factory``; generation is scripted (the oracle's play and the same play
without tool calls, written as the model's tokens), so the step is the trainer's own work plus
the environment's: ``reset`` (the task rebuilt, the episode started), every tool call through
the engine (world, faults, ledger), ``ask_user`` (the simulated user) and the checklist reward.
Those are timed; the share is their time over the step's wall time, after ``--warmup`` steps.
Target: under 2%.

    .venv/bin/python scripts/bench/grpo_overhead.py --steps 6
"""

from __future__ import annotations

import argparse
import functools
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import whileai_env as wenv  # noqa: E402
from tests.support.tiny_model import build_tiny_model  # noqa: E402
from tests.trainers.scripted import ScriptedGeneration, oracle_script, without_tools  # noqa: E402


class Clock:
    """Seconds spent inside the wrapped callables, and the step boundaries."""

    def __init__(self) -> None:
        self.env = 0.0

    def timed(self, fn: Any) -> Any:
        @functools.wraps(
            fn
        )  # keeps the signature, hints and docstring TRL reads a tool's schema from
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                self.env += time.perf_counter() - start

        return wrapper


def timed_environment(env_class: type, clock: Clock) -> type:
    """A subclass whose reset and engine calls are timed (tool methods go through ``_call``)."""
    return type(
        env_class.__name__,
        (env_class,),
        {
            "reset": clock.timed(env_class.reset),
            "_call": clock.timed(env_class._call),
            "ask_user": clock.timed(env_class.ask_user),
        },
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spec", default=str(ROOT / "configs" / "specs" / "order-support.json"))
    parser.add_argument("--steps", type=int, default=6)
    parser.add_argument("--warmup", type=int, default=1)
    parser.add_argument("--tasks", type=int, default=8)
    args = parser.parse_args()

    from datasets import Dataset
    from transformers import TrainerCallback
    from trl import GRPOConfig, GRPOTrainer

    from trainers import checklist_reward, environment_factory
    from trainers.data import task_row
    from trainers.models import load_tokenizer, prepare_checkpoint

    spec = wenv.load_spec(args.spec)
    drawn = wenv.draw_tasks(spec, 4 * args.tasks, mode="rl", seed=3)
    rows = {
        r["task_id"]: r
        for r in wenv.simulate("oracle", spec=spec, tasks=drawn, repeats=1, quiet=True).rows
    }
    tasks = [t for t in drawn if rows[t.task_id]["steps"]][: args.tasks]
    scripts = {
        t.task_id: [oracle_script(rows[t.task_id]), without_tools(oracle_script(rows[t.task_id]))]
        * 2
        for t in tasks
    }
    tmp = Path(tempfile.mkdtemp(prefix="grpo-bench-"))
    model = prepare_checkpoint(
        str(build_tiny_model(tmp / "tiny")), template="qwen2_5", max_positions=32768
    )
    tokenizer = load_tokenizer(model)
    generation = ScriptedGeneration(scripts, {t.task_id: t.opener for t in tasks}, tokenizer)
    clock = Clock()
    steps: list[tuple[float, float]] = []

    class Steps(TrainerCallback):
        def on_step_begin(self, *a: Any, **k: Any) -> None:
            self.start, self.env = time.perf_counter(), clock.env

        def on_step_end(self, *a: Any, **k: Any) -> None:
            steps.append((time.perf_counter() - self.start, clock.env - self.env))

    class Scripted(GRPOTrainer):
        def _generate_single_turn(self, prompt_ids: Any, *a: Any, **k: Any) -> Any:
            return generation(prompt_ids), None

    reward = clock.timed(checklist_reward)
    config = GRPOConfig(
        output_dir=str(tmp / "out"),
        use_cpu=True,
        per_device_train_batch_size=4,
        num_generations=4,
        max_steps=args.steps,
        max_completion_length=4096,
        logging_steps=1,
        report_to="none",
        save_strategy="no",
        bf16=False,
        seed=0,
        disable_tqdm=True,
    )
    trainer = Scripted(
        model=model,
        processing_class=tokenizer,
        reward_funcs=[reward],
        args=config,
        train_dataset=Dataset.from_list([task_row(spec, t) for t in tasks]),
        environment_factory=timed_environment(environment_factory(spec), clock),
        callbacks=[Steps()],
    )
    trainer.train()
    measured = steps[args.warmup :] or steps
    wall = [w for w, _ in measured]
    env = [e for _, e in measured]
    share = sum(env) / sum(wall)
    print(
        f"spec {Path(args.spec).name}: {len(measured)} steps after {args.warmup} warm-up, 4 rollouts a step"
    )
    print(
        f"step wall time: median {statistics.median(wall):.2f} s (min {min(wall):.2f}, max {max(wall):.2f})"
    )
    print(f"environment time per step: median {statistics.median(env) * 1000:.1f} ms")
    print(
        f"environment share: {share:.2%} (per step {min(e / w for w, e in measured):.2%} to "
        f"{max(e / w for w, e in measured):.2%}); target < 2%"
    )


if __name__ == "__main__":
    main()
