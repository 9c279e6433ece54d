"""English word forms the writer needs: singular and plural, "a" or "an", past participles and a
sentence-initial capital.

Rules rather than a dictionary: tool and argument names use a small vocabulary, and the
irregular participles are listed in :data:`whileai_env.writer.vocabulary.IRREGULAR`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from whileai_env.writer.vocabulary import IRREGULAR, MASS_NOUNS, Verb


def singular(word: str) -> str:
    """``orders`` → ``order``, ``addresses`` → ``address``; leaves ``status`` and ``funds`` alone."""
    if word in MASS_NOUNS:
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("sses", "xes", "ches", "shes", "zes", "uses")):
        return word[:-2]
    if word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def plural(noun: str) -> str:
    """The plural of a (possibly multi-word) noun, inflecting its last word."""
    head, _, last = noun.rpartition(" ")
    if last in MASS_NOUNS or is_plural(last):
        plural = last
    elif last.endswith(("s", "x", "z", "ch", "sh")):
        plural = last + "es"
    elif last.endswith("y") and last[-2:-1] not in ("a", "e", "i", "o", "u"):
        plural = last[:-1] + "ies"
    else:
        plural = last + "s"
    return f"{head} {plural}" if head else plural


def is_plural(noun: str) -> bool:
    last = noun.rpartition(" ")[2]
    return singular(last) != last


def indefinite(phrase: str) -> str:
    """``a`` or ``an`` for the phrase, by sound: "an order", "a user", "an 8% discount"."""
    first = phrase.split(" ", 1)[0].lower()
    digits = re.match(r"\d+", first)
    if digits:
        return "an" if digits.group(0).startswith("8") or digits.group(0) in ("11", "18") else "a"
    if first.startswith(("uni", "use", "usu", "eu", "one", "once")):
        return "a"
    if first.startswith(("hour", "honest", "heir")):
        return "an"
    return "an" if first[:1] in ("a", "e", "i", "o", "u") else "a"


def _participle(phrase: str) -> str:
    """The past participle of a verb phrase: "look up" → "looked up", "freeze" → "frozen"."""
    if phrase in IRREGULAR:
        return IRREGULAR[phrase]
    verb, _, rest = phrase.partition(" ")
    if verb in IRREGULAR:
        done = IRREGULAR[verb]
    elif verb.endswith("e"):
        done = verb + "d"
    elif verb.endswith("y") and verb[-2:-1] not in ("a", "e", "i", "o", "u"):
        done = verb[:-1] + "ied"
    else:
        done = verb + "ed"
    return f"{done} {rest}" if rest else done


def participles(verbs: Sequence[Verb]) -> tuple[str, ...]:
    """A participle for each verb phrase, same order: its own when it makes a clean one,
    else the first clean one's ("get a refund on" → "refunded"), so its preposition still fits."""
    def clean(phrase: str) -> bool:
        return len(phrase.split()) <= 2 and not {"a", "the", "me"} & set(phrase.split())

    fallback = next((v.phrase for v in verbs if clean(v.phrase)), verbs[0].phrase)
    return tuple(_participle(v.phrase if clean(v.phrase) else fallback) for v in verbs)


def cap(text: str, protected: Sequence[str] = ()) -> str:
    """Capitalise the first letter, unless the text opens with an identifier that must stay as is."""
    if any(p and text.startswith(p) for p in protected):
        return text
    return text[:1].upper() + text[1:]


def singular_phrase(noun: str) -> str:
    head, _, last = noun.rpartition(" ")
    return f"{head} {singular(last)}" if head else singular(last)
