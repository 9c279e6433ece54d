"""A safe arithmetic evaluator for calculator tools: real answers, no ``eval``.

Parses with :mod:`ast` and walks only numbers, ``+ - * / // % **`` (``^`` means power, as on a
calculator), unary signs, parentheses and a few functions (``sqrt``, ``round``, ``abs``, ``min``,
``max``, ``floor``, ``ceil``, ``log``, ``exp``, ``pi``, ``e``). Anything else, huge powers and
division by zero raise :class:`CalculatorError` with a message a real calculator API would give.

>>> evaluate("12*(3+4)")
84
>>> evaluate("2 * (349 + 30) / 4")
189.5
"""

from __future__ import annotations

import ast
import math
import operator
from collections.abc import Callable

_MAX_EXPONENT = 1000
_MAX_MAGNITUDE = 1e300
_MAX_LENGTH = 500


class CalculatorError(ValueError):
    """The expression cannot be evaluated (syntax, unsupported operation, math domain)."""


_BINARY: dict[type, Callable[[float, float], float]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Pow: operator.pow,
    ast.BitXor: operator.pow,
}
_FUNCTIONS: dict[str, Callable[..., float]] = {
    "sqrt": math.sqrt,
    "abs": abs,
    "round": round,
    "min": min,
    "max": max,
    "floor": math.floor,
    "ceil": math.ceil,
    "log": math.log,
    "log10": math.log10,
    "exp": math.exp,
    "sin": math.sin,
    "cos": math.cos,
    "tan": math.tan,
}
_CONSTANTS = {"pi": math.pi, "e": math.e}


def finite_number(value: float) -> float:
    """``value`` when it is a real number of magnitude at most 1e300, else a
    :class:`CalculatorError` (a complex root, an infinity, a 20,000-bit product)."""
    if isinstance(value, complex) or (isinstance(value, float) and not math.isfinite(value)):
        raise CalculatorError("the result is not a finite real number")
    if abs(value) > _MAX_MAGNITUDE:
        raise CalculatorError("the result is too large")
    return value


def power(base: float, exponent: float) -> float:
    """``base ** exponent``, refused before it is computed when the exponent passes
    :data:`_MAX_EXPONENT` or the result would pass 1e300 (an exact integer power of two
    100-digit numbers would take the process's memory and never finish), and when the result is
    not a finite real number.

    >>> power(2, 10)
    1024
    >>> power(10**99, 10**99)
    Traceback (most recent call last):
    ...
    whileai_env.world.calculator.CalculatorError: the exponent is too large
    """
    if abs(exponent) > _MAX_EXPONENT:
        raise CalculatorError("the exponent is too large")
    if abs(base) > 1 and abs(exponent) * math.log10(abs(base)) > 300:
        raise CalculatorError("the result is too large")
    try:
        return finite_number(base**exponent)
    except ZeroDivisionError:
        raise CalculatorError("division by zero") from None
    except OverflowError:
        raise CalculatorError("the result is too large") from None


def _eval(node: ast.AST) -> float:
    if isinstance(node, ast.Expression):
        return _eval(node.body)
    if (
        isinstance(node, ast.Constant)
        and isinstance(node.value, int | float)
        and not isinstance(node.value, bool)
    ):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.UAdd | ast.USub):
        value = _eval(node.operand)
        return value if isinstance(node.op, ast.UAdd) else -value
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        left, right = _eval(node.left), _eval(node.right)
        if isinstance(node.op, ast.Pow | ast.BitXor):
            return power(left, right)
        try:
            return finite_number(_BINARY[type(node.op)](left, right))
        except ZeroDivisionError:
            raise CalculatorError("division by zero") from None
        except OverflowError:
            raise CalculatorError("the result is too large") from None
    if isinstance(node, ast.Name) and node.id in _CONSTANTS:
        return _CONSTANTS[node.id]
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in _FUNCTIONS
        and not node.keywords
    ):
        args = [_eval(a) for a in node.args]
        try:
            return finite_number(_FUNCTIONS[node.func.id](*args))
        except (ValueError, TypeError) as exc:
            raise CalculatorError(f"{node.func.id}(): {exc}") from None
        except OverflowError:
            raise CalculatorError("the result is too large") from None
    if isinstance(node, ast.Name):
        raise CalculatorError(f"unknown name {node.id!r}")
    raise CalculatorError(f"unsupported syntax: {type(node).__name__}")


def _tidy(value: float) -> int | float:
    if isinstance(value, int):
        return value
    if value.is_integer() and abs(value) < 1e15:
        return int(value)
    return float(f"{value:.12g}")


def evaluate(expression: str) -> int | float:
    """The value of an arithmetic ``expression``; ``CalculatorError`` when it has none."""
    if not isinstance(expression, str) or not expression.strip():
        raise CalculatorError("empty expression")
    if len(expression) > _MAX_LENGTH:
        raise CalculatorError(f"expression longer than {_MAX_LENGTH} characters")
    text = expression.strip().rstrip("=").replace("×", "*").replace("÷", "/").replace("−", "-")
    try:
        tree = ast.parse(text, mode="eval")
    except (SyntaxError, ValueError):
        raise CalculatorError(f"cannot parse {expression[:60]!r}") from None
    try:
        return _tidy(_eval(tree))
    except RecursionError:
        raise CalculatorError("expression nested too deeply") from None


_OPERATIONS = {
    "add": "+",
    "plus": "+",
    "sum": "+",
    "subtract": "-",
    "minus": "-",
    "sub": "-",
    "multiply": "*",
    "times": "*",
    "mul": "*",
    "divide": "/",
    "div": "/",
    "power": "**",
    "pow": "**",
    "mod": "%",
    "modulo": "%",
    "+": "+",
    "-": "-",
    "*": "*",
    "/": "/",
    "**": "**",
    "^": "**",
    "%": "%",
    "//": "//",
    "x": "*",
}
#: Operation names and symbols a two-operand calculator may be given (``"multiply"``, ``"*"``).
OPERATION_NAMES = frozenset(_OPERATIONS)


def apply_operation(operation: str, a: float, b: float) -> int | float:
    """``a <operation> b`` for calculators that take two operands and an operation name."""
    symbol = _OPERATIONS.get(str(operation).strip().lower(), str(operation).strip())
    if symbol not in ("+", "-", "*", "/", "**", "%", "//"):
        raise CalculatorError(f"unknown operation {operation!r}")
    return evaluate(f"({a!r}) {symbol} ({b!r})")
