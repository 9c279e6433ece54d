"""The verifiers faces' shared parts, with no verifiers installed (the main suite's venv)."""

from __future__ import annotations

import json
from importlib import metadata

import pytest

import whileai_env as wenv
from tests.envs.verifiers.parity import SPEC
from whileai_env.envs.verifiers import common


@pytest.fixture(scope="module")
def spec():
    return wenv.load_spec(SPEC)


def _version(value):
    def version(name):
        if value is None:
            raise metadata.PackageNotFoundError(name)
        return value

    return version


def test_load_environment_names_the_extra_when_verifiers_is_missing(monkeypatch, spec):
    monkeypatch.setattr(common.metadata, "version", _version(None))
    with pytest.raises(wenv.MissingExtraError, match=r"whileai-env\[verifiers\]") as raised:
        wenv.load_environment(spec)
    assert any("whileai-env[verifiers-v1]" in note for note in raised.value.__notes__)


@pytest.mark.parametrize(
    ("version", "generation"), [("0.3.1", "classic"), ("0.3.9", "classic"), ("0.4.0", "v1")]
)
def test_the_generation_follows_the_installed_version(monkeypatch, version, generation):
    monkeypatch.setattr(common.metadata, "version", _version(version))
    assert common.verifiers_generation() == generation


def test_a_release_older_than_the_classic_stack_is_refused(monkeypatch):
    monkeypatch.setattr(common.metadata, "version", _version("0.1.2"))
    with pytest.raises(wenv.MissingExtraError, match=r"0\.1\.2"):
        common.verifiers_generation()


def test_a_dataset_row_prompts_with_the_opening_only_and_keeps_the_task_in_info(spec):
    task = wenv.draw_tasks(spec, 1, mode="rl", seed=3)[0]
    row = common.dataset_row(spec, task)
    assert [m["role"] for m in row["prompt"]] == ["system", "user"]
    assert row["prompt"][1]["content"] == task.opener
    assert task.privileged.reference not in json.dumps(row["prompt"])
    assert wenv.Episode.from_row(row, spec).task == task


def test_tool_defs_keep_the_specs_schemas_verbatim(spec):
    defs = common.tool_defs(spec)
    assert [d["name"] for d in defs] == list(spec.tool_names)
    assert [d["parameters"] for d in defs] == [
        t["function"]["parameters"] for t in spec.openai_tools()
    ]


def test_a_split_serves_disjoint_scenarios(spec):
    def pick(split):
        return common.select_tasks(spec, None, n=20, seed=0, mode="rl", split=split, holdout=0.2)

    train, holdout = pick("train"), pick("holdout")
    assert train and holdout
    assert not {t.scenario_id for t in train} & {t.scenario_id for t in holdout}


def test_a_rollout_cut_before_it_ended_scores_zero(spec):
    task = wenv.draw_tasks(spec, 1, mode="rl", seed=0)[0]
    episode = wenv.Episode(spec, task)
    assert common.graded(episode)["reward"] == 0.0
    assert common.rollout_metrics(episode, spec.tool_names)["truncated"] == 1.0


def test_verifiers_v1_refuses_episode_options_another_process_cannot_import(monkeypatch, spec):
    monkeypatch.setattr(common.metadata, "version", _version("0.4.0"))
    with pytest.raises(wenv.ConfigError, match="openai:MODEL"):
        wenv.load_environment(spec, n=2, user=lambda messages: None)
    with pytest.raises(wenv.ConfigError, match="grade"):
        wenv.load_environment(spec, n=2, grade=False)
