"""TRL-shape exports render through TRL's own ``maybe_apply_chat_template`` with the tiny tokenizer.

trl and transformers are imported directly: without the train extra these tests fail, they do not
skip (as the trainers tests).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from trl.data_utils import is_conversational, maybe_apply_chat_template

import whileai_env as wenv
from tests.export.test_dataset import SPEC, _pairs, graded_rows
from whileai_env.export.dataset import export_dataset
from whileai_env.export.preference import export_preference


@pytest.fixture(scope="module")
def tokenizer(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The tiny Qwen2 tokenizer with TRL's Qwen2.5 tool template (tests/support/tiny_model.py)."""
    from transformers import AutoTokenizer

    from tests.support.tiny_model import build_tiny_model
    from trainers.models import prepare_checkpoint

    path = build_tiny_model(tmp_path_factory.mktemp("tiny") / "model")
    return AutoTokenizer.from_pretrained(prepare_checkpoint(str(path), template="qwen2_5"))


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _rendered_calls(text: str) -> list[dict[str, Any]]:
    """The tool calls in the turns after the system turn (whose tool instructions show a sample)."""
    turns = text.split("<|im_end|>", 1)[1]
    blocks = re.findall(r"<tool_call>\n(.*?)\n</tool_call>", turns, flags=re.S)
    return [json.loads(block) for block in blocks]


def test_sft_trl_export_renders_every_turn(tmp_path: Path, tokenizer: Any) -> None:
    spec = wenv.load_spec(str(SPEC))
    export_dataset(graded_rows(), tmp_path / "sft.jsonl", format="trl", tools=spec)
    for example in _lines(tmp_path / "sft.jsonl"):
        assert is_conversational(example)
        text = maybe_apply_chat_template(example, tokenizer, tools=example["tools"])["text"]
        calls = []
        for message in example["messages"]:
            if message["role"] == "assistant" and message["content"]:
                assert message["content"] in text
            calls += [c["function"] for c in message.get("tool_calls", ())]
        assert _rendered_calls(text) == calls  # arguments rendered as objects, not quoted twice
        assert "get_order" in text.split("<|im_end|>")[0]  # the tool schemas in the system turn


def test_openai_prompt_column_is_what_trl_reads_as_plain_text(tmp_path: Path) -> None:
    """Why the TRL shape drops ``prompt``: TRL would read that string column as not
    conversational (``is_conversational`` picks any one supported key) and skip the template."""
    export_dataset(graded_rows(), tmp_path / "openai.jsonl", format="openai")
    export_dataset(graded_rows(), tmp_path / "trl.jsonl", format="trl")
    openai, trl = _lines(tmp_path / "openai.jsonl")[0], _lines(tmp_path / "trl.jsonl")[0]
    assert not is_conversational({"prompt": openai["prompt"]})
    assert "prompt" not in trl and trl["prompt_text"] == openai["prompt"]


def test_dpo_trl_export_renders_prompt_chosen_rejected(tmp_path: Path, tokenizer: Any) -> None:
    export_preference(_pairs(), tmp_path / "dpo.jsonl", tools=wenv.load_spec(str(SPEC)))
    for example in _lines(tmp_path / "dpo.jsonl"):
        out = maybe_apply_chat_template(example, tokenizer, tools=example["tools"])
        assert set(out) == {"prompt", "chosen", "rejected"}
        assert out["prompt"].endswith("<|im_start|>assistant\n")
        assert out["chosen"] and out["rejected"] and out["chosen"] != out["rejected"]
