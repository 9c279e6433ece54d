"""The local dataset store: push, pull, versions, lineage across three versions, profile, card."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import whileai_env.store as store
from whileai_env.errors import StoreError
from whileai_env.store.store import Store


def _rows(k: int, n: int = 4) -> list[dict[str, Any]]:
    return [
        {
            "task_id": f"t{i // 2}",
            "reward": float((i + k) % 2),
            "agent": "seeded",
            "spec_hash": "abc",
            "faults": [{"kind": "timeout"}] if i == 0 else [],
            "scenario_dimensions": {"tool": "get_order", "world_state": "exists"},
        }
        for i in range(n)
    ]


def test_push_pull_and_lineage_across_three_versions(tmp_path: Path) -> None:
    v1 = store.push(_rows(0), "orders", description="first", root=tmp_path, config={"seed": 0})
    v2 = store.push(_rows(1), "orders", parent=v1, root=tmp_path)
    v3 = store.push(_rows(2, n=6), "orders", parent="orders", root=tmp_path)  # a name: its latest
    assert len({v1, v2, v3}) == 3 and all(v.startswith("ds_") for v in (v1, v2, v3))
    assert [v["id"] for v in store.versions("orders", root=tmp_path)] == [v1, v2, v3]
    assert store.pull("orders", root=tmp_path) == _rows(2, n=6)
    assert store.pull(v1, root=tmp_path) == _rows(0)
    lineage = store.lineage(v3, root=tmp_path)
    assert lineage["parents"] == [v2, v1] and lineage["parent"] == v2
    assert lineage["spec_hash"] == "abc" and lineage["agent"] == "seeded"
    assert lineage["counts"] == {"rows": 6, "tasks": 3, "graded": 6, "mixed_tasks": 3}
    assert store.lineage(v1, root=tmp_path)["config"] == {"seed": 0}
    assert store.lineage(v1, root=tmp_path)["parents"] == []


def test_the_same_push_is_one_version(tmp_path: Path) -> None:
    first = store.push(_rows(0), "orders", root=tmp_path)
    assert store.push(_rows(0), "orders", root=tmp_path) == first
    assert store.push(_rows(0), "other", root=tmp_path) != first  # the name is in the id
    assert len(store.versions(root=tmp_path)) == 2


def test_profile_counts_and_breakdowns(tmp_path: Path) -> None:
    version = store.push(_rows(0), "orders", root=tmp_path)
    profile = store.profile(version, root=tmp_path)
    assert profile["rows"] == 4 and profile["reward_mean"] == 0.5 and profile["pass_rate"] == 0.5
    assert profile["by_fault_kind"] == {
        "none": {
            "rows": 3,
            "graded": 3,
            "reward_mean": pytest.approx(2 / 3),
            "pass_rate": pytest.approx(2 / 3),
        },
        "timeout": {"rows": 1, "graded": 1, "reward_mean": 0.0, "pass_rate": 0.0},
    }
    assert list(profile["by_tool"]) == ["get_order"]
    assert list(profile["by_world_state"]) == ["exists"]


def test_each_version_has_a_card_with_its_profile(tmp_path: Path) -> None:
    version = store.push(_rows(0), "orders", description="the first cut", root=tmp_path)
    card = (Store(tmp_path).path(version) / "README.md").read_text(encoding="utf-8")
    assert card.startswith("---\nconfigs:") and "data_files: rows.jsonl" in card
    assert f"# orders ({version})" in card and "the first cut" in card
    assert "| pass_rate | 0.5 |" in card and "| timeout | 1 | 0.0 | 0.0 |" in card


def test_pull_to_a_path_and_push_from_a_path_with_its_run_config(tmp_path: Path) -> None:
    rows_file = tmp_path / "run.jsonl"
    rows_file.write_text("".join(json.dumps(r) + "\n" for r in _rows(0)), encoding="utf-8")
    (tmp_path / "run.jsonl.run.json").write_text('{"budget": 4}', encoding="utf-8")
    version = store.push(rows_file, "orders", root=tmp_path / "s")
    assert store.lineage(version, root=tmp_path / "s")["config"] == {"budget": 4}
    out = store.pull(version, tmp_path / "out.jsonl", root=tmp_path / "s")
    assert Path(out).read_text(encoding="utf-8").count("\n") == 4


def test_finalize_marks_the_version(tmp_path: Path) -> None:
    version = store.push(_rows(0), "orders", root=tmp_path)
    assert store.versions(root=tmp_path)[0]["finalized"] is False
    assert store.finalize(version, root=tmp_path)["finalized"] is True
    empty = store.push([], "empty", root=tmp_path)
    with pytest.raises(StoreError, match="no rows"):
        store.finalize(empty, root=tmp_path)


def test_unknown_versions_and_bad_names_are_refused(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="no dataset version or name 'nope'"):
        store.pull("nope", root=tmp_path)
    with pytest.raises(StoreError, match="'ds_missing'"):
        store.push(_rows(0), "orders", parent="ds_missing", root=tmp_path)
    with pytest.raises(ValueError, match="dataset name"):
        store.push(_rows(0), "../escape", root=tmp_path)


def test_root_comes_from_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(store.STORE_ENV, str(tmp_path / "env-store"))
    version = store.push(_rows(0), "orders")
    assert (tmp_path / "env-store" / "versions" / version / "rows.jsonl").is_file()
    monkeypatch.delenv(store.STORE_ENV)
    assert store.store_root() == Path("~/.cache/whileai-env/store").expanduser()


def test_a_push_streams_its_rows_and_holds_none_of_them(tmp_path):
    """4,000 rows of about 5 KB (20 MB) pass through one at a time: the push used to hold every
    row, their JSON and the joined bytes at once (751 MB of RSS for a 10,000-row run's file)."""
    import tracemalloc

    def rows():
        for i in range(4000):
            yield {"task_id": f"t{i % 500}", "reward": float(i % 2), "final_text": "x" * 5000}

    s = Store(tmp_path / "store")
    tracemalloc.start()
    try:
        version = s.push(rows(), "big")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 5 * 2**20
    profile = s.profile(version)
    assert (profile["rows"], profile["tasks"], profile["mixed_tasks"]) == (4000, 500, 0)
    assert len(s.pull(version)) == 4000 and not any((tmp_path / "store" / "tmp").iterdir())


def test_a_push_that_fails_midway_leaves_no_version_and_no_staging(tmp_path):
    def rows():
        yield {"task_id": "a", "reward": 1.0}
        raise ValueError("the source broke")

    s = Store(tmp_path / "store")
    with pytest.raises(ValueError, match="the source broke"):
        s.push(rows(), "broken")
    assert s.versions() == [] and not any((tmp_path / "store" / "tmp").iterdir())
