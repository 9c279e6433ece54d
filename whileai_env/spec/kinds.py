"""Classify a tool as read, create, update or delete from the evidence its spec gives.

The evidence, in the order it is trusted (:mod:`whileai_env.spec.evidence` reads each one):

1. MCP ``annotations``: ``readOnlyHint: true`` is a read;
2. a computation (``add(a, b)``, ``convert_units``): a read that returns a computed value;
3. a strong verb in the name, anywhere in it (``get_order``, ``invoices.void``, ``cardFreeze``);
4. a read-only cue in the description ("read-only", "does not modify", a SQL ``SELECT``);
5. a light verb in the name whose object is a read (``run_tests``, ``execute_query``);
6. the main verb of the description ("Place an immediate freeze on a card" is the freeze);
7. a verb in the name that is as often a noun (``file``, ``issue``, ``run``), then one in the
   description;
8. MCP write hints (``readOnlyHint: false``; ``destructiveHint: false`` means additive);
9. the schemas: only paging and filter arguments, or a list output, is a read.

When annotations say the tool writes, a read verb cannot make it a read. With no evidence at
all the tool is a write (``update``), on purpose: the costly mistake is a write taken for a
read, because a checklist that thinks a write is a read lets an agent act without asking.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from whileai_env._util.lexicon import name_tokens
from whileai_env.spec import evidence

KINDS = ("read", "create", "update", "delete")
WRITE_KINDS = frozenset({"create", "update", "delete"})

_ALIASES = {"write": "update", "modify": "update", "remove": "delete", "get": "read"}
#: Read verbs that, with code to run, are a run (``puppeteer_evaluate(script)``).
_CODE_READS = frozenset({"evaluate", "eval", "exec", "execute", "run"})


@dataclass(frozen=True)
class KindFinding:
    """A tool's kind and the evidence that decided it (``source`` and a short ``reason``)."""

    kind: str
    source: str
    reason: str


def normalise_kind(kind: str) -> str:
    """Map a user-given kind (``read``, ``write``, ``delete`` …) to one of :data:`KINDS`."""
    value = _ALIASES.get(kind.strip().lower(), kind.strip().lower())
    if value not in KINDS:
        raise ValueError(f"unknown tool kind {kind!r}; use one of {', '.join(KINDS)} or 'write'")
    return value


def _joined(name: str, verbs: list[evidence.Verb]) -> KindFinding | None:
    """``get_or_create_user``, ``create_or_update_file``: verbs joined by and/or write, and an
    upsert is an update."""
    tokens = name_tokens(name)
    joined = {"or", "and"} & set(tokens)
    # the verbs beside the joining word: ``get_or_create_label`` joins get and create, and its
    # noun ("label", also a verb) is no part of the join
    beside = {
        tokens[j]
        for i, w in enumerate(tokens)
        if w in joined
        for j in (i - 1, i + 1)
        if 0 <= j < len(tokens)
    }
    writes = [v for v in verbs if v.kind in WRITE_KINDS and v.word in beside]
    if not (joined and writes):
        return None
    verb = next((v for v in writes if v.kind == "update"), writes[0])
    return KindFinding(verb.kind, "name", f"verb {verb.word!r} joined by {sorted(joined)[0]!r}")


#: Verbs that, with "from", take a thing out of a record rather than delete it.
_TAKE_OUT = frozenset({"remove", "detach", "unassign", "unlink"})


def _taken_from(name: str, verbs: list[evidence.Verb]) -> KindFinding | None:
    """``remove_member_from_card``, ``asana_remove_project_from_task``: a thing taken out of a
    record changes that record (an update); the card and the member both live on."""
    tokens = name_tokens(name)
    first = next((v for v in verbs if v.strong), None)
    if first is None or first.word not in _TAKE_OUT or "from" not in tokens:
        return None
    at = tokens.index(first.word) if first.word in tokens else -1
    if not 0 <= at < tokens.index("from") < len(tokens) - 1:
        return None
    return KindFinding("update", "name", f"{first.word!r} … 'from' a record: that record changes")


def _leading_write(verbs: list[evidence.Verb], description: str) -> KindFinding | None:
    """A write verb that is also a noun, first in a name with no strong write verb, where the
    description's own verb writes too: the name's verb says which write. ``archive_list``
    ("Send a list to the archive") archives a list (its "list" is the object, not a read), and
    ``archive_card`` archives a card (the description's "send" is not a create), when the
    description names the verb too. ``file_search`` ("Search files") stays a read: its
    description does not write."""
    if not verbs or verbs[0].strong or verbs[0].kind not in WRITE_KINDS:
        return None
    if verbs[0].word in evidence.LIGHT_VERBS:  # ``run_sql``, ``make_payment``: their object says
        return None
    if any(v.strong and v.kind in WRITE_KINDS for v in verbs):
        return None
    said = evidence.description_verb(description)
    if said is None or said.kind not in WRITE_KINDS:
        return None
    # and the description says the name's verb too ("to the archive"): ``API-patch-block-children``
    # ("Append block children") is named for its HTTP method, and the description's verb decides
    word = verbs[0].word
    stem = word[:-1] if word.endswith("e") else word
    if not re.search(rf"\b{re.escape(stem)}", description, re.IGNORECASE):
        return None
    return KindFinding(
        verbs[0].kind, "name", f"verb {verbs[0].word!r} first, where the description writes too"
    )


def _from_name(
    name: str,
    description: str,
    parameters: Mapping[str, Any] | None,
    annotations: Mapping[str, Any] | None,
) -> KindFinding | None:
    """Steps 3 to 5: a question, a joined verb, code to run, the title's verb, a strong verb in the name."""
    verbs = evidence.name_verbs(name)
    if evidence.asks_question(name):
        return KindFinding("read", "name", f"asks a question ({name_tokens(name)[0]!r})")
    joined = _joined(name, verbs)
    if joined is not None:
        return joined
    taken = _taken_from(name, verbs)
    if taken is not None:
        return taken
    strong = next((v for v in verbs if v.strong), None)
    code = evidence.runs_code(parameters) if evidence.read_cue(description) is None else None
    if code is not None and (strong is None or strong.word in _CODE_READS):
        return KindFinding("update", "schema", f"runs the code or command in {code!r}")
    titled = evidence.title_verb(annotations)
    if titled is not None and titled.strong:
        return KindFinding(titled.kind, "annotations", f"title verb {titled.word!r}")
    lead = _leading_write(verbs, description)
    if lead is not None:
        return lead
    if strong is not None and strong.kind == "create" and _sends_its_own(name, strong, parameters):
        return KindFinding("update", "schema", f"{strong.word!r} a record it names by id")
    if strong is not None:
        return KindFinding(strong.kind, "name", f"verb {strong.word!r}")
    return None


#: Verbs that make something new of nothing, or move a record that already exists along: a
#: ``send_message(text)`` makes a message, a ``send_invoice(invoice_id)`` sends the invoice.
_SENDS = frozenset({"send", "resend", "publish", "submit", "share", "dispatch", "release"})


def _sends_its_own(name: str, verb: evidence.Verb, parameters: Mapping[str, Any] | None) -> bool:
    """Whether ``name`` sends (publishes, submits …) a record it takes the id of: PayPal's
    ``send_invoice(invoice_id)`` moves the invoice from draft to sent, it makes nothing."""
    tokens = name_tokens(name)
    if verb.word not in _SENDS or verb.word not in tokens:
        return False
    noun = [t for t in tokens[tokens.index(verb.word) + 1 :] if t not in ("a", "the", "to")]
    required = parameters.get("required") if isinstance(parameters, Mapping) else None
    if not noun or not isinstance(required, list):
        return False
    own = {(*noun, "id"), (*noun[-1:], "id"), ("id",)}
    return any(isinstance(r, str) and tuple(name_tokens(r)) in own for r in required)


def _from_words(name: str, description: str, hint: str | None) -> KindFinding | None:
    """Steps 5 to 8: a read-only cue, light verbs, the description's verb, homonym verbs."""
    verbs = evidence.name_verbs(name)
    cue = evidence.read_cue(description)
    if cue is not None and hint in (None, "read"):
        return KindFinding("read", "description", f"read-only cue {cue!r}")
    light = evidence.light_object(name)
    if light is not None:
        return KindFinding(light[1].kind, "name", f"{light[0]!r} of {light[1].word!r}")
    said = evidence.description_verb(description)
    if said is not None and said.strong:
        return KindFinding(said.kind, "description", f"verb {said.word!r}")
    if verbs:
        return KindFinding(verbs[0].kind, "name", f"verb {verbs[0].word!r}")
    if said is not None:
        return KindFinding(said.kind, "description", f"verb {said.word!r}")
    return None


def explain_kind(
    name: str,
    description: str = "",
    parameters: Mapping[str, Any] | None = None,
    output: Mapping[str, Any] | None = None,
    annotations: Mapping[str, Any] | None = None,
) -> KindFinding:
    """The kind of a tool and the evidence that decided it (see the module docstring).

    >>> explain_kind("add", "Add two numbers", {"properties": {"a": {"type": "number"}, "b": {"type": "number"}}})
    KindFinding(kind='read', source='computation', reason='computes a value from its arguments')
    >>> explain_kind("card_hold", "Place an immediate freeze on a card.").kind
    'update'
    """
    hint = evidence.annotation_hint(annotations)
    if hint == "read":
        return KindFinding("read", "annotations", "readOnlyHint is true")
    if evidence.is_computation(name, description, parameters, output):
        return KindFinding("read", "computation", "computes a value from its arguments")
    if evidence.hands_off(name, description):
        return KindFinding("create", "description", "hands the conversation to a person")
    found = _from_name(name, description, parameters, annotations)
    if found is not None:
        return found
    found = _from_words(name, description, hint)
    if found is not None and hint is not None and found.kind == "read":
        return KindFinding(
            "update", "annotations", f"readOnlyHint is false ({found.reason} read as a write)"
        )
    if found is not None:
        return found
    if hint is not None:
        return KindFinding("update", "annotations", f"readOnlyHint is false ({hint})")
    if evidence.schema_hint(parameters, output) == "read":
        return KindFinding(
            "read", "schema", "takes only paging and filter arguments or returns a list"
        )
    return KindFinding("update", "default", "no evidence: a write, so it is never taken for a read")


def classify_tool(
    name: str,
    description: str = "",
    parameters: Mapping[str, Any] | None = None,
    output: Mapping[str, Any] | None = None,
    annotations: Mapping[str, Any] | None = None,
) -> str:
    """Return the kind of a tool: ``read``, ``create``, ``update`` or ``delete``.

    >>> classify_tool("get_order"), classify_tool("cancelOrder"), classify_tool("sync")
    ('read', 'update', 'update')
    """
    return explain_kind(name, description, parameters, output, annotations).kind
