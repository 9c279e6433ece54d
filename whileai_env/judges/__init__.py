"""Verifiers: judges whose reward is a program's check, not an opinion.

Every one is a plain judge callable (``judge(row) -> verdict``) under the judge contract, so it
goes through the one runner, :func:`~whileai_env.grading.judge.run_judge`, and wherever else a
judge goes (``Episode``, the Gymnasium env, ``simulate(...).grade()``). The gold answer is read
from the row's ``privileged.reference`` (or a flat ``answer``/``target``/... field, or
``field=``), which every export drops.

Model judges, whose reward is a model's reading of the transcript, live in their own modules and
are not imported here (a package import should not reach for an HTTP client):
:func:`~whileai_env.judges.rubric.rubric_judge`, :func:`~whileai_env.judges.likert.likert_judge`,
:func:`~whileai_env.judges.pairwise.pair_judge` and
:func:`~whileai_env.judges.rubrics.write_rubrics`.

>>> from whileai_env.grading.judge import run_judge
>>> from whileai_env.judges import All, Numeric, Regex
>>> judge = All(Numeric(), Regex(r"^\\d+$"))
>>> rows = [{"final_text": "42", "privileged": {"reference": "42"}},
...         {"final_text": "It is 42", "privileged": {"reference": "42"}}]
>>> [row["reward"] for row in run_judge(rows, judge)]
[1.0, 0.0]
"""

from __future__ import annotations

from whileai_env.judges.base import Verifier, read_candidate, read_gold
from whileai_env.judges.code_exec import CodeExec
from whileai_env.judges.compose import All, Any, PartFailed, Weighted, verifier
from whileai_env.judges.numeric import MathEqual, Numeric
from whileai_env.judges.sandbox import Limits
from whileai_env.judges.structured import JSONField, JSONSchema, JSONValid
from whileai_env.judges.text import ExactMatch, Includes, MultipleChoice, Regex

__all__ = [
    "All",
    "Any",
    "CodeExec",
    "ExactMatch",
    "Includes",
    "JSONField",
    "JSONSchema",
    "JSONValid",
    "Limits",
    "MathEqual",
    "MultipleChoice",
    "Numeric",
    "PartFailed",
    "Regex",
    "Verifier",
    "Weighted",
    "read_candidate",
    "read_gold",
    "verifier",
]
