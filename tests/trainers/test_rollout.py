"""Batched play: the rollouts still playing generate together, and play matches one at a time."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import whileai_env as wenv
from tests.trainers.conftest import SPEC
from tests.trainers.scripted import model_text
from trainers import environment_factory
from trainers.data import task_row


def _rows(n: int) -> tuple[Any, list[dict[str, Any]]]:
    spec = wenv.load_spec(SPEC)
    return spec, [task_row(spec, t) for t in wenv.draw_tasks(spec, n, mode="rl", seed=3)]


def test_greedy_batched_play_equals_one_at_a_time_on_the_tiny_model(tiny_model: str) -> None:
    from transformers import AutoModelForCausalLM

    from trainers.models import load_tokenizer
    from trainers.rollout import play

    spec, rows = _rows(3)
    model = AutoModelForCausalLM.from_pretrained(tiny_model).eval()
    tokenizer = load_tokenizer(tiny_model)

    def run(batch_size: int) -> list[Any]:
        return play(
            model,
            tokenizer,
            environment_factory(spec),
            rows,
            max_new_tokens=10,
            max_turns=2,
            batch_size=batch_size,
        )

    alone, together = run(1), run(2)
    assert [r.completion for r in together] == [r.completion for r in alone]
    assert [r.reward for r in together] == [r.reward for r in alone]
    assert [r.completion[0] for r in alone] == [
        _plain_first_turn(model, tokenizer, r) for r in alone
    ]


def _plain_first_turn(model: Any, tokenizer: Any, rollout: Any) -> dict[str, Any]:
    """The first turn from one uncached, unpadded ``generate`` call (what play must reproduce)."""
    import torch

    from trainers.rollout import _parse, _tools

    tools = _tools(rollout.environment)
    ids = tokenizer.apply_chat_template(
        rollout.prompt, tools=tools, add_generation_prompt=True, tokenize=True, return_dict=False
    )
    out = model.generate(torch.tensor([ids]), max_new_tokens=10, do_sample=False)
    return _parse(tokenizer, out[0, len(ids) :].tolist(), ids, tools)


class ScriptedModel:
    """Stands in for ``model.generate``: the rollout whose opener is ``caller`` calls ``call``
    on its first turn then answers in text; every other rollout answers in text at once. Each
    finished row is padded after its stop token, as ``generate`` pads a batch."""

    device = "cpu"

    def __init__(self, tokenizer: Any, caller: str, call: dict[str, Any]) -> None:
        self.tokenizer, self.caller, self.call = tokenizer, caller, call
        end = tokenizer.convert_tokens_to_ids("<|im_end|>")
        self.generation_config = SimpleNamespace(eos_token_id=[end, tokenizer.eos_token_id])
        self.batches: list[int] = []

    def __call__(self, input_ids: Any, **_: Any) -> Any:
        """The shared prefix's forward pass: a cache that only needs repeating."""
        return SimpleNamespace(cache=SimpleNamespace(batch_repeat_interleave=lambda rows: None))

    def generate(self, inputs: Any, attention_mask: Any, **_: Any) -> Any:
        import torch

        self.batches.append(len(inputs))
        new = [
            self._turn(row[mask.bool()].tolist())
            for row, mask in zip(inputs, attention_mask, strict=True)
        ]
        width = max(len(n) for n in new)
        pad = self.tokenizer.pad_token_id
        tail = torch.tensor([n + [pad] * (width - len(n)) for n in new])
        return torch.cat([inputs, tail], dim=1)

    def _turn(self, prompt_ids: list[int]) -> list[int]:
        text = self.tokenizer.decode(prompt_ids)
        calls = self.caller in text and "<tool_response>" not in text
        reply = model_text(self.call, asks=False) if calls else "All sorted."
        return [*self.tokenizer.encode(reply + "<|im_end|>"), self.tokenizer.eos_token_id]


def test_only_the_rollouts_still_calling_tools_generate_again(tiny_model: str) -> None:
    from trainers.models import load_tokenizer
    from trainers.rollout import play

    spec, rows = _rows(3)
    played = wenv.simulate("oracle", spec=spec, tasks=wenv.draw_tasks(spec, 3, mode="rl", seed=3))
    first = next(m for r in played.rows for m in r["messages"] if m.get("tool_calls"))
    caller = rows[0]["prompt"][-1]["content"]
    tokenizer = load_tokenizer(tiny_model)

    def run(batch_size: int) -> tuple[ScriptedModel, list[Any]]:
        model = ScriptedModel(tokenizer, caller, {"tool_calls": first["tool_calls"][:1]})
        return model, play(
            model, tokenizer, environment_factory(spec), rows, max_turns=4, batch_size=batch_size
        )

    model, together = run(8)
    assert model.batches == [3, 1]
    assert [len(r.completion) for r in together] == [3, 1, 1]
    assert together[0].well_formed == 1 and together[0].completion[1]["role"] == "tool"
    assert all(r.completion[-1]["content"] == "All sorted." for r in together)
    model, alone = run(1)
    assert model.batches == [1, 1, 1, 1]
    assert [r.completion for r in alone] == [r.completion for r in together]
