"""What a tool sounds like, worked out once per tool: :class:`ToolWords` (its verb phrases, object
noun, argument order and argument schemas) and :class:`RuleWords` (what ties a policy clause to it).

The verb is the first known verb among the tool name's words, skipping namespaces such as
``git`` or ``invoices``; the rest of the name is the object noun ("reset *the password*").
Everything here is cached, per (spec, tool) and per argument name: the writer asks on every draw.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple

from whileai_env._util.lexicon import (
    MASS_NOUNS,
    is_plural,
    name_tokens,
    object_first,
    plural,
    singular,
)
from whileai_env.spec.arguments import argument_role, entity_noun
from whileai_env.spec.evidence import HOMONYMS
from whileai_env.world.profile import service_prefixes
from whileai_env.writer.description import described_action
from whileai_env.writer.grammar import participles, singular_phrase
from whileai_env.writer.vocabulary import (
    ATTRIBUTE_NOUNS,
    CHANGE_VERBS,
    DEFAULT_OBJECTS,
    DESCRIPTION_ALIASES,
    FUNCTION_WORDS,
    GENERIC_PURPOSES,
    GENERIC_VERBS,
    HANDLE_VERBS,
    HANDOFF_VERBS,
    HUMAN_WORDS,
    KNOWN_VERBS,
    LOOK_VERBS,
    LOOSE_WORDS,
    NAMESPACES,
    NOUN_VERBS,
    PURPOSES,
    QUERY_WORDS,
    STATE_NOUNS,
    TAIL_WORDS,
    VERB_ALIASES,
    VERB_TABLE,
    Verb,
    verb_phrases,
)

if TYPE_CHECKING:
    from whileai_env.spec.load import Spec, Tool


_POSSESSIVE_FIELDS = re.compile(r"'s\s+([^.;:]+)")
_FIELD_CUT = re.compile(r"\s+(?:on|in|for|to|from|with|by|so|when|if|that|which|whose)\s+")
_FIELD_SPLIT = re.compile(r",\s*|\s+(?:or|and)\s+")


@dataclass(frozen=True)
class ToolWords:
    """How people talk about one tool: its verbs, object noun and argument order."""

    kind: str
    verb: str
    verbs: tuple[Verb, ...]
    participles: tuple[str, ...]
    noun: str
    attribute_prep: str
    default_objects: tuple[str, ...]
    handoff: bool
    purposes: tuple[str, ...]
    order: tuple[str, ...]
    schemas: Mapping[str, Any]
    rule_words: RuleWords

    def vague_noun(self, entity_names: Sequence[str]) -> str:
        """The singular thing a vague ask is about: "order" for ``list_orders``."""
        if (
            self.noun
            and self.noun not in MASS_NOUNS
            and not (entity_names and self.noun in STATE_NOUNS)
        ):
            return singular_phrase(self.noun)
        for name in sorted(entity_names, key=self.rank):
            noun = bare_entity_noun(name)
            if noun and noun not in ("file", "email", "record"):
                return noun
        return "request"

    def rank(self, name: str) -> int:
        """Position of argument ``name`` in the tool's required-first order."""
        return self.order.index(name) if name in self.order else len(self.order)


@lru_cache(maxsize=4096)
def tokens_of(name: str) -> tuple[str, ...]:
    """:func:`name_tokens`, cached: argument names repeat on every draw."""
    return tuple(name_tokens(name))


@lru_cache(maxsize=4096)
def entity_noun_of(name: str) -> str:
    """:func:`entity_noun`, cached: argument names repeat on every draw."""
    return entity_noun(name)


@lru_cache(maxsize=4096)
def bare_entity_noun(name: str) -> str:
    """The entity noun without direction words: ``from_account_id`` → ``account``."""
    words = entity_noun_of(name).split()
    while words and words[0] in (
        "from",
        "to",
        "new",
        "old",
        "current",
        "source",
        "target",
        "destination",
    ):
        words = words[1:]
    noun = " ".join(words)
    return {"username": "user", "user name": "user", "login": "user"}.get(noun, noun)


def _split_name(tokens: list[str]) -> tuple[int | None, list[str], list[str]]:
    """(verb index, object tokens, prefix tokens) of a tool name, skipping namespace-like prefixes."""
    if object_first(tokens):  # ``refund-create``: create a refund
        return 1, [tokens[0]], []
    index = next((i for i, t in enumerate(tokens) if t in KNOWN_VERBS), None)
    if index is None:
        return (
            None,
            [t for t in tokens if t not in FUNCTION_WORDS and t not in NAMESPACES] or tokens,
            [],
        )
    rest: list[str] = []
    after = iter(tokens[index + 1 :])
    for token in after:
        if token in TAIL_WORDS:
            break
        if token in ("or", "and"):
            next(after, None)  # "create_or_update_file": the second verb is no part of the object
        elif token not in FUNCTION_WORDS and token not in ("id", "ids"):
            rest.append(token)
    return index, rest, tokens[:index]


def _is_handoff(tokens: list[str], verb: str) -> bool:
    """``transfer_to_human``, ``escalate_to_agent``: asks to be passed to a person."""
    return (verb in HANDOFF_VERBS or "human" in tokens) and bool(HUMAN_WORDS & set(tokens[1:]))


def _description_fields(description: str) -> tuple[str, ...]:
    """The fields an update tool's description names: "Change an event's title, time or
    location" → (title, time, location), used to say why something needs changing."""
    match = _POSSESSIVE_FIELDS.search(description)
    if not match:
        return ()
    text = _FIELD_CUT.split(match.group(1))[0]
    fields = [f.strip().lower() for f in _FIELD_SPLIT.split(text)]
    return tuple(f for f in fields if f and len(f.split()) <= 3 and f.replace(" ", "").isalpha())


def _purposes(verb: str, description: str) -> tuple[str, ...]:
    """Short reasons for an update whose stated details say nothing: " (the time changed)"."""
    if verb in PURPOSES:
        return PURPOSES[verb]
    if verb not in CHANGE_VERBS:
        return ()
    out: list[str] = []
    for field in _description_fields(description):
        be = "are" if is_plural(field) else "is"
        out.extend((f" (the {field} changed)", f" (the {field} {be} wrong)"))
    return tuple(out) or GENERIC_PURPOSES


class RuleWords(NamedTuple):
    """What ties a policy clause to a tool: its name, its verbs' forms and its object nouns.

    A specific verb ("cancel", "freezing") is enough ("Do not cancel an order that shipped"); a
    generic one ("change", "look") counts only beside the object noun ("Only change the
    shipping address …"), and a noun alone never does: a refund rule is not about looking up.
    """

    name: str
    specific: frozenset[str]
    generic: frozenset[str]
    nouns: frozenset[str]

    def mentioned_in(self, piece: str) -> bool:
        lowered = piece.lower()
        if self.name in lowered:
            return True
        tokens = set(re.findall(r"[a-z]+", lowered))
        return bool(tokens & self.specific) or bool(tokens & self.generic and tokens & self.nouns)


def _verb_forms(verb: str) -> set[str]:
    """The inflections of a verb ("cancel" → cancels, cancelled, cancelling), not its nouns
    ("cancellation"): a rule about cancellation fees is not a rule about cancelling."""
    forms = {verb, verb + "s", verb + "es", verb + "ed", verb + "ing"}
    if verb.endswith("e"):
        forms |= {verb + "d", verb[:-1] + "ing"}
    if verb.endswith("y"):
        forms |= {verb[:-1] + "ies", verb[:-1] + "ied"}
    if (
        len(verb) > 2
        and verb[-1] not in "aeiouwxy"
        and verb[-2] in "aeiou"
        and verb[-3] not in "aeiou"
    ):
        forms |= {verb + verb[-1] + "ed", verb + verb[-1] + "ing"}
    return forms


def _rule_words(tool: Tool, verb: str, verbs: tuple[Verb, ...], noun: str) -> RuleWords:
    """The :class:`RuleWords` of a tool from its canonical verb, verb phrases and object noun."""
    words = {verb} | {v.phrase.split()[0] for v in verbs if v.phrase.split()[0] not in LOOSE_WORDS}
    words.discard("")
    specific = {form for w in words if w not in GENERIC_VERBS for form in _verb_forms(w)}
    generic = {form for w in words if w in GENERIC_VERBS for form in _verb_forms(w)}
    nouns = {
        form
        for token in noun.split()
        if token not in NAMESPACES
        for form in (singular(token), plural(token))
    }
    return RuleWords(tool.name.lower(), frozenset(specific), frozenset(generic), frozenset(nouns))


def _strip_entity_noun(noun: str, tool: Tool) -> str:
    """``flight status`` → ``status`` when the tool takes a flight id: the flight is said as
    "of flight 2651", so the object keeps only what is asked about it."""
    words = noun.split()
    for name, schema in tool.properties.items():
        entity = bare_entity_noun(name).split()
        if (
            argument_role(name, schema) == "locator"
            and len(words) > len(entity)
            and words[: len(entity)] == entity
        ):
            return " ".join(words[len(entity) :])
    return noun


def _says_too_little(tool: Tool, tokens: list[str], index: int | None, rest: list[str]) -> bool:
    """Whether the name alone makes a poor ask: it has no known verb (``cp``, ``subtract``,
    ``maps_geocode``), or its verb has no object in the name, no default one and no id to act on
    (``add(a, b)``, ``query(sql)``), while ``git_checkout(branch)`` is fine as it is."""
    if index is None or tokens[index] not in KNOWN_VERBS:
        return True
    if index > 0 and tokens[index] in HOMONYMS and not set(tokens[:index]) <= NAMESPACES:
        return True  # "maps_place_details": a verb that is as often a noun, after a product name
    verb = VERB_ALIASES.get(tokens[index], tokens[index])
    if rest or verb in DEFAULT_OBJECTS or verb in NOUN_VERBS:
        return False
    has_locator = any(argument_role(n, s) == "locator" for n, s in tool.properties.items())
    return not (has_locator and verb in VERB_TABLE)


def _service_object(spec: Spec, tool: Tool, tokens: list[str]) -> list[str]:
    """The object of ``chat_update``'s description ("Updates a message"), when the name's one
    other word, before the verb, is the service's, shared by several tools (Slack's
    ``chat_postMessage``, ``chat_delete``): a message, not a chat."""
    if tokens[0] not in service_prefixes(spec):
        return []
    found = described_action(tool.description or "", frozenset(tokens))
    return found.noun.split() if found is not None and found.noun else []


def _verb_table(verb: str, particle: str = "") -> tuple[Verb, ...]:
    """The phrases of a verb: its own table row, else the verb as it is (with its particle)."""
    if verb in VERB_TABLE:
        return VERB_TABLE[verb]
    return verb_phrases(f"{verb} {particle}".strip())


def _from_description(
    tool: Tool, tokens: list[str]
) -> tuple[str, tuple[Verb, ...], list[str]] | None:
    """(verb, phrases, object words) of the tool's description, when it has an action sentence."""
    found = described_action(tool.description or "", frozenset(tokens))
    named = any(t in KNOWN_VERBS for t in tokens)
    if found is None or (named and not found.noun):
        return None
    # "Return the current directory" is a look-up for a read, "Return some items" a return for a write
    verb = DESCRIPTION_ALIASES.get(found.verb, found.verb) if tool.kind == "read" else found.verb
    verb = VERB_ALIASES.get(verb, verb)
    return verb, _verb_table(verb, found.particle), found.noun.split()


@lru_cache(maxsize=2048)
def tool_words(spec: Spec, name: str) -> ToolWords:
    """The phrasing data of tool ``name`` of ``spec``, computed once (the writer's hot path).

    The verb and object come from the name; from the description's first action sentence when
    the name says too little (see :func:`_says_too_little`)."""
    tool = spec.tool(name)
    tokens = name_tokens(name)
    index, rest, prefix = _split_name(tokens)
    described = (
        _from_description(tool, tokens) if _says_too_little(tool, tokens, index, rest) else None
    )
    raw_verb = tokens[index] if index is not None else ""
    verb = VERB_ALIASES.get(raw_verb, raw_verb)
    attribute_prep = ""
    if described is not None:
        verb, verbs, rest = described
    elif verb in NOUN_VERBS:
        rest = [*[p for p in prefix if p in NAMESPACES], verb, *rest]
        attribute_prep = NOUN_VERBS[verb]
        verbs, verb = LOOK_VERBS, "check"
    elif verb:
        verbs = _verb_table(verb)
    else:
        verbs = LOOK_VERBS if tool.kind == "read" else HANDLE_VERBS
    if not rest and prefix and prefix[-1] not in NAMESPACES and described is None:
        rest = [singular(prefix[-1])]
    if described is None and index and rest == tokens[:1]:
        rest = _service_object(spec, tool, tokens) or rest
    if verb == "search" and not any(
        tokens_of(a)[-1:] and tokens_of(a)[-1] in QUERY_WORDS for a in tool.required
    ):
        verbs = verb_phrases("search for", "look for", "find")
    noun = _strip_entity_noun(" ".join(rest), tool)
    last = noun.rpartition(" ")[2]
    attribute_prep = attribute_prep or ATTRIBUTE_NOUNS.get(last, "")
    order = tuple(tool.required) + tuple(n for n in tool.properties if n not in tool.required)
    return ToolWords(
        kind=tool.kind,
        verb=verb,
        verbs=verbs,
        participles=participles(verbs),
        noun=noun,
        attribute_prep=attribute_prep,
        default_objects=DEFAULT_OBJECTS.get(verb, ()),
        handoff=_is_handoff(tokens, verb),
        purposes=_purposes(verb, tool.description),
        order=order,
        schemas=tool.properties,
        rule_words=_rule_words(tool, verb, verbs, noun),
    )


@lru_cache(maxsize=256)
def tool_names(spec: Spec) -> frozenset[str]:
    """The spec's tool names as a set, once per spec (``Spec.tool_names`` builds a tuple per call)."""
    return frozenset(spec.tool_names)


@lru_cache(maxsize=256)
def owned_nouns(spec: Spec) -> frozenset[str]:
    """The things of ``spec`` that have ids (some tool takes an id of them): "order", "user".
    Only these are a person's own ("my order"); a square root or a web search is not."""
    return frozenset(
        noun
        for tool in spec.tools
        for name, schema in tool.properties.items()
        if argument_role(name, schema) == "locator"
        for noun in (bare_entity_noun(name),)
        if noun
    )
