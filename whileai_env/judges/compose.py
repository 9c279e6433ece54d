"""Judges built from judges: :class:`All` (every part), :class:`Any` (one part), :class:`Weighted`
(a graded rubric), and :func:`verifier` to turn a plain check into a verifier.

Each part runs through :func:`~whileai_env.grading.judge.judge_verdict`, the one judge runner, so
a part that raises, hangs or returns junk has the same status it would have alone. A composite
whose part failed is not scored from the others: it raises :class:`PartFailed`, and the runner
marks the row ``error`` with the part and its status in ``judge_meta["error"]``. Each part's
reward is kept as a marker named after it (``1.0`` is good, as for every marker).

>>> from whileai_env.judges import All, JSONValid, Regex
>>> both = All(JSONValid(), Regex(r'"id"'))
>>> result = both({"final_text": '{"id": 1}'})
>>> result["reward"], result["markers"]
(1.0, {'JSONValid': 1.0, 'Regex': 1.0})
"""

from __future__ import annotations

import copy
import inspect
import typing
from collections.abc import Callable, Mapping, Sequence

from whileai_env.grading.judge import Verdict, judge_name, judge_verdict
from whileai_env.judges.base import Verifier, verdict


class PartFailed(RuntimeError):
    """A part of a composite judge did not return a usable verdict."""


class _Composite:
    """Run every part on its own copy of the row and combine the rewards with :meth:`combine`."""

    def __init__(self, *parts: Callable[[dict[str, typing.Any]], typing.Any]) -> None:
        if not parts:
            raise ValueError(f"{type(self).__name__} needs at least one judge")
        for part in parts:
            if not callable(part):
                raise TypeError(f"{part!r} is not a judge (not callable)")
        self.parts = parts
        self.names = _unique([judge_name(p) for p in parts])

    def __call__(self, row: Mapping[str, typing.Any]) -> dict[str, typing.Any]:
        verdicts = [judge_verdict(part, copy.deepcopy(dict(row))) for part in self.parts]
        for name, part_verdict in zip(self.names, verdicts, strict=True):
            if part_verdict.status != "ok" or part_verdict.reward is None:
                raise PartFailed(
                    f"part {name} is {part_verdict.status}: {part_verdict.meta.get('error')}"
                )
        rewards = [float(v.reward) for v in verdicts if v.reward is not None]
        markers = _markers(self.names, verdicts)
        reasons = "; ".join(f"{n}: {v.reason}" for n, v in zip(self.names, verdicts, strict=True))
        return verdict(self.combine(rewards), reasons, type(self).__name__, markers)

    def combine(self, rewards: Sequence[float]) -> float:
        """The composite reward from the parts' rewards, in part order."""
        raise NotImplementedError


class All(_Composite):
    """Every part must pass: the reward is the lowest part's (right answer *and* right format).

    >>> from whileai_env.judges import ExactMatch, JSONValid
    >>> All(ExactMatch(), JSONValid())({"final_text": "42", "answer": "41"})["reward"]
    0.0
    """

    def combine(self, rewards: Sequence[float]) -> float:
        return min(rewards)


class Any(_Composite):
    """One part is enough: the reward is the highest part's.

    >>> from whileai_env.judges import ExactMatch, Numeric
    >>> Any(ExactMatch(), Numeric())({"final_text": "42.0", "answer": "42"})["reward"]
    1.0
    """

    def combine(self, rewards: Sequence[float]) -> float:
        return max(rewards)


class Weighted(_Composite):
    """A graded rubric: the weighted mean of the parts' rewards (weights need not sum to one).

    >>> from whileai_env.judges import Includes, JSONValid
    >>> rubric = Weighted((Includes(), 3), (JSONValid(), 1))
    >>> rubric({"final_text": "refund issued", "answer": "refund"})["reward"]
    0.75
    """

    def __init__(self, *parts: tuple[Callable[[dict[str, typing.Any]], typing.Any], float]) -> None:
        weights = [float(weight) for _, weight in parts]
        if any(w < 0 for w in weights) or not sum(weights) > 0:
            raise ValueError(f"weights must be non-negative with a positive sum, got {weights}")
        super().__init__(*(part for part, _ in parts))
        self.weights = weights

    def combine(self, rewards: Sequence[float]) -> float:
        total = sum(self.weights)
        return sum(w * r for w, r in zip(self.weights, rewards, strict=True)) / total


class _FunctionVerifier(Verifier):
    """A verifier whose check is a plain function of the reply (and the gold, if it takes two)."""

    def __init__(self, check: Callable[..., typing.Any], **where: typing.Any) -> None:
        super().__init__(**where)
        self.function = check
        self.needs_gold = len(inspect.signature(check).parameters) >= 2
        self.name = check.__name__
        self.__name__ = check.__name__  # judge_name() names the rows after the function

    def check(self, candidate: str, gold: typing.Any) -> dict[str, typing.Any]:
        result = self.function(candidate, gold) if self.needs_gold else self.function(candidate)
        if isinstance(result, tuple):
            score, reason = result
            return verdict(score, str(reason), self.name)
        if isinstance(result, Mapping):
            return {"verifier": self.name, **result}
        return result  # a bare number or bool: the runner checks it


def verifier(
    function: Callable[..., typing.Any] | None = None,
    *,
    field: str | None = None,
    candidate: str = "final_text",
) -> typing.Any:
    """Turn ``check(reply)`` or ``check(reply, gold)`` into a verifier (a judge over rows).

    The function returns a number or bool (the reward), ``(reward, reason)``, or a verdict
    dict; the gold is read as for the built-ins (``field=`` to name it), and a function of one
    argument needs none. Usable bare (``@verifier``) or with options (``@verifier(field="x")``).

    >>> @verifier
    ... def shouted(reply):
    ...     return reply.isupper()
    >>> shouted({"final_text": "DONE"}), shouted.__name__
    (True, 'shouted')
    >>> @verifier(field="expected_words")
    ... def short_enough(reply, limit):
    ...     return len(reply.split()) <= limit, f"{len(reply.split())} words"
    >>> short_enough({"final_text": "two words", "expected_words": 3})["reason"]
    '2 words'
    """
    if function is None:
        return lambda fn: _FunctionVerifier(fn, field=field, candidate=candidate)
    return _FunctionVerifier(function, field=field, candidate=candidate)


def _markers(names: Sequence[str], verdicts: Sequence[Verdict]) -> dict[str, float]:
    markers: dict[str, float] = {}
    for name, part in zip(names, verdicts, strict=True):
        markers.update(part.markers)
        markers[name] = float(part.reward) if part.reward is not None else 0.0
    return markers


def _unique(names: Sequence[str]) -> list[str]:
    """Names made unique in order: a second ``Regex`` becomes ``Regex_2``."""
    seen: dict[str, int] = {}
    out = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        out.append(name if seen[name] == 1 else f"{name}_{seen[name]}")
    return out
