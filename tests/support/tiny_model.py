"""A tiny Qwen2-shaped causal LM and tokenizer, built locally in a fraction of a second.

No hub access is needed: a byte-level BPE tokenizer is trained on a few strings (so any text
still encodes, byte by byte) with the ChatML special tokens, and a 2-layer ``Qwen2Config`` with
hidden size 64 is initialised from a fixed seed. The tokenizer ships no chat template, so
``HFPolicy`` applies its fallback. Needs ``torch``, ``transformers`` and ``tokenizers``.

>>> path = build_tiny_model(tmp_path / "tiny")      # doctest: +SKIP
"""

from __future__ import annotations

from pathlib import Path

SPECIAL_TOKENS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]
_CORPUS = [
    "<|im_start|>system\nYou are a support agent.<|im_end|>\n",
    "<|im_start|>user\nCan you check order 4412 for me?<|im_end|>\n",
    '<tool_call>\n{"name": "get_order", "arguments": {"order_id": "4412"}}\n</tool_call>',
    '<tool_response>\n{"status": "ok", "result": {"order_id": "4412"}}\n</tool_response>',
    "Your order has shipped and should arrive on Friday.",
]


def build_tiny_model(path: str | Path, *, seed: int = 0, vocab_size: int = 400) -> Path:
    """Train the tokenizer, initialise the model, save both under ``path`` and return it."""
    import torch
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast, Qwen2Config, Qwen2ForCausalLM

    path = Path(path)
    raw = Tokenizer(models.BPE())
    raw.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    raw.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        special_tokens=SPECIAL_TOKENS,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    raw.train_from_iterator(_CORPUS * 4, trainer=trainer)
    tokenizer = PreTrainedTokenizerFast(
        tokenizer_object=raw,
        eos_token="<|endoftext|>",
        pad_token="<|endoftext|>",
        additional_special_tokens=SPECIAL_TOKENS[1:],
    )
    torch.manual_seed(seed)
    config = Qwen2Config(
        vocab_size=len(tokenizer),
        hidden_size=64,
        intermediate_size=128,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=2048,
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id,
        bos_token_id=None,
        tie_word_embeddings=True,
    )
    model = Qwen2ForCausalLM(config)
    tokenizer.save_pretrained(path)
    model.save_pretrained(path)
    return path
