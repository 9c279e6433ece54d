"""export_environment: the package's files, the split, the gate, and references by name."""

from __future__ import annotations

import json
import tomllib

import pytest
from click.testing import CliRunner

import whileai_env as wenv
from tests.envs.verifiers.parity import SPEC
from whileai_env.cli import main
from whileai_env.export.package import read_package


def module_level_judge(row):
    return 1.0


@pytest.fixture(scope="module")
def spec():
    return wenv.load_spec(SPEC)


@pytest.fixture(scope="module")
def exported(spec, tmp_path_factory):
    path = tmp_path_factory.mktemp("export") / "env"
    return path, wenv.export_environment(spec, path, n=15, holdout=0.2)


def test_the_package_holds_its_files(exported):
    path, report = exported
    module = path / report["name"]
    assert {p.name for p in path.iterdir()} == {"pyproject.toml", "README.md", report["name"]}
    assert {p.name for p in (module / "data").iterdir()} == {"train.jsonl", "holdout.jsonl"}
    pyproject = tomllib.loads((path / "pyproject.toml").read_text())
    assert pyproject["tool"]["hatch"]["build"]["targets"]["wheel"]["packages"] == [report["name"]]
    assert "whileai-env>=0.1.0" in pyproject["project"]["dependencies"]
    assert "def load_environment(split" in (module / "__init__.py").read_text()
    assert "Decontamination" in (path / "README.md").read_text()


def test_the_spec_keeps_the_schemas_and_the_turn_cap(spec, exported):
    path, report = exported
    config = json.loads((path / report["name"] / "spec.json").read_text())
    assert config["spec"]["tools"] == spec.openai_tools()
    assert config["max_turns"] >= 1 and config["judge"] is None


def test_privileged_data_is_only_in_info(exported):
    path, _ = exported
    _, rows = read_package(path)
    assert rows
    for row in rows:
        info = json.loads(row["info"])
        assert info["privileged"]["hidden_state"]
        assert info["privileged"]["reference"] not in json.dumps(row["prompt"])
        assert "privileged" not in json.dumps(row["prompt"])


def test_train_and_holdout_share_no_scenario_and_no_opener(spec, exported):
    path, report = exported
    _, train = read_package(path, "train")
    _, holdout = read_package(path, "holdout")
    assert len(train) == report["train"] and len(holdout) == report["holdout_tasks"] >= 1
    scenarios = [{json.loads(r["info"])["scenario_id"] for r in side} for side in (train, holdout)]
    openers = [{r["prompt"][-1]["content"] for r in side} for side in (train, holdout)]
    assert not scenarios[0] & scenarios[1] and not openers[0] & openers[1]


def test_the_rows_rebuild_the_tasks_they_were_exported_from(spec, exported):
    path, _ = exported
    tasks = wenv.tasks_from_rows(read_package(path)[1], spec)
    assert {t.task_id for t in tasks} <= {
        t.task_id for t in wenv.draw_tasks(spec, 15, mode="rl", seed=0)
    }


def test_a_judge_that_cannot_be_imported_by_name_is_refused(spec, tmp_path):
    with pytest.raises(ValueError, match="module-level function"):
        wenv.export_environment(spec, tmp_path / "a", judge=lambda row: 1.0, n=4)
    with pytest.raises(ValueError, match="cannot import"):
        wenv.export_environment(spec, tmp_path / "b", execute="no_such_module:execute", n=4)


def test_an_importable_judge_is_stored_by_name(spec, tmp_path):
    report = wenv.export_environment(spec, tmp_path / "e", judge=module_level_judge, n=4)
    assert report["judge"] == f"{__name__}:module_level_judge"


def test_graded_rows_are_kept_by_the_band(spec, tmp_path):
    rows = []
    for i, task in enumerate(wenv.draw_tasks(spec, 6, mode="rl", seed=0)):
        rewards = [1.0, 0.0] if i % 2 else [1.0, 1.0]  # mixed on odd tasks, always solved on even
        rows += [{**task.public_dict(), "reward": r} for r in rewards]
    report = wenv.export_environment(rows, tmp_path / "e", spec=spec, holdout=0.0)
    assert report["gate"]["applied"] and report["gate"]["graded_mixed"] == 3
    assert report["gate"]["always_solved"] == 3 and report["train"] == 3


def test_rows_are_read_once_and_only_their_tasks_and_rewards_kept(spec, tmp_path):
    """A generator of rows with long transcripts exports as the list of them does, holding
    each task's columns once and each rollout's reward, not the rows."""
    import tracemalloc

    tasks = wenv.draw_tasks(spec, 40, mode="rl", seed=1)

    def rows():
        for i in range(2000):
            task = tasks[i % len(tasks)]
            messages = [{"role": "assistant", "content": f"{i} " + "x" * 20_000}]
            yield {**task.public_dict(), "reward": float(i % 3 == 0), "messages": messages}

    tracemalloc.start()
    try:
        streamed = wenv.export_environment(rows(), tmp_path / "a", spec=spec, holdout=0.2)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    listed = wenv.export_environment(list(rows()), tmp_path / "b", spec=spec, holdout=0.2)
    assert {k: v for k, v in streamed.items() if k != "path"} == {
        k: v for k, v in listed.items() if k != "path"
    }
    module = streamed["name"]
    for side in ("train", "holdout"):
        data = f"{module}/data/{side}.jsonl"
        assert (tmp_path / "a" / data).read_bytes() == (tmp_path / "b" / data).read_bytes()
    assert peak < 15 * 2**20  # the rows themselves are 40 MB


def test_a_non_empty_directory_is_refused(spec, tmp_path):
    (tmp_path / "keep.txt").write_text("x")
    with pytest.raises(FileExistsError):
        wenv.export_environment(spec, tmp_path, n=4)


def test_the_cli_exports_a_spec(tmp_path):
    result = CliRunner().invoke(main, ["export", str(SPEC), "-o", str(tmp_path / "env"), "-n", "6"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["train"] >= 1
    assert (tmp_path / "env" / "pyproject.toml").is_file()
