"""Verifiers over a number in the reply: :class:`Numeric` (within a tolerance) and
:class:`MathEqual` (mathematically equal, through Hugging Face's ``math-verify``).

>>> from whileai_env.judges import Numeric
>>> Numeric()({"final_text": "The total is $1,234.50.", "answer": "1234.5"})["reward"]
1.0
"""

from __future__ import annotations

import math
import re
import threading
from fractions import Fraction
from typing import Any

from whileai_env.errors import MissingExtraError
from whileai_env.judges.base import Verifier, verdict

_NUMBER = re.compile(
    r"(?<![\w.])[-−]?(?:\d{1,3}(?:,\d{3})+|\d+)?(?:\.\d+)?(?:[eE][-+]?\d+)?(?:\s*/\s*\d+)?%?"
)


def last_number(text: str) -> float | None:
    """The last number written in ``text`` (thousands separators, a leading minus, decimals,
    scientific notation, a fraction ``3/4`` and a trailing ``%`` read), or ``None``.

    >>> last_number("from 12 to -3/4"), last_number("about 1.5e3 units"), last_number("50%")
    (-0.75, 1500.0, 0.5)
    >>> last_number("no digits here") is None
    True
    """
    for match in reversed(list(_NUMBER.finditer(text))):
        value = _as_float(match.group().strip())
        if value is not None:
            return value
    return None


def _as_float(token: str) -> float | None:
    if not any(ch.isdigit() for ch in token):
        return None
    percent = token.endswith("%")
    token = token.rstrip("%").replace(",", "").replace("−", "-").replace(" ", "")
    try:
        value = float(Fraction(token)) if "/" in token else float(token)
    except (ValueError, ZeroDivisionError):
        return None
    return value / 100 if percent else value


class Numeric(Verifier):
    """1 when the last number in the reply is within ``rel_tol`` / ``abs_tol`` of the gold
    number (``math.isclose``).

    >>> Numeric(abs_tol=0.01)({"final_text": "≈ 3.14", "answer": 3.14159})["reward"]
    1.0
    >>> Numeric()({"final_text": "It costs 12 dollars", "answer": "13"})["reason"]
    'reply says 12, gold is 13'
    """

    def __init__(self, *, rel_tol: float = 1e-6, abs_tol: float = 1e-9, **where: Any) -> None:
        super().__init__(**where)
        self.rel_tol = rel_tol
        self.abs_tol = abs_tol

    def check(self, candidate: str, gold: Any) -> dict[str, Any]:
        want = float(gold) if isinstance(gold, int | float) else last_number(str(gold))
        if want is None:
            raise ValueError(f"gold answer {gold!r} holds no number")
        got = last_number(candidate)
        if got is None:
            return verdict(0.0, "reply holds no number", self.name)
        close = math.isclose(got, want, rel_tol=self.rel_tol, abs_tol=self.abs_tol)
        return verdict(float(close), f"reply says {got:g}, gold is {want:g}", self.name)


class MathEqual(Verifier):
    """1 when the reply's final answer is mathematically equal to the gold answer.

    Uses ``math-verify`` (Hugging Face's answer checker for math RL: it extracts the answer from
    LaTeX, ``\\boxed{}`` or plain expressions and compares them symbolically with SymPy), rather
    than a home-made parser: equivalence of ``\\frac{1}{2}``, ``0.5`` and ``1/2`` is its whole job.
    It is the ``math`` extra (``pip install 'whileai-env[math]'``). Its own time limits use
    ``SIGALRM``, which works only on the main thread, so on a judge thread they are off and the
    runner's ``timeout=`` bounds the check instead.

    >>> MathEqual()({"final_text": "So the answer is $\\\\frac{1}{2}$.", "answer": "0.5"})["reward"]
    1.0
    """

    def __init__(self, *, float_rounding: int = 6, **where: Any) -> None:
        super().__init__(**where)
        self.float_rounding = float_rounding

    def check(self, candidate: str, gold: Any) -> dict[str, Any]:
        parse, verify = _math_verify()
        limit = 5 if threading.current_thread() is threading.main_thread() else None
        want = parse(_as_math(str(gold)), parsing_timeout=limit)
        if not want:
            raise ValueError(f"math-verify cannot parse the gold answer {gold!r}")
        got = parse(candidate, parsing_timeout=limit)
        if not got:
            return verdict(0.0, "no answer math-verify can read in the reply", self.name)
        equal = verify(want, got, float_rounding=self.float_rounding, timeout_seconds=limit)
        word = "equals" if equal else "does not equal"
        return verdict(float(equal), f"reply {word} the gold answer {gold!r}", self.name)


def _as_math(text: str) -> str:
    """Gold written bare (``1/2``) is wrapped in ``$...$`` so math-verify reads it as math."""
    return text if "$" in text or "\\" in text else f"${text}$"


def _math_verify() -> tuple[Any, Any]:
    try:
        from math_verify import parse, verify
    except ImportError as exc:
        raise MissingExtraError("math-verify", "math") from exc
    return parse, verify
