"""Text made valid UTF-8 at the package's boundary: lone surrogates replaced, and counted.

A model (or a user's callable) can hand back a Python string holding a lone UTF-16 surrogate
(``"Hello \\ud800"``): it is a legal ``str`` but no UTF-8 encoder takes it, so one such reply used to
abort a run at the first write. :func:`clean_text` replaces each lone surrogate with U+FFFD
(joining a split pair into its character) at any depth of a JSON value and says how many it
replaced, so the episode can count the repair in its row (``text_repairs``).
"""

from __future__ import annotations

from typing import Any

REPLACEMENT = "\ufffd"


def clean_str(text: str) -> tuple[str, int]:
    """``text`` as valid UTF-8 text and the number of lone surrogates replaced."""
    if text.isascii():
        return text, 0
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        # through UTF-16: a split pair (two surrogate code points) decodes back to its character,
        # a lone one to U+FFFD
        fixed = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
        return fixed, fixed.count(REPLACEMENT) - text.count(REPLACEMENT)
    return text, 0


def clean_text(value: Any) -> tuple[Any, int]:
    """``value`` (a string, or dicts and lists of them) with valid UTF-8 text, and the repair count.

    Values needing no repair come back as the same object; others are rebuilt. Non-text leaves
    (numbers, ``None``, anything else) pass through untouched.
    """
    if isinstance(value, str):
        return clean_str(value)
    if isinstance(value, dict):
        total = 0
        items = []
        for key, item in value.items():
            new_key, n = clean_str(key) if isinstance(key, str) else (key, 0)
            new_item, m = clean_text(item)
            total += n + m
            items.append((new_key, new_item))
        return (dict(items), total) if total else (value, 0)
    if isinstance(value, list | tuple):
        cleaned = [clean_text(item) for item in value]
        total = sum(n for _, n in cleaned)
        return ([item for item, _ in cleaned], total) if total else (value, 0)
    return value, 0
