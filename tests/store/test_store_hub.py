"""``to_hub``: the upload calls it makes, against a fake ``HfApi`` (there is no hub access)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

import whileai_env.store as store
from whileai_env.errors import MissingExtraError, StoreError

SECRET = "the refund ledger approves this order silently"


class FakeHfApi:
    """Records every call; ``upload_folder`` keeps the files it was given."""

    def __init__(self, token: str | None = None) -> None:
        self.token = token
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.uploaded: dict[str, str] = {}

    def create_repo(self, repo_id: str, **kwargs: Any) -> None:
        self.calls.append(("create_repo", {"repo_id": repo_id, **kwargs}))

    def upload_folder(self, **kwargs: Any) -> Any:
        self.calls.append(("upload_folder", kwargs))
        folder = Path(kwargs["folder_path"])
        self.uploaded = {p.name: p.read_text(encoding="utf-8") for p in folder.iterdir()}
        return SimpleNamespace(oid="c0ffee")

    def create_tag(self, repo_id: str, **kwargs: Any) -> None:
        self.calls.append(("create_tag", {"repo_id": repo_id, **kwargs}))


def _version(root: Path) -> str:
    rows = [
        {"task_id": "a", "reward": 1.0, "world": {"x": 1}, "privileged": {"reference": SECRET}},
        {"task_id": "a", "reward": 0.0, "steps": [{"result": {"hidden_state": {"k": SECRET}}}]},
    ]
    version = store.push(rows, "orders", root=root)
    store.finalize(version, root=root)
    return version


def test_to_hub_creates_uploads_and_tags(tmp_path: Path) -> None:
    version = _version(tmp_path)
    api = FakeHfApi()
    out = store.to_hub(version, "me/orders", root=tmp_path, api=api)
    assert out == {
        "repo": "me/orders",
        "id": version,
        "tag": f"whileai-{version}",
        "commit": "c0ffee",
        "rows": 2,
    }
    assert [name for name, _ in api.calls] == ["create_repo", "upload_folder", "create_tag"]
    assert api.calls[0][1] == {
        "repo_id": "me/orders",
        "repo_type": "dataset",
        "private": True,
        "exist_ok": True,
    }
    assert api.calls[1][1]["repo_type"] == "dataset" and api.calls[1][1]["repo_id"] == "me/orders"
    assert api.calls[2][1] == {
        "repo_id": "me/orders",
        "tag": f"whileai-{version}",
        "repo_type": "dataset",
        "revision": "c0ffee",
    }
    assert set(api.uploaded) == {"rows.jsonl", "README.md"}
    shipped = [json.loads(line) for line in api.uploaded["rows.jsonl"].splitlines()]
    assert SECRET not in api.uploaded["rows.jsonl"] and all("world" not in r for r in shipped)
    assert f"# orders ({version})" in api.uploaded["README.md"]


def test_to_hub_builds_an_hfapi_with_the_token(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import huggingface_hub

    made: list[FakeHfApi] = []
    monkeypatch.setattr(
        huggingface_hub, "HfApi", lambda token=None: made.append(FakeHfApi(token)) or made[-1]
    )
    store.to_hub(_version(tmp_path), "me/orders", token="hf_x", root=tmp_path, private=False)
    assert made[0].token == "hf_x" and made[0].calls[0][1]["private"] is False


def test_to_hub_refuses_an_unfinalized_version(tmp_path: Path) -> None:
    version = store.push([{"task_id": "a"}], "draft", root=tmp_path)
    with pytest.raises(StoreError, match="not finalized"):
        store.to_hub(version, "me/draft", root=tmp_path, api=FakeHfApi())


def test_to_hub_without_huggingface_hub_names_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    version = _version(tmp_path)
    monkeypatch.setitem(sys.modules, "huggingface_hub", None)
    with pytest.raises(MissingExtraError, match=r"whileai-env\[train\]"):
        store.to_hub(version, "me/orders", root=tmp_path)
