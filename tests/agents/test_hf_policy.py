"""HFPolicy: a local transformers model as the agent.

The missing-extra tests always run. The model tests run when torch, transformers and tokenizers
import: they build a tiny Qwen2-shaped model, teach it (a second of training) to answer one prompt
with one tool call, and check parsing, logprobs against a separate forward pass, truncation and
determinism.
"""

from __future__ import annotations

import importlib.util
import sys

import pytest

from whileai_env.agents import HFPolicy, make_policy
from whileai_env.episode.actions import parse_action
from whileai_env.errors import MissingExtraError

HAVE_TRAIN = all(importlib.util.find_spec(m) for m in ("torch", "transformers", "tokenizers"))
needs_train = pytest.mark.skipif(
    not HAVE_TRAIN, reason="torch/transformers/tokenizers are not installed"
)

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_order",
            "description": "Look up an order by id.",
            "parameters": {
                "type": "object",
                "properties": {"order_id": {"type": "string"}},
                "required": ["order_id"],
            },
        },
    }
]
MESSAGES = [
    {"role": "system", "content": "You are a support agent."},
    {"role": "user", "content": "Can you check order 4412?"},
]
ANSWER = (
    '<tool_call>\n{"name": "get_order", "arguments": {"order_id": "4412"}}\n</tool_call><|im_end|>'
)


@pytest.mark.parametrize("module", ["torch", "transformers"])
def test_missing_train_packages_name_the_extra(monkeypatch, module):
    monkeypatch.setitem(sys.modules, module, None)
    with pytest.raises(MissingExtraError) as info:
        HFPolicy("/nonexistent/model")
    assert info.value.extra == "train" and info.value.module == module
    with pytest.raises(MissingExtraError, match=r"whileai-env\[train\]"):
        make_policy("hf:/nonexistent/model")


def test_bad_generation_settings_are_refused():
    with pytest.raises(ValueError, match="max_new_tokens"):
        HFPolicy("/nonexistent", max_new_tokens=0)
    with pytest.raises(ValueError, match="temperature"):
        HFPolicy("/nonexistent", temperature=-1)


@pytest.fixture(scope="module")
def taught(tmp_path_factory):
    """(policy, prompt ids, answer ids): a tiny model taught to answer MESSAGES with ANSWER."""
    import torch

    from tests.support import build_tiny_model

    path = build_tiny_model(tmp_path_factory.mktemp("tiny") / "model")
    policy = HFPolicy(path, temperature=0, logprobs=True, max_new_tokens=64)
    tok, model = policy.tokenizer, policy.model
    prompt = tok.apply_chat_template(
        MESSAGES, tools=TOOLS, add_generation_prompt=True, tokenize=False
    )
    prompt_ids = tok(prompt, add_special_tokens=False)["input_ids"]
    answer_ids = tok(ANSWER, add_special_tokens=False)["input_ids"]
    ids = torch.tensor([prompt_ids + answer_ids])
    labels = ids.clone()
    labels[0, : len(prompt_ids)] = -100
    model.train()
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
    for _ in range(300):
        loss = model(input_ids=ids, labels=labels).loss
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if loss.item() < 0.02:
            break
    model.eval()
    return policy, prompt_ids, answer_ids


def _forward_logprob(policy, prompt_ids, answer_ids) -> float:
    import torch

    with torch.no_grad():
        logits = policy.model(input_ids=torch.tensor([prompt_ids + answer_ids])).logits[0].float()
    scores = torch.log_softmax(logits[len(prompt_ids) - 1 : -1], dim=-1)
    return scores.gather(1, torch.tensor(answer_ids)[:, None]).sum().item()


@needs_train
def test_the_fallback_template_renders_tools_and_tool_turns(taught):
    policy, _, _ = taught
    text = policy.tokenizer.apply_chat_template(
        [
            *MESSAGES,
            {
                "role": "assistant",
                "content": "",
                "tool_calls": [
                    {
                        "id": "c1",
                        "type": "function",
                        "function": {"name": "get_order", "arguments": '{"order_id": "4412"}'},
                    }
                ],
            },
            {
                "role": "tool",
                "tool_call_id": "c1",
                "name": "get_order",
                "content": '{"status": "ok"}',
            },
            {
                "role": "tool",
                "tool_call_id": "c2",
                "name": "get_order",
                "content": '{"status": "late"}',
            },
        ],
        tools=TOOLS,
        add_generation_prompt=True,
        tokenize=False,
    )
    assert text.startswith("<|im_start|>system\nYou are a support agent.\n\n# Tools")
    assert '"name": "get_order"' in text.split("\n</tools>")[0]
    assert (
        '<|im_start|>assistant\n<tool_call>\n{"name": "get_order", "arguments": {"order_id": "4412"}}\n'
        "</tool_call><|im_end|>\n"
    ) in text
    assert (
        '<|im_start|>user\n<tool_response>\n{"status": "ok"}\n</tool_response>\n<tool_response>\n'
        '{"status": "late"}\n</tool_response><|im_end|>\n<|im_start|>assistant\n'
    ) in text
    bare = policy.tokenizer.apply_chat_template(
        MESSAGES[1:], add_generation_prompt=True, tokenize=False
    )
    assert bare == "<|im_start|>user\nCan you check order 4412?<|im_end|>\n<|im_start|>assistant\n"


@needs_train
def test_generated_tool_call_is_parsed_and_logprob_matches_a_forward_pass(taught):
    policy, prompt_ids, answer_ids = taught
    out = policy(MESSAGES, TOOLS)
    assert out.message == {
        "role": "assistant",
        "content": "",
        "tool_calls": [
            {
                "type": "function",
                "function": {"name": "get_order", "arguments": '{"order_id": "4412"}'},
            }
        ],
    }
    (call,) = parse_action(out.message).tool_calls
    assert (call.name, call.arguments, call.error) == ("get_order", {"order_id": "4412"}, None)
    assert out.n_tokens == out.output_tokens == len(answer_ids)
    assert out.input_tokens == len(prompt_ids)
    assert out.truncated is False
    assert out.logprob == pytest.approx(_forward_logprob(policy, prompt_ids, answer_ids), abs=1e-4)
    assert out.logprob < 0
    assert policy(MESSAGES, TOOLS) == out


@needs_train
def test_sampling_logprob_is_the_models_own_whatever_the_temperature(taught):
    import torch

    policy, prompt_ids, answer_ids = taught
    policy.temperature = 0.7
    try:
        torch.manual_seed(0)
        out = policy(MESSAGES, TOOLS)
    finally:
        policy.temperature = 0
    assert parse_action(out.message).tool_calls[0].arguments == {"order_id": "4412"}
    assert out.logprob == pytest.approx(_forward_logprob(policy, prompt_ids, answer_ids), abs=1e-4)


@needs_train
def test_hitting_max_new_tokens_marks_the_turn_truncated(taught):
    policy, _, _ = taught
    policy.max_new_tokens = 5
    try:
        out = policy(MESSAGES, TOOLS)
    finally:
        policy.max_new_tokens = 64
    assert out.truncated is True and out.n_tokens == out.output_tokens == 5


@needs_train
def test_logprobs_off_leaves_them_unset(taught):
    policy, _, answer_ids = taught
    policy.logprobs = False
    try:
        out = policy(MESSAGES, TOOLS)
    finally:
        policy.logprobs = True
    assert (out.logprob, out.n_tokens, out.output_tokens) == (None, None, len(answer_ids))


@needs_train
def test_make_policy_loads_an_hf_directory(taught):
    policy, _, _ = taught
    loaded = make_policy(f"hf:{policy.path}", logprobs=True, temperature=0, max_new_tokens=3)
    assert isinstance(loaded, HFPolicy) and loaded.logprobs and loaded.max_new_tokens == 3
    assert loaded.tokenizer.chat_template  # the fallback, since the tiny tokenizer ships none
