"""What a tool does, in its description's words: the verb and object of its first action sentence.

A tool's ask is said from its name (``cancel_order`` → "cancel the order"), but a name that is
short, verbless or prefixed by a product (``cp``, ``subtract``, ``maps_geocode``,
``puppeteer_click``) says too little, and its description usually opens with the imperative the
name abbreviates: "Copy a file or directory from one location to another." → (copy, file);
"Performs a web search using the Brave Search API" → (search, web); "Navigate to a URL" →
(navigate to, URL). A labelled part ("Tool description: …") is read first; preambles ("Use
this tool to", "This function …", "This tool helps") are skipped, and sentences that open with no verb ("This tool
belongs to …") are passed over.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from whileai_env._util.lexicon import verb_base, verb_kind
from whileai_env.writer.vocabulary import (
    ACTION_NOUNS,
    ADVERB_PARTICLES,
    DESCRIPTION_ALIASES,
    DESCRIPTION_SKIP,
    DESCRIPTION_STOP,
    KNOWN_VERBS,
    LIGHT_VERBS,
    NOUN_SUFFIXES,
    QUALIFIER_ENDINGS,
    STATIVE_VERBS,
)

_TOKEN = re.compile(r"[A-Za-z][A-Za-z'-]*|\S")
_LABELLED = re.compile(r"\b(?:tool\s+)?(?:description|summary|purpose)\s*:\s*", re.IGNORECASE)
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+|\s+\|\s+")
_PREAMBLE = re.compile(
    r"^(?:(?:this|the)\s+(?:tool|function|endpoint|api|method)\s+(?:is\s+used\s+to|can\s+be\s+used\s+to|lets\s+you"
    r"|allows\s+(?:you|users?)\s+to|helps\s+(?:you\s+)?(?:to\s+)?|will|can)?\s*|use\s+(?:this|the)(?:\s+tool)?\s+to\s+|(?:tool|function)\s+to\s+"
    r"|used\s+to\s+|allows?\s+(?:you|users?)\s+to\s+|helps?\s+(?:you\s+)?(?:to\s+)?|lets?\s+you\s+|(?![a-z]*(?:ply|fly)\b)[a-z]+ly\s+(?=[a-z]))",
    re.IGNORECASE,
)
_PREPOSITIONS = frozenset(
    [
        "to",
        "for",
        "from",
        "in",
        "on",
        "into",
        "onto",
        "with",
        "at",
        "by",
        "between",
        "across",
        "through",
        "over",
        "under",
        "about",
        "out",
        "off",
        "up",
    ]
)
_DETERMINERS = frozenset(
    [
        "a",
        "an",
        "the",
        "one",
        "two",
        "all",
        "any",
        "some",
        "multiple",
        "each",
        "every",
        "its",
        "their",
        "your",
        "this",
        "these",
        "those",
        "several",
        "new",
        "existing",
        "given",
    ]
)


class Described(NamedTuple):
    """A description's action: the bare verb, a particle it takes ("navigate *to*") and its object."""

    verb: str
    particle: str
    noun: str


def _is_verb(word: str, following: str, named: frozenset[str] = frozenset()) -> bool:
    """Whether the sentence's first word is its verb: a known verb, a word of the tool's name
    (``named``: "Withdraw funds …" for ``withdraw_funds``), or an imperative-looking word that is
    no noun by its ending and no stative verb: a bare form before an article or a preposition
    ("Mention specified users …"), a third-person form before anything but a preposition
    ("Switches branches")."""
    base = verb_base(word)
    if base in STATIVE_VERBS or not base.isalpha():
        return False
    if (
        base in KNOWN_VERBS
        or base in DESCRIPTION_ALIASES
        or base in LIGHT_VERBS
        or verb_kind(base) is not None
    ):
        return True
    if base in named:
        return True
    if base.endswith(NOUN_SUFFIXES) or not following.isalpha():
        return False
    if base != word:
        return following not in _PREPOSITIONS and following != "of"
    return following in _DETERMINERS or following in _PREPOSITIONS or following in DESCRIPTION_SKIP


def _object(tokens: list[str]) -> list[str]:
    """The object noun phrase at the start of ``tokens``: articles, quantifiers and possessors
    dropped, product names ("GitHub", "Kubernetes") skipped, at most three words, ending at a
    preposition, a conjunction, punctuation or a qualifier ("tickets *created* by …")."""
    out: list[str] = []
    for i, token in enumerate(tokens):
        low = token.lower()
        if not out and (low in _DETERMINERS or low in DESCRIPTION_SKIP or low.endswith("'s")):
            continue  # "your phone's mobile data": the possessor is not the object
        following = tokens[i + 1] if i + 1 < len(tokens) else ""
        if low in DESCRIPTION_STOP or low in _PREPOSITIONS or not token[:1].isalpha():
            break
        nxt = following.lower()
        if (
            out
            and low.endswith(QUALIFIER_ENDINGS)
            and (
                low.endswith(("ed", "ly"))
                or not nxt.isalpha()
                or nxt in _PREPOSITIONS
                or nxt in _DETERMINERS
            )
        ):
            break
        if token[:1].isupper() and not token.isupper():
            if out:
                break
            more = following.lower()
            if more[:1].isalpha() and more not in DESCRIPTION_STOP and more not in _PREPOSITIONS:
                continue  # a product name before the object: "a GitHub repository"
        out.append(token if token[:1].isupper() else low)
        if len(out) == 3:
            break
    return out


def _parse(sentence: str, named: frozenset[str]) -> Described | None:
    tokens = _TOKEN.findall(sentence)
    if len(tokens) < 2 or not _is_verb(tokens[0].lower(), tokens[1].lower(), named):
        return None
    verb = verb_base(tokens[0])
    rest = tokens[1:]
    if (
        len(rest) > 2
        and rest[0].lower() in ("or", "and")
        and _is_verb(rest[1].lower(), rest[2].lower(), named)
    ):
        rest = rest[2:]  # "Get or list Kubernetes resources": the object follows the second verb
    particle = ""
    if rest and rest[0].lower() in _PREPOSITIONS:
        # "Navigate to a URL": an unknown verb keeps its particle; "Search for places" needs none
        first = rest[0].lower()
        particle = first if verb not in KNOWN_VERBS or first in ADVERB_PARTICLES else ""
        rest = rest[1:]
    noun = _object(rest)
    if verb in LIGHT_VERBS and noun and noun[-1] in ACTION_NOUNS:
        verb, noun = noun[-1], noun[:-1]  # "Performs a web search" is a search of the web
    return Described(verb, particle, " ".join(noun))


@lru_cache(maxsize=4096)
def described_action(
    description: str, name_words: frozenset[str] = frozenset()
) -> Described | None:
    """The verb and object of the description's first action sentence, or ``None``.
    ``name_words`` are the tool name's words: a description opening with one opens with its verb.

    >>> described_action("This tool belongs to the Gorilla file system. Tool description: Copy a file or directory.")
    Described(verb='copy', particle='', noun='file')
    >>> described_action("Performs a web search using the Brave Search API")
    Described(verb='search', particle='', noun='web')
    """
    text = description or ""
    labelled = _LABELLED.search(text)
    for sentence in _SENTENCE.split(text[labelled.end() :] if labelled else text)[:4]:
        found = _parse(_PREAMBLE.sub("", sentence.strip(), count=1), name_words)
        if found is not None:
            return found
    return None
