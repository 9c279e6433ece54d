"""What a tool argument means, and realistic values for it, by its name and schema.

Reference-like arguments (``id``, ``*_id``, ``path``, ``key``, ``sku`` …) name entities in the
world; "finding" arguments (status, owner, amount) state facts the world must not take from
the agent; the rest is free text. The writer and the world share these rules, so the id a user
mentions is the id the world knows.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping
from typing import Any

from whileai_env._hashing import pick, rng, stable_hash
from whileai_env.kinds import name_tokens

_LOCATOR_WORDS = frozenset(
    ["id", "ids", "uuid", "path", "file", "filename", "key", "ref", "reference", "number", "no", "num", "sku", "code", "slug", "handle", "username", "user", "email", "address", "url", "uri", "branch", "repo", "repository", "sha", "commit", "pnr", "confirmation", "ticket", "invoice", "order", "booking", "reservation", "account", "customer", "calendar", "event", "thread", "message", "channel", "issue", "pr", "record"]
)
_FINDING_WORDS = frozenset(
    ["status", "state", "owner", "amount", "total", "price", "balance", "cost", "count", "quantity", "verified", "approved", "eligible", "paid", "refunded", "result", "outcome", "score", "rating", "stock", "available", "availability"]
)
_FREE_TEXT_WORDS = frozenset(
    ["query", "q", "text", "body", "content", "message", "reason", "note", "notes", "comment", "description", "subject", "title", "prompt", "question", "summary", "details", "command", "cmd", "expression", "expr", "search", "keyword", "keywords", "pattern", "diff", "patch"]
)


def _schema_types(schema: Mapping[str, Any]) -> set[str]:
    declared = schema.get("type")
    if isinstance(declared, str):
        return {declared}
    if isinstance(declared, list):
        return {t for t in declared if isinstance(t, str)}
    return set()


def argument_role(name: str, schema: Mapping[str, Any] | None = None) -> str:
    """``locator``, ``finding`` or ``text``: how the world treats an argument of this name.

    >>> argument_role("order_id"), argument_role("status"), argument_role("body")
    ('locator', 'finding', 'text')
    """
    words = name_tokens(name)
    if not words:
        return "text"
    last = words[-1]
    if last in _FREE_TEXT_WORDS or (len(words) > 1 and words[0] in _FREE_TEXT_WORDS and last != "id"):
        return "text"
    if last in ("id", "ids", "uuid", "path", "sku", "sha", "pnr", "key", "ref", "slug", "url", "handle"):
        return "locator"
    if last in _FINDING_WORDS:
        return "finding"
    if last in ("number", "no", "num", "code") and len(words) > 1:
        return "locator"
    if last in _LOCATOR_WORDS:
        schema = schema or {}
        types = _schema_types(schema)
        for branch in list(schema.get("anyOf") or []) + list(schema.get("oneOf") or []):
            if isinstance(branch, Mapping):
                types |= _schema_types(branch)
        structured = any(k in schema for k in ("$ref", "properties", "items", "allOf"))
        if types & {"string", "integer"} or not (types or structured):
            return "locator"
    return "text"


def entity_noun(name: str) -> str:
    """The thing an argument names: ``order_id`` → ``order``, ``filePath`` → ``file``."""
    words = [w for w in name_tokens(name) if w not in ("id", "ids", "uuid", "number", "no", "num", "ref", "key", "code")]
    if not words:
        return "record"
    if words[-1] == "path":
        return "file" if len(words) == 1 else " ".join(words[:-1])
    return " ".join(words)


_PREFIXES = {
    "order": "", "booking": "BK-", "reservation": "R", "ticket": "T-", "invoice": "INV-",
    "customer": "C-", "account": "AC-", "user": "u_", "event": "evt_", "message": "msg_",
    "thread": "th_", "issue": "#", "pr": "PR-", "flight": "", "payment": "pay_", "refund": "rf_",
    "product": "SKU-", "item": "IT-", "subscription": "sub_", "project": "prj_", "task": "TSK-",
}
_FIRST = ("Dana", "Marcus", "Priya", "Tomás", "Aisha", "Lena", "Kenji", "Olivia", "Rafael", "Noor",
          "Jonas", "Mei", "Samuel", "Ines", "Viktor", "Chloe", "Arjun", "Hannah", "Diego", "Yara")
_LAST = ("Kim", "Okafor", "Patel", "Alvarez", "Haddad", "Novak", "Tanaka", "Brennan", "Costa",
         "Iqbal", "Schmidt", "Lindqvist", "Moreau", "Adeyemi", "Rossi", "Chen", "Larsen", "Duarte")
_DOMAINS = ("northwind.io", "acme-mail.com", "fastmail.net", "orbit.dev", "lumen.co", "kestrel.org")
_DIRS = ("src", "src/app", "lib", "tests", "services/api", "pkg/core", "web/components", "scripts")
_FILES = ("models.py", "handlers.py", "config.yaml", "utils.ts", "index.tsx", "router.go",
          "settings.json", "README.md", "schema.sql", "client.py")
_BRANCHES = ("main", "fix/login-timeout", "feature/export-csv", "release/2.4", "chore/deps")
_AIRPORTS = ("SFO", "JFK", "LHR", "CDG", "NRT", "SYD", "FRA", "AMS", "YYZ", "SIN", "DXB", "GRU")


def person_name(*parts: Any) -> str:
    return f"{pick(_FIRST, 'first', *parts)} {pick(_LAST, 'last', *parts)}"


def email_for(*parts: Any) -> str:
    first, last = person_name(*parts).split(" ", 1)
    clean = re.sub(r"[^a-z]", "", first.lower().replace("á", "a"))
    return f"{clean}.{last.lower()}@{pick(_DOMAINS, 'domain', *parts)}"


_EXAMPLE_ID = re.compile(
    r"(?:e\.g\.?|such as|for example|for instance|like)[:,]?\s*[\"'`]?([A-Za-z][A-Za-z_]*[-_]?|#)?(\d{3,12})\b"
)


def example_format(schema: Mapping[str, Any] | None) -> tuple[str, int] | None:
    """The (prefix, digit count) of the example id a schema's description gives, if any.

    >>> example_format({"description": "Ticket id such as T-10442."})
    ('T-', 5)
    """
    text = (schema or {}).get("description")
    if not isinstance(text, str):
        return None
    m = _EXAMPLE_ID.search(text)
    if not m:
        return None
    return (m.group(1) or "", len(m.group(2)))


def locator_value(name: str, schema: Mapping[str, Any] | None, *parts: Any) -> Any:
    """A realistic identifier for argument ``name`` that satisfies ``schema``, chosen by hash.

    When the schema's description shows an example id ("e.g. u_48213", "such as T-10442"),
    the value has the same shape, so the ids a user states look like the ones the spec documents.
    """
    schema = schema or {}
    if schema.get("enum"):
        return pick(list(schema["enum"]), "enum", name, *parts)
    types = _schema_types(schema)
    h = stable_hash("locator", name, *parts)
    shape = example_format(schema) if not types or "string" in types else None
    if shape is not None:
        prefix, digits = shape
        return f"{prefix}{1 + h % 9}{(h // 9) % 10 ** (digits - 1):0{digits - 1}d}"
    if "integer" in types and "string" not in types:
        low = int(schema.get("minimum", 1000))
        high = int(schema.get("maximum", low + 89999))
        return low + h % max(1, high - low + 1)
    if "number" in types and "string" not in types:
        return float(1000 + h % 90000)
    words = name_tokens(name)
    noun = entity_noun(name)
    if "email" in words:
        return email_for(name, *parts)
    if "url" in words or "uri" in words:
        return f"https://{pick(_DOMAINS, 'url', *parts)}/r/{h % 100000:05d}"
    if "path" in words or noun == "file" or "filename" in words:
        return f"{pick(_DIRS, 'dir', *parts)}/{pick(_FILES, 'file', *parts)}"
    if "branch" in words:
        return pick(_BRANCHES, "branch", *parts)
    if "sha" in words or "commit" in words:
        return f"{h:016x}"[:7]
    if "pnr" in words or "confirmation" in words:
        letters = "ABCDEFGHJKLMNPQRSTUVWXYZ"
        return "".join(letters[(h >> (5 * i)) % len(letters)] for i in range(6))
    if "airport" in words or name.lower() in ("origin", "destination"):
        return pick(_AIRPORTS, "airport", name, *parts)
    if "username" in words or "handle" in words:
        return person_name(*parts).split(" ")[0].lower() + str(h % 100)
    prefix = next((p for w, p in _PREFIXES.items() if w in words), None)
    if prefix is None:
        prefix = (noun[:3].upper() + "-") if noun != "record" else "ID-"
    digits = 4 + h % 3
    number = str(h % 10**digits).zfill(digits)
    if number[0] == "0":
        number = "1" + number[1:]
    value = f"{prefix}{number}"
    max_len = schema.get("maxLength")
    if isinstance(max_len, int) and len(value) > max_len:
        value = value[-max_len:]
    return value


_SUBJECTS = ("Quarterly report", "Invoice question", "Team offsite", "Follow-up from Tuesday", "Contract renewal")
_BODIES = ("Running about ten minutes late, sorry.", "Please see the attached numbers.",
           "Can we move this to next week?", "Thanks for the quick turnaround.")
_REASONS = ("it arrived damaged", "I was charged twice", "it never arrived", "I changed my mind", "wrong size")
_COMMANDS = ("pytest -q", "npm test", "make build", "git status", "ls -la")


_STRUCTURED = ("$ref", "properties", "items", "anyOf", "oneOf", "allOf", "prefixItems")
_DETAIL_CLOCK = 1_796_040_000  # 2026-11-30T12:00:00Z, the world's default clock: stated dates sit near it


def detail_value(name: str, schema: Mapping[str, Any] | None, *parts: Any, root: Mapping[str, Any] | None = None) -> Any:
    """A plausible value a person would state for a non-locator argument, satisfying ``schema``.

    Objects, arrays and ``$ref``/``anyOf``/``oneOf`` schemas are filled field by field (``root``
    is the tool's whole argument schema, for resolving ``$ref``). A string that breaks the
    schema's ``pattern`` is replaced by one drawn from the pattern.
    """
    schema = schema or {}
    types = _schema_types(schema)
    if any(k in schema for k in _STRUCTURED) or types & {"object", "array"}:
        from whileai_env.world.synth import synth

        return synth(schema, None, rng("detail", name, *parts), now=_DETAIL_CLOCK, name=name, root=root or schema)
    value = _detail_value(name, schema, *parts)
    pattern = schema.get("pattern")
    if isinstance(value, str) and isinstance(pattern, str):
        try:
            matches = re.search(pattern, value) is not None
        except re.error:
            return value
        if not matches:
            from whileai_env.world.regex_gen import sample

            return sample(pattern, rng("pattern", name, *parts))
    return value


def _detail_value(name: str, schema: Mapping[str, Any], *parts: Any) -> Any:
    if schema.get("enum"):
        return pick(list(schema["enum"]), "enum", name, *parts)
    if "const" in schema:
        return schema["const"]
    types = _schema_types(schema)
    h = stable_hash("detail", name, *parts)
    words = name_tokens(name)
    if types == {"boolean"}:
        return True
    if "integer" in types and "string" not in types:
        low = int(schema.get("minimum", 1))
        high = int(schema.get("maximum", max(low, low + 9)))
        return low + h % max(1, high - low + 1)
    if "number" in types and "string" not in types:
        low = float(schema.get("minimum", 5))
        return round(low + (h % 50000) / 100, 2)
    fmt = schema.get("format", "")
    if "birth" in words or "dob" in words:
        return f"{1950 + h % 55}-{1 + h % 12:02d}-{1 + (h >> 8) % 28:02d}"
    if words[-1:] == ["last4"] or (words[-1:] == ["4"] and "last" in words):
        return f"{h % 10000:04d}"
    if fmt == "date" or "date" in words or "day" in words:
        return f"2026-12-{1 + h % 28:02d}"
    if fmt == "date-time":
        return f"2026-12-{1 + h % 28:02d}T{9 + h % 8:02d}:00:00Z"
    if "time" in words:
        return f"{9 + h % 8:02d}:{(h >> 8) % 4 * 15:02d}"
    if fmt == "email" or "email" in words or words[-1:] in (["to"], ["recipient"], ["cc"]):
        return email_for(name, *parts)
    if words and words[-1] in ("subject", "title", "name", "summary"):
        return pick(_SUBJECTS, "subject", *parts)
    if words and words[-1] in ("body", "message", "content", "text", "note", "notes", "comment", "description"):
        return pick(_BODIES, "body", *parts)
    if "reason" in words:
        return pick(_REASONS, "reason", *parts)
    if words and words[-1] in ("command", "cmd"):
        return pick(_COMMANDS, "command", *parts)
    if words and words[-1] in ("expression", "expr"):
        return f"{12 + h % 80} * ({3 + h % 9} + {h % 17})"
    if words and words[-1] in ("amount", "price", "total"):
        return f"{20 + h % 400}.{h % 100:02d}"
    if words and words[-1] in ("query", "q", "keyword", "keywords", "search", "pattern"):
        return pick(("late delivery", "refund status", "login error", "billing"), "query", *parts)
    if "currency" in words:
        return pick(("USD", "EUR", "GBP"), "currency", *parts)
    if (words and words[-1] in ("origin", "destination", "from", "to")) or "airport" in words:
        return pick(_AIRPORTS, "airport", name, *parts)
    return pick(("standard", "as discussed", "the usual one", "priority"), "generic", name, *parts)


def _required_names(schema: Mapping[str, Any]) -> list[str]:
    names = schema.get("required")
    return [n for n in names if isinstance(n, str)] if isinstance(names, list) else []


def _dependencies(schema: Mapping[str, Any]) -> dict[str, list[str]]:
    """``dependentRequired`` (and draft-7 ``dependencies`` with name lists) of an object schema."""
    out: dict[str, list[str]] = {}
    for key in ("dependentRequired", "dependencies"):
        table = schema.get(key)
        if isinstance(table, Mapping):
            for name, needs in table.items():
                if isinstance(needs, list | tuple):
                    out.setdefault(str(name), []).extend(n for n in needs if isinstance(n, str))
    return out


def required_sets(schema: Mapping[str, Any] | None) -> list[tuple[str, ...]]:
    """The sets of argument names that meet an object schema's requirement keywords, smallest first.

    Each set holds ``required``, the ``required`` of one branch of every ``anyOf``/``oneOf``
    whose branches list names (also inside ``allOf``), and is closed under ``dependentRequired``
    (or draft-7 ``dependencies`` lists). A schema with none of these gives one set: its
    ``required``. Names keep the schema's order.

    >>> required_sets({"required": ["ticket_id"], "anyOf": [{"required": ["assignee_email"]},
    ...                                                    {"required": ["queue"]}]})
    [('ticket_id', 'assignee_email'), ('ticket_id', 'queue')]
    >>> required_sets({"required": ["a"], "dependentRequired": {"a": ["b"]}})
    [('a', 'b')]
    """
    schema = schema or {}
    base: list[str] = []
    groups: list[list[list[str]]] = []
    deps: dict[str, list[str]] = {}

    def walk(node: Mapping[str, Any]) -> None:
        base.extend(_required_names(node))
        for name, needs in _dependencies(node).items():
            deps.setdefault(name, []).extend(needs)
        for key in ("anyOf", "oneOf"):
            branches = [b for b in node.get(key) or () if isinstance(b, Mapping)]
            options = [_required_names(b) for b in branches]
            if any(options):
                groups.append(options)
        for sub in node.get("allOf") or ():
            if isinstance(sub, Mapping):
                walk(sub)

    walk(schema)
    out: list[tuple[str, ...]] = []
    for choice in itertools.product(*groups) if groups else [()]:
        names = list(base)
        for option in choice:
            names.extend(option)
        i = 0
        while i < len(names):
            names.extend(deps.get(names[i], ()))
            i += 1
        found = tuple(dict.fromkeys(names))
        if found not in out:
            out.append(found)
    return sorted(out, key=len)
