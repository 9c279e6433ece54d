"""Two GRPO steps through ``environment_factory`` with scripted generation on the tiny model.

The scripted rollouts call tools in the world (a scheduled fault fires), ask the person through
``ask_user`` and get an answer, and the reward the trainer logs equals ``simulate()``'s for the
same actions.
"""

from __future__ import annotations

import math

import pytest

import whileai_env as wenv
from tests.trainers.conftest import SPEC
from tests.trainers.scripted import ReplayPolicy, ScriptedGeneration, oracle_script, without_tools


def _pick_tasks(spec: wenv.Spec) -> list[wenv.Task]:
    """One task whose oracle play asks the person and meets a fault, one that only calls tools."""
    tasks = wenv.draw_tasks(spec, 40, mode="rl", seed=3)
    rows = {
        r["task_id"]: r
        for r in wenv.simulate("oracle", spec=spec, tasks=tasks, repeats=1, quiet=True).rows
    }

    def asks(row: dict) -> bool:
        return sum(m["role"] == "user" for m in row["messages"]) > 1

    hard = next(
        t
        for t in tasks
        if rows[t.task_id]["faults"] and asks(rows[t.task_id]) and rows[t.task_id]["steps"]
    )
    plain = next(
        t for t in tasks if rows[t.task_id]["steps"] and not asks(rows[t.task_id]) and t is not hard
    )
    return [hard, plain], rows


@pytest.fixture(scope="module")
def played(tiny_model: str, tmp_path_factory: pytest.TempPathFactory) -> dict:
    from datasets import Dataset
    from trl import GRPOConfig, GRPOTrainer

    from trainers import checklist_reward, environment_factory
    from trainers.data import task_row
    from trainers.models import load_tokenizer

    spec = wenv.load_spec(SPEC)
    tasks, oracle_rows = _pick_tasks(spec)
    scripts = {
        t.task_id: [
            oracle_script(oracle_rows[t.task_id]),
            without_tools(oracle_script(oracle_rows[t.task_id])),
        ]
        for t in tasks
    }
    expected = (
        wenv.simulate(ReplayPolicy(scripts), spec=spec, tasks=tasks, repeats=2, quiet=True)
        .grade()
        .rows
    )
    tokenizer = load_tokenizer(tiny_model)
    generation = ScriptedGeneration(scripts, {t.task_id: t.opener for t in tasks}, tokenizer)
    seen: list[dict] = []

    def reward(completions, environments, **kwargs):
        values = checklist_reward(completions, environments=environments, **kwargs)
        seen.extend(
            {"episode": env.episode, "reward": value}
            for env, value in zip(environments, values, strict=True)
        )
        return values

    class Scripted(GRPOTrainer):
        def _generate_single_turn(self, prompt_ids, *args, **kwargs):
            return generation(prompt_ids), None

    args = GRPOConfig(
        output_dir=str(tmp_path_factory.mktemp("grpo")),
        use_cpu=True,
        per_device_train_batch_size=4,
        num_generations=2,
        max_steps=2,
        max_completion_length=4096,
        logging_steps=1,
        report_to="none",
        save_strategy="no",
        learning_rate=1e-3,
        bf16=False,
        seed=0,
    )
    trainer = Scripted(
        model=tiny_model,
        processing_class=tokenizer,
        reward_funcs=[reward],
        args=args,
        train_dataset=Dataset.from_list([task_row(spec, t) for t in tasks]),
        environment_factory=environment_factory(spec),
    )
    trainer.train()
    return {"seen": seen, "expected": expected, "trainer": trainer, "tasks": tasks}


def test_tool_calls_run_in_the_world_and_a_fault_fires(played: dict) -> None:
    episodes = [s["episode"] for s in played["seen"]]
    assert len(episodes) == 8  # 2 steps x 2 tasks x 2 generations
    assert any(e.world.ledger for e in episodes)
    assert any(e.world.faults_fired for e in episodes)


def test_ask_user_gets_the_simulated_users_answer(played: dict) -> None:
    answered = [m for s in played["seen"] for m in s["episode"].messages[2:] if m["role"] == "user"]
    assert answered and all(m["content"].strip() for m in answered)


def test_reward_equals_simulate_for_the_same_actions(played: dict) -> None:
    want = {(r["task_id"], bool(r["steps"])): r for r in played["expected"]}
    assert len(want) == 4
    for s in played["seen"]:
        episode = s["episode"]
        row = want[(episode.task.task_id, bool(episode.world.ledger))]
        assert s["reward"] == pytest.approx(row["reward"])
        assert [(st["tool"], st["arguments"], st["result"]) for st in episode.world.ledger] == [
            (st["tool"], st["arguments"], st["result"]) for st in row["steps"]
        ]
        assert episode.final_text == row["final_text"]
    assert {r["reward"] for r in played["expected"]} == {
        0.0,
        1.0,
    }  # the oracle passes, the no-tool variant fails


def test_reward_reaches_the_trainers_logs(played: dict) -> None:
    logged = [
        h["rewards/reward/mean"]
        for h in played["trainer"].state.log_history
        if "rewards/reward/mean" in h
    ]
    assert len(logged) == 2
    per_step = [sum(s["reward"] for s in played["seen"][i * 4 : (i + 1) * 4]) / 4 for i in range(2)]
    assert all(math.isclose(a, b) for a, b in zip(logged, per_step, strict=True))
    assert any("whileai/faults_fired" in h for h in played["trainer"].state.log_history)
