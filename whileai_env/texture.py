"""Typing textures: how a person types, applied without ever touching an identifier.

The text is split around every protected span (ids, paths, emails the task depends on) and
only the prose between them is transformed, so a lowercased or typo'd opener still carries
``ORD-4412`` exactly.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from whileai_env._hashing import stable_hash

_FILLER = re.compile(r"\b(?:please|the|a|an|just|really|so|very|kindly)\b\s*", re.IGNORECASE)
_GREETING = re.compile(r"^(?:hi|hello|hey|good (?:morning|afternoon|evening))[^.!?]*[.!?,]\s*", re.IGNORECASE)


def _segments(text: str, protected: Iterable[str]) -> list[tuple[str, bool]]:
    spans = sorted({p for p in protected if p}, key=len, reverse=True)
    if not spans:
        return [(text, False)]
    pattern = re.compile("|".join(re.escape(p) for p in spans))
    out: list[tuple[str, bool]] = []
    last = 0
    for m in pattern.finditer(text):
        if m.start() > last:
            out.append((text[last:m.start()], False))
        out.append((m.group(0), True))
        last = m.end()
    if last < len(text):
        out.append((text[last:], False))
    return out


def _typo(segment: str, key: int) -> str:
    words = segment.split(" ")
    candidates = [i for i, w in enumerate(words) if len(w) > 4 and w.isalpha()]
    if not candidates:
        return segment
    for n in range(min(2, len(candidates))):
        i = candidates[(key >> (8 * n)) % len(candidates)]
        w = words[i]
        j = 1 + (key >> (4 + n)) % (len(w) - 2)
        words[i] = w[:j] + w[j + 1] + w[j] + w[j + 2:]
    return " ".join(words)


def _run_on(segment: str, key: int) -> str:
    return re.sub(r"([.!?])\s+(\w)", lambda m: f" {'and' if key % 2 else 'so'} {m.group(2).lower()}", segment)


_TRANSFORMS: dict[str, Callable[[str, int], str]] = {
    "standard": lambda s, k: s,
    "lowercase": lambda s, k: s.lower(),
    "typo": _typo,
    "clipped": lambda s, k: _FILLER.sub("", _GREETING.sub("", s)).replace("!", "."),
    "run_on": _run_on,
    "no_punctuation": lambda s, k: re.sub(r"[.,!?;:]", "", s),
}

TEXTURES = tuple(_TRANSFORMS)


def apply_texture(text: str, texture: str, protected: Iterable[str] = (), *, key: object = 0) -> str:
    """Retype ``text`` with ``texture``, leaving every ``protected`` string exactly as it was.

    >>> apply_texture("Please check order ORD-4412 today.", "lowercase", ["ORD-4412"])
    'please check order ORD-4412 today.'
    """
    try:
        transform = _TRANSFORMS[texture]
    except KeyError:
        raise ValueError(f"unknown texture {texture!r}; known: {', '.join(_TRANSFORMS)}") from None
    seed = stable_hash("texture", texture, key, text)
    parts = [
        seg if keep else transform(seg, seed + i)
        for i, (seg, keep) in enumerate(_segments(text, [str(p) for p in protected]))
    ]
    out = re.sub(r"[ \t]{2,}", " ", "".join(parts)).strip()
    return out or text
