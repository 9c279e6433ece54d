"""The offline reward replays a completion through the engine; the rollout player grades in the
GRPO environment; the judge reward runs any judge through the one runner."""

from __future__ import annotations

import json

import whileai_env as wenv
from tests.trainers.conftest import SPEC
from trainers import completion_reward, environment_factory, judge_reward, tool_face
from trainers.data import task_row


def _oracle_rows(n: int = 12) -> tuple[wenv.Spec, list[dict]]:
    spec = wenv.load_spec(SPEC)
    tasks = wenv.draw_tasks(spec, n, mode="rl", seed=3)
    return spec, wenv.simulate("oracle", spec=spec, tasks=tasks, repeats=1, quiet=True).grade().rows


def test_a_replayed_tool_face_completion_earns_simulates_reward() -> None:
    spec, rows = _oracle_rows()
    env_class = environment_factory(spec)
    reward = completion_reward(spec)
    faced = [tool_face(r["messages"], env_class) for r in rows]
    opening = [
        next(i for i, m in enumerate(f) if m["role"] not in ("system", "user")) for f in faced
    ]
    columns = [task_row(spec, wenv.rebuild_task(r, spec)) for r in rows]
    got = reward(
        [f[i:] for f, i in zip(faced, opening, strict=True)],
        prompts=[c["prompt"] for c in columns],
        info=[c["info"] for c in columns],
    )
    assert got == [r["reward"] for r in rows]
    assert any(
        sum(m["role"] == "user" for m in r["messages"]) > 1 for r in rows
    )  # an ask was replayed


def test_judge_reward_grades_each_rollout_with_the_judge() -> None:
    spec, rows = _oracle_rows(2)
    env_class = environment_factory(spec)
    envs = []
    for row in rows:
        env = env_class()
        env.reset(info=json.dumps(wenv.rebuild_task(row, spec).public_dict()))
        envs.append(env)
    long_reply = judge_reward(lambda row: float(len(row["final_text"]) > 3), name="long_reply")
    assert long_reply.__name__ == "long_reply"
    got = long_reply(
        [
            [{"role": "assistant", "content": "ok"}],
            [{"role": "assistant", "content": "All sorted."}],
        ],
        environments=envs,
    )
    assert got == [0.0, 1.0]


def test_the_rollout_player_grades_a_model_in_the_environment(tiny_model: str) -> None:
    from transformers import AutoModelForCausalLM

    from trainers.models import load_tokenizer
    from trainers.rollout import play, rollout_rows

    spec = wenv.load_spec(SPEC)
    task = wenv.draw_tasks(spec, 1, mode="rl", seed=3)[0]
    model = AutoModelForCausalLM.from_pretrained(tiny_model)
    rollouts = play(
        model,
        load_tokenizer(tiny_model),
        environment_factory(spec),
        [task_row(spec, task)],
        k=2,
        max_new_tokens=8,
        max_turns=2,
    )
    assert len(rollouts) == 2 and all(r.environment.episode.done for r in rollouts)
    rows = rollout_rows(rollouts)
    assert all(r["reward"] in (0.0, 1.0) for r in rows) and all(
        r["task_id"] == task.task_id for r in rows
    )
