"""The tiny model every trainers test uses, built once per session (a fraction of a second)."""

from __future__ import annotations

import pytest

pytest.importorskip(
    "trl", reason="the train extra (torch, transformers, trl, peft) is not installed"
)

from tests.conftest import SPECS_DIR

SPEC = str(SPECS_DIR / "order-support.json")


@pytest.fixture(scope="session")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A tiny Qwen2 checkpoint with TRL's Qwen2.5 tool template and a long context."""
    from tests.support.tiny_model import build_tiny_model
    from trainers.models import prepare_checkpoint

    path = build_tiny_model(tmp_path_factory.mktemp("tiny") / "model")
    return prepare_checkpoint(str(path), template="qwen2_5", max_positions=32768)
