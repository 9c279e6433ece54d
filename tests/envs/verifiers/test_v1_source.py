"""Where the v1 taskset's tasks come from (no verifiers: plain files and names)."""

from __future__ import annotations

from pathlib import Path

import pytest

import whileai_env as wenv
from tests.envs.verifiers.parity import SPEC
from whileai_env.envs.verifiers import v1_source


@pytest.fixture(scope="module")
def spec():
    return wenv.load_spec(SPEC)


def test_a_spec_and_tasks_in_memory_become_files_another_process_reads(spec):
    tasks = wenv.draw_tasks(spec, 3, mode="rl", seed=1)
    source, rows = v1_source.materialize(spec, tasks)
    assert v1_source.materialize(spec.to_dict(), tasks) == (source, rows)
    read, got = v1_source.load_tasks(source, rows, n=0, seed=0, mode="rl", split=None, holdout=0.2)
    assert read.tool_names == spec.tool_names and got == tasks


def test_a_spec_file_is_used_where_it_lies(spec):
    assert v1_source.materialize(str(SPEC), None) == (str(SPEC), None)
    read, options = v1_source.read_source(str(SPEC))
    assert read.tool_names == spec.tool_names and options == {}


def test_an_exported_package_gives_its_options_and_its_split(tmp_path, spec):
    package = Path(wenv.export_environment(spec, tmp_path / "pkg", n=12, band=None)["path"])
    read, options = v1_source.read_source(str(package))
    assert read.tool_names == spec.tool_names and options["max_turns"] >= 1
    _, train = v1_source.load_tasks(
        str(package), None, n=0, seed=0, mode="rl", split="train", holdout=0.2
    )
    _, holdout = v1_source.load_tasks(
        str(package), None, n=0, seed=0, mode="rl", split="holdout", holdout=0.2
    )
    assert train and holdout
    assert not {t.scenario_id for t in train} & {t.scenario_id for t in holdout}


def test_episode_options_resolve_their_references():
    kwargs = v1_source.episode_kwargs(
        {"max_turns": 4, "execute": "json:dumps", "judge": None, "world_options": None}
    )
    assert kwargs["max_turns"] == 4 and callable(kwargs["execute"]) and kwargs["judge"] is None
    assert "world_options" not in kwargs


def test_an_exported_module_names_a_taskset_and_an_env_for_verifiers_v1(tmp_path, spec):
    import importlib.util
    import sys

    package = Path(wenv.export_environment(spec, tmp_path / "pkg", n=6, band=None)["path"])
    init = next(package.glob("*/__init__.py"))
    loader = importlib.util.spec_from_file_location("exported_v1_probe", init)
    module = importlib.util.module_from_spec(loader)
    loader.loader.exec_module(module)
    assert sorted(module.__all__) == ["Env", "Taskset", "load_environment"]
    assert not hasattr(module, "__wrapped__") and "verifiers" not in sys.modules
    with pytest.raises(AttributeError):
        _ = module.anything_else
