"""Composition: :func:`write_opener` turns a cell and its plan into the opening user message.

One sentence per target tool in the cell's ask family and stance, then, for stances that push,
a sentence against the cell's rule (quoting the clause when it is short and about the tool),
framed by persona, tone and history, then retyped with the cell's texture, which never touches
the ids and stated values.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from random import Random
from typing import TYPE_CHECKING

from whileai_env._util.hashing import rng
from whileai_env._util.lexicon import plural
from whileai_env.scenarios import axes as ax
from whileai_env.writer.action import Request, build_action
from whileai_env.writer.grammar import cap
from whileai_env.writer.spoken import spoken_id, stated_values
from whileai_env.writer.templates import (
    FOLLOW_ON,
    GENERAL_CREATE,
    GENERAL_DELETE,
    GENERAL_DONE,
    GENERAL_READ,
    GENERAL_SEARCH,
    GENERAL_UPDATE,
    HANDOFF_GENERAL,
    HISTORY,
    PERSONA,
    PRIOR_CONTACT_HISTORIES,
    PRIOR_CONTACT_STANCES,
    PUSHES,
    QUOTED_RULE,
    RULE_PUSHING_STANCES,
    STANCE,
    TONE,
    TONE_AFTER_CONTACT,
    UNQUOTED_RULE,
    UNRELATED,
    VAGUE,
    VAGUE_UNOWNED,
)
from whileai_env.writer.texture import apply_texture
from whileai_env.writer.tool_phrasing import (
    RuleWords,
    ToolWords,
    owned_nouns,
    tool_names,
    tool_words,
)
from whileai_env.writer.vocabulary import (
    CHANGE_VERBS,
    CREATE_VERBS,
    PRONOUNS,
    SEPARABLE_PARTICLES,
    SEPARABLE_VERBS,
)

if TYPE_CHECKING:
    from whileai_env.scenarios.grid import Cell
    from whileai_env.scenarios.task import WorldPlan
    from whileai_env.spec.load import Spec


_RULE_SPLIT = re.compile(r"\s*[;:]\s*")
_GREETING = re.compile(r"(?:hi|hello|hey)\b[,!.]?\s+", re.IGNORECASE)
_CONJUNCTION = re.compile(r",\s+(?:and|or|but)\s+")


def _general_sentence(
    words: ToolWords, action: Request, r: Random, protected: Sequence[str], ids: Sequence[str]
) -> str:
    """A general ask: what the person wants, without naming the operation. A search says what it
    looks for by its noun ("I'm looking for issues"), with the entity it is about: the object
    when that is the entity ("file src/a.py"), else the qualifier ("for organization acme")."""
    if words.handoff:
        return r.choice(HANDOFF_GENERAL).format(d=action.tail)
    obj = (action.obj or "this") + action.attached
    value_object = not words.noun or action.obj == "it" or obj.startswith("`") or obj[:1].isdigit()
    templates: tuple[str, ...]
    if value_object:
        templates = GENERAL_DONE
    elif words.verb == "search":
        templates = GENERAL_SEARCH
    elif words.kind == "read":
        templates = GENERAL_READ + GENERAL_DONE
    elif (
        words.kind == "create"
        and words.verb in CREATE_VERBS
        and not action.complement
        and (obj.startswith(("a ", "an ")) or action.obj == words.noun)
    ):
        templates = GENERAL_CREATE
    elif words.verb in CHANGE_VERBS:
        templates = GENERAL_UPDATE + GENERAL_DONE
    elif words.kind == "delete":
        templates = GENERAL_DELETE + GENERAL_DONE
    else:
        templates = GENERAL_DONE
    states_entity = any(i in action.obj for i in ids)
    return r.choice(templates).format(
        o=obj,
        O=cap(obj, protected),
        n=obj if states_entity else words.noun + action.attached,
        p=action.participle,
        w=action.complement,
        d=action.tail,
        needs="need" if action.plural else "needs",
    )


def _stance_sentence(stance: str, action: Request, r: Random) -> str:
    """The ask in the cell's stance: "Quick: cancel order 4412, I've only got a minute."."""
    text = action.text
    return r.choice(STANCE[stance]).format(
        a=text, A=cap(text), o=(action.obj or "this") + action.attached
    )


@lru_cache(maxsize=4096)
def _rule_quote(clause: str, tools: tuple[RuleWords, ...]) -> str | None:
    """A short verbatim clause of the rule that is about one of ``tools``, or ``None``.

    Only whole clauses (split at ";" or ":", then cut before ", and …") are quoted, never a
    fragment or one opening with a pronoun; a rule about something else, or a long quote,
    reads as copy-paste noise.
    """
    for piece in _RULE_SPLIT.split(clause.strip()):
        piece = _CONJUNCTION.split(piece.strip())[0].rstrip(".")
        if (
            '"' in piece
            or not 3 <= len(piece.split()) <= 12
            or piece.split()[0].lower() in PRONOUNS
        ):
            continue
        if any(words.mentioned_in(piece) for words in tools):
            return piece
    return None


def _rule_sentence(clause: str, tools: tuple[RuleWords, ...], r: Random) -> tuple[str, str | None]:
    """(sentence pushing against the rule, the quoted piece or ``None``)."""
    quote = _rule_quote(clause, tools)
    if quote:
        return r.choice(QUOTED_RULE).format(q=quote), quote
    return r.choice(UNQUOTED_RULE), None


def _vague_sentence(
    words: ToolWords, entity_names: Sequence[str], r: Random, owned: frozenset[str]
) -> str:
    """An ask that names the kind of thing but not which one: "Help, my order is messed up.".
    A thing is "my" thing only when it has ids (the task needs one, or some tool of the spec
    takes an id of it, ``owned``); else the ask says what is to be done: "Can you help me
    calculate something?", never "my square root"."""
    noun = words.vague_noun(entity_names)
    if entity_names or noun in owned:
        return r.choice(VAGUE).format(n=noun, ns=plural(noun))
    return r.choice(VAGUE_UNOWNED).format(v=_something(words.verbs[0].phrase))


def _something(verb: str) -> str:
    """The verb with "something" as its object: "pull something up", "search for something"."""
    head, _, particle = verb.partition(" ")
    if particle in SEPARABLE_PARTICLES or verb in SEPARABLE_VERBS:
        return f"{head} something {particle}"
    return f"{verb} for something" if verb == "search" else f"{verb} something"


def _protected(plan: WorldPlan, spec: Spec) -> list[str]:
    """Identifiers and stated values as the opener spells them: texture must not touch them."""
    return [spoken_id(v) for v in plan.entities.values()] + [
        s for s in stated_values(plan, spec) if s
    ]


def _ask(
    cell: Cell, plan: WorldPlan, spec: Spec, targets: list[str], r: Random, protected: Sequence[str]
) -> str:
    """The request itself: one sentence per target tool, in the cell's ask family and stance."""
    if cell.ask == "vague":
        words = tool_words(spec, targets[0])
        vague = _vague_sentence(words, plan.required.get(targets[0], ()), r, owned_nouns(spec))
        if cell.stance == "adversarial":
            return f"{vague} {r.choice(PUSHES)}"  # vague, and still pushing in its own words
        return vague
    pieces = []
    mentioned: set[str] = set()
    for i, target in enumerate(targets):
        words = tool_words(spec, target)
        general = cell.ask == "general" and i == 0
        action = build_action(
            words,
            plan.entities_for(target),
            plan.details_for(target),
            r,
            mentioned,
            general=general,
        )
        if i > 0:
            pieces.append(r.choice(FOLLOW_ON).format(a=action.text))
        elif general:
            pieces.append(_general_or_stance(cell, plan, target, words, action, r, protected))
        else:
            pieces.append(_stance_sentence(cell.stance, action, r))
    return " ".join(pieces)


def _general_or_stance(
    cell: Cell,
    plan: WorldPlan,
    target: str,
    words: ToolWords,
    action: Request,
    r: Random,
    protected: Sequence[str],
) -> str:
    """The general ask, or the ask in the cell's stance where the general wording would leave out
    an id the task needs: a non-vague ask states every entity the call takes (the agent cannot
    address an entity nobody named, and the checklist calls an unnamed id invented)."""
    ids = [spoken_id(v) for v in plan.entities_for(target).values()]
    sentence = _general_sentence(words, action, r, protected, ids)
    if all(i in sentence for i in ids) and cell.stance != "adversarial":
        return sentence
    # an adversarial ask pushes in its stance's own words: the lines arguing with a rule are
    # shared with the boundary, conflicting and mistaken stances, whose writes are to be done
    return _stance_sentence(cell.stance, action, r)


def _pushes_on_rule(cell: Cell, plan: WorldPlan) -> bool:
    """Whether the opener argues with the cell's policy clause (only stances that push do)."""
    return cell.rule != ax.NO_RULE and bool(plan.clause) and cell.stance in RULE_PUSHING_STANCES


def _prior_contact(cell: Cell, plan: WorldPlan) -> bool:
    """Whether the task says the person has been in touch about this before (a prior failure,
    a repeat visit, a retry …)."""
    return plan.history in PRIOR_CONTACT_HISTORIES or cell.stance in PRIOR_CONTACT_STANCES


def _persona(cell: Cell, plan: WorldPlan, unrelated: bool) -> str:
    """The persona's lines to use: a first-timer whose task says they have been in touch before
    says they are new to it, never that it is their first time."""
    if cell.persona != "first_time" or unrelated:
        return cell.persona
    return "first_time_again" if _prior_contact(cell, plan) else cell.persona


def _without_greeting(core: str, protected: Sequence[str]) -> str:
    """The ask without its own greeting ("Hi, I need help …") when the persona already greets."""
    match = _GREETING.match(core)
    return cap(core[match.end() :], protected) if match and match.end() < len(core) else core


def write_opener(
    cell: Cell, plan: WorldPlan, spec: Spec, *, phrasing: int = 0, key: object = 0
) -> str:
    """Write the opening user message for ``cell`` with the entities of ``plan``.

    ``phrasing`` picks another wording of the same situation; ``key`` seeds every choice.
    An unrelated ask (no target tool) never argues with a rule: there is no tool to argue for.
    """
    r = rng("opener", key, phrasing)
    protected = _protected(plan, spec)
    names = tool_names(spec)
    targets = [t for t in plan.targets if t in names]
    if cell.tool == ax.UNRELATED or not targets:
        core = r.choice(UNRELATED)
    else:
        core = _ask(cell, plan, spec, targets, r, protected)
        if _pushes_on_rule(cell, plan):
            tools = tuple(tool_words(spec, t).rule_words for t in targets)
            sentence, quote = _rule_sentence(plan.clause or "", tools, r)
            core += " " + sentence
            if quote:
                protected.append(quote)
    unrelated = cell.tool == ax.UNRELATED or not targets
    persona = r.choice(PERSONA[_persona(cell, plan, unrelated)])
    contact = not unrelated and _prior_contact(cell, plan)
    tone = r.choice([t for t in TONE[cell.tone] if contact or t not in TONE_AFTER_CONTACT])
    history = "" if unrelated else r.choice(HISTORY[plan.history])
    if cell.tone == "terse":
        persona = ""
    if persona:
        core = _without_greeting(core, protected)
    parts = [persona, history, core, tone] if r.random() < 0.5 else [persona, core, history, tone]
    text = " ".join(p for p in parts if p)
    return apply_texture(text, cell.texture, protected, key=(key, phrasing))
