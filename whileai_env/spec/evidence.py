"""What a tool's spec says about what it does to the world, read source by source.

Each reader looks at one kind of evidence and returns what it found, or ``None``:

- :func:`annotation_hint`: MCP ``annotations`` (``readOnlyHint``, ``destructiveHint``);
- :func:`is_computation`: the tool is a pure function of its arguments (``add(a, b)``,
  ``convert_units``, ``compute_exchange_rate``): its name or description names a computation and
  every argument is a value (numbers, codes, units, an expression), never a record's id or a text;
- :func:`name_verbs`: verbs anywhere in the name (``invoices.void``, ``cardFreeze``), phrasal
  verbs (``check_in``) and whether each is *strong* (rarely a noun) or a homonym (``file``,
  ``issue``, ``run``);
- :func:`description_verb`: the main verb of the description's first sentence, after any
  preamble ("Use this tool to …"), with "place a freeze on" read as the freeze;
- :func:`read_cue`: phrases that say a tool only reads ("read-only", "does not modify", a SQL
  ``SELECT`` runner);
- :func:`schema_hint`: what the schemas take and return (only paging and filter arguments, a
  list output) when words say nothing.

:mod:`whileai_env.spec.kinds` weighs them in a fixed order (see ``docs/specs-and-grid.md``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from whileai_env._util.lexicon import COMPUTE_WORDS, DESCRIPTION_READ_VERBS, name_tokens, verb_kind
from whileai_env.spec.arguments import argument_role, schema_types


@dataclass(frozen=True)
class Verb:
    """A verb found in a tool's name or description: the word, its kind and its strength."""

    word: str
    kind: str
    strong: bool


#: Verbs that are as often nouns at the head of a name (``file_search``, ``issue_comment``,
#: ``status_check``): a strong verb elsewhere in the name, or in the description, outranks them.
HOMONYMS = frozenset(
    {
        "file",
        "log",
        "post",
        "book",
        "issue",
        "tag",
        "label",
        "link",
        "test",
        "tests",
        "status",
        "quote",
        "track",
        "draft",
        "reply",
        "forward",
        "head",
        "tail",
        "cat",
        "stat",
        "diff",
        "patch",
        "commit",
        "charge",
        "transfer",
        "refund",
        "schedule",
        "exchange",
        "return",
        "record",
        "watch",
        "open",
        "new",
        "start",
        "hold",
        "block",
        "time",
        "filter",
        "sample",
        "print",
        "display",
        "tree",
        "export",
        "download",
        "resolve",
        "place",
        "store",
        "type",
        "map",
        "request",
        "like",
        "star",
        "pin",
        "follow",
        "copy",
        "select",
        "archive",
    }
)
#: Verbs that say only "do it": what they do is their object's (``run_tests``, ``execute_query``).
LIGHT_VERBS = frozenset(
    {
        "run",
        "exec",
        "execute",
        "perform",
        "invoke",
        "call",
        "do",
        "trigger",
        "process",
        "make",
        "take",
    }
)
_DEVERBAL = (
    ("ment", ""),
    ("ing", ""),
    ("ation", "e"),
    ("ation", ""),
    ("ion", ""),
    ("ion", "e"),
    ("al", "e"),
)
#: Phrasal verbs, which the words alone misread (``check_in`` is no check).
PHRASAL = {
    ("check", "in"): "update",
    ("check", "out"): "update",
    ("log", "in"): "update",
    ("log", "out"): "update",
    ("sign", "in"): "update",
    ("sign", "out"): "update",
    ("sign", "up"): "create",
    ("set", "up"): "create",
    ("look", "up"): "read",
    ("opt", "in"): "update",
    ("opt", "out"): "update",
    ("top", "up"): "update",
    ("back", "up"): "create",
    ("clean", "up"): "delete",
    ("roll", "back"): "update",
}
#: Nouns of a state put *on* something that exists ("place a freeze on a card"): the thing changes.
_STATE_NOUNS = frozenset(
    {"freeze", "hold", "lock", "block", "stop", "ban", "pause", "restriction", "suspension"}
)
_PLACING = frozenset({"place", "put", "apply", "add", "set", "impose"})
_PREAMBLE = re.compile(
    r"^(?:(?:this|the|a|an)\s+(?:tool|function|endpoint|api|method|operation|action)\s+(?:that\s+|which\s+|will\s+|can\s+)?"
    r"|(?:tool|function|endpoint|method)\s+(?:to|for|that)\s+"
    r"|(?:is\s+)?used\s+(?:to|for)\s+|can\s+be\s+used\s+to\s+|lets\s+you\s+|allows\s+(?:you|the\s+\w+|users?|agents?)\s+to\s+"
    r"|helps?\s+(?:you\s+)?(?:to\s+)?|use\s+(?:this|it|the)(?:\s+tool)?\s+(?:to|when(?:\s+you\s+(?:need|want))?\s+to)\s+"
    r"|(?:please\s+|immediately\s+|quickly\s+|simply\s+|safely\s+|permanently\s+)"
    r")+",
    re.I,
)
_SENTENCE = re.compile(r"(?<=[.!?])\s|\n")
#: A label before the description proper ("Tool description: Add two numbers.").
_FILLERS = frozenset(
    {"also", "then", "first", "just", "only", "now", "still", "again", "and", "or", "to"}
)
#: A sentence that is a labelled note ("Checks: …", "Args: …"), not a description of the action.
_NOTE = re.compile(r"^[*_`]*\w+(?:\s\w+)?[*_`]*\s*:")
_BANNER = re.compile(r"^[^|\n]{1,40}\|\s*")  # "Notion | Search by title"
_LABELLED = re.compile(r"\b(?:tool\s+)?(?:description|summary|purpose)\s*:\s*", re.I)
_WORDS = re.compile(r"[A-Za-z]+")
_READ_CUES = re.compile(
    r"\bread[- ]only\b|\bdoes(?: not|n't) (?:modify|change|alter|write)\b|\bwithout (?:modifying|changing|side effects)\b"
    r"|\bno side[- ]effects\b|\bnon-destructive\b|\bsafe to call\b"
    r"|\b(?:will not|does not|do not|doesn't|won't|cannot)(?: \w+){1,5}? (?:or|nor) (?:modify|change|alter|write)\b",
    re.I,
)
_SQL_READ = re.compile(r"\bSELECT\b")
_SQL_WRITE = re.compile(
    r"\b(?:INSERT|UPDATE|DELETE|DROP|CREATE|ALTER|TRUNCATE|MERGE|REPLACE|GRANT)\b"
)
#: Argument words that carry values to compute with rather than facts about a record.
_VALUE_WORDS = frozenset(
    {
        "unit",
        "units",
        "currency",
        "currencies",
        "from",
        "to",
        "base",
        "target",
        "quote",
        "expression",
        "expr",
        "formula",
        "equation",
        "operation",
        "op",
        "operator",
        "precision",
        "decimals",
        "places",
        "format",
        "mode",
        "method",
        "scale",
        "symbol",
        "system",
        "measure",
        "measurement",
        "type",
        "kind",
        "category",
        "code",
    }
)
_PAGING_WORDS = frozenset(
    {
        "limit",
        "offset",
        "page",
        "cursor",
        "token",
        "size",
        "sort",
        "by",
        "filter",
        "filters",
        "query",
        "q",
        "search",
        "keyword",
        "keywords",
        "max",
        "results",
        "per",
        "since",
        "until",
        "before",
        "after",
        "include",
        "fields",
        "direction",
        "asc",
        "desc",
        "top",
    }
)
_LIST_OUTPUT_WORDS = frozenset(
    {"items", "results", "entries", "records", "rows", "data", "matches", "hits"}
)


def _word_kind(word: str) -> str | None:
    """``verb_kind``, also for third-person forms in ``-ies`` ("applies", "copies")."""
    kind = verb_kind(word)
    if kind is None and word.endswith("ies") and len(word) > 4:
        kind = verb_kind(word[:-3] + "y")
    return kind


def annotation_hint(annotations: Mapping[str, Any] | None) -> str | None:
    """``read`` for ``readOnlyHint: true``; ``write``, ``additive`` (``destructiveHint: false``) or
    ``destructive`` for ``readOnlyHint: false``; ``None`` when the tool states nothing.

    MCP makes ``destructiveHint`` default to true for a tool that is not read-only.

    >>> annotation_hint({"readOnlyHint": True}), annotation_hint({"readOnlyHint": False, "destructiveHint": False})
    ('read', 'additive')
    """
    if not isinstance(annotations, Mapping):
        return None
    read_only = annotations.get("readOnlyHint")
    if read_only is True:
        return "read"
    destructive = annotations.get("destructiveHint")
    if read_only is False or destructive is True:
        return (
            "additive"
            if destructive is False
            else "destructive"
            if destructive is True
            else "write"
        )
    return None


def name_verbs(name: str) -> list[Verb]:
    """The verbs of a tool's name, left to right, phrasal verbs joined (``check_in``)."""
    tokens = name_tokens(name)
    out: list[Verb] = []
    i = 0
    while i < len(tokens):
        pair = tuple(tokens[i : i + 2])
        if pair in PHRASAL:
            out.append(Verb(" ".join(pair), PHRASAL[pair], True))
            i += 2
            continue
        kind = _word_kind(tokens[i])
        if kind is not None:
            out.append(
                Verb(tokens[i], kind, tokens[i] not in HOMONYMS and tokens[i] not in LIGHT_VERBS)
            )
        i += 1
    return out


def sentences(description: str, limit: int = 3) -> list[str]:
    """The description's first sentences (from its labelled part, "Tool description: …", when it
    has one), each with any preamble ("Use this tool to") removed."""
    text = (description or "").strip()
    labelled = _LABELLED.search(text)
    if labelled:
        text = text[labelled.end() :]
    text = _BANNER.sub("", text)
    parts = [p.strip() for p in _SENTENCE.split(text) if p.strip() and not _NOTE.match(p.strip())][
        :limit
    ]
    return [_PREAMBLE.sub("", p) for p in parts]


def _deverbal(noun: str) -> str | None:
    """The verb a noun is made from, when the lexicon knows it (payment → pay, booking → book)."""
    for suffix, ending in _DEVERBAL:
        if noun.endswith(suffix) and len(noun) > len(suffix) + 2:
            verb = noun[: -len(suffix)] + ending
            if verb_kind(verb) is not None:
                return verb
    return None


def light_object(name: str) -> tuple[str, Verb] | None:
    """(light verb, the verb of its object) for ``run_tests``, ``execute_query``, ``make_payment``."""
    tokens = name_tokens(name)
    light = next((i for i, t in enumerate(tokens) if t in LIGHT_VERBS), None)
    if light is None:
        return None
    for word in tokens[light + 1 :]:
        verb = word if _word_kind(word) else _deverbal(word)
        if verb is not None:
            return tokens[light], Verb(verb, _word_kind(verb) or "update", True)
    return None


def first_sentence(description: str) -> str:
    """The description's first sentence (see :func:`sentences`)."""
    found = sentences(description, 1)
    return found[0] if found else ""


def title_verb(annotations: Mapping[str, Any] | None) -> Verb | None:
    """The verb of an MCP ``annotations.title`` ("Send feedback on a search result")."""
    title = annotations.get("title") if isinstance(annotations, Mapping) else None
    if not isinstance(title, str):
        return None
    return _sentence_verb([w.lower() for w in _WORDS.findall(title)])


def description_verb(description: str) -> Verb | None:
    """The main verb of the description: the first verb within the first four words of one of
    its first three sentences.

    "Returns …", "Provides …" are reads; "Place an immediate freeze on a card" is the freeze (an
    update), not a placing (a create).
    """
    for sentence in sentences(description):
        found = _sentence_verb([w.lower() for w in _WORDS.findall(sentence)])
        if found is not None:
            return found
    return None


def _sentence_verb(words: list[str]) -> Verb | None:
    """The sentence's verb: its first word, or a later one (up to the fourth) after adverbs only
    ("Immediately freezes …"), so a noun further on ("Stage all changes") is never taken."""
    for i, word in enumerate(words[:4]):
        if i and not all(w.endswith("ly") or w in _FILLERS for w in words[:i]):
            return None
        if word in DESCRIPTION_READ_VERBS:
            return Verb(word, "read", True)
        pair = tuple(words[i : i + 2])
        if pair in PHRASAL:
            return Verb(" ".join(pair), PHRASAL[pair], True)
        kind = _word_kind(word)
        if kind is None:
            continue
        base = word.rstrip("s")
        if base in _PLACING or word in _PLACING:
            state = next((w for w in words[i + 1 : i + 5] if w in _STATE_NOUNS), None)
            if state is not None:
                return Verb(state, "update", True)
        return Verb(
            word, kind, word not in HOMONYMS and word not in LIGHT_VERBS and base not in LIGHT_VERBS
        )
    return None


#: First words of a name that ask a yes/no question (``can_send_mms``, ``is_member``): a check.
QUESTION_WORDS = frozenset(
    {"is", "can", "has", "have", "does", "do", "should", "are", "was", "will"}
)
#: Argument words that carry code or a command line to run: the tool runs what it is given.
_CODE_WORDS = frozenset(
    {
        "script",
        "command",
        "cmd",
        "javascript",
        "js",
        "argv",
        "shell",
        "statement",
        "sql",
        "function",
        "code",
    }
)
_HANDOFF = re.compile(
    r"\b(?:transfer|escalate|hand(?:s|ing)?\s*off|handoff|connect|route)\w*\b[^.]{0,40}?\b(?:human|live|real)\s+"
    r"(?:agent|person|operator|representative|rep|support)",
    re.I,
)


def asks_question(name: str) -> bool:
    """Whether the name asks a yes/no question (``can_send_mms``, ``isAvailable``)."""
    tokens = name_tokens(name)
    return len(tokens) > 1 and tokens[0] in QUESTION_WORDS


def runs_code(parameters: Mapping[str, Any] | None) -> str | None:
    """The argument that carries code or a command to run (``script``, ``command``, ``argv``), if any."""
    props = (parameters or {}).get("properties") or {}
    if not isinstance(props, Mapping):
        return None
    return next((a for a in props if set(name_tokens(a)) & _CODE_WORDS), None)


def hands_off(name: str, description: str) -> bool:
    """Whether the tool hands the conversation to a person (``transfer_to_human_agents``): it
    opens a hand-off, a create."""
    words = set(name_tokens(name))
    if words & {"handoff", "escalate", "transfer"} and words & {
        "human",
        "humans",
        "agent",
        "agents",
        "operator",
        "person",
    }:
        return True
    return bool(_HANDOFF.search(first_sentence(description)))


#: Words that make the clause a cue sits in a failure condition ("Raises: ValueError: If …, in
#: read-only mode"): a tool refused in read-only mode is a write, so the cue is not its own.
_FAILURE = re.compile(
    r"\b(?:raises?|errors?|exceptions?|fails?|throws?|rejects?|rejected|refused|unavailable"
    r"|not (?:available|allowed|permitted|supported)|disabled|blocked|forbidden)\b",
    re.I,
)
#: "If the server runs in read-only mode": a condition on the server, when the cue is a mode.
_CONDITION = re.compile(r"\b(?:if|when|unless|while)\b", re.I)


def _in_failure(text: str, start: int) -> bool:
    """Whether the cue at ``start`` lies in a failure condition: its clause (back to the last
    sentence end or blank line) says the call fails, or it lies in a ``Raises:`` section."""
    clause = re.split(r"[.!?](?:\s|$)|\n\s*\n", text[:start])[-1]
    mode = re.match(r"read[- ]only\s+mode\b", text[start:], re.I) is not None
    return bool(_FAILURE.search(clause) or (mode and _CONDITION.search(clause)))


def read_cue(description: str) -> str | None:
    """The phrase that says the tool only reads ("read-only", a SQL ``SELECT`` runner), or ``None``.

    A cue in a failure condition is not the tool's own ("Raises ValueError in read-only mode"
    says the tool writes).

    >>> read_cue("List the rows. This tool is read-only."), read_cue("Raises: ValueError: in read-only mode.")
    ('read-only', None)
    """
    text = description or ""
    for found in _READ_CUES.finditer(text):
        if not _in_failure(text, found.start()):
            return found.group(0)
    if _SQL_READ.search(text) and not _SQL_WRITE.search(text):
        return "SELECT"
    return None


#: A listing's paging arguments (``page``, ``per_page``, ``page_size``, ``limit``, ``offset``).
_PAGE_ARGS = frozenset({"page", "limit", "offset", "cursor"})
_PAGE_WORDS = _PAGE_ARGS | {"per", "size", "number", "num", "token"}


def _is_value_argument(arg: str, schema: Any) -> bool:
    """Whether an argument carries a value to compute with: a number, a list of numbers, a
    boolean, an enum, or a string that names a unit, a currency or an expression."""
    if not isinstance(schema, Mapping):
        return False
    words = set(name_tokens(arg))
    # a record's id (``view_product(product_id)``: "product" is no multiplication) or a page of
    # a listing (``list_products(page, per_page)``) is nothing to compute with
    if name_tokens(arg)[-1:] in (["id"], ["ids"]) or (words & _PAGE_ARGS and words <= _PAGE_WORDS):
        return False
    types = schema_types(schema)
    if types and types <= {"number", "integer", "boolean", "null"}:
        return True
    if "array" in types:
        items = schema.get("items")
        return (
            isinstance(items, Mapping)
            and bool(schema_types(items))
            and schema_types(items) <= {"number", "integer"}
        )
    if argument_role(arg, schema) == "locator" and not words & _VALUE_WORDS:
        return False
    if isinstance(schema.get("enum"), list) or words & _VALUE_WORDS or words & COMPUTE_WORDS:
        return True
    return len(words) == 1 and len(arg) <= 2  # a, b, x, y


def is_computation(
    name: str,
    description: str,
    parameters: Mapping[str, Any] | None,
    output: Mapping[str, Any] | None = None,
) -> bool:
    """Whether the tool computes a value from its arguments and touches no record.

    The name (or the description's first verb) names a computation (add, mean, convert,
    calculate …), or the tool returns a bare number; and it takes at least one argument, all of
    them values (:func:`_is_value_argument`).

    >>> is_computation("add", "Add two numbers", {"properties": {"a": {"type": "number"}, "b": {"type": "number"}}})
    True
    >>> is_computation("add_comment", "", {"properties": {"ticket_id": {"type": "string"}, "body": {"type": "string"}}})
    False
    """
    props = (parameters or {}).get("properties") or {}
    if not isinstance(props, Mapping) or not props:
        return False
    words = set(name_tokens(name))
    lead = [
        w.lower() for w in _WORDS.findall(first_sentence(description))[:2]
    ]  # "Converts the gallon …"
    named = bool(words & COMPUTE_WORDS) or any(
        w.rstrip("s") in COMPUTE_WORDS or w in COMPUTE_WORDS for w in lead
    )
    numeric_out = (
        isinstance(output, Mapping)
        and schema_types(output) & {"number", "integer"}
        and not output.get("properties")
    )
    if not (named or numeric_out):
        return False
    return all(_is_value_argument(arg, schema) for arg, schema in props.items())


def schema_hint(
    parameters: Mapping[str, Any] | None, output: Mapping[str, Any] | None
) -> str | None:
    """``read`` when the schemas show a query: every argument pages, sorts or filters (and
    there is one), or the declared output is a list; ``None`` otherwise."""
    props = (parameters or {}).get("properties") or {}
    if (
        isinstance(props, Mapping)
        and props
        and all(set(name_tokens(a)) <= _PAGING_WORDS for a in props)
    ):
        return "read"
    if isinstance(output, Mapping):
        if "array" in schema_types(output):
            return "read"
        out_props = output.get("properties") or {}
        if isinstance(out_props, Mapping) and any(
            set(name_tokens(k)) & _LIST_OUTPUT_WORDS
            and isinstance(v, Mapping)
            and "array" in schema_types(v)
            for k, v in out_props.items()
        ):
            return "read"
    return None
