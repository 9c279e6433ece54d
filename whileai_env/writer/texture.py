"""Typing textures: how a person types, applied without ever touching an identifier.

The text is split around every protected span (ids, paths, emails the task depends on) and
only the prose between them is transformed, so a lowercased or typo'd opener still carries
``ORD-4412`` exactly.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from whileai_env._util.hashing import rng, stable_hash, unit

_FILLER = re.compile(r"\b(?:please|the|a|an|just|really|so|very|kindly)\b\s*", re.IGNORECASE)
_SENTENCE_BREAK = re.compile(r"([.!?])\s+(\w+(?:'\w+)?)")
_PRONOUN_I = re.compile(r"I(?:'\w+)?$")
_SENTENCE_START = re.compile(r"([.!?]\s+)([a-z])")
_SPACE_BEFORE_PUNCT = re.compile(r"\s+([,.!?;:])")
_SPACES = re.compile(r" {2,}")
_GREETING = re.compile(
    r"^(?:hi|hello|hey|good (?:morning|afternoon|evening))[^.!?]*[.!?,]\s*", re.IGNORECASE
)


def _protected_ranges(text: str, protected: Iterable[str]) -> list[tuple[int, int]]:
    """Non-overlapping (start, end) of every protected occurrence, longest strings first.

    Plain ``str.find`` rather than one compiled alternation: every opener has its own set of
    ids, so a regex would be compiled afresh on each call of this hot path.
    """
    ranges: list[tuple[int, int]] = []
    for span in sorted({p for p in protected if p}, key=len, reverse=True):
        start = text.find(span)
        while start != -1:
            end = start + len(span)
            if all(end <= a or start >= b for a, b in ranges):
                ranges.append((start, end))
            start = text.find(span, end)
    return sorted(ranges)


def _segments(text: str, protected: Iterable[str]) -> list[tuple[str, bool]]:
    """Split ``text`` into (segment, is_protected) pieces around the protected strings."""
    out: list[tuple[str, bool]] = []
    last = 0
    for start, end in _protected_ranges(text, protected):
        if start > last:
            out.append((text[last:start], False))
        out.append((text[start:end], True))
        last = end
    if last < len(text) or not out:
        out.append((text[last:], False))
    return out


#: Misspellings per word of the typo texture: 2-3 per 100 words, as people type in a chat.
TYPO_RATE = 0.022  # measured by scripts/bench/openers.py as ~2.5 per 100 words


def _misspell(word: str, key: int) -> str:
    """One slip of the fingers: two letters swapped (half the time), one dropped or one doubled;
    never the first letter, so capitals and the word's look survive."""
    j = 1 + (key >> 3) % (len(word) - 2)
    slip = key % 4
    if slip == 0:
        return word[:j] + word[j + 1 :]
    if slip == 1:
        return word[:j] + word[j] + word[j:]
    return word[:j] + word[j + 1] + word[j] + word[j + 2 :]


def _typos(parts: list[tuple[str, bool]], seed: int) -> list[tuple[str, bool]]:
    """Misspell words of the prose segments at :data:`TYPO_RATE` over the whole text: the count is
    the rate times the words, rounded up or down by the seed, so a short reply is often clean."""
    split = [seg.split(" ") if not keep else [seg] for seg, keep in parts]
    words = sum(len(ws) for ws in split)
    candidates = [
        (i, j)
        for i, (ws, (_, keep)) in enumerate(zip(split, parts, strict=True))
        if not keep
        for j, w in enumerate(ws)
        if len(w) > 4 and w.isalpha()
    ]
    count = min(len(candidates), int(TYPO_RATE * words + unit("typos", seed)))
    for n, k in enumerate(rng("typo", seed).sample(range(len(candidates)), count)):
        i, j = candidates[k]
        split[i][j] = _misspell(split[i][j], stable_hash("slip", seed, n))
    return [
        (" ".join(ws) if not keep else seg, keep)
        for ws, (seg, keep) in zip(split, parts, strict=True)
    ]


def _run_on(segment: str, key: int) -> str:
    """Join sentences with "and"/"so", lowercasing the next word unless it is the pronoun "I"."""
    joiner = "and" if key % 2 else "so"
    return _SENTENCE_BREAK.sub(
        lambda m: f" {joiner} {m.group(2) if _PRONOUN_I.match(m.group(2)) else m.group(2).lower()}",
        segment,
    )


_TRANSFORMS: dict[str, Callable[[str, int], str]] = {
    "standard": lambda s, k: s,
    "lowercase": lambda s, k: s.lower(),
    "typo": lambda s, k: s,  # applied over the whole text by _typos
    "clipped": lambda s, k: _FILLER.sub("", _GREETING.sub("", s)).replace("!", "."),
    "run_on": _run_on,
    "no_punctuation": lambda s, k: re.sub(r"[.,!?;:]", "", s),
}

TEXTURES = tuple(_TRANSFORMS)
# Textures that delete words, leaving doubled spaces, " ," and sentences opening in lowercase
# ("The password …" clipped to "password …"): their prose is tidied and re-capitalised. Typo
# never touches a first letter and run-on keeps the first sentence's, so only clipping does.
_DELETING = frozenset({"clipped"})


def _capitalise_sentences(parts: list[tuple[str, bool]]) -> list[tuple[str, bool]]:
    """Uppercase the first letter of every sentence in the prose segments; protected ones stay."""
    out = []
    at_start = True
    for segment, keep in parts:
        if not keep:
            segment = _SENTENCE_START.sub(lambda m: m.group(1) + m.group(2).upper(), segment)
            if at_start:
                segment = re.sub(
                    r"^(\s*)([a-z])", lambda m: m.group(1) + m.group(2).upper(), segment
                )
        out.append((segment, keep))
        text = segment.rstrip()
        if text:
            at_start = text[-1] in ".!?"
    return out


def _tidy(parts: list[tuple[str, bool]]) -> list[tuple[str, bool]]:
    """Collapse doubled spaces and spaces before punctuation in the prose segments only."""
    out = []
    previous = ""
    for segment, keep in parts:
        if not keep:
            segment = _SPACE_BEFORE_PUNCT.sub(r"\1", _SPACES.sub(" ", segment))
            if previous.endswith(" ") and segment.startswith(" "):
                segment = segment[1:]
        out.append((segment, keep))
        previous = segment
    return out


def apply_texture(
    text: str, texture: str, protected: Iterable[str] = (), *, key: object = 0
) -> str:
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
        (seg if keep else transform(seg, seed + i), keep)
        for i, (seg, keep) in enumerate(_segments(text, [str(p) for p in protected]))
    ]
    if texture == "typo":
        parts = _typos(parts, seed)
    if texture in _DELETING:
        parts = _capitalise_sentences(_tidy(parts))
    return "".join(seg for seg, _ in parts).strip() or text
