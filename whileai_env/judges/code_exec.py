"""``CodeExec``: the reply's code run against hidden tests in a sandboxed subprocess.

The code is the reply's last fenced ``python`` block (else its last fenced block, else the whole
reply). The hidden tests are the gold answer (``privileged.reference``, so the export never
ships them) or ``tests=``: one string of Python (all or nothing) or a list of strings (the reward
is the share that pass). A test passes when it raises nothing. The run's limits are
:class:`~whileai_env.judges.sandbox.Limits`; a run the sandbox stopped (an infinite loop, a fork
bomb, a memory hog, output past its cap) scores 0 with the reason, since that is the candidate's
doing, not the judge's.

>>> check = CodeExec(tests=["assert add(2, 2) == 4", "assert add(-1, 1) == 0"])
>>> check({"final_text": "```python\\ndef add(a, b):\\n    return a + b\\n```"})["reward"]
1.0
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from whileai_env.judges.base import Verifier, verdict
from whileai_env.judges.sandbox import Limits, describe, run_tests

_FENCE = re.compile(r"```([\w+-]*)[^\n]*\n(.*?)```", re.DOTALL)


def reply_code(text: str) -> str:
    """The code in a reply: its last fenced ``python`` block, else its last fenced block, else
    the whole reply.

    >>> reply_code("Try this:\\n```py\\nx = 1\\n```\\nor\\n```python\\nx = 2\\n```")
    'x = 2\\n'
    """
    blocks = _FENCE.findall(text)
    python = [body for lang, body in blocks if lang.lower() in ("python", "py", "python3")]
    if python:
        return python[-1]
    return blocks[-1][1] if blocks else text


class CodeExec(Verifier):
    """See the module docstring. ``timeout_s``, ``memory_mb``, ``cpu_s`` and ``max_processes``
    set the run's :class:`~whileai_env.judges.sandbox.Limits`."""

    def __init__(
        self,
        tests: str | Sequence[str] | None = None,
        *,
        timeout_s: float = 5.0,
        memory_mb: int = 512,
        cpu_s: int | None = None,
        max_processes: int = 8,
        **where: Any,
    ) -> None:
        super().__init__(**where)
        self.tests = tests
        self.needs_gold = tests is None
        self.limits = Limits(
            timeout_s=timeout_s, memory_mb=memory_mb, cpu_s=cpu_s, max_processes=max_processes
        )

    def check(self, candidate: str, gold: Any) -> dict[str, Any]:
        tests = _test_list(self.tests if self.tests is not None else gold)
        outcome = run_tests(reply_code(candidate), tests, self.limits)
        meta = describe(outcome)
        if outcome.stopped is not None:
            why = _STOPPED.get(outcome.stopped, outcome.stopped)
            return verdict(0.0, f"the run was stopped: {why}", self.name, sandbox=meta)
        score = outcome.passed / outcome.total
        reason = f"{outcome.passed} of {outcome.total} hidden tests pass"
        if outcome.failures:
            reason += f"; first failure: {outcome.failures[0]}"
        return verdict(score, reason, self.name, sandbox=meta)


_STOPPED = {
    "timeout": "wall-time limit",
    "memory": "memory limit",
    "cpu": "CPU-time limit",
    "output": "output limit",
    "exited": "it exited before the tests ran",
    "signal": "killed by a signal",
}


def _test_list(tests: Any) -> list[str]:
    if isinstance(tests, str):
        return [tests]
    if isinstance(tests, Sequence) and tests and all(isinstance(t, str) for t in tests):
        return list(tests)
    raise ValueError(f"hidden tests must be Python source or a list of it, got {tests!r}")
