"""A model judge that grades a row against a rubric, one verdict per criterion.

The rubric is ``rubric=`` (the text, or a path to a file such as a spec's ``rubric.md``) or, when
none is passed, the row's own ``privileged.rubric``: the spec's ``rubric.md`` (the engine puts it
there) or per-prompt criteria from :func:`~whileai_env.judges.rubrics.write_rubrics`. A row with
neither is ``missing_reward``. The rubric's bullet or numbered lines are its criteria (a rubric
without any: each paragraph; headings are context); each criterion becomes a marker
``rubric:<item>`` (1.0 met, 0.0 not), named by its first content words, and the reward is 1 when
every criterion is met (``partial=True``: the share met). The model is asked for one JSON object
giving every criterion a ``met`` verdict; anything else is ``invalid_result``.

>>> [key for key, _ in rubric_items("# Refunds\\n- Looks up the order first.\\n- Never refunds twice.")]
['looks_order_first', 'never_refunds_twice']
>>> judge = rubric_judge("vllm:judge@http://127.0.0.1:8000/v1", rubric="- Looks up the order")
>>> from whileai_env.grading.judge import run_judge
>>> run_judge(rows, judge)[0]["markers"]             # doctest: +SKIP
{'rubric:looks_up_order': 1.0}
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from whileai_env.errors import JudgeOutputError
from whileai_env.grading.acts import STOPWORDS
from whileai_env.judges.model_judge import ModelJudge, find_json

_BULLET = re.compile(r"^\s*(?:[-*+\u2022]|\d+[.)]|\[[ xX]?\])\s+(?P<text>\S.*)$")
_WORD = re.compile(r"[a-z0-9]+")
#: Content words a criterion's marker name keeps.
KEY_WORDS = 5

RUBRIC_PROMPT = """You grade one conversation between a user and a tool-using AI agent against a rubric.
Judge only what the transcript shows: a claim in the agent's reply is not evidence that something
happened; the tool calls and their results are. Do not reward length, politeness or confidence.

Rubric criteria:
{criteria}
{context}
Answer with one JSON object and nothing else, giving every criterion exactly once:
{{"criteria": [{{"id": 1, "met": true, "reason": "..."}}, ...], "reason": "one sentence overall"}}"""


def read_rubric(rubric: str | os.PathLike[str]) -> str:
    """The rubric's text: ``rubric`` itself, or the file it names.

    >>> read_rubric("- Looks up the order before changing it.")
    '- Looks up the order before changing it.'
    """
    if isinstance(rubric, os.PathLike):
        return Path(rubric).read_text(encoding="utf-8").strip()
    if not isinstance(rubric, str):
        raise TypeError(f"rubric must be text or a path, got {type(rubric).__name__}")
    if "\n" not in rubric and len(rubric) < 1024:
        path = Path(rubric).expanduser()
        if path.suffix and path.is_file():
            return path.read_text(encoding="utf-8").strip()
    return rubric.strip()


def rubric_items(text: str) -> list[tuple[str, str]]:
    """The rubric's criteria as ``(key, criterion)``: bullet or numbered lines (an indented line
    continues the one above), else each paragraph that is not a heading."""
    items = _bullets(text) or _paragraphs(text)
    keys: list[str] = []
    for criterion in items:
        key = _key(criterion, len(keys) + 1)
        keys.append(key if key not in keys else f"{key}_{len(keys) + 1}")
    return list(zip(keys, items, strict=True))


def _bullets(text: str) -> list[str]:
    items: list[str] = []
    for line in text.splitlines():
        match = _BULLET.match(line)
        if match:
            items.append(match["text"].strip())
        elif items and line.startswith((" ", "\t")) and line.strip():
            items[-1] += " " + line.strip()
    return items


def _paragraphs(text: str) -> list[str]:
    blocks = [" ".join(b.split()) for b in re.split(r"\n\s*\n", text)]
    return [b for b in blocks if b and not b.startswith("#")]


def _key(criterion: str, number: int) -> str:
    words = [
        w
        for w in _WORD.findall(criterion.lower())
        if w not in STOPWORDS or w in ("never", "no", "not")
    ]
    return "_".join(words[:KEY_WORDS]) or f"item_{number}"


def row_rubric(row: Mapping[str, Any]) -> str | None:
    """The rubric a row carries at ``privileged.rubric`` (text, or a list of criteria)."""
    privileged = row.get("privileged")
    value = privileged.get("rubric") if isinstance(privileged, Mapping) else None
    if isinstance(value, list):
        value = "\n".join(f"- {item}" for item in value if str(item).strip())
    if not isinstance(value, str) or not value.strip():
        return None
    return value.strip()


class RubricJudge(ModelJudge):
    """Grades each row against its rubric (see the module docstring)."""

    kind = "rubric_judge"

    def __init__(
        self,
        model: str | None = None,
        rubric: str | os.PathLike[str] | None = None,
        *,
        partial: bool = False,
        **options: Any,
    ) -> None:
        super().__init__(model, **options)
        self.rubric = None if rubric is None else read_rubric(rubric)
        self.partial = partial

    def _items(self, row: Mapping[str, Any]) -> list[tuple[str, str]]:
        text = self.rubric if self.rubric is not None else row_rubric(row)
        return rubric_items(text) if text else []

    def instructions(self, row: Mapping[str, Any]) -> str | None:
        items = self._items(row)
        if not items:
            return None
        criteria = "\n".join(f"{i}. {text}" for i, (_key, text) in enumerate(items, 1))
        context = (
            ""
            if not self.use_privileged
            else (
                "\nThe transcript ends with PRIVILEGED lines: what the world knew and the user did not "
                "say. Use them to check the agent's claims.\n"
            )
        )
        return RUBRIC_PROMPT.format(criteria=criteria, context=context)

    def unjudgeable(self, row: Mapping[str, Any]) -> dict[str, Any]:
        return {"reason": "no rubric: pass rubric= or put one at privileged.rubric"}

    def scoring(self) -> Any:
        return {"partial": self.partial}

    def read(self, answer: str, row: Mapping[str, Any]) -> dict[str, Any]:
        items = self._items(row)
        met = _verdicts(answer, len(items))
        markers = {f"rubric:{key}": float(met[i][0]) for i, (key, _text) in enumerate(items)}
        passed = sum(ok for ok, _why in met.values())
        reward = passed / len(items) if self.partial else float(passed == len(items))
        failed = [text for i, (_key, text) in enumerate(items) if not met[i][0]]
        overall = find_json(answer, "criteria") or {}
        reason = overall.get("reason") if isinstance(overall.get("reason"), str) else None
        return {
            "reward": reward,
            "reason": reason
            or ("meets every criterion" if not failed else f"fails: {'; '.join(failed)}"),
            "markers": markers,
            "criteria": [
                {"item": key, "met": met[i][0], "reason": met[i][1]}
                for i, (key, _t) in enumerate(items)
            ],
        }


def _verdicts(answer: str, count: int) -> dict[int, tuple[bool, str]]:
    """Criterion index (0-based) -> (met, reason) from the answer; every criterion exactly once."""
    found = find_json(answer, "criteria")
    if found is None or not isinstance(found["criteria"], list):
        raise JudgeOutputError("the judge's answer holds no JSON object with a 'criteria' list")
    verdicts: dict[int, tuple[bool, str]] = {}
    for position, entry in enumerate(found["criteria"]):
        if not isinstance(entry, Mapping):
            raise JudgeOutputError(f"criteria[{position}] is not an object")
        index = _index(entry.get("id", position + 1), count)
        if index in verdicts:
            raise JudgeOutputError(f"criterion {index + 1} is judged twice")
        verdicts[index] = (_met(entry.get("met")), str(entry.get("reason") or ""))
    missing = [str(i + 1) for i in range(count) if i not in verdicts]
    if missing:
        raise JudgeOutputError(f"the judge gave no verdict on criterion {', '.join(missing)}")
    return verdicts


def _index(value: Any, count: int) -> int:
    number = value if isinstance(value, int) and not isinstance(value, bool) else None
    if isinstance(value, str) and value.strip().isdigit():
        number = int(value.strip())
    if number is None or not 1 <= number <= count:
        raise JudgeOutputError(f"criterion id {value!r} is not one of 1..{count}")
    return number - 1


def _met(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "yes", "met"):
        return True
    if isinstance(value, str) and value.strip().lower() in ("false", "no", "not met", "unmet"):
        return False
    raise JudgeOutputError(f"'met' is {value!r}, not true or false")


def rubric_judge(
    model: str | None = None,
    rubric: str | os.PathLike[str] | None = None,
    *,
    use_privileged: bool = False,
    temperature: float = 0.0,
    timeout: float = 60.0,
    retries: int = 3,
    concurrency: int = 4,
    cache: Any = None,
    partial: bool = False,
) -> RubricJudge:
    """A judge grading rows against ``rubric`` (or each row's ``privileged.rubric``) with
    ``model`` (``"openai:M"``, ``"vllm:M@URL"``, ``"hf:PATH"``; default ``$WHILEAI_JUDGE``).

    ``use_privileged`` shows the judge the row's hidden state, reference and principle;
    ``timeout`` (seconds per request), ``retries`` (with exponential backoff, on 429/5xx and
    dropped connections), ``concurrency`` (requests in flight at once) and ``cache`` (``None``: in
    memory; a path: an SQLite file; ``False``: off) go to the endpoint.

    >>> rubric_judge("openai:gpt-4.1-mini", rubric="- Confirms the email").kind
    'rubric_judge'
    """
    return RubricJudge(
        model,
        rubric,
        partial=partial,
        use_privileged=use_privileged,
        temperature=temperature,
        timeout=timeout,
        retries=retries,
        concurrency=concurrency,
        cache=cache,
    )


def rubric_grading(
    spec: Any, rubric: str | os.PathLike[str], grader: Any = None
) -> tuple[Any, Any]:
    """What ``simulate(rubric=...)`` runs with: ``spec`` carrying the rubric (so every row has it
    at ``privileged.rubric``) and the grader, ``grader`` when given, else a
    :func:`rubric_judge` on ``$WHILEAI_JUDGE`` reading each row's rubric.

    >>> spec, grader = rubric_grading("configs/specs/order-support.json", "- Looks up the order.",
    ...                               grader=len)
    >>> spec.rubric, grader is len
    ('- Looks up the order.', True)
    """
    from whileai_env.spec.load import load_spec

    with_rubric = load_spec(spec, rubric=read_rubric(rubric))
    return with_rubric, grader if grader is not None else rubric_judge()
