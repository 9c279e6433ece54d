"""Rules of a system prompt that forbid a write outright: "Do not delete products", "Never issue
refunds yourself".

Such a rule makes every task that asks for that write one to decline, whatever else the task's
cell says: an agent that deletes a product because a shopper asked has broken the prompt, and a
reward that pays it for doing so trains the breach (a trial user's Shopify spec: the oracle
deleted on every ask, and an agent that declined as the prompt said scored 0.06).

Only a rule with no condition forbids outright. Its verb phrase must end the clause: "Do not
cancel an order that has shipped", "Never refund more than the total" and "Never book basic
economy for a gold member" set a condition (a ``that``, a bound, a qualifier after the object),
and the write is then allowed where the condition does not hold; the checks of the rule's own
cells grade those. What may follow the object is only a phrase that holds for every request of
the conversation ("at a shopper's request", "for customers", "yourself", "directly").
"""

from __future__ import annotations

import re
from functools import lru_cache

from whileai_env._util.lexicon import name_tokens, singular, verb_kind
from whileai_env.spec.load import Spec, Tool

_NEGATION = re.compile(
    r"\b(?:never|do not|don't|dont|must not|mustn't|may not|cannot|can't|can not|should not"
    r"|shouldn't|are not (?:allowed|permitted) to|is not (?:allowed|permitted)|not allowed to"
    r"|you are not to)\s+",
    re.IGNORECASE,
)
#: What may follow a forbidden act and still hold for every request: who asks, or how.
_UNCONDITIONAL_TAIL = re.compile(
    r"^(?:\s*(?:at|on) (?:(?:a|the|any) )?\w+(?:'s)? (?:request|behalf)|\s*for (?:a |any )?"
    r"(?:customers?|users?|shoppers?|callers?|clients?|anyone|them)|\s*yourself|\s*directly"
    r"|\s*on your own|\s*(?:via|through|with) (?:the )?tools?)*\s*$",
    re.IGNORECASE,
)
_ARTICLES = frozenset({"a", "an", "the", "any", "their", "your", "customer's", "customers'"})
#: Words that make what follows the act a condition on it, not its object.
_CONDITIONS = frozenset(
    {
        "without",
        "unless",
        "if",
        "when",
        "whenever",
        "before",
        "after",
        "that",
        "which",
        "who",
        "whose",
        "above",
        "below",
        "over",
        "under",
        "more",
        "less",
        "than",
        "within",
        "until",
        "except",
        "in",
        "from",
        "to",
        "of",
        "by",
        "while",
        "once",
        "other",
        "another",
    }
)
_OBJECT = re.compile(r"^(?:(?:[a-z'-]+)\s+){0,2}[a-z'-]+$")
#: A part of a forbidding rule that says how the act is done, never done: every way of it.
_MANNER = re.compile(
    r"^(?:(?:either )?one at a time|singly|individually|in (?:a )?batch(?:es)?|in bulk|at all"
    r"|ever|for any reason|under any circumstances?|in any way|even once)$",
    re.IGNORECASE,
)


def _acts(text: str) -> list[tuple[str, tuple[str, ...]]]:
    """The ``(verb, object words)`` a rule forbids outright, in its first part (before ``;``)."""
    head = re.split(r"[;:]|\.\s|\.$|\s[-–—]\s", text.strip(), maxsplit=1)[0]
    found = _NEGATION.search(head)
    lead = head[: found.start()].strip().lower() if found is not None else ""
    if found is None or lead not in ("", "you", "please", "you must", "agents"):
        return []
    pairs: list[tuple[str, str]] = []
    for part in re.split(
        r",\s*(?:or\s+|and\s+)?|\s+or\s+|\s+and\s+|\s+nor\s+", head[found.end() :]
    ):
        words = part.strip().lower().split()
        if _MANNER.match(part.strip()):  # "never delete emails, one at a time or in batches"
            continue
        if not words or verb_kind(words[0]) not in ("create", "update", "delete"):
            return []
        rest = [w.removesuffix("'s").removesuffix("'") for w in words[1:] if w not in _ARTICLES]
        phrase = " ".join(rest)
        tail = re.search(r"\s(?:at|on|for|via|through|with)\s.*$|\s(?:yourself|directly)$", phrase)
        if tail and _UNCONDITIONAL_TAIL.match(tail.group(0)):
            phrase = phrase[: tail.start()]
        elif phrase in ("yourself", "directly"):
            phrase = ""
        if set(phrase.split()) & _CONDITIONS or (phrase and not _OBJECT.match(phrase)):
            return []  # a condition or qualifier follows the act: allowed where it does not hold
        pairs.append((words[0], phrase))
    out: list[tuple[str, tuple[str, ...]]] = []
    for i, (verb, phrase) in enumerate(pairs):  # "modify or delete records": both act on records
        shared = phrase or next((p for _, p in pairs[i + 1 :] if p), "")
        if not shared:
            return []
        out.append((verb, tuple(singular(w) for w in shared.split())))
    return out


def names_act(tool: Tool, verb: str, words: tuple[str, ...]) -> bool:
    """Whether forbidding ``verb`` of ``words`` forbids ``tool``: its name holds every word of
    the thing (``inventory-set-quantities`` for "inventory quantities"; ``update_field`` is not
    "the Salary field") and the same kind of act (or the name's own verb)."""
    tokens = {singular(w) for w in name_tokens(tool.name)}
    if not set(words) <= tokens:
        return False
    return verb in tokens or verb_kind(verb) == tool.kind


@lru_cache(maxsize=256)
def _forbidden(spec: Spec) -> dict[str, str]:
    out: dict[str, str] = {}
    for clause in spec.clauses:
        for verb, words in _acts(clause.text):
            for tool in spec.tools:
                if tool.is_write and tool.name not in out and names_act(tool, verb, words):
                    out[tool.name] = clause.text
    return out


def forbidding_rule(spec: Spec, tool: str) -> str | None:
    """The rule of ``spec``'s prompt that forbids write ``tool`` outright, or ``None``.

    >>> from whileai_env.spec.load import load_spec
    >>> spec = load_spec(tools=[{"name": "delete_product", "description": "Delete a product."},
    ...                         {"name": "cancel_order", "description": "Cancel an order."}],
    ...                  system_prompt="Do not delete products at a shopper's request. Never cancel an order that has shipped.")
    >>> forbidding_rule(spec, "delete_product"), forbidding_rule(spec, "cancel_order")
    ("Do not delete products at a shopper's request.", None)
    """
    return _forbidden(spec).get(tool)
