"""One tool call's ask as a :class:`Request`: verb + object + entities + details, as in
"reset the password for user noor82 (I forgot it)".

The entity that is the tool's object becomes the object; the other entities follow in the tool's
``required`` order, each with its preposition; the stated details come from
:func:`whileai_env.writer.spoken.render_details`. The parts stay apart so general templates can
rearrange them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from random import Random
from typing import Any, NamedTuple

from whileai_env._util.lexicon import MASS_NOUNS, indefinite, is_plural, plural
from whileai_env.writer.grammar import singular_phrase
from whileai_env.writer.spoken import render_details, said_labels, spoken_id
from whileai_env.writer.templates import HANDOFF_ACTIONS
from whileai_env.writer.tool_phrasing import ToolWords, bare_entity_noun, entity_noun_of, tokens_of
from whileai_env.writer.vocabulary import (
    CREATE_VERBS,
    PERSON_NOUNS,
    POSSESSABLE,
    RECORD_NOUNS,
    SEPARABLE_PARTICLES,
    SEPARABLE_VERBS,
    SYNONYMS,
    Verb,
)

_PATHLIKE = re.compile(r"[\w.-]+/[\w./-]*")


class Request(NamedTuple):
    """An ask split into its parts, so general templates can rearrange them.

    ``attached`` qualifies the object ("the status *of ticket T-1*") and stays with it;
    ``complement`` belongs to the verb ("sent *to user u_1*"), ``tail`` holds the details.
    """

    verb: str
    obj: str
    attached: str
    complement: str
    tail: str
    participle: str
    plural: bool

    @property
    def text(self) -> str:
        return _verb_object(self.verb, self.obj) + self.attached + self.complement + self.tail


def _verb_object(verb: str, obj: str) -> str:
    """Verb and object, with a pronoun inside a separable phrasal verb: "call it off"."""
    head, _, particle = verb.partition(" ")
    if obj == "it" and (particle in SEPARABLE_PARTICLES or verb in SEPARABLE_VERBS):
        return f"{head} it {particle}"
    return f"{verb} {obj}" if obj else verb


def _matches_object(words: ToolWords, name: str, value: Any) -> bool:
    """True when the entity *is* the tool's object: ``cancel_order`` with ``order_id``."""
    noun = singular_phrase(words.noun)
    if not noun:
        return True
    entity = bare_entity_noun(name)
    if entity == noun or any(entity in group and noun in group for group in SYNONYMS):
        return not entity_noun_of(name).startswith(("new ", "from ", "to "))
    text = spoken_id(value)
    if "@" in text:
        return noun in PERSON_NOUNS
    return bool(_PATHLIKE.fullmatch(text)) and noun in ("file", "directory", "folder", "dir")


def _entity_label(name: str, value: Any) -> str:
    """An entity as said after a preposition: "user u_1", "items 3 and 4", or a self-describing
    email or path alone."""
    text = spoken_id(value)
    if "@" in text or _PATHLIKE.fullmatch(text) or text.startswith(("http://", "https://")):
        return text
    noun = _numbered(bare_entity_noun(name), value)
    return f"{noun} {text}" if noun and noun != "record" else text


def _numbered(noun: str, value: Any) -> str:
    """The noun in the number of ids it names: "item" for one, "items" for a list of two."""
    return plural(noun) if noun and isinstance(value, list | tuple) and len(value) > 1 else noun


def _entity_prep(name: str, value: Any, words: ToolWords, target_prep: str) -> str:
    """The preposition an entity takes after the object: "for user", "on order", "in src/"."""
    direction = entity_noun_of(name).split(" ", 1)[0]
    if direction in ("from", "to"):
        return direction
    if direction == "new":
        return "to"
    if target_prep:
        return target_prep
    if words.attribute_prep:
        return words.attribute_prep
    noun = bare_entity_noun(name)
    if _PATHLIKE.fullmatch(spoken_id(value)):
        return "in"
    if noun.split()[-1:] in (["approval"], ["authorization"], ["authorisation"]):
        return "under"
    if noun in RECORD_NOUNS and words.kind != "create":
        return "on"
    return "for"


def _pronoun(name: str, value: Any) -> str:
    """How a later sentence refers back to an entity: "it", "that user", "them"."""
    noun = bare_entity_noun(name)
    if noun in PERSON_NOUNS:
        return f"that {noun}"
    return "them" if "@" in spoken_id(value) or isinstance(value, list | tuple) else "it"


def _head_phrase(words: ToolWords, name: str, value: Any, r: Random, mentioned: set[str]) -> str:
    """The entity that is the object: "order 4412", "my card CAR-1", "user dana@x.io", or "it"."""
    text = spoken_id(value)
    if text in mentioned:
        return "it"
    if text.startswith(("http://", "https://")):
        return text  # a link says what it is: "open https://…", not "open url https://…"
    noun = bare_entity_noun(name)
    if "@" in text or (_PATHLIKE.fullmatch(text) and words.noun):
        noun = singular_phrase(words.noun) or noun
    phrase = f"{_numbered(noun, value)} {text}" if noun and noun != "record" else text
    if noun in POSSESSABLE and r.random() < 0.3:
        return "my " + phrase
    return phrase


def _noun_object(words: ToolWords, pre: list[str], verb: Verb) -> str:
    """The tool's object noun with its article and modifiers: "a 10% discount", "the orders"."""
    noun = " ".join([*pre, words.noun])
    if is_plural(words.noun) or words.attribute_prep:
        article = "" if words.verb == "search" and is_plural(words.noun) else "the"
    elif words.noun in MASS_NOUNS:
        article = "" if words.verb in CREATE_VERBS or words.kind == "create" else "the"
    elif words.verb in CREATE_VERBS or words.kind == "create" or verb.prep:
        article = indefinite(noun)
    else:
        article = "the"
    return f"{article} {noun}".strip()


def build_action(
    words: ToolWords,
    entities: Mapping[str, Any],
    details: Mapping[str, Any],
    r: Random,
    mentioned: set[str] | None = None,
    *,
    general: bool = False,
) -> Request:
    """Say what one tool call asks for: "reset the password for user noor82 (I forgot it)".

    ``mentioned`` holds ids an earlier sentence already named; a lone one becomes "it".
    ``general`` phrases a search's query for "I'm looking for emails mentioning …".
    """
    mentioned = mentioned if mentioned is not None else set()
    choice = r.randrange(len(words.verbs))
    verb = words.verbs[choice]
    rendered = render_details(words, details)
    ordered = sorted(entities.items(), key=lambda kv: words.rank(kv[0]))
    payments = [(n, v) for n, v in ordered if "payment" in tokens_of(n)]
    ordered = [(n, v) for n, v in ordered if (n, v) not in payments]
    head = next((i for i, (n, v) in enumerate(ordered) if _matches_object(words, n, v)), None)
    if words.handoff:
        obj, verb = "", Verb(r.choice(HANDOFF_ACTIONS))
    elif rendered.ordinal:
        obj = f"{singular_phrase(words.noun)} {rendered.ordinal}"
    elif rendered.obj:
        obj = rendered.obj
    elif head is not None:
        obj = _head_phrase(words, *ordered.pop(head), r, mentioned)
    elif words.noun:
        obj = _noun_object(words, rendered.pre, verb)
    else:
        obj = r.choice(words.default_objects) if words.default_objects else ""
    attached, complement = "", ""
    for i, (name, value) in enumerate(ordered):
        again = spoken_id(value) in mentioned and len(entities) == 1
        label = _pronoun(name, value) if again else _entity_label(name, value)
        verb_prep = verb.prep if i == 0 else ""
        prep = _entity_prep(name, value, words, verb_prep)
        if label == "it" and prep == "of" and obj.startswith("the "):
            obj = "its " + obj[4:]
        elif prep == verb_prep or prep in ("from", "to"):
            complement += f" {prep} {label}"
        else:
            attached += f" {prep} {label}"
    if rendered.obj and words.noun and not ordered and not rendered.said_noun:
        complement += f" in the {words.noun}"
    tail = (
        f" {'mentioning' if general else 'for'} {rendered.query}" if rendered.query else ""
    ) + rendered.tail
    for _, value in payments:
        said = spoken_id(value)
        tail += r.choice((f", paying with {said}", f", using payment method {said}"))
    if rendered.labels:
        tail += said_labels(rendered.labels, after_with=" with " in tail)
    if words.purposes and not (
        rendered.tail or rendered.labels or rendered.obj or rendered.pre or rendered.query
    ):
        tail += r.choice(words.purposes)
    mentioned.update(spoken_id(v) for v in entities.values())
    plural = (is_plural(obj) and not rendered.obj and head is None) or " and " in rendered.obj
    return Request(verb.phrase, obj, attached, complement, tail, words.participles[choice], plural)
