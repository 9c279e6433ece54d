"""Per-prompt rubrics: a model writes the criteria a good answer to each ask meets.

A spec's ``rubric.md`` says what doing the job means in general; one ask needs its own checks
("looks up order 147312 before anything else", "does not cancel it on the manager's say-so").
:func:`write_rubrics` asks a model, once per distinct ask, for a short list of such criteria, and
writes them as a bullet list into each row's ``privileged.rubric`` (which every export drops), where
:func:`~whileai_env.judges.rubric.rubric_judge` reads them when given no ``rubric=``. The spec's own
rubric (the row's ``privileged.rubric`` before) and the agent's policy go into the request as
context; ``use_privileged=True`` adds what the world knows and the ask does not say. An ask the
model answers badly for keeps its rows unchanged and is counted in the report.

>>> rows, report = write_rubrics(rows, model="vllm:judge@http://127.0.0.1:8000/v1",
...                              domain="refunds")                         # doctest: +SKIP
>>> report["written"], rows[0]["privileged"]["rubric"]                     # doctest: +SKIP
(12, '- Looks up order 147312 before acting.\\n- ...')
"""

from __future__ import annotations

import copy
import os
from collections.abc import Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from whileai_env._util.hashing import hex_id
from whileai_env.errors import JudgeOutputError
from whileai_env.judges.cache import AnswerCache, open_cache
from whileai_env.judges.endpoint import JudgeModel
from whileai_env.judges.model_judge import find_json
from whileai_env.judges.rubric import row_rubric
from whileai_env.judges.view import PRIVILEGED_FIELDS, cut_text

WRITER_PROMPT = """You write the grading rubric for one user ask to a tool-using AI agent{domain}.
List {low} to {high} criteria a good response to this exact ask must meet: concrete, checkable
from the transcript (which tools should or should not be called, what the reply must say), one
idea each, written so that a reply that only sounds helpful does not meet them.
{context}
Answer with one JSON object and nothing else: {{"criteria": ["...", "..."]}}"""


def write_rubrics(
    rows: Iterable[Mapping[str, Any]],
    model: str | None = None,
    *,
    domain: str | None = None,
    use_privileged: bool = False,
    criteria: tuple[int, int] = (2, 6),
    temperature: float = 0.0,
    timeout: float = 60.0,
    retries: int = 3,
    concurrency: int = 4,
    cache: AnswerCache | str | os.PathLike[str] | bool | None = None,
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Copies of ``rows`` with per-prompt criteria at ``privileged.rubric``, and a report:
    ``asks``, ``written`` (rows), ``failed`` (asks), ``errors`` (the first few), ``model`` and
    ``version`` (``<model>@<prompt sha>`` of the writer's instructions)."""
    endpoint = JudgeModel(
        model, temperature=temperature, timeout=timeout, retries=retries, concurrency=concurrency
    )
    store = open_cache(cache)
    out = [copy.deepcopy(dict(row)) for row in rows]
    firsts: dict[str, dict[str, Any]] = {}
    for row in out:
        firsts.setdefault(str(row.get("prompt") or ""), row)
    plan = {ask: _request(row, domain, use_privileged, criteria) for ask, row in firsts.items()}
    with ThreadPoolExecutor(max_workers=concurrency) as pool:
        answers = dict(
            zip(
                plan,
                pool.map(lambda m: _answer(endpoint, store, m, criteria), plan.values()),
                strict=True,
            )
        )
    written = 0
    for row in out:
        listed = answers[str(row.get("prompt") or "")]
        if isinstance(listed, list):
            old = row.get("privileged")
            privileged: dict[str, Any] = dict(old) if isinstance(old, Mapping) else {}
            row["privileged"] = {**privileged, "rubric": "\n".join(f"- {c}" for c in listed)}
            written += 1
    errors = [f"{ask[:60]!r}: {a}" for ask, a in answers.items() if isinstance(a, str)]
    sha = hex_id("write_rubrics", WRITER_PROMPT, domain, use_privileged, criteria, length=12)
    return out, {
        "asks": len(plan),
        "written": written,
        "failed": len(errors),
        "errors": errors[:10],
        "model": endpoint.name,
        "version": f"{endpoint.name}@{sha}",
    }


def _request(
    row: Mapping[str, Any], domain: str | None, use_privileged: bool, criteria: tuple[int, int]
) -> list[dict[str, str]]:
    """The writer's messages for the ask of ``row``."""
    context = []
    policy = next(
        (
            m.get("content")
            for m in row.get("messages") or []
            if isinstance(m, Mapping) and m.get("role") == "system"
        ),
        None,
    )
    if policy:
        context.append(f"The agent's policy (its system prompt):\n{cut_text(policy)}")
    general = row_rubric(row)
    if general:
        context.append(f"The general rubric for this agent:\n{general}")
    privileged = row.get("privileged")
    if use_privileged and isinstance(privileged, Mapping):
        context += [
            f"What the world knows and the ask does not say ({name}): {cut_text(privileged[name])}"
            for name in PRIVILEGED_FIELDS
            if privileged.get(name)
        ]
    system = WRITER_PROMPT.format(
        domain=f" in the domain '{domain}'" if domain else "",
        low=criteria[0],
        high=criteria[1],
        context="\n\n".join(context),
    )
    return [
        {"role": "system", "content": system},
        {"role": "user", "content": str(row.get("prompt") or "")},
    ]


def _answer(
    endpoint: JudgeModel,
    store: AnswerCache,
    messages: list[dict[str, str]],
    criteria: tuple[int, int],
) -> list[str] | str:
    """The criteria the model listed, or the error (as text) that stopped it."""
    key = f"{endpoint.name}|write_rubrics|t={endpoint.temperature:g}"
    row_hash = hex_id(messages, length=32)
    try:
        answer = store.get(key, row_hash)
        if answer is None:
            answer = endpoint.complete(messages)
            store.put(key, row_hash, answer)
        return _criteria(answer, criteria)
    except Exception as exc:  # one ask's failure leaves its rows as they were, and is reported
        return f"{type(exc).__name__}: {exc}"


def _criteria(answer: str, criteria: tuple[int, int]) -> list[str]:
    found = find_json(answer, "criteria")
    listed = found.get("criteria") if found else None
    if not isinstance(listed, list):
        raise JudgeOutputError("the answer holds no JSON object with a 'criteria' list")
    texts = [" ".join(str(c).split()) for c in listed if isinstance(c, str) and c.strip()]
    if not texts:
        raise JudgeOutputError("the answer lists no criterion")
    return texts[: criteria[1]]
