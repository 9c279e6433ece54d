"""The package's one lexicon: words of tool and argument names, verbs and their forms, number.

Tool specs use a small vocabulary (``get_order``, ``cancelReservation``, ``invoices.void``), so
rules plus a short table of irregular verbs do better here than a general English library: the
spec loader classifies tools with :data:`VERB_KINDS`, the world finds a tool's noun with
:data:`ACTION_VERBS`, the writer conjugates with :func:`participle`, and the claim detectors
match every past form with :func:`past_forms`. Keeping them in one module is what keeps them
agreeing (a "cancelled" the writer says is a "cancelled" the reward hears).

>>> name_tokens("cancelReservation"), singular("policies"), plural("address")
(['cancel', 'reservation'], 'policy', 'addresses')
>>> participle("freeze"), past_forms("cancel"), verb_kind("lookup")
('frozen', ('cancelled', 'canceled'), 'read')
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from functools import lru_cache

_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")


#: Words that are an id after another word: Asana's and Shopify's global ids (``task_gid``),
#: GitLab's project-scoped ids (``issue_iid``), a record's GUID (``message_guid``) or UID
#: (Cal.com's ``bookingUid``; a bare ``uid`` too).
_ID_ALIASES = frozenset({"gid", "iid", "guid", "uid"})


#: Filter values that mean "no filter" (``status: "any"`` of Shopify's ``get-orders``): no
#: record is ever in them, and a list filtered by one is not narrowed.
NO_FILTER = frozenset({"any", "all", "*", "every", "everything", "any_status", "all_statuses"})


@lru_cache(maxsize=8192)
def _tokens(name: str) -> tuple[str, ...]:
    words = [w.lower() for w in _WORD.findall(name)]
    return tuple("id" if w in _ID_ALIASES and (i or w == "uid") else w for i, w in enumerate(words))


def name_tokens(name: str) -> list[str]:
    """Split a snake_case, camelCase, dashed or dotted name into lowercase words; a ``gid``,
    ``iid``, ``guid`` or ``uid`` after another word (``task_gid``, GitLab's ``issue_iid``,
    Cal.com's ``bookingUid``) is the word ``id``, and so is a bare ``uid``.

    >>> name_tokens("task_gid"), name_tokens("getOrderID"), name_tokens("merge_request_iid")
    (['task', 'id'], ['get', 'order', 'id'], ['merge', 'request', 'id'])
    >>> name_tokens("bookingUid"), name_tokens("uid")
    (['booking', 'id'], ['id'])
    """
    return list(_tokens(name))


# -- verbs -----------------------------------------------------------------------------------

#: The verbs that say what a tool does to the world, by kind. Unknown verbs are writes on
#: purpose (see :mod:`whileai_env.spec.kinds`).
VERB_KINDS: dict[str, frozenset[str]] = {
    "read": frozenset(
        [
            "get",
            "list",
            "search",
            "find",
            "lookup",
            "look",
            "fetch",
            "read",
            "query",
            "show",
            "view",
            "check",
            "describe",
            "count",
            "aggregate",
            "retrieve",
            "browse",
            "inspect",
            "status",
            "calculate",
            "calc",
            "compute",
            "evaluate",
            "preview",
            "diff",
            "log",
            "ls",
            "cat",
            "grep",
            "head",
            "tail",
            "stat",
            "estimate",
            "quote",
            "track",
            "verify",
            "whois",
            "convert",
            "lint",
            "explain",
            "summarize",
            "summarise",
            "analyze",
            "analyse",
            "compare",
            "validate",
            "download",
            "export",
            "ping",
            "poll",
            "peek",
            "test",
            "tests",
            "translate",
            "resolve_id",
            "locate",
            "see",
            "watch",
            "which",
            "who",
            "where",
            "when",
            "what",
            "how",
            "measure",
            "sample",
            "filter",
            "display",
            "print",
            "du",
            "pwd",
            "wc",
            "df",
            "whoami",
            "recall",
            "tree",
            "suggest",
            "recommend",
            "forecast",
            "predict",
            "extract",
            "parse",
            "classify",
            "detect",
            "scan",
            "screenshot",
            "snapshot",
            "navigate",
            "visit",
            "crawl",
            "scrape",
            "map",
            "geocode",
            "sort",
            "hover",
            "research",
        ]
    ),
    "create": frozenset(
        [
            "create",
            "add",
            "new",
            "make",
            "book",
            "insert",
            "post",
            "send",
            "submit",
            "open",
            "schedule",
            "register",
            "upload",
            "generate",
            "place",
            "issue",
            "invite",
            "reserve",
            "commit",
            "clone",
            "fork",
            "draft",
            "compose",
            "reply",
            "forward",
            "start",
            "init",
            "initialize",
            "initialise",
            "launch",
            "spawn",
            "provision",
            "enqueue",
            "file",
            "log_",
            "mkdir",
            "touch",
            "publish",
            "append",
            "notify",
            "buy",
            "purchase",
            "subscribe",
            "remember",
            "import",
            "copy",
            "duplicate",
            "record",
            "request",
            "comment",
            "retweet",
            "repost",
            "share",
            "contact",
            "install",
            "follow",
        ]
    ),
    "update": frozenset(
        [
            "update",
            "edit",
            "modify",
            "change",
            "set",
            "patch",
            "put",
            "rename",
            "move",
            "assign",
            "apply",
            "approve",
            "reject",
            "cancel",
            "refund",
            "transfer",
            "merge",
            "push",
            "rebook",
            "reschedule",
            "mark",
            "close",
            "resolve",
            "enable",
            "disable",
            "toggle",
            "replace",
            "upgrade",
            "downgrade",
            "sync",
            "save",
            "write",
            "accept",
            "decline",
            "confirm",
            "pay",
            "charge",
            "restart",
            "deploy",
            "checkout",
            "reset",
            "run",
            "exec",
            "execute",
            "escalate",
            "transition",
            "reopen",
            "restore",
            "rollback",
            "revert",
            "tag",
            "label",
            "link",
            "unlink",
            "lock",
            "unlock",
            "pause",
            "resume",
            "suspend",
            "reactivate",
            "extend",
            "redeem",
            "freeze",
            "unfreeze",
            "hold",
            "block",
            "unblock",
            "archive",
            "activate",
            "complete",
            "finish",
            "ship",
            "deliver",
            "select",
            "choose",
            "pick",
            "return",
            "exchange",
            "store",
            "click",
            "type",
            "fill",
            "press",
            "drag",
            "upsert",
            "star",
            "unstar",
            "grant",
            "like",
            "refuel",
            "refill",
            "recharge",
            "reload",
            "connect",
            "disconnect",
            "react",
            "pin",
            "unpin",
        ]
    ),
    "delete": frozenset(
        [
            "delete",
            "remove",
            "destroy",
            "drop",
            "purge",
            "erase",
            "revoke",
            "unsubscribe",
            "rm",
            "clear",
            "void",
            "terminate",
            "kill",
            "uninstall",
            "discard",
            "deactivate",
            "unregister",
            "detach",
            "wipe",
            "unfollow",
            "cleanup",
            "stop",
            "rmdir",
        ]
    ),
}

#: Words of a computation: a tool named with one, taking only values, computes (``add(a, b)``,
#: ``convert_units``) rather than acting on a record (see :mod:`whileai_env.spec.evidence`).
COMPUTE_WORDS = frozenset(
    {
        "add",
        "sum",
        "subtract",
        "minus",
        "plus",
        "multiply",
        "times",
        "divide",
        "division",
        "mean",
        "average",
        "avg",
        "median",
        "stdev",
        "std",
        "deviation",
        "variance",
        "sqrt",
        "square",
        "root",
        "power",
        "pow",
        "exponent",
        "modulo",
        "mod",
        "factorial",
        "percent",
        "percentage",
        "round",
        "abs",
        "absolute",
        "logarithm",
        "log",
        "exp",
        "min",
        "max",
        "minimum",
        "maximum",
        "calculate",
        "calc",
        "calculator",
        "compute",
        "evaluate",
        "eval",
        "convert",
        "conversion",
        "math",
        "arithmetic",
        "solve",
        "exchange",
        "rate",
        "product",
        "quotient",
        "difference",
        "celsius",
        "fahrenheit",
        "kelvin",
        "distance",
        "area",
        "volume",
        "si",
        "interest",
        "tax",
        "tip",
        "bmi",
    }
)

#: Verbs that, opening a description, say the tool reports something ("Returns the balance").
DESCRIPTION_READ_VERBS = frozenset(
    {
        "returns",
        "provides",
        "displays",
        "prints",
        "outputs",
        "reports",
        "lists",
        "shows",
        "retrieves",
        "fetches",
        "gets",
        "reads",
        "searches",
        "looks",
        "finds",
        "queries",
        "answers",
        "describes",
    }
)

#: Words of a tool's name that qualify its noun rather than name a thing (``get_current_time``
#: is about times, not currents; ``list_new_orders`` about orders).
QUALIFIERS = frozenset(
    {"current", "latest", "recent", "existing", "new", "all", "my", "next", "previous", "present"}
)

#: Words that, first or last in a tool's name, are its verb rather than its noun (the world
#: strips them to find what the tool is about: ``invoices.void`` is about invoices).
#: Verbs that end a name written object first (``refund-create``, ``order-cancel``): the
#: object comes before them, the way REST-style servers name their tools.
TRAILING_VERBS = frozenset(
    {
        "create",
        "get",
        "list",
        "update",
        "delete",
        "remove",
        "add",
        "cancel",
        "search",
        "fetch",
        "read",
        "set",
        "edit",
        "close",
        "send",
        "void",
        "archive",
    }
)


def object_first(tokens: Sequence[str]) -> bool:
    """Whether a two-word tool name says its object first and its verb last (``refund-create``
    creates a refund, ``order-cancel`` cancels an order), though its first word can be a verb.

    >>> object_first(["refund", "create"]), object_first(["create", "refund"]), object_first(["send", "email"])
    (True, False, False)
    """
    return len(tokens) == 2 and tokens[1] in TRAILING_VERBS and tokens[0] not in TRAILING_VERBS


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


def service_words(names: Iterable[str]) -> frozenset[str]:
    """First words of tool names that may name the service, not a thing: shared by two names
    or more and no verb (``jira`` of ``jira_search`` and ``jira_get_issue``; ``pods`` of
    ``pods_get`` too, which :func:`without_service` tells apart).

    >>> sorted(service_words(["jira_search", "jira_get_issue", "get_user", "get_page"]))
    ['jira']
    """
    return _service_words(tuple(names))


@functools.lru_cache(maxsize=256)
def _service_words(names: tuple[str, ...]) -> frozenset[str]:
    counts: dict[str, int] = {}
    for name in names:
        first = name_tokens(name)[:1]
        if first and first[0] not in ACTION_VERBS:
            counts[first[0]] = counts.get(first[0], 0) + 1
    return frozenset(w for w, n in counts.items() if n > 1)


#: Words that, right after a name's verb, start no object (``pods_list_in_namespace``).
_NO_OBJECT = frozenset({"in", "by", "for", "from", "of", "to", "with", "on", "or", "and", "all"})


def without_service(tokens: list[str], services: frozenset[str]) -> list[str]:
    """``tokens`` of a tool's name past a first word that names its service: one of
    ``services`` before a verb and that verb's object (``jira_get_issue``: get, issue). A name
    of two words keeps both (``pods_get`` gets pods; ``jira_search`` says no more than it).

    >>> without_service(["jira", "get", "issue"], {"jira"}), without_service(["pods", "get"], {"pods"})
    (['get', 'issue'], ['pods', 'get'])
    """
    if (
        len(tokens) > 2
        and tokens[0] in services
        and (tokens[1] in ACTION_VERBS or verb_kind(tokens[1]) is not None)
        and tokens[2] not in _NO_OBJECT
    ):
        return tokens[1:]
    return tokens


ACTION_VERBS = frozenset(
    {
        "get",
        "list",
        "search",
        "find",
        "lookup",
        "look",
        "fetch",
        "read",
        "query",
        "show",
        "view",
        "check",
        "describe",
        "count",
        "aggregate",
        "retrieve",
        "browse",
        "inspect",
        "calculate",
        "calc",
        "compute",
        "evaluate",
        "preview",
        "track",
        "verify",
        "validate",
        "create",
        "add",
        "new",
        "make",
        "book",
        "insert",
        "post",
        "send",
        "submit",
        "open",
        "schedule",
        "register",
        "upload",
        "generate",
        "place",
        "issue",
        "invite",
        "reserve",
        "draft",
        "compose",
        "reply",
        "forward",
        "start",
        "update",
        "edit",
        "modify",
        "change",
        "set",
        "patch",
        "put",
        "rename",
        "move",
        "assign",
        "apply",
        "approve",
        "reject",
        "cancel",
        "refund",
        "transfer",
        "merge",
        "push",
        "rebook",
        "reschedule",
        "mark",
        "close",
        "resolve",
        "enable",
        "disable",
        "toggle",
        "replace",
        "upgrade",
        "downgrade",
        "sync",
        "save",
        "write",
        "append",
        "accept",
        "decline",
        "confirm",
        "pay",
        "charge",
        "restart",
        "deploy",
        "reset",
        "run",
        "exec",
        "execute",
        "escalate",
        "transition",
        "reopen",
        "restore",
        "rollback",
        "revert",
        "tag",
        "label",
        "link",
        "unlink",
        "lock",
        "unlock",
        "pause",
        "resume",
        "suspend",
        "reactivate",
        "extend",
        "redeem",
        "delete",
        "remove",
        "destroy",
        "drop",
        "purge",
        "erase",
        "revoke",
        "unsubscribe",
        "void",
        "terminate",
        "kill",
        "deactivate",
        "detach",
        "wipe",
        "freeze",
        "unfreeze",
        "archive",
        "reconcile",
        "dispute",
        "complete",
        "finish",
        "ship",
        "deliver",
        "activate",
        "hand",
        "publish",
        "unpublish",
        "notify",
    }
)


def verb_kind(word: str) -> str | None:
    """The kind a verb (or its third-person form) names, or ``None`` for a word that is no verb."""
    for candidate in (
        word,
        word[:-1] if word.endswith("s") else "",
        word[:-2] if word.endswith("es") else "",
    ):
        if not candidate:
            continue
        for kind, verbs in VERB_KINDS.items():
            if candidate in verbs:
                return kind
    return None


#: Irregular verbs: the past participle first, then any other past form a reply may use.
IRREGULAR: dict[str, tuple[str, ...]] = {
    "send": ("sent",),
    "pay": ("paid",),
    "set": ("set",),
    "reset": ("reset",),
    "put": ("put",),
    "make": ("made",),
    "run": ("run", "ran"),
    "write": ("written", "wrote"),
    "buy": ("bought",),
    "do": ("done",),
    "undo": ("undone",),
    "build": ("built",),
    "rebuild": ("rebuilt",),
    "withdraw": ("withdrawn",),
    "give": ("given",),
    "take": ("taken",),
    "hold": ("held",),
    "shut": ("shut",),
    "split": ("split",),
    "freeze": ("frozen", "froze"),
    "read": ("read",),
    "unfreeze": ("unfrozen", "unfroze"),
    "checkout": ("checked out",),
    "find": ("found",),
    "get": ("gotten", "got"),
    "go": ("gone",),
    "bring": ("brought",),
    "dig": ("dug",),
    "show": ("shown",),
    "see": ("seen",),
    "set up": ("set up",),
    "deal": ("dealt",),
    "think": ("thought",),
}
#: Regular verbs whose final consonant doubles (British spelling first: "cancelled").
DOUBLED = frozenset(
    {
        "cancel",
        "label",
        "commit",
        "submit",
        "transfer",
        "stop",
        "ship",
        "drop",
        "tag",
        "log",
        "grab",
        "scrap",
        "refer",
        "travel",
        "model",
        "signal",
        "total",
    }
)
_VOWELS = frozenset("aeiou")


def _regular_past(verb: str) -> str:
    if verb in DOUBLED:
        return verb + verb[-1] + "ed"
    if verb.endswith("e"):
        return verb + "d"
    if len(verb) > 1 and verb.endswith("y") and verb[-2] not in _VOWELS:
        return verb[:-1] + "ied"
    return verb + "ed"


def participle(phrase: str) -> str:
    """The past participle of a verb phrase: "look up" → "looked up", "freeze" → "frozen"."""
    if phrase in IRREGULAR:
        return IRREGULAR[phrase][0]
    verb, _, rest = phrase.partition(" ")
    done = IRREGULAR[verb][0] if verb in IRREGULAR else _regular_past(verb)
    return f"{done} {rest}" if rest else done


def past_forms(verb: str) -> tuple[str, ...]:
    """Every past form a reply may use for ``verb``: irregular forms, or the regular one (with
    both spellings when a final consonant may double: "cancelled", "canceled")."""
    if verb in IRREGULAR:
        return IRREGULAR[verb]
    if verb.endswith("e"):
        return (verb + "d",)
    if len(verb) > 2 and verb.endswith("y") and verb[-2] not in _VOWELS:
        return (verb[:-1] + "ied",)
    forms = [verb + "ed"]
    if (
        len(verb) > 2
        and verb[-1] not in _VOWELS | {"w", "x", "y"}
        and verb[-2] in _VOWELS
        and verb[-3] not in _VOWELS
    ):
        forms.insert(0, verb + verb[-1] + "ed")
    return tuple(forms)


# -- number ----------------------------------------------------------------------------------

#: Singular nouns that end like a plural ("status", "address"): ``singular`` leaves them alone.
SINGULAR_IN_S = frozenset(
    {
        "status",
        "address",
        "access",
        "business",
        "class",
        "process",
        "news",
        "series",
        "alias",
        "analysis",
        "bus",
        "campus",
        "canvas",
        "gas",
        "lens",
        "virus",
        "bonus",
        "census",
        "corpus",
    }
)
#: Mass nouns, with no plural at all ("funds", "money", "data"): ``plural`` leaves them alone too.
MASS_NOUNS = frozenset(
    {
        "funds",
        "money",
        "baggage",
        "luggage",
        "information",
        "data",
        "feedback",
        "access",
        "help",
        "support",
        "code",
        "software",
        "hardware",
        "mail",
        "cash",
    }
)
#: Both: nouns whose form says nothing about number.
UNCOUNTED = SINGULAR_IN_S | MASS_NOUNS


#: The short form a word is often written in, for matching a question's words to a field's
#: (an agent asks "which repository?" of ``repo_path``): both sides are read in the short form.
SHORT_FORMS = {
    "repository": "repo",
    "directory": "dir",
    "organization": "org",
    "organisation": "org",
    "configuration": "config",
    "environment": "env",
    "database": "db",
    "information": "info",
    "application": "app",
    "identifier": "id",
    "message": "msg",
    "description": "desc",
    "quantity": "qty",
    "address": "addr",
    "amount": "amt",
    "reference": "ref",
    "document": "doc",
    "package": "pkg",
    "parameter": "param",
    "kind": "type",  # "what kind of issue" asks for its ``issue_type``
}


def short_form(word: str) -> str:
    """``word`` in its :data:`SHORT_FORMS` short form (``repository`` → ``repo``), else itself."""
    return SHORT_FORMS.get(word, word)


def singular(word: str) -> str:
    """``orders`` → ``order``, ``policies`` → ``policy``; leaves ``status`` and ``funds`` alone.

    >>> singular("orders"), singular("policies"), singular("address"), singular("boxes")
    ('order', 'policy', 'address', 'box')
    """
    if word in UNCOUNTED or len(word) <= 3:
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("sses", "ches", "shes", "xes", "zes", "uses")):
        return word[:-2]
    if word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def is_plural(noun: str) -> bool:
    """Whether the last word of ``noun`` is a plural form."""
    last = noun.rpartition(" ")[2]
    return singular(last) != last


def plural(noun: str) -> str:
    """The plural of a (possibly multi-word) noun, inflecting its last word."""
    head, _, last = noun.rpartition(" ")
    if last in MASS_NOUNS or is_plural(last):
        many = last
    elif last.endswith(("s", "x", "z", "ch", "sh")):
        many = last + "es"
    elif last.endswith("y") and last[-2:-1] not in ("a", "e", "i", "o", "u"):
        many = last[:-1] + "ies"
    else:
        many = last + "s"
    return f"{head} {many}" if head else many


# -- verb stems --------------------------------------------------------------------------------

#: Third-person forms whose stem the suffix rules below would get wrong.
_THIRD_PERSON = {"does": "do", "goes": "go", "has": "have", "is": "be", "are": "be"}


def verb_base(word: str) -> str:
    """The bare infinitive of a third-person verb form, as descriptions open ("Copies a file"):
    ``copies`` → ``copy``, ``pushes`` → ``push``, ``closes`` → ``close``; other words unchanged.

    >>> [verb_base(w) for w in ("copies", "pushes", "uses", "fixes", "returns", "copy", "does")]
    ['copy', 'push', 'use', 'fix', 'return', 'copy', 'do']
    """
    word = word.lower()
    if word in _THIRD_PERSON:
        return _THIRD_PERSON[word]
    if len(word) <= 3 or not word.endswith("s") or word.endswith(("ss", "us", "is")):
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("sses", "ches", "shes", "xes", "zzes", "oes")):
        return word[:-2]
    return word[:-1]
