"""``to_hub``: a finalized version to a Hugging Face dataset repo, through ``huggingface_hub``.

The rows go out through the package's leak gate (:func:`whileai_env.data.rows.export_row`, with
``share=True`` by default: no privileged block and none of the columns that rebuild the hidden
state), with the version's card as the repo's ``README.md``. One commit per push, tagged
``whileai-<id>``, so ``load_dataset(repo, revision="whileai-<id>")`` pins the exact version.
``huggingface_hub`` is imported only here (it comes with the ``train`` extra).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

from whileai_env.data.jsonl import write_rows
from whileai_env.data.rows import export_row
from whileai_env.errors import MissingExtraError, StoreError
from whileai_env.store.card import CARD_FILE, ROWS_FILE
from whileai_env.store.store import Store


def to_hub(
    version: str,
    repo: str,
    *,
    private: bool = True,
    share: bool = True,
    token: str | None = None,
    root: str | os.PathLike | None = None,
    api: Any = None,
) -> dict[str, Any]:
    """Upload a finalized ``version`` to the dataset repo ``repo`` (created when missing,
    private by default) and return ``{"repo", "id", "tag", "commit", "rows"}``.

    ``api`` is a ``huggingface_hub.HfApi`` (one is made with ``token`` when ``None``).
    """
    store = Store(root)
    entry = store.entry(version)
    if not entry["finalized"]:
        raise StoreError(f"{entry['id']} is not finalized: finalize it before publishing")
    api = api if api is not None else _hf_api(token)
    rows = [export_row(r, share=share) for r in store.pull(entry["id"])]
    tag = f"whileai-{entry['id']}"
    with tempfile.TemporaryDirectory() as staging:
        write_rows(rows, Path(staging) / ROWS_FILE)
        card = (store.path(entry["id"]) / CARD_FILE).read_bytes()
        (Path(staging) / CARD_FILE).write_bytes(card)
        api.create_repo(repo, repo_type="dataset", private=private, exist_ok=True)
        commit = api.upload_folder(
            repo_id=repo,
            repo_type="dataset",
            folder_path=staging,
            commit_message=f"whileai-env store: {entry['name']} {entry['id']}",
        )
    oid = getattr(commit, "oid", None)
    api.create_tag(repo, tag=tag, repo_type="dataset", revision=oid)
    return {"repo": repo, "id": entry["id"], "tag": tag, "commit": oid, "rows": len(rows)}


def _hf_api(token: str | None) -> Any:
    try:
        from huggingface_hub import HfApi
    except ImportError:
        raise MissingExtraError("huggingface_hub", "train") from None
    return HfApi(token=token)
