"""What the world needs to know about each tool, worked out once per spec and cached.

A tool's *family* decides the shape of its results (record, list, money, check, calculator,
compute, shell, git, CI, file, handoff, write); its arguments' *roles* (:mod:`whileai_env.world.roles`)
say which argument is the path, the command, the expression, never one literal name; its *noun* names the entity it touches (``get_order`` and
``refund_order(order_id)`` both touch an ``order``); among its locator arguments, the *primary*
one names the entity itself and the *checked* ones must name ids that exist. The compiled
argument validator lives here too, so every world of one spec shares it.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from whileai_env._util.frozen import thaw
from whileai_env._util.lexicon import (
    ACTION_VERBS,
    NO_FILTER,
    name_tokens,
    service_words,
    singular,
    verb_kind,
)
from whileai_env.spec.arguments import argument_role, entity_noun
from whileai_env.spec.evidence import first_sentence, is_computation
from whileai_env.spec.load import Spec, Tool
from whileai_env.world.hints import hints_of
from whileai_env.world.naming import slug
from whileai_env.world.records import (
    OWNED_NOUNS,
    extras_for,
    has_template,
    is_person,
    senses_of,
)
from whileai_env.world.roles import CALCULATOR_WORDS, Roles, find_roles, is_zone_argument
from whileai_env.world.validation import ArgumentValidator

_STOP = frozenset(
    {
        "by",
        "for",
        "of",
        "the",
        "a",
        "an",
        "to",
        "from",
        "in",
        "on",
        "with",
        "details",
        "detail",
        "info",
        "information",
        "status",
        "data",
        "all",
        "my",
        "current",
        "new",
        "existing",
        "id",
        "ids",
        "page",
        "summary",
        "history",
        "state",
        "as",
        # how many records a call acts on (``update-many``, ``delete_one``, ``bulk_update``),
        # not what they are
        "many",
        "one",
        "bulk",
        "multiple",
    }
)
_ATTRIBUTES = frozenset(
    {"email", "name", "phone", "address", "handle", "username", "login", "url", "slug"}
)
_QUALIFIERS = frozenset(
    {
        "new",
        "old",
        "from",
        "to",
        "target",
        "source",
        "parent",
        "current",
        "original",
        "primary",
        "other",
        "destination",
    }
)
_LOCATOR_ALIASES = {
    "booking": "reservation",
    "pnr": "reservation",
    "confirmation": "reservation",
    "sku": "product",
    "sha": "commit",
    "repository": "repo",
}
_NOUN_ALIASES = {**_LOCATOR_ALIASES, "mail": "message", "email": "message", "inbox": "message"}
_DONE = {
    "cancel": ("cancelled", "canceled"),
    "refund": ("refunded",),
    "close": ("closed",),
    "resolve": ("resolved",),
    "approve": ("approved",),
    "reject": ("rejected",),
    "confirm": ("confirmed",),
    "void": ("void", "voided"),
    "freeze": ("frozen",),
    "unfreeze": ("active",),
    "lock": ("locked",),
    "unlock": ("active",),
    "suspend": ("suspended",),
    "reactivate": ("active",),
    "activate": ("active",),
    "enable": ("active", "enabled"),
    "deactivate": ("inactive", "deactivated"),
    "disable": ("disabled", "inactive"),
    "archive": ("archived",),
    "escalate": ("escalated",),
    "reopen": ("open", "reopened"),
    "merge": ("merged",),
    "publish": ("published",),
    "submit": ("submitted",),
    "revoke": ("revoked",),
    "decline": ("declined",),
    "accept": ("accepted",),
    "complete": ("completed",),
    "finish": ("completed",),
    "pay": ("paid",),
    "ship": ("shipped",),
    "dispute": ("disputed",),
    "deliver": ("delivered",),
    "terminate": ("terminated",),
    "redeem": ("redeemed",),
    "delete": ("deleted",),
    "remove": ("deleted",),
    "unsubscribe": ("unsubscribed",),
}
_REMOVING = frozenset(
    {
        "delete",
        "remove",
        "destroy",
        "drop",
        "purge",
        "erase",
        "rm",
        "wipe",
        "discard",
        "uninstall",
        "unregister",
        "detach",
        "unlink",
    }
)
_VERB_NOUNS = {
    "transfer": "transfer",
    "book": "reservation",
    "reserve": "reservation",
    "send": "message",
    "reply": "message",
    "forward": "message",
    "dispute": "dispute",
    "pay": "payment",
    "refund": "refund",
    "invite": "invitation",
    "upload": "file",
    "schedule": "event",
}
_SHELL_WORDS = frozenset({"shell", "bash", "terminal", "command", "cmd", "sh", "zsh", "powershell"})
#: Tools named after a shell program (``du``, ``wc``, ``cp``): the shell runs that program.
PROGRAMS = frozenset(
    {
        "ls",
        "cat",
        "pwd",
        "echo",
        "grep",
        "find",
        "head",
        "tail",
        "wc",
        "du",
        "df",
        "mkdir",
        "rmdir",
        "touch",
        "rm",
        "cp",
        "mv",
        "sort",
        "diff",
        "cd",
        "tree",
        "stat",
        "uniq",
    }
)
_CI_TEXT = re.compile(
    r"\b(?:ci|cd|github actions?|actions? runs?|runs?|jobs?|builds?|pipelines?|artifacts?|"
    r"checks?)\b",
    re.IGNORECASE,
)
_BARE_PROGRAMS = frozenset({"ls", "pwd", "du", "df", "echo", "tree"})
_GIT_VERBS = frozenset({"commit", "diff", "blame", "stash", "rebase", "push", "pull", "checkout"})
_CI_WORDS = frozenset(
    {
        "test",
        "tests",
        "ci",
        "pipeline",
        "pipelines",
        "build",
        "builds",
        "lint",
        "workflow",
        "coverage",
    }
)
#: File tools that need no path role of their own: they list, search, or move between two named places.
_FILE_SCANS = frozenset(
    {
        "list",
        "ls",
        "tree",
        "search",
        "find",
        "grep",
        "glob",
        "directory",
        "dir",
        "folder",
        "move",
        "mv",
        "rename",
        "copy",
        "cp",
    }
)
_FILE_WORDS = frozenset({"file", "files", "directory", "dir", "folder", "code", "glob"})
_LIST_VERBS = frozenset({"list", "search", "find", "query", "browse", "filter", "ls"})
_MONEY_WORDS = frozenset(
    {
        "balance",
        "balances",
        "price",
        "pricing",
        "quote",
        "fare",
        "fares",
        "fee",
        "fees",
        "cost",
        "exchange",
        "convert",
        "conversion",
    }
)
_CLOCK_WORDS = frozenset({"time", "date", "datetime", "timestamp", "clock", "now", "today"})
_CLOCK_QUALIFIERS = frozenset(
    {"current", "local", "present", "utc", "unix", "iso", "in", "zone", "timezone", "day", "of"}
)
#: Words of a tool that reads a given moment out (``timestamp_to_datetime_info``).
_READING_WORDS = frozenset({"to", "info", "from", "format", "parse", "details", "as"})
_CURRENCY_WORDS = frozenset({"currency", "currencies", "exchange", "fx", "forex", "money"})
_CHECK_VERBS = frozenset({"check", "verify", "validate", "confirm", "is", "can", "has"})
_CONTACT_WORDS = frozenset({"phone", "mobile", "email", "telephone", "cell"})
_HANDOFF_WORDS = frozenset({"human", "handoff", "operator", "live"})
ID_LIKE = re.compile(r"(?:_id|_ids|_uuid|Id|Ids|^id|^uuid)$")
REF_LIKE = re.compile(
    r"(?:_id|_ids|_uuid|Id|Ids|_number|Number|_no|_num|_code|^id|^uuid|^sku|^pnr)$"
)


def _unprefixed(tokens: list[str]) -> list[str]:
    """The name without a service prefix: ``linear_createIssue``, ``jira_update_issue`` and
    ``github_create_issue`` are ``create issue``, ``update issue``: a first word that is no verb
    before one that is names the service, not the thing acted on."""
    if len(tokens) > 2 and tokens[0] not in ACTION_VERBS and tokens[1] in ACTION_VERBS:
        return tokens[1:]
    return tokens


def verb_of(name: str) -> str | None:
    """The tool's verb: its first word (after a service prefix), or its last
    (``invoices.void``), if either is a verb."""
    tokens = _unprefixed(name_tokens(name))
    if tokens and tokens[0] in ACTION_VERBS:
        return tokens[0]
    if len(tokens) > 1 and tokens[-1] in ACTION_VERBS:
        return tokens[-1]
    return None


def tool_noun(name: str) -> tuple[str, bool]:
    """The thing a tool's name is about, singular, and whether the name used the plural."""
    tokens = _unprefixed(name_tokens(name))
    if tokens and tokens[0] in ACTION_VERBS:
        tokens = tokens[1:]
    if len(tokens) > 1 and tokens[-1] in ACTION_VERBS:
        tokens = tokens[:-1]
    words = [w for w in tokens if w not in _STOP]
    if not words and "page" in tokens:  # a page is a thing when nothing else is (``get_page``)
        words = ["page"]
    if not words:
        return "record", False
    last = words[-1]
    noun = singular(last)
    if len(words) > 1 and f"{words[-2]} {noun}" in (
        "payment method",
        "credit note",
        "pull request",
    ):
        noun = f"{words[-2]} {noun}"
    return _NOUN_ALIASES.get(noun, noun), noun != last


@lru_cache(maxsize=4096)
def locator_noun(arg: str) -> str | None:
    """The entity a locator argument names (``customer_email`` → ``customer``), or ``None`` when
    the argument only names an attribute (``email``, ``username``) and the tool must say whose."""
    words = [w for w in entity_noun(arg).split() if w not in _QUALIFIERS]
    if len(words) > 1 and words[-1] in _ATTRIBUTES:
        words = words[:-1]
    if not words or words == ["record"] or (len(words) == 1 and words[0] in _ATTRIBUTES):
        return None
    noun = " ".join(singular(w) for w in words)
    return _LOCATOR_ALIASES.get(noun, noun)


@lru_cache(maxsize=4096)
def role_of(name: str) -> str:
    """``argument_role`` of a field name, cached (records are walked field by field)."""
    return argument_role(name)


def distinct(*groups: Iterable[Any]) -> tuple[Any, ...]:
    """The values of ``groups`` in order, each once (``==``, as ``list.__contains__`` decides).

    Linear for hashable values (a set), so a 100,000-value ``enum`` merges in milliseconds where
    a list scan per value took minutes; unhashable ones (objects in an ``enum``) are rare and
    compared one by one.

    >>> distinct(("a", "b"), ["b", "c", "a"], [{"x": 1}, {"x": 1}])
    ('a', 'b', 'c', {'x': 1})
    """
    out: list[Any] = []
    seen: set[Any] = set()
    unhashable: list[Any] = []
    for group in groups:
        for value in group:
            try:
                if value in seen:
                    continue
                seen.add(value)
            except TypeError:
                if value in unhashable:
                    continue
                unhashable.append(value)
            out.append(value)
    return tuple(out)


@dataclass(frozen=True)
class ToolProfile:
    """Everything the world decides about one tool, once."""

    tool: Tool
    family: str
    noun: str
    verb: str | None
    locators: tuple[str, ...]
    primary: str | None
    new_ids: tuple[str, ...]
    nouns: Mapping[str, str]
    properties: Mapping[str, Any]
    validator: ArgumentValidator
    name_noun: str = "record"
    checked: tuple[str, ...] = ()
    done: tuple[str, ...] = ()
    removes: bool = False
    created_noun: str | None = None
    output_schema: Mapping[str, Any] | None = None
    nest_output: bool = False
    roles: Roles = field(default_factory=Roles)
    program: str | None = None
    #: ``remove_member_from_card``: the write takes the other records it names out of its
    #: subject (the card) and sets no status (both records live on)
    takes_out: bool = False

    @property
    def expression_arg(self) -> str | None:
        """The argument a calculator evaluates."""
        return self.roles.expression

    @property
    def command_arg(self) -> str | None:
        """The argument that holds the command line (or its argv) of a shell tool."""
        return self.roles.command or self.roles.argv

    @property
    def name(self) -> str:
        return self.tool.name

    @property
    def kind(self) -> str:
        return self.tool.kind

    @property
    def is_write(self) -> bool:
        return self.tool.is_write


@dataclass
class SpecProfile:
    """Per-spec vocabulary: tool profiles, id argument per noun, status and enum pools."""

    spec: Spec
    tools: dict[str, ToolProfile] = field(default_factory=dict)
    id_keys: dict[str, str] = field(default_factory=dict)
    id_schemas: dict[str, Mapping[str, Any]] = field(default_factory=dict)
    statuses: dict[str, tuple[str, ...]] = field(default_factory=dict)
    enums: dict[str, tuple[Any, ...]] = field(default_factory=dict)
    extras: dict[str, tuple[str, ...]] = field(default_factory=dict)
    related: dict[str, tuple[str, ...]] = field(default_factory=dict)
    senses: dict[str, str] = field(default_factory=dict)
    #: Per noun, the nouns its records are made in (``add_comment(issue_key)``: a comment's
    #: issue): a write naming one beside the record names where the record is, not a change.
    parents: dict[str, frozenset[str]] = field(default_factory=dict)
    #: Per upsert tool (:func:`is_upsert`), its profile as a create: what a call that names no
    #: record of its own does (``save_comment(issueId, body)`` makes a comment on the issue).
    upserts: dict[str, ToolProfile] = field(default_factory=dict)

    def id_key(self, noun: str) -> str:
        """The argument name that carries ids of ``noun`` in this spec (``order_id``)."""
        return self.id_keys.get(noun) or f"{slug(noun)}_id"


def _output_shape(declared: Mapping[str, Any] | None) -> tuple[dict[str, Any] | None, bool]:
    """The output schema the world fits a result to, and whether the result is nested under
    ``result``. A FastMCP wrapper (``x-fastmcp-wrap-result``: the function's return value under
    ``result``) is the wrapped schema, nested; a wrapped string (a server returning JSON text,
    as most FastMCP servers do) constrains nothing, so the world's own record is the answer, not
    a drawn string."""
    output = thaw(declared) if declared is not None else None
    if output is not None and output.get("x-fastmcp-wrap-result"):
        inner = (output.get("properties") or {}).get("result")
        if not isinstance(inner, Mapping) or _plain_text(inner):
            return None, False
        return {**inner, **({"$defs": output["$defs"]} if "$defs" in output else {})}, True
    nest = output is not None and (
        output.get("type") not in ("object", None)
        or "status" in (output.get("properties") or {})
        or not (output.get("properties") or output.get("type") == "object")
    )
    return output, nest


def _plain_text(schema: Mapping[str, Any]) -> bool:
    """A schema that holds only a string (or anything at all): text, not a structure."""
    kinds = schema.get("type")
    kinds = {kinds} if isinstance(kinds, str) else set(kinds or ())
    structured = any(k in schema for k in ("properties", "items", "anyOf", "oneOf", "$ref"))
    return not structured and kinds <= {"string", "null"}


def _is_program(tokens: list[str], roles: Roles) -> bool:
    """A tool named after a shell program that acts on paths (``cat(file_name)``, ``du``)."""
    return (
        len(tokens) == 1
        and tokens[0] in PROGRAMS
        and (bool(roles.paths) or tokens[0] in _BARE_PROGRAMS)
    )


def _runs_commands(tool: Tool, roles: Roles) -> bool:
    """A tool whose job is the command it is given: a command argument it requires, or its only
    one (``kubectl_create(filename, command?)`` creates from a file; its command is optional)."""
    given = [a for a in (roles.command, roles.argv) if a]
    return any(a in tool.required for a in given) or (
        bool(given) and len(tool.properties) == len(set(given))
    )


def _about_files(tool: Tool, words: set[str], noun: str, roles: Roles) -> bool:
    """A file tool: its name speaks of files and it takes a path or lists/searches them (a record's
    files, ``get_pull_request_files(pull_number)``, are the record's), or every argument it
    requires is a path."""
    # a folder of records named by id (a help desk's ``view_solution_folder(folder_id)``, a
    # ``list_solution_folders(category_id)``) is a record, not a directory of files
    by_id = not roles.paths and any(ID_LIKE.search(a) for a in tool.properties)
    if (words & _FILE_WORDS or noun in ("file", "directory", "folder")) and (
        roles.paths or (words & _FILE_SCANS and not by_id)
    ):
        return True
    return bool(roles.paths) and bool(tool.required) and set(tool.required) <= set(roles.paths)


def _family(tool: Tool, tokens: list[str], roles: Roles, noun: str, plural: bool) -> str:
    words = set(tokens)
    first = tokens[0] if tokens else ""
    if roles.expression is not None and _calculates(tool, words, roles.expression):
        return "calculator"
    if _is_program(tokens, roles):
        return "shell"
    if "git" in words or (first in _GIT_VERBS and "request" not in words):
        return "git"
    if _runs_commands(tool, roles) or (words & _SHELL_WORDS and not roles.paths):
        return "shell"
    if words & _CI_WORDS - {"workflow"} or (
        "workflow" in words and _CI_TEXT.search(tool.description)
    ):
        return (
            "ci"  # a workflow is CI's where its tool speaks of runs, jobs or builds (not a CRM's)
        )
    if _about_files(tool, words, noun, roles):
        return "file"
    if words & _HANDOFF_WORDS and (
        "transfer" in words or "handoff" in words or "escalate" in words or "human" in words
    ):
        return "handoff"
    if tool.is_write:
        return "write"
    if _tells_time(tool, tokens):
        return "clock"
    if is_computation(tool.name, tool.description, tool.parameters, tool.output_schema):
        return "money" if words & _CURRENCY_WORDS or _names_currency(tool) else "compute"
    if first in _LIST_VERBS or verb_of(tool.name) in _LIST_VERBS or plural:
        return "list"
    if words & _MONEY_WORDS or (
        words & {"rate", "rates"} and words & {"exchange", "currency", "fx"}
    ):
        return "money"
    if first in _CHECK_VERBS and not words & {"status", "state"}:
        return "check"
    return "record"


def _calculates(tool: Tool, words: set[str], expression: str) -> bool:
    """Whether a tool with an expression argument evaluates it: its name says it calculates, or
    the expression is what it requires and it names no record (``list_records(baseId, tableId,
    filterByFormula)`` filters records by a formula; it computes nothing)."""
    if words & CALCULATOR_WORDS:
        return True
    props = tool.properties if isinstance(tool.properties, Mapping) else {}
    names_record = any(
        argument_role(n, s if isinstance(s, Mapping) else None) == "locator"
        for n, s in props.items()
    )
    return expression in tool.required and not names_record


def _tells_time(tool: Tool, tokens: list[str]) -> bool:
    """A read whose answer is the time itself: ``get_current_time(timezone)``, ``get-date-time``,
    ``get_current_timestamp()``, ``convert_time(source_timezone, time, target_timezone)``. Its
    name speaks only of time (a verb aside), and it takes no locator: ``get_time_entries`` and
    ``get_delivery_time(order_id)`` are about records, not the clock."""
    words = {w for w in tokens if w not in ACTION_VERBS}
    zones = [a for a in tool.properties if is_zone_argument(a)]
    if {"convert", "conversion"} & set(tokens) and len(zones) >= 2:
        return bool(words & _CLOCK_WORDS)
    moments = [a for a in tool.required if set(name_tokens(a)) & _CLOCK_WORDS]
    if moments and words <= _CLOCK_WORDS | _CLOCK_QUALIFIERS | _READING_WORDS:
        # ``timestamp_to_datetime_info(timestamp)``: a moment read out, not a record looked up
        return set(tool.required) <= {*moments, *zones}
    others = [a for a in tool.properties if a not in zones]
    return (
        bool(words & _CLOCK_WORDS)
        and words <= _CLOCK_WORDS | _CLOCK_QUALIFIERS
        and not any(a in tool.required for a in others)
        and not any(
            argument_role(a, s if isinstance(s, Mapping) else None) == "locator"
            and (a in tool.required or ID_LIKE.search(a) is not None)
            for a, s in tool.properties.items()
            if a in others
        )
    )  # an optional account or calendar to read the time for is no record the time is of


def _names_currency(tool: Tool) -> bool:
    """Whether a computation takes a currency (``convert(amount, from_currency, to_currency)``)."""
    return any(set(name_tokens(a)) & _CURRENCY_WORDS for a in tool.properties)


def service_prefixes(spec: Spec) -> frozenset[str]:
    """First words of tool names that name the service, not a thing: shared by two tools or
    more and no verb (``jira`` of ``jira_search`` and ``jira_get_issue``)."""
    return service_words(spec.tool_names)


_DESCRIBED = re.compile(r"[A-Za-z]+")


def described_noun(description: str, skip: str, known: Sequence[str]) -> str | None:
    """The thing a description's first sentence acts on, for a name that says only its service
    (``jira_search``: "Search Jira issues using JQL" → ``issue``): the first word after the verb,
    past the service's own name, that is a noun of another tool; else the noun the service's
    other tools name most (``known``, most first: "Search Confluence content" searches its
    pages); else the first plain word.

    >>> described_noun("Search Jira issues using JQL.", "jira", ["comment", "issue"])
    'issue'
    >>> described_noun("Search Confluence content.", "confluence", ["page", "comment"])
    'page'
    """
    words = [w.lower() for w in _DESCRIBED.findall(first_sentence(description or ""))]
    start = next((i + 1 for i, w in enumerate(words[:4]) if w in ACTION_VERBS), None)
    rest = [w for w in words[start : start + 6] if w not in _STOP and w != skip] if start else []
    nouns = [_NOUN_ALIASES.get(singular(w), singular(w)) for w in rest]
    return next((n for n in nouns if n in known), known[0] if known else None) or (
        nouns[0] if nouns else None
    )


#: Last words of a name that say how records are read, not what they are (``…_export``,
#: ``…_by_source``, ``…_relationships``): the records are what the rest of the name or the
#: description calls them.
_FACETS = frozenset(
    {
        "export",
        "source",
        "relationship",
        "result",
        "search",
        "view",
        "report",
        "query",
        "filter",
        "feed",
        "stream",
        "batch",
    }
)


def _common_nouns(spec: Spec) -> frozenset[str]:
    """Nouns two tools' names or more give: the spec's own records."""
    counts: dict[str, int] = {}
    for tool in spec.tools:
        noun = tool_noun(tool.name)[0]
        counts[noun] = counts.get(noun, 0) + 1
    return frozenset(n for n, c in counts.items() if c > 1 and n != "record")


def _faceted_noun(tokens: list[str], description: str, common: frozenset[str]) -> str | None:
    """The spec's own record a faceted name reads: one its name holds, else one its
    description's first sentence names."""
    named = [singular(t) for t in tokens if singular(t) in common]
    if named:
        return named[-1]
    words = [singular(w.lower()) for w in _DESCRIBED.findall(first_sentence(description))]
    return next((w for w in words if w in common), None)


_HISTORY_OF = re.compile(r"\bhistory of (?:the |its )?([a-z]+)", re.IGNORECASE)


def _history_noun(description: str) -> str | None:
    """What a history lists, by its description ("history of messages and events": a message)."""
    found = _HISTORY_OF.search(first_sentence(description))
    return singular(found.group(1).lower()) if found else None


_STAMP_NOUN = re.compile(
    r"\b(?:timestamp|ts)(?: value)? of (?:the|a|an) (?:parent |original )?([a-z]+)"
    r"|\b([a-z]+)'s (?:ts|timestamp)\b",
    re.IGNORECASE,
)


def stamped_noun(arg: str, schema: Any) -> str | None:
    """The record a timestamp locator names, by its description: Slack's ``ts`` ("Timestamp of
    the message to delete") and ``thread_ts`` ("another message's ts value") name a message.

    >>> stamped_noun("ts", {"description": "Timestamp of the message to be updated."})
    'message'
    """
    if name_tokens(arg)[-1:] not in (["ts"], ["timestamp"]) or not isinstance(schema, Mapping):
        return None
    text = schema.get("description")
    found = _STAMP_NOUN.search(text) if isinstance(text, str) else None
    return singular((found.group(1) or found.group(2)).lower()) if found else None


def _same_noun(named: str, noun: str) -> bool:
    """Whether a locator's noun is the tool's: the same, or the tool's the last word of it
    (``get_merge_request`` reads a ``request``; ``merge_request_iid`` names a merge request)."""
    return named == noun or named.split()[-1:] == [noun]


def _longer_noun(noun: str | None, known: Mapping[str, str], words: list[str]) -> str | None:
    """The one noun of ``known`` that ends in ``noun`` and whose words the tool's name ``words``
    hold (``create_merge_request`` makes a ``merge request``), when ``noun`` itself is not known."""
    if noun is None or noun in known:
        return None
    longer = [k for k in known if _same_noun(k, noun) and set(k.split()) <= set(words)]
    return longer[0] if len(longer) == 1 else None


def _listed_noun(tp: ToolProfile, known: Mapping[str, str]) -> str | None:
    """The record a list tool with no locator lists, when its name's noun is no record another
    tool names and its description's first sentence names one within its first words
    (``conversations_list``: "Lists all channels in a Slack team" lists channels)."""
    if tp.family != "list" or tp.locators or tp.noun in known:
        return None
    words = [singular(w.lower()) for w in _DESCRIBED.findall(first_sentence(tp.tool.description))]
    if tp.noun in words:  # "List all product types": the name says it
        return None
    return next((w for w in words[:5] if w in known and w not in ACTION_VERBS), None)


_ACTED_ON = re.compile(r"\bof the [a-z]+ to (?:be )?[a-z]+", re.IGNORECASE)


_INTO = frozenset({"to", "in", "into", "on"})


def _made_in_name(tokens: list[str], named: set[str]) -> str | None:
    """What a create named "<verb> <thing> to <record>" makes, when no argument names that
    thing (``add_note_to_incident``: a note; ``add_member_to_card(idMember)`` adds a member
    that exists)."""
    verb = next((i for i, w in enumerate(tokens) if verb_kind(w) is not None), None)
    at = next((i for i, w in enumerate(tokens) if w in _INTO), None)
    if verb is None or at is None or at < verb + 2 or at == len(tokens) - 1:
        return None
    made = " ".join(singular(w) for w in tokens[verb + 1 : at])
    return None if made in named or not made else made


def _acted_on(schema: Any) -> bool:
    """Whether a locator's description says it names the record the tool acts on ("Timestamp of
    the message to be deleted"), not the one holding it ("Channel containing the message")."""
    text = schema.get("description") if isinstance(schema, Mapping) else None
    return isinstance(text, str) and _ACTED_ON.search(text) is not None


def _service_nouns(spec: Spec, services: frozenset[str]) -> dict[str, list[str]]:
    """Per service prefix, the nouns its tools' names give, most named first."""
    counts: dict[str, dict[str, int]] = {}
    for tool in spec.tools:
        first = name_tokens(tool.name)[:1]
        noun = tool_noun(tool.name)[0]
        if first and first[0] in services and noun not in (first[0], "record"):
            named = counts.setdefault(first[0], {})
            named[noun] = named.get(noun, 0) + 1
    return {
        service: sorted(named, key=lambda n: (-named[n], n)) for service, named in counts.items()
    }


def _profile_tool(
    tool: Tool,
    services: Mapping[str, list[str]] | None = None,
    common: frozenset[str] = frozenset(),
) -> ToolProfile:
    props = thaw(tool.properties) if isinstance(tool.properties, Mapping) else {}
    tokens = name_tokens(tool.name)
    noun, plural = tool_noun(tool.name)
    verb = verb_of(tool.name)
    if verb is None and len(tokens) > 2 and verb_of("_".join(tokens[1:])) is not None:
        # a namespace before the verb (``API-patch-page``): the verb and noun come after it
        verb = verb_of("_".join(tokens[1:]))
        noun, plural = tool_noun("_".join(tokens[1:]))
    if services and tokens[:1] == [noun] and noun in services:  # the name says only the service
        noun = described_noun(tool.description or "", noun, services[noun]) or noun
    elif common and noun in _FACETS:  # ``search_tickets_export``, ``search_by_source``: tickets
        noun = _faceted_noun(tokens, tool.description or "", common) or noun
    if "history" in tokens:  # ``conversations_history``: "a conversation's history of messages"
        noun = _history_noun(tool.description or "") or noun
    roles = find_roles(tool.name, props, tool.required, tool.description or "")
    family = _family(tool, tokens, roles, noun, plural)
    locators = tuple(
        n
        for n, s in props.items()
        if argument_role(n, s if isinstance(s, Mapping) else None) == "locator"
    )
    nouns: dict[str, str] = {}
    stamped = {a: n for a in locators if (n := stamped_noun(a, props.get(a)))}
    for arg in locators:
        named = stamped.get(arg) or locator_noun(arg)
        if named is None:
            personal = name_tokens(arg)[-1:] in (
                ["email"],
                ["username"],
                ["login"],
                ["handle"],
                ["phone"],
                ["user"],
            )
            named = "user" if personal and not is_person(noun) else noun
        nouns[arg] = named
    required = set(tool.required)
    created = None
    new_ids: tuple[str, ...] = ()
    if tool.kind == "create":
        referenced = {nouns[a] for a in locators if REF_LIKE.search(a)}
        created = (
            noun
            if has_template(noun) and noun not in referenced
            else _VERB_NOUNS.get(verb or "", noun)
        )
        made_in = _made_in_name(tokens, set(nouns.values()))
        if made_in and made_in != noun:  # ``add_note_to_incident(incident_id, note)``: a note
            created = made_in
        # a new person's own phone or email (``add_contact(name, phone_number)``) is theirs, not
        # a reference to a record that must already exist
        own = is_person(created or "")
        new_ids = tuple(
            a
            for a in locators
            if nouns[a] == created
            and a not in stamped  # a record's timestamp is the server's; one given is a reference
            and (not REF_LIKE.search(a) or (own and bool(_CONTACT_WORDS & set(name_tokens(a)))))
        )
    candidates = [a for a in locators if a not in new_ids]
    plain = [
        a
        for a in candidates
        if name_tokens(a)[:1] not in (["new"], ["to"], ["target"], ["destination"])
    ]
    ranked = sorted(
        plain or candidates,
        key=lambda a: (
            tool.kind == "create" and a not in required,  # a reply's optional ``thread_ts``
            not _same_noun(nouns[a], noun),
            not _acted_on(props.get(a)),
            a not in required,
            not ID_LIKE.search(a),
            a,
        ),
    )
    primary = ranked[0] if ranked else None
    noun_for_primary = nouns[primary] if primary is not None else noun
    takes_out = tool.kind == "update" and _takes_out(tool.name, verb)
    done: tuple[str, ...] = _DONE.get(verb or "", ()) if tool.is_write and not takes_out else ()
    output, nest = _output_shape(tool.output_schema)
    return ToolProfile(
        tool=tool,
        family=family,
        noun=noun_for_primary if family in ("record", "check", "money", "write") else noun,
        verb=verb,
        locators=locators,
        primary=primary,
        new_ids=new_ids,
        nouns=nouns,
        properties=props,
        validator=ArgumentValidator(tool.call_parameters),
        name_noun=noun,
        done=done,
        removes=tool.kind == "delete" and (verb in _REMOVING or not done),
        takes_out=takes_out,
        created_noun=created,
        output_schema=output,
        nest_output=nest,
        roles=roles,
        program=tokens[0] if family == "shell" and _is_program(tokens, roles) else None,
    )


_STATUS_IN_TEXT = re.compile(r"status(?:es)?\s*\(([^)]{3,200})\)")


def _parents(tools: Iterable[ToolProfile]) -> dict[str, frozenset[str]]:
    """Per created noun, the nouns of the records its creates are made in (their primary)."""
    found: dict[str, set[str]] = {}
    for tp in tools:
        made = tp.created_noun
        if tp.kind == "create" and made and tp.primary is not None:
            parent = tp.nouns[tp.primary]
            if parent != made:
                found.setdefault(made, set()).add(parent)
    return {noun: frozenset(p) for noun, p in found.items()}


def _enum_of(schema: Any) -> list[Any]:
    """The values a field takes from a list: its ``enum``, or its items' where it filters by
    several (``status: array of "draft" | "billed" | "completed"``)."""
    if not isinstance(schema, Mapping):
        return []
    if schema.get("type") == "array" and isinstance(schema.get("items"), Mapping):
        schema = schema["items"]
    values = schema.get("enum")
    return values if isinstance(values, list) else []


def _states(values: Iterable[Any]) -> tuple[str, ...]:
    """The statuses a record can be in among a status filter's values."""
    return tuple(v for v in values if not (isinstance(v, str) and v.lower() in NO_FILTER))


def _statuses_from_text(text: str) -> tuple[str, ...]:
    m = _STATUS_IN_TEXT.search(text)
    if not m:
        return ()
    # "(e.g. triggered, acknowledged, resolved)": the lead is no status
    listed = re.sub(
        r"^\s*(?:e\.\s?g\.|i\.\s?e\.|such as|for example|one of|like)[,:]?\s*", "", m.group(1)
    )
    parts = re.split(r",|\bor\b|\band\b|/", listed)
    return tuple(
        p.strip().lower().replace(" ", "_") for p in parts if p.strip() and len(p.strip()) < 24
    )


def _id_key_rank(arg: str, noun: str) -> tuple[bool, bool, bool, bool, int]:
    """How well ``arg`` names ``noun``'s ids, best first: an ``_id`` name, one that names the
    noun or is a bare ``id`` (``issue_key`` over a ``url`` that also locates an issue), not a
    web address, not a ``new_``/``from_``/``to_`` one, the shortest."""
    words = name_tokens(arg)
    named = set(name_tokens(noun)) <= set(words) or words in (["id"], ["uuid"])
    return (
        not arg.endswith("_id"),
        not named,
        words[-1:] in (["url"], ["uri"], ["link"], ["href"]),
        arg.startswith(("new_", "from_", "to_")),
        len(arg),
    )


def build_profile(spec: Spec) -> SpecProfile:
    """Profile every tool of ``spec`` and gather the spec's vocabulary per noun."""
    sp = SpecProfile(spec=spec)
    texts: dict[str, list[str]] = {}
    about: dict[str, list[str]] = {}
    services = _service_nouns(spec, service_prefixes(spec))
    common = _common_nouns(spec)
    for tool in spec.tools:
        tp = _profile_tool(tool, services, common)
        sp.tools[tool.name] = tp
        said = " ".join(
            [tool.description or "", *(" ".join(name_tokens(a)) for a in tp.properties)]
        )
        for noun in {tp.noun, *tp.nouns.values()}:
            about.setdefault(noun, []).append(said)
        for arg in tp.locators:
            noun = tp.nouns[arg]
            current = sp.id_keys.get(noun)
            if current is None or _id_key_rank(arg, noun) < _id_key_rank(current, noun):
                sp.id_keys[noun] = arg
                schema = tp.properties.get(arg)
                sp.id_schemas[noun] = schema if isinstance(schema, Mapping) else {}
        for name, schema in tp.properties.items():
            listed = hints_of(schema).choices if isinstance(schema, Mapping) else ()
            if name == "status" and listed and tp.noun not in sp.statuses:
                # "new, open, pending, on-hold, solved, closed": the noun's statuses, in prose
                sp.statuses[tp.noun] = _states(listed)
            values = _enum_of(schema)
            if values:
                key = "status" if name == "status" else name
                sp.enums[key] = distinct(sp.enums.get(key, ()), values)
                if name == "status" and all(isinstance(e, str) for e in values):
                    sp.statuses[tp.noun] = distinct(sp.statuses.get(tp.noun, ()), _states(values))
        if not tool.is_write:
            texts.setdefault(tp.noun, []).append(tool.description)
            found = _states(_statuses_from_text(tool.description))
            if found and tp.noun not in sp.statuses:
                sp.statuses[tp.noun] = found
    for noun, parts in texts.items():
        sp.extras[noun] = extras_for(" ".join(parts))
    sp.senses = senses_of({noun: " ".join(parts) for noun, parts in about.items()})
    sp.upserts = {
        t.name: _profile_tool(replace(t, kind="create"), services, common)
        for t in spec.tools
        if sp.tools[t.name].family == "write" and is_upsert(t)
    }
    for group in (sp.tools, sp.upserts):
        for name, tp in group.items():
            longer = _longer_noun(tp.created_noun, sp.id_keys, name_tokens(name))
            if longer:  # ``create_merge_request`` makes the merge request its siblings name
                group[name] = tp = replace(tp, created_noun=longer)
            lists = _listed_noun(tp, sp.id_keys)
            if lists:  # ``conversations_list``: "Lists all channels", the channels others take
                group[name] = replace(tp, noun=lists, name_noun=lists)
    sp.parents = _parents([*sp.tools.values(), *sp.upserts.values()])
    entity_nouns = {tp.nouns[tp.primary] for tp in sp.tools.values() if tp.primary is not None}
    for group in (sp.tools, sp.upserts):
        for name, tp in group.items():
            group[name] = replace(tp, checked=_checked(tp, entity_nouns))
    owned = [n for n in sp.id_keys if n in OWNED_NOUNS or n.split()[-1] in OWNED_NOUNS]
    for noun in set(sp.id_keys) | set(texts):
        if is_person(noun):
            sp.related[noun] = tuple(n for n in owned if n != noun)
    if "payment method" in sp.id_keys:
        for noun in list(sp.extras):
            if is_person(noun) and "payment_methods" not in sp.extras[noun]:
                sp.extras[noun] = (*sp.extras[noun], "payment_methods")
    return sp


def _checked(tp: ToolProfile, entity_nouns: set[str]) -> tuple[str, ...]:
    """The locators whose records must exist for ``tp`` to answer (ids, and what other tools
    name as their record)."""
    checked = tuple(
        a
        for a in tp.locators
        if a not in tp.new_ids
        and (
            ID_LIKE.search(a)
            or tp.nouns[a] in entity_nouns
            or (a == tp.primary and tp.kind != "create")
        )
    )
    if tp.family == "check":
        checked = tuple(a for a in checked if a == tp.primary)
    return checked


#: "Create or update a comment", "creates … otherwise updates", "upsert": one tool for both.
_UPSERT = re.compile(
    r"\b(?:creates?|adds?|inserts?)\s+or\s+(?:updates?|edits?|modif\w*|replaces?)\b"
    r"|\b(?:updates?|edits?)\s+or\s+(?:creates?|adds?|inserts?)\b|\bupserts?\b"
    r"|\bupdates?\b[^.]{0,80}\botherwise\b[^.]{0,20}\bcreates?\b",
    re.IGNORECASE,
)


def is_upsert(tool: Tool) -> bool:
    """Whether an update tool also creates: a call naming no record of its own makes one
    (Linear's ``save_issue``: "If `id` is provided, updates the existing issue; otherwise
    creates a new one")."""
    if tool.kind != "update":
        return False
    tokens = name_tokens(tool.name)
    return "upsert" in tokens or bool(_UPSERT.search(tool.description or ""))


_CACHE: dict[str, SpecProfile] = {}
_LOCK = threading.Lock()


def profile_for(spec: Spec) -> SpecProfile:
    """The cached profile of ``spec`` (keyed by its content hash, shared by every world)."""
    key = spec.content_hash
    found = _CACHE.get(key)
    if found is None:
        with _LOCK:
            found = _CACHE.get(key)
            if found is None:
                found = build_profile(spec)
                if len(_CACHE) > 256:
                    _CACHE.clear()
                _CACHE[key] = found
    return found


def _takes_out(name: str, verb: str | None) -> bool:
    """Whether a tool named ``<verb>_<thing>_from_<record>`` (``remove_member_from_card``)
    takes a thing out of a record rather than deleting either."""
    tokens = name_tokens(name)
    if verb not in tokens or "from" not in tokens:
        return False
    return tokens.index(verb) < tokens.index("from") < len(tokens) - 1
