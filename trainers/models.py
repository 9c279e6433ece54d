"""Load a policy for training: the model, a tokenizer TRL can parse tool calls with, LoRA.

TRL's tool loop needs a chat template it recognises (it then knows how to read ``<tool_call>``
blocks back). A tokenizer without one, or with one that ignores tools (SmolLM2's), gets TRL's
own Qwen2.5 template, which renders the tool schemas in the system turn.
"""

from __future__ import annotations

from typing import Any

#: Chat templates by name (TRL ships them); ``"auto"`` keeps a tool-aware template already set.
TEMPLATES = ("auto", "qwen2_5")


def tool_template(tokenizer: Any, template: str = "auto") -> Any:
    """Give ``tokenizer`` a tool-aware chat template (in place) and return it.

    ``"auto"`` keeps a template that renders ``tools``; otherwise, and for ``"qwen2_5"``, TRL's
    Qwen2.5 template is set (its ``<|im_end|>`` must then be a token of the vocabulary).
    """
    from trl.chat_template_utils import qwen2_5_chat_template

    if template not in TEMPLATES:
        raise ValueError(f"template must be one of {', '.join(TEMPLATES)}, got {template!r}")
    current = getattr(tokenizer, "chat_template", None) or ""
    if template == "auto" and "tools" in current and "tool_call" in current:
        return tokenizer
    tokenizer.chat_template = qwen2_5_chat_template
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    return tokenizer


def load_tokenizer(path: str, template: str = "auto") -> Any:
    """The tokenizer at ``path`` with a tool-aware chat template."""
    from transformers import AutoTokenizer

    return tool_template(AutoTokenizer.from_pretrained(path), template)


def lora_config(
    r: int = 16, alpha: int = 32, dropout: float = 0.05, target_modules: Any = "all-linear"
) -> Any:
    """A causal-LM LoRA config (``peft.LoraConfig``) for the trainers' ``peft_config=``."""
    from peft import LoraConfig

    return LoraConfig(
        r=r,
        lora_alpha=alpha,
        lora_dropout=dropout,
        target_modules=target_modules,
        task_type="CAUSAL_LM",
    )


def prepare_checkpoint(
    path: str, *, template: str = "auto", max_positions: int | None = None
) -> str:
    """Rewrite a local checkpoint once so the configs can load it as is: a tool-aware chat
    template saved with the tokenizer and, when given, a longer ``max_position_embeddings``
    (rotary models need no new weights for it; TRL stops a tool loop at that length)."""
    from transformers import AutoConfig

    load_tokenizer(path, template).save_pretrained(path)
    if max_positions is not None:
        config = AutoConfig.from_pretrained(path)
        config.max_position_embeddings = max_positions
        config.save_pretrained(path)
    return path
