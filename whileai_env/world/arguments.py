"""Realistic values for a tool argument, by its name and schema.

Reference-like arguments (``id``, ``*_id``, ``path``, ``key``, ``sku`` …) name entities in the
world; "finding" arguments (status, owner, amount) state facts the world must not take from
the agent; the rest is free text. The writer and the world share these rules, so the id a user
mentions is the id the world knows.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from whileai_env._util.hashing import pick, rng, stable_hash
from whileai_env._util.lexicon import name_tokens
from whileai_env.spec.arguments import entity_noun, schema_types

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
    types = schema_types(schema)
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
    types = schema_types(schema)
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
    types = schema_types(schema)
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
