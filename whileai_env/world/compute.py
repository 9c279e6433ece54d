"""Computed values for computation tools that take no expression: ``add(a, b)``, ``mean(numbers)``,
``gallon_to_liter(gallon)``, ``convert_units(value, from_unit, to_unit)``.

The operation comes from the tool's name words (then its description's), the operands are the
numeric arguments in schema order (lists flattened). Arithmetic is exact where it can be
(``math.fsum``, :mod:`statistics`); unit conversions use the exact SI factors of a short table
(length, mass, volume, temperature: the units tools ask about). A computation this module cannot
name gets ``None``, and the caller answers with a value of the tool's declared output type.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence

from whileai_env._util.lexicon import name_tokens
from whileai_env.world.calculator import CalculatorError, finite_number, power

Numbers = Sequence[float]


def _first_two(fn: Callable[[float, float], float]) -> Callable[[Numbers], float]:
    def apply(xs: Numbers) -> float:
        if len(xs) < 2:
            raise CalculatorError("two numbers are needed")
        return fn(xs[0], xs[1])

    return apply


def _one(fn: Callable[[float], float]) -> Callable[[Numbers], float]:
    def apply(xs: Numbers) -> float:
        if not xs:
            raise CalculatorError("a number is needed")
        return fn(xs[0])

    return apply


def _divide(a: float, b: float) -> float:
    if b == 0:
        raise CalculatorError("division by zero")
    return a / b


def _log(xs: Numbers) -> float:
    if not xs or xs[0] <= 0 or (len(xs) > 1 and (xs[1] <= 0 or xs[1] == 1)):
        raise CalculatorError(
            "the logarithm needs a positive number (and a positive base other than 1)"
        )
    return math.log(xs[0], xs[1]) if len(xs) > 1 else math.log(xs[0])


def _digits(rest: Numbers) -> int:
    """The digits to round to, held to what a float has (``round(5, -10**99)`` on an integer
    computes ``10**(10**99)``: it never returns)."""
    return max(-330, min(330, int(rest[0]))) if rest else 0


def _sqrt(x: float) -> float:
    if x < 0:
        raise CalculatorError("the square root of a negative number is not real")
    return math.sqrt(x)


#: Operation words → the operation over the operands, in the order they are tried.
OPERATIONS: tuple[tuple[frozenset[str], Callable[[Numbers], float]], ...] = (
    (frozenset({"sqrt", "root"}), _one(_sqrt)),
    (frozenset({"deviation", "stdev", "std", "stddev"}), lambda xs: statistics.pstdev(xs)),
    (frozenset({"variance"}), lambda xs: statistics.pvariance(xs)),
    (frozenset({"mean", "average", "avg"}), lambda xs: statistics.fmean(xs)),
    (frozenset({"median"}), lambda xs: statistics.median(xs)),
    (frozenset({"percentage", "percent"}), _first_two(lambda a, b: _divide(a, b) * 100)),
    (frozenset({"logarithm", "log"}), _log),
    (
        frozenset({"factorial"}),
        _one(lambda x: float(math.factorial(int(x))) if 0 <= x <= 170 else math.nan),
    ),
    (frozenset({"absolute", "abs"}), _one(abs)),
    (frozenset({"round", "rounding"}), lambda xs: round(xs[0], _digits(xs[1:]))),
    (frozenset({"power", "pow", "exponent"}), _first_two(power)),
    (frozenset({"square"}), _one(lambda x: x * x)),
    (frozenset({"max", "maximum", "largest"}), lambda xs: max(xs)),
    (frozenset({"min", "minimum", "smallest"}), lambda xs: min(xs)),
    (
        frozenset({"modulo", "mod", "remainder"}),
        _first_two(lambda a, b: math.fmod(a, b) if b else math.nan),
    ),
    (frozenset({"divide", "division", "quotient"}), _first_two(_divide)),
    (frozenset({"multiply", "times", "product"}), lambda xs: math.prod(xs)),
    (
        frozenset({"subtract", "minus", "difference"}),
        lambda xs: xs[0] - math.fsum(xs[1:]) if xs else math.nan,
    ),
    (frozenset({"add", "sum", "plus", "total"}), lambda xs: math.fsum(xs)),
)

# Exact factors to one base unit per dimension; temperature is affine (scale, offset to kelvin).
_UNITS: dict[str, tuple[str, float]] = {
    "m": ("length", 1.0),
    "meter": ("length", 1.0),
    "metre": ("length", 1.0),
    "km": ("length", 1000.0),
    "kilometer": ("length", 1000.0),
    "cm": ("length", 0.01),
    "mm": ("length", 0.001),
    "mile": ("length", 1609.344),
    "mi": ("length", 1609.344),
    "yard": ("length", 0.9144),
    "yd": ("length", 0.9144),
    "foot": ("length", 0.3048),
    "feet": ("length", 0.3048),
    "ft": ("length", 0.3048),
    "inch": ("length", 0.0254),
    "in": ("length", 0.0254),
    "kg": ("mass", 1.0),
    "kilogram": ("mass", 1.0),
    "g": ("mass", 0.001),
    "gram": ("mass", 0.001),
    "lb": ("mass", 0.45359237),
    "pound": ("mass", 0.45359237),
    "oz": ("mass", 0.028349523125),
    "ounce": ("mass", 0.028349523125),
    "ton": ("mass", 1000.0),
    "tonne": ("mass", 1000.0),
    "l": ("volume", 1.0),
    "liter": ("volume", 1.0),
    "litre": ("volume", 1.0),
    "ml": ("volume", 0.001),
    "gallon": ("volume", 3.785411784),
    "gal": ("volume", 3.785411784),
    "quart": ("volume", 0.946352946),
    "pint": ("volume", 0.473176473),
    "cup": ("volume", 0.2365882365),
}
_TEMPERATURE = {
    "celsius": (1.0, 273.15),
    "c": (1.0, 273.15),
    "kelvin": (1.0, 0.0),
    "k": (1.0, 0.0),
    "fahrenheit": (5 / 9, 459.67 * 5 / 9),
    "f": (5 / 9, 459.67 * 5 / 9),
}


def _unit(word: str) -> str:
    word = word.lower().strip()
    return word[:-1] if word.endswith("s") and word[:-1] in _UNITS | _TEMPERATURE else word


def convert(value: float, source: str, target: str) -> float | None:
    """``value`` in unit ``source`` expressed in unit ``target``; ``None`` for units this table
    does not hold or that measure different things."""
    a, b = _unit(source), _unit(target)
    if a in _TEMPERATURE and b in _TEMPERATURE:
        scale_a, offset_a = _TEMPERATURE[a]
        scale_b, offset_b = _TEMPERATURE[b]
        return (value * scale_a + offset_a - offset_b) / scale_b
    if a in _UNITS and b in _UNITS and _UNITS[a][0] == _UNITS[b][0]:
        return value * _UNITS[a][1] / _UNITS[b][1]
    return None


def _units_named(words: Sequence[str]) -> list[str]:
    return [w for w in words if _unit(w) in _UNITS or _unit(w) in _TEMPERATURE]


def compute(name: str, description: str, numbers: Numbers, texts: Sequence[str]) -> float | None:
    """The value a computation tool returns, or ``None`` when its operation is not one this module
    knows. ``texts`` are the string arguments' values (units such as ``"km"``, ``"mile"``). A
    result that is not a real number of magnitude at most 1e300 raises :class:`CalculatorError`."""
    words = name_tokens(name)
    units = _units_named([t for t in texts if isinstance(t, str)]) or _units_named(words)
    if numbers and len(units) >= 2:
        converted = convert(numbers[0], units[0], units[1])
        return None if converted is None else finite_number(converted)
    for source in (words, name_tokens(description)[:12]):
        for keys, operation in OPERATIONS:
            if keys & set(source):
                if not numbers:
                    raise CalculatorError("a number is needed")
                return finite_number(operation(list(numbers)))
    return None
