"""English word forms the writer needs: singular and plural, past participles and a
sentence-initial capital.

Rules rather than a dictionary: tool and argument names use a small vocabulary, and the
number, participles and "a" or "an" (``indefinite``, shared with the world and the reference
agent) come from :mod:`whileai_env._util.lexicon`.
"""

from __future__ import annotations

from collections.abc import Sequence

from whileai_env._util.lexicon import participle, singular
from whileai_env.writer.vocabulary import Verb


def participles(verbs: Sequence[Verb]) -> tuple[str, ...]:
    """A participle for each verb phrase, same order: its own when it makes a clean one,
    else the first clean one's ("get a refund on" → "refunded"), so its preposition still fits."""

    def clean(phrase: str) -> bool:
        return len(phrase.split()) <= 2 and not {"a", "the", "me"} & set(phrase.split())

    fallback = next((v.phrase for v in verbs if clean(v.phrase)), verbs[0].phrase)
    return tuple(participle(v.phrase if clean(v.phrase) else fallback) for v in verbs)


def cap(text: str, protected: Sequence[str] = ()) -> str:
    """Capitalise the first letter, unless the text opens with an identifier that must stay as is."""
    if any(p and text.startswith(p) for p in protected):
        return text
    return text[:1].upper() + text[1:]


def singular_phrase(noun: str) -> str:
    head, _, last = noun.rpartition(" ")
    return f"{head} {singular(last)}" if head else singular(last)
