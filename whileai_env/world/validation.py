"""Argument checks, as a real API makes them: JSON shape, JSON Schema, placeholder values.

Each tool's argument schema compiles once (per spec content, shared by every world) into a
fast predicate for the common keywords (type, properties, required, enum, bounds, lengths,
pattern, items, formats); schemas with ``$ref``, ``anyOf``, ``oneOf`` … use ``jsonschema``
itself. Only a failing call pays for ``jsonschema``'s error search, which names the field.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import re
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any

import jsonschema
from jsonschema.exceptions import best_match

from whileai_env._util.identity import by_identity
from whileai_env._util.lexicon import name_tokens
from whileai_env._util.regex_safety import pattern_search, with_linear_patterns
from whileai_env.spec.arguments import argument_role, entity_noun

Check = Callable[[Any], bool]
_MAX_DEPTH = 48

_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_DATE_TIME = re.compile(
    r"^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$"
)


def _is_date(value: Any) -> bool:
    if not isinstance(value, str):
        return True
    if not _DATE.match(value):
        return False
    try:
        dt.date.fromisoformat(value)
    except ValueError:
        return False
    return True


def _is_date_time(value: Any) -> bool:
    if not isinstance(value, str):
        return True
    m = _DATE_TIME.match(value)
    if not m or not _is_date(m.group(1)):
        return False
    hour, minute, second = int(m.group(2)), int(m.group(3)), int(m.group(4))
    return hour < 24 and minute < 60 and second < 61


def _is_email(value: Any) -> bool:
    return not isinstance(value, str) or "@" in value


FORMATS: dict[str, Callable[[Any], bool]] = {
    "email": _is_email,
    "date": _is_date,
    "date-time": _is_date_time,
}


def _format_checker() -> jsonschema.FormatChecker:
    checker = jsonschema.FormatChecker(formats=())
    for name, fn in FORMATS.items():
        checker.checks(name)(fn)
    return checker


FORMAT_CHECKER = _format_checker()
_VALIDATORS: dict[str, Any] = {}


@by_identity()
def schema_validator(schema: Mapping[str, Any]) -> Any:
    """A ``jsonschema`` validator of ``schema`` (its declared draft, 2020-12 by default) with the
    world's format checks, built once per schema content (and found by the schema object's
    identity first: the content key is a JSON dump of the schema)."""
    from whileai_env._util.hashing import canonical_json

    key = canonical_json(schema)
    found = _VALIDATORS.get(key)
    if found is None:
        cls = with_linear_patterns(
            jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
        )
        found = _VALIDATORS[key] = cls(schema, format_checker=FORMAT_CHECKER)
    return found


# ---------------------------------------------------------------------------------------------
# JSON cleaning


class ArgumentShapeError(ValueError):
    """The arguments are not a JSON object (or hold something JSON cannot carry)."""

    def __init__(self, field: str, message: str, problem: str = "not_json") -> None:
        super().__init__(message)
        self.field = field
        self.problem = problem


def _clean(value: Any, path: str, depth: int) -> Any:
    if depth > _MAX_DEPTH:
        raise ArgumentShapeError(path or "arguments", "nested too deeply")
    kind = type(value)
    if kind is str or kind is bool or kind is int or value is None:
        return value
    if kind is float:
        if not math.isfinite(value):
            raise ArgumentShapeError(path or "arguments", "is not a finite number")
        return value
    if kind is dict or isinstance(value, Mapping):
        out = {}
        for k, v in value.items():
            if type(k) is not str:
                raise ArgumentShapeError(path or "arguments", f"has a non-string key {k!r}")
            kv = type(v)
            out[k] = (
                v
                if kv is str or kv is int or kv is bool
                else _clean(v, f"{path}.{k}" if path else k, depth + 1)
            )
        return out
    if isinstance(value, list | tuple):
        return [_clean(v, f"{path}[{i}]", depth + 1) for i, v in enumerate(value)]
    for base in (bool, int, float, str):
        if isinstance(value, base):
            return _clean(base(value), path, depth + 1)
    raise ArgumentShapeError(
        path or "arguments", f"holds a {type(value).__name__}, which JSON cannot carry"
    )


def clean_arguments(arguments: Any) -> dict[str, Any]:
    """A plain JSON copy of ``arguments`` (a dict, or a JSON string of an object).

    ``None`` and ``""`` mean no arguments. Raises :class:`ArgumentShapeError` for anything
    that is not a JSON object.
    """
    if arguments is None:
        return {}
    if isinstance(arguments, str | bytes | bytearray):
        text = (
            arguments.decode("utf-8", "replace")
            if isinstance(arguments, bytes | bytearray)
            else arguments
        )
        if not text.strip():
            return {}
        try:
            arguments = json.loads(text)
        except (ValueError, RecursionError):
            raise ArgumentShapeError("arguments", "are not valid JSON", "not_json") from None
    if not isinstance(arguments, Mapping):
        raise ArgumentShapeError(
            "arguments", f"must be a JSON object, got {type(arguments).__name__}", "not_an_object"
        )
    try:
        return _clean(arguments, "", 0)
    except RecursionError:
        raise ArgumentShapeError("arguments", "nested too deeply") from None


def json_safe(value: Any, depth: int = 0) -> Any:
    """``value`` with everything JSON cannot carry replaced by its ``repr`` (never raises)."""
    try:
        if depth > _MAX_DEPTH:
            return "<nested too deeply>"
        if value is None or isinstance(value, str | bool | int):
            return value
        if isinstance(value, float):
            return value if math.isfinite(value) else repr(value)
        if isinstance(value, Mapping):
            return {str(k): json_safe(v, depth + 1) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [json_safe(v, depth + 1) for v in value]
        if isinstance(value, bytes | bytearray):
            return bytes(value).decode("utf-8", "replace")
        return repr(value)[:500]
    except Exception:
        return "<unrepresentable>"


# ---------------------------------------------------------------------------------------------
# Compiled checks


_ANNOTATIONS = frozenset(
    {
        "title",
        "description",
        "default",
        "examples",
        "$comment",
        "deprecated",
        "readOnly",
        "writeOnly",
        "$schema",
        "$id",
        "$defs",
        "definitions",
        "nullable",
        "contentMediaType",
        "contentEncoding",
    }
)


def _true(_: Any) -> bool:
    return True


def _false(_: Any) -> bool:
    return False


def _is_number(v: Any) -> bool:
    return type(v) is int or type(v) is float


_TYPES: dict[str, Check] = {
    "string": lambda v: type(v) is str,
    "integer": lambda v: type(v) is int or (type(v) is float and v.is_integer()),
    "number": _is_number,
    "boolean": lambda v: type(v) is bool,
    "object": lambda v: type(v) is dict,
    "array": lambda v: type(v) is list,
    "null": lambda v: v is None,
}


def _type_check(declared: Any) -> Check | None:
    names = [declared] if isinstance(declared, str) else declared
    if not isinstance(names, list) or not names or any(n not in _TYPES for n in names):
        return None
    fns = [_TYPES[n] for n in names]
    if len(fns) == 1:
        return fns[0]
    return lambda v: any(f(v) for f in fns)


def _enum_check(values: Any) -> Check | None:
    if not isinstance(values, list) or not values:
        return None
    if all(type(e) is str for e in values):
        allowed = frozenset(values)
        return lambda v: type(v) is str and v in allowed
    if all(type(e) is int for e in values):
        allowed_n = frozenset(values)
        return lambda v: _is_number(v) and v in allowed_n
    return None


def _bound(key: str, limit: Any) -> Check | None:
    if not _is_number(limit):
        return None
    ops = {
        "minimum": lambda v: not _is_number(v) or v >= limit,
        "maximum": lambda v: not _is_number(v) or v <= limit,
        "exclusiveMinimum": lambda v: not _is_number(v) or v > limit,
        "exclusiveMaximum": lambda v: not _is_number(v) or v < limit,
    }
    return ops[key]


def compile_check(schema: Any, *, formats: bool = True) -> Check | None:
    """A predicate equivalent to JSON Schema validation of ``schema``, or ``None`` when the
    schema uses a keyword outside the fast subset (then ``jsonschema`` must decide)."""
    if schema is True:
        return _true
    if schema is False:
        return _false
    if not isinstance(schema, Mapping):
        return None
    checks: list[Check] = []
    for key, val in schema.items():
        if key in _ANNOTATIONS or key.startswith("x-"):
            continue
        check: Check | None
        if key == "type":
            check = _type_check(val)
        elif key == "enum":
            check = _enum_check(val)
        elif key == "const":
            check = _enum_check([val])
        elif key in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
            check = _bound(key, val)
        elif key in ("minLength", "maxLength", "minItems", "maxItems") and type(val) is int:
            check = _length(key, val)
        elif key == "pattern" and isinstance(val, str):
            try:
                search = pattern_search(val)
            except re.error:
                return None
            check = lambda v, s=search: type(v) is not str or s(v)  # noqa: E731
        elif key == "format":
            fn = FORMATS.get(val) if formats else None
            check = _true if fn is None else (lambda v, f=fn: type(v) is not str or f(v))
        elif key == "properties" and isinstance(val, Mapping):
            check = _properties(val, formats)
        elif key == "required" and isinstance(val, list):
            names = tuple(val)
            check = lambda v, n=names: type(v) is not dict or all(k in v for k in n)  # noqa: E731
        elif key == "additionalProperties":
            check = _additional(val, schema.get("properties") or {}, formats)
        elif key == "items" and not isinstance(val, list):
            sub = compile_check(val, formats=formats)
            check = (
                None
                if sub is None
                else (lambda v, s=sub: type(v) is not list or all(s(x) for x in v))
            )
        else:
            return None
        if check is None:
            return None
        if check is not _true:
            checks.append(check)
    if not checks:
        return _true
    if len(checks) == 1:
        return checks[0]

    def run(v: Any) -> bool:
        for c in checks:  # noqa: SIM110 - a plain loop beats all() on this hot path
            if not c(v):
                return False
        return True

    return run


def _length(key: str, n: int) -> Check:
    if key == "minLength":
        return lambda v: type(v) is not str or len(v) >= n
    if key == "maxLength":
        return lambda v: type(v) is not str or len(v) <= n
    if key == "minItems":
        return lambda v: type(v) is not list or len(v) >= n
    return lambda v: type(v) is not list or len(v) <= n


def _properties(props: Mapping[str, Any], formats: bool) -> Check | None:
    subs: list[tuple[str, Check]] = []
    for name, sub in props.items():
        check = compile_check(sub, formats=formats)
        if check is None:
            return None
        if check is not _true:
            subs.append((name, check))
    if not subs:
        return _true

    def run(v: Any) -> bool:
        if type(v) is not dict:
            return True
        for name, check in subs:  # noqa: SIM110 - a plain loop beats all() on this hot path
            if name in v and not check(v[name]):
                return False
        return True

    return run


def _additional(val: Any, props: Mapping[str, Any], formats: bool) -> Check | None:
    known = frozenset(props)
    if val is True:
        return _true
    if val is False:
        return lambda v: type(v) is not dict or all(k in known for k in v)
    sub = compile_check(val, formats=formats)
    if sub is None:
        return None
    return lambda v: type(v) is not dict or all(k in known or sub(x) for k, x in v.items())


# ---------------------------------------------------------------------------------------------
# Validators and errors


def json_type(value: Any) -> str:
    """The JSON Schema type name of a Python value (``None`` → ``"null"``, ``True`` →
    ``"boolean"``, a tuple → ``"array"``, anything else not JSON's → ``"object"``).

    >>> [json_type(v) for v in ("a", 1, 1.5, True, None, [1], (1,), {"a": 1})]
    ['string', 'integer', 'number', 'boolean', 'null', 'array', 'array', 'object']
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list | tuple):
        return "array"
    return "object"


def _join(path: list[Any]) -> str:
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


def _short(value: Any, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def describe_error(error: jsonschema.ValidationError) -> dict[str, str]:
    """``{"field", "problem", "message"}`` for one ``jsonschema`` error, naming the field."""
    path = list(error.absolute_path)
    keyword = error.validator
    value = error.validator_value
    problem, text = "invalid", error.message
    if keyword == "required" and isinstance(error.instance, dict):
        missing = next((p for p in value if p not in error.instance), None)
        if missing is not None:
            path.append(missing)
        problem, text = "missing", "required field is missing"
    elif keyword == "additionalProperties" and isinstance(error.instance, dict):
        props = (error.schema or {}).get("properties", {}) if isinstance(error.schema, dict) else {}
        extras = [k for k in error.instance if k not in props]
        if extras:
            path.append(extras[0])
        allowed = ", ".join(props) or "none"
        problem, text = "unexpected_field", f"unexpected field (allowed: {allowed})"
    elif keyword == "type":
        expected = " or ".join(value) if isinstance(value, list) else value
        problem, text = "wrong_type", f"expected {expected}, got {json_type(error.instance)}"
    elif keyword in ("enum", "const"):
        options = value if keyword == "enum" else [value]
        shown = ", ".join(_short(o, 30) for o in list(options)[:12])
        problem, text = "not_allowed", f"{_short(error.instance)} is not one of: {shown}"
    elif keyword in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"):
        sign = {
            "minimum": ">=",
            "maximum": "<=",
            "exclusiveMinimum": ">",
            "exclusiveMaximum": "<",
            "multipleOf": "a multiple of",
        }[keyword]
        problem, text = (
            "out_of_range",
            f"{_short(error.instance)} is out of range: must be {sign} {value}",
        )
    elif keyword in ("minLength", "maxLength", "minItems", "maxItems"):
        unit = "characters" if "Length" in keyword else "items"
        bound = "at least" if keyword.startswith("min") else "at most"
        problem, text = "wrong_length", f"must have {bound} {value} {unit}"
    elif keyword == "pattern":
        problem, text = (
            "pattern_mismatch",
            f"{_short(error.instance)} does not match the pattern {value}",
        )
    elif keyword == "format":
        problem, text = "bad_format", f"{_short(error.instance)} is not a valid {value}"
    elif (
        keyword in ("anyOf", "oneOf")
        and isinstance(value, list)
        and isinstance(error.instance, dict)
    ):
        options = [
            b["required"]
            for b in value
            if isinstance(b, Mapping) and isinstance(b.get("required"), list)
        ]
        if options and len(options) == len(value):
            names = [n for group in options for n in group]
            path.append(names[0])
            problem = "missing"
            text = f"give {' or '.join(dict.fromkeys(names))}"
    field = _join(path) or "arguments"
    return {"field": field, "problem": problem, "message": f"{field}: {text}"}


class ArgumentValidator:
    """One tool's compiled argument check; ``check(args)`` is ``None`` or an error dict."""

    def __init__(self, schema: Mapping[str, Any]) -> None:
        cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
        modern = cls not in (jsonschema.Draft3Validator, jsonschema.Draft4Validator)
        cls = with_linear_patterns(cls)
        self._strict = cls(schema, format_checker=FORMAT_CHECKER)
        self._lax = cls(schema)
        self._fast = compile_check(schema, formats=True) if modern else None
        self._fast_lax = compile_check(schema, formats=False) if modern else None

    @property
    def compiled(self) -> bool:
        """Whether the fast path covers this schema."""
        return self._fast is not None

    def check(self, arguments: dict[str, Any], *, formats: bool = True) -> dict[str, str] | None:
        fast = self._fast if formats else self._fast_lax
        validator = self._strict if formats else self._lax
        if fast is not None:
            if fast(arguments):
                return None
        elif validator.is_valid(arguments):
            return None
        error = best_match(validator.iter_errors(arguments))
        if error is None:
            return None
        return describe_error(error)


# ---------------------------------------------------------------------------------------------
# Placeholders

_GENERIC = re.compile(
    r"""^\s*(?:
        <[^<>\n]{1,60}> | \{\{?\s*[\w .:-]{1,40}\s*\}?\} | \[\s*[A-Za-z][\w .-]{0,40}\]   # <order id>, {id}, [name]
      | (?:your|insert|enter|put)[\s_-]+\w.*                    # your_order_id, enter email
      | string | xxx+ | tbd | todo | tba | n/?a | placeholder | lorem\s+ipsum.* | undefined
      | first[\s_]?name | last[\s_]?name | full[\s_]?name | john\s+doe | jane\s+doe
      | [x*#]{3,}(?:[\s_-]?[x*#0-9]{2,})*
      | \.\.\.+ | \?+
    )\s*$""",
    re.IGNORECASE | re.VERBOSE,
)
_EMAIL = re.compile(
    r"""(?:@(?:example|domain|email|test|yourdomain|yourcompany|company|mail)\.(?:com|org|net)$)
      | (?:^(?:x+|user|name|email|someone|test|your[._]?name|your[._]?email|john[._]?doe|jane[._]?doe
             |first[._]?last|firstname[._]?lastname|customer|me)@)""",
    re.IGNORECASE | re.VERBOSE,
)
_LOCATOR = re.compile(
    r"^\s*(?:0+|1234?5?6?7?8?9?0?|abc|abcd|abc123|test|sample|example|dummy|demo|foo|bar|baz|none|null"
    r"|unknown|id|value|[A-Z]+(?:_[A-Z]+)+)\s*$",
)
_LOCATOR_CI = re.compile(
    r"^\s*(?:abc|abcd|abc123|test|sample|example|dummy|demo|foo|bar|baz|none|null|unknown|id|value)\s*$",
    re.IGNORECASE,
)
_PLACEHOLDER_INTS = frozenset({0, 123, 1234, 12345, 123456, 1234567})


def _placeholder_reason(value: Any, schema: Any, is_locator: bool, name: str) -> str | None:
    if type(schema) is dict:
        if "enum" in schema and value in schema["enum"]:
            return None
        if "const" in schema and value == schema["const"]:
            return None
    if type(value) is int:
        return "placeholder number" if is_locator and value in _PLACEHOLDER_INTS else None
    if type(value) is not str:
        return None
    if _GENERIC.match(value) and not _workflow_word(value, name):
        return "placeholder text"
    if "@" in value and _EMAIL.search(value):
        return "placeholder email address"
    if is_locator:
        if not value.strip():  # ``get_incident(incident_id="")`` named no record
            return "blank identifier"
        # A value the schema's own pattern describes (``ABC123`` under ``^[A-Z0-9]{6}$``) is an id of that shape.
        declared = schema.get("pattern") if type(schema) is dict else None
        if isinstance(declared, str) and _matches_pattern(declared, value):
            return None
        if _LOCATOR.match(value) or _LOCATOR_CI.match(value):
            return "placeholder identifier"
        if _WORDY.match(value) and name_tokens(value) in _own_names(name):
            return "the argument's own name, not a value"
    return None


#: Words that are real values of a status field (a board's "Todo" column), placeholders elsewhere.
_STATUS_VALUES = frozenset({"todo", "to do", "tbd", "tba", "n/a", "na"})


def _workflow_word(value: str, name: str) -> bool:
    """``"Todo"`` as a ``Status``: a stage of work, not a placeholder."""
    return value.strip().lower() in _STATUS_VALUES and bool(
        set(name_tokens(name)) & {"status", "state", "stage", "column"}
    )


def _some_real_words(value: list, items: Any, name: str) -> bool:
    """A list of two or more strings of which some are real: its placeholder-looking words are
    words of the whole (a command line's pattern), judged with their neighbours."""
    words = [v for v in value if type(v) is str]
    return len(words) == len(value) > 1 and any(
        _placeholder_reason(v, items, False, name) is None for v in words
    )


_WORDY = re.compile(r"^[A-Za-z][A-Za-z _.-]*$")


def _matches_pattern(pattern: str, value: str) -> bool:
    try:
        return re.search(pattern, value) is not None
    except re.error:
        return False


@lru_cache(maxsize=4096)
def _own_names(name: str) -> tuple[list[str], ...]:
    """The word lists that spell an argument's own name (``order_id``, ``order id``)."""
    return (name_tokens(name), [*name_tokens(entity_noun(name)), "id"])


def find_placeholder(
    arguments: Mapping[str, Any],
    properties: Mapping[str, Any],
    known: Callable[[Any], bool],
    locators: frozenset[str] | tuple[str, ...] = (),
) -> dict[str, str] | None:
    """The first placeholder value in ``arguments`` (top level and nested), as an error dict.

    ``locators`` names the top-level locator arguments (identifiers get stricter checks);
    ``known(value)`` exempts values the world itself handed out or the task's user stated.

    >>> find_placeholder({"order_id": "<order id>"}, {}, lambda v: False, ("order_id",))["field"]
    'order_id'
    """
    props = properties if isinstance(properties, Mapping) else {}
    for name, value in arguments.items():
        found = _scan(name, name, value, props.get(name), known, name in locators, 0)
        if found:
            return found
    return None


def _scan(
    path: str,
    name: str,
    value: Any,
    schema: Any,
    known: Callable[[Any], bool],
    is_locator: bool,
    depth: int,
) -> dict[str, str] | None:
    if depth > 6:
        return None
    if type(value) is dict:
        props = schema.get("properties", {}) if type(schema) is dict else {}
        for k, v in value.items():
            sub = props.get(k) if isinstance(props, Mapping) else None
            found = _scan(
                f"{path}.{k}",
                k,
                v,
                sub,
                known,
                argument_role(k, sub if isinstance(sub, Mapping) else None) == "locator",
                depth + 1,
            )
            if found:
                return found
        return None
    if type(value) is list:
        items = schema.get("items") if type(schema) is dict else None
        if not is_locator and _some_real_words(value, items, name):
            return None  # a word among real ones (``grep -rn TODO src``) is part of the line, not a stand-in
        for i, v in enumerate(value[:50]):
            found = _scan(f"{path}[{i}]", name, v, items, known, is_locator, depth + 1)
            if found:
                return found
        return None
    reason = _placeholder_reason(value, schema, is_locator, name)
    if reason is None or known(value):
        return None
    noun = entity_noun(name)
    return {
        "field": path,
        "problem": "placeholder",
        "message": f"{path}: {value!r} looks like a {reason}, not a real {noun}",
        "hint": f"ask the person for their actual {noun} instead of guessing or using a placeholder",
    }
