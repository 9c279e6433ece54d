"""TRL adapters for whileai-env: environment_factory classes, reward functions and callbacks.

Everything here needs the ``train`` extra (torch, transformers, trl, peft, datasets); each name
loads on first use (PEP 562), so ``import trainers`` alone stays light.

>>> import trainers
>>> trainers.environment_factory.__module__
'trainers.environment'
"""

from __future__ import annotations

import importlib
from typing import Any

#: The public names: name -> the module that defines it.
_PUBLIC: dict[str, str] = {
    "environment_factory": "trainers.environment",
    "WhileaiEnvironment": "trainers.environment",
    "finish_rollout": "trainers.environment",
    "task_dataset": "trainers.data",
    "sft_dataset": "trainers.data",
    "preference_dataset": "trainers.data",
    "rollout_pairs": "trainers.data",
    "tool_face": "trainers.data",
    "tool_schemas": "trainers.data",
    "checklist_reward": "trainers.rewards",
    "judge_reward": "trainers.rewards",
    "completion_reward": "trainers.rewards",
    "RunLogger": "trainers.run_logger",
    "HackMonitor": "trainers.hack_monitor",
    "reward_model": "trainers.rm_judge",
    "RewardModelJudge": "trainers.rm_judge",
    "LogprobTracker": "trainers.logprobs",
    "logprob_report": "trainers.logprobs",
    "mean_kl": "trainers.logprobs",
    "staleness_report": "trainers.logprobs",
}

__all__ = sorted(_PUBLIC)


def __getattr__(name: str) -> Any:
    module = _PUBLIC.get(name)
    if module is None:
        raise AttributeError(f"module 'trainers' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__
