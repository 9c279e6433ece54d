"""``push(..., gate=True)`` runs the publish gate: refuses, or stores stamped rows and the report."""

from __future__ import annotations

import pytest

from whileai_env import store
from whileai_env.errors import PublishGateError
from whileai_env.export.gate import calibration_of


def _rows(rewards: list[float]) -> list[dict]:
    return [{"task_id": "t", "prompt": "p", "reward": r, "repeats": 4} for r in rewards]


def test_a_gated_push_refuses_rows_with_no_mixed_group(tmp_path) -> None:
    with pytest.raises(PublishGateError):
        store.push(_rows([1.0, 1.0]), "demo", gate=True, mode="rl", root=tmp_path)
    assert store.versions(root=tmp_path) == []


def test_a_gated_push_stores_the_stamp_and_the_report(tmp_path) -> None:
    version = store.push(_rows([1.0, 0.0, 0.0, 1.0]), "demo", gate=True, root=tmp_path)
    pulled = store.pull(version, root=tmp_path)
    assert calibration_of(pulled[0]) == (0.5, 4, None)
    assert store.Store(tmp_path).entry(version)["meta"]["gate"]["mixed_tasks"] == 1


def test_an_ungated_push_stores_the_rows_as_given(tmp_path) -> None:
    version = store.push(_rows([1.0, 1.0]), "demo", root=tmp_path)
    assert "calibration" not in store.pull(version, root=tmp_path)[0]
