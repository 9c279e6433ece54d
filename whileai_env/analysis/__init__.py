"""Measurements over graded rows: what a run's rewards say about the policy that produced them.

>>> from whileai_env.analysis import pass_at
>>> result = pass_at([{"prompt": "p", "reward": 1.0}, {"prompt": "p", "reward": 0.0}])
>>> result.pass_at_1, result.pass_at_k, result.note is not None
(0.5, None, True)
"""

from __future__ import annotations

from whileai_env.analysis.passk import PassAt, pass_at, unbiased_pass_at_k, unbiased_pass_pow_k
from whileai_env.analysis.probes import ProbeReport, probe_reward

__all__ = [
    "PassAt",
    "ProbeReport",
    "pass_at",
    "probe_reward",
    "unbiased_pass_at_k",
    "unbiased_pass_pow_k",
]
