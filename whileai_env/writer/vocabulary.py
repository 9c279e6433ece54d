"""The writer's word tables: verb phrases for each tool verb, and the nouns, prepositions and
function words it reads tool and argument names by.

Data only, kept apart from the code that uses it so a phrasing fix is a table edit. Every verb
phrase is a bare infinitive that must fit "Can you …?", "I need to …" and "Help me …".
"""

from __future__ import annotations

from typing import NamedTuple


class Verb(NamedTuple):
    """One way to say a tool's verb: a bare infinitive and the preposition it puts before its target."""

    phrase: str
    prep: str = ""


def verb_phrases(*phrases: str) -> tuple[Verb, ...]:
    """``"add|to"`` → ``Verb("add", "to")``: a compact way to write the verb table."""
    return tuple(Verb(*p.split("|", 1)) if "|" in p else Verb(p) for p in phrases)


# Bare infinitives only: every one must fit "Can you …?", "I need to …" and "Help me …".
VERB_TABLE: dict[str, tuple[Verb, ...]] = {
    "get": verb_phrases("look up", "pull up", "check", "find"),
    "lookup": verb_phrases("look up", "check", "find"),
    "find": verb_phrases("find", "track down", "look up"),
    "fetch": verb_phrases("get", "pull up", "fetch"),
    "read": verb_phrases("read", "open", "go over"),
    "show": verb_phrases("pull up", "bring up", "look at"),
    "check": verb_phrases("check", "verify", "look at"),
    "verify": verb_phrases("verify", "confirm", "check"),
    "list": verb_phrases("list", "pull up", "go through"),
    "search": verb_phrases("search", "look through", "dig through"),
    "query": verb_phrases("query", "look up"),
    "count": verb_phrases("count", "tally up"),
    "describe": verb_phrases("describe", "go over"),
    "inspect": verb_phrases("inspect", "look over"),
    "browse": verb_phrases("browse", "look through"),
    "calculate": verb_phrases("work out", "calculate", "figure out"),
    "estimate": verb_phrases("estimate", "work out"),
    "track": verb_phrases("track", "check on"),
    "create": verb_phrases("create", "set up", "make"),
    "add": verb_phrases("add|to", "put|on"),
    "book": verb_phrases("book", "reserve", "grab"),
    "send": verb_phrases("send|to", "send over|to", "fire off|to"),
    "update": verb_phrases("update", "change", "edit"),
    "edit": verb_phrases("edit", "change", "fix"),
    "change": verb_phrases("change", "switch", "update"),
    "modify": verb_phrases("change", "modify", "update"),
    "correct": verb_phrases("correct", "fix"),
    "set": verb_phrases("set", "change"),
    "delete": verb_phrases("delete", "remove", "get rid of"),
    "remove": verb_phrases("remove|from", "delete|from", "take off|from"),
    "cancel": verb_phrases("cancel", "call off", "scrap"),
    "refund": verb_phrases("refund", "get a refund on", "reverse the charge on"),
    "issue": verb_phrases("issue", "process", "put through"),
    "run": verb_phrases("run", "kick off", "execute"),
    "write": verb_phrases("write", "save", "write out"),
    "rebook": verb_phrases("rebook", "move", "switch"),
    "schedule": verb_phrases("schedule", "set up", "book"),
    "reschedule": verb_phrases("reschedule", "move"),
    "commit": verb_phrases("commit"),
    "push": verb_phrases("push", "push up"),
    "pull": verb_phrases("pull", "pull down"),
    "merge": verb_phrases("merge"),
    "checkout": verb_phrases("check out", "switch to"),
    "void": verb_phrases("void", "cancel"),
    "reset": verb_phrases("reset"),
    "unlock": verb_phrases("unlock"),
    "lock": verb_phrases("lock"),
    "transfer": verb_phrases("transfer", "move", "send"),
    "freeze": verb_phrases("freeze", "block", "lock"),
    "unfreeze": verb_phrases("unfreeze", "unblock", "reactivate"),
    "assign": verb_phrases("assign", "hand off", "route"),
    "dispute": verb_phrases("dispute", "challenge", "contest"),
    "reply": verb_phrases("reply to", "respond to", "answer"),
    "forward": verb_phrases("forward|to", "pass on|to", "send on|to"),
    "escalate": verb_phrases("escalate", "bump up", "push up"),
    "apply": verb_phrases("apply|to", "put|on"),
    "open": verb_phrases("open", "start"),
    "close": verb_phrases("close", "wrap up"),
    "resolve": verb_phrases("resolve", "close out"),
    "approve": verb_phrases("approve", "sign off on"),
    "reject": verb_phrases("reject", "turn down", "decline"),
    "deploy": verb_phrases("deploy", "roll out"),
    "restart": verb_phrases("restart", "reboot"),
    "pay": verb_phrases("pay", "settle"),
    "submit": verb_phrases("submit", "send in"),
    "confirm": verb_phrases("confirm", "lock in"),
    "invite": verb_phrases("invite|to"),
    "restore": verb_phrases("restore", "bring back"),
    "revoke": verb_phrases("revoke", "pull"),
    "enable": verb_phrases("enable", "turn on"),
    "disable": verb_phrases("disable", "turn off"),
    "suspend": verb_phrases("suspend", "pause"),
    "generate": verb_phrases("generate", "make", "put together"),
    "draft": verb_phrases("draft", "write up"),
    "compose": verb_phrases("write", "compose"),
    "publish": verb_phrases("publish", "put out"),
}
VERB_ALIASES = {
    "retrieve": "get",
    "look": "lookup",
    "view": "show",
    "display": "show",
    "calc": "calculate",
    "compute": "calculate",
    "evaluate": "calculate",
    "exec": "run",
    "execute": "run",
    "rm": "delete",
    "del": "delete",
    "destroy": "delete",
    "erase": "delete",
    "purge": "delete",
    "drop": "delete",
    "new": "create",
    "make": "create",
    "ls": "list",
    "patch": "update",
    "amend": "correct",
    "fix": "correct",
    "handoff": "transfer",
    "hand": "transfer",
    "block": "freeze",
    "unblock": "unfreeze",
}
# Verbs the kinds table knows that have no phrasing of their own: said as they are.
_PLAIN_VERBS = frozenset(
    [
        "post",
        "insert",
        "register",
        "upload",
        "place",
        "clone",
        "fork",
        "start",
        "launch",
        "provision",
        "mark",
        "rename",
        "move",
        "toggle",
        "replace",
        "upgrade",
        "downgrade",
        "sync",
        "save",
        "append",
        "accept",
        "decline",
        "charge",
        "rollback",
        "revert",
        "tag",
        "label",
        "link",
        "unlink",
        "pause",
        "resume",
        "reactivate",
        "extend",
        "redeem",
        "terminate",
        "kill",
        "clear",
        "discard",
        "deactivate",
        "unsubscribe",
        "subscribe",
        "download",
        "export",
        "import",
        "convert",
        "translate",
        "summarize",
        "summarise",
        "validate",
        "compare",
        "analyze",
        "analyse",
        "explain",
        "watch",
        "ping",
        "test",
        "preview",
        "share",
        "archive",
        "unarchive",
        "flag",
        "star",
        "snooze",
        "reconcile",
        "notify",
    ]
)
# Nouns that tool names use as verbs ("git_status"): checked, not done.
NOUN_VERBS = {
    "status": "of",
    "diff": "for",
    "log": "for",
    "logs": "for",
    "history": "for",
    "info": "for",
}
LOOK_VERBS = verb_phrases("check", "pull up", "look at")
# For a write whose name and description give no verb: what a person asks of it.
HANDLE_VERBS = verb_phrases("sort out", "take care of", "deal with")
KNOWN_VERBS = frozenset(VERB_TABLE) | frozenset(VERB_ALIASES) | _PLAIN_VERBS | frozenset(NOUN_VERBS)

FUNCTION_WORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "to",
        "for",
        "by",
        "with",
        "from",
        "of",
        "on",
        "in",
        "at",
        "and",
        "or",
        "into",
        "via",
        "all",
        "one",
    ]
)
TAIL_WORDS = frozenset(["to", "for", "by", "with", "from", "of", "on", "in", "at", "into", "via"])
NAMESPACES = frozenset(
    [
        "git",
        "gh",
        "github",
        "gitlab",
        "jira",
        "slack",
        "stripe",
        "aws",
        "gcp",
        "azure",
        "k8s",
        "kube",
        "kubectl",
        "docker",
        "npm",
        "pip",
        "db",
        "sql",
        "api",
        "http",
        "fs",
        "os",
        "mcp",
        "google",
        "gmail",
        "gcal",
        "notion",
        "linear",
        "zendesk",
        "shopify",
        "salesforce",
        "hubspot",
        "twilio",
        "sendgrid",
        "tool",
        "tools",
        "admin",
        "v1",
        "v2",
        "v3",
        "svc",
        "service",
    ]
)
HUMAN_WORDS = frozenset(
    ["human", "humans", "agent", "person", "representative", "operator", "staff", "support"]
)
HANDOFF_VERBS = frozenset(["transfer", "escalate", "connect", "route", "forward"])
MONEY_NOUNS = frozenset(["funds", "money", "cash", "payment"])
# Objects that are attributes of the entity, with the preposition that links them:
# "the status of flight 2651", "the git diff for src/app.py".
ATTRIBUTE_NOUNS = {
    "status": "of",
    "balance": "of",
    "identity": "of",
    "diff": "for",
    "log": "for",
    "logs": "for",
    "history": "for",
    "details": "for",
    "profile": "for",
    "summary": "for",
}
# Attributes a person talks about through their owner: "my ticket", not "my status".
STATE_NOUNS = frozenset(
    ["status", "balance", "details", "history", "log", "logs", "diff", "git status", "git diff"]
)
PERSON_NOUNS = frozenset(
    [
        "user",
        "customer",
        "member",
        "requester",
        "employee",
        "person",
        "contact",
        "client",
        "traveller",
        "traveler",
        "passenger",
        "owner",
        "recipient",
        "assignee",
        "payee",
        "guest",
        "patient",
        "student",
    ]
)
# Records an id names: "on order 4412", "for invoice INV-1"; the possessable ones may be "my …".
RECORD_NOUNS = frozenset(
    [
        "order",
        "reservation",
        "booking",
        "ticket",
        "invoice",
        "account",
        "card",
        "transaction",
        "event",
        "issue",
        "case",
        "subscription",
        "shipment",
        "thread",
        "message",
        "email",
        "pr",
        "flight",
        "policy",
        "claim",
        "loan",
        "cart",
    ]
)
POSSESSABLE = frozenset(
    [
        "order",
        "reservation",
        "booking",
        "ticket",
        "card",
        "account",
        "transaction",
        "event",
        "subscription",
        "invoice",
        "email",
        "message",
        "claim",
        "loan",
        "cart",
    ]
)
SYNONYMS = (
    {"email", "message", "mail"},
    {"reservation", "booking"},
    {"file", "path"},
    {"directory", "folder", "dir"},
)
# Verbs whose object is new, so it takes "a": "create a ticket", "apply a 10% discount".
CREATE_VERBS = frozenset(
    [
        "create",
        "add",
        "book",
        "send",
        "issue",
        "open",
        "schedule",
        "draft",
        "compose",
        "post",
        "submit",
        "generate",
        "apply",
        "file",
        "place",
        "register",
        "upload",
        "publish",
        "invite",
    ]
)
CHANGE_VERBS = frozenset(
    ["update", "change", "edit", "modify", "correct", "set", "patch", "amend", "fix"]
)
DEFAULT_OBJECTS = {
    "commit": ("my changes", "everything", "the changes"),
    "push": ("my changes", "the current branch"),
    "pull": ("the latest changes",),
    "deploy": ("the latest build",),
    "restart": ("the service",),
}
PURPOSES = {
    "unlock": (" (I'm locked out)", " (I got locked out after too many tries)"),
    "unfreeze": (" (I found it again)", " (it turned up after all)"),
    "reset": (" (I forgot it)", " (I can't sign in)"),
    "assign": (" to whoever can take it", " to the right team"),
}
GENERIC_PURPOSES = (" (it's out of date)", " (something on it changed)")
# Verbs too common to tie a policy clause to a tool on their own: they count only next to the
# tool's object noun ("Only change the shipping address …" is about update_shipping_address).
GENERIC_VERBS = frozenset(
    [
        "get",
        "list",
        "fetch",
        "show",
        "view",
        "read",
        "check",
        "find",
        "lookup",
        "look",
        "search",
        "query",
        "create",
        "update",
        "add",
        "new",
        "run",
        "edit",
        "change",
        "modify",
        "delete",
        "remove",
        "fix",
        "save",
        "write",
        "process",
        "verify",
        "confirm",
    ]
)
# Phrase words too loose to tie a rule to a tool ("get an explicit yes", "call get_current_user").
LOOSE_WORDS = frozenset(
    [
        "get",
        "go",
        "put",
        "make",
        "set",
        "take",
        "pull",
        "bring",
        "kick",
        "dig",
        "fire",
        "call",
        "grab",
        "hand",
        "turn",
        "sign",
        "pass",
        "bump",
        "work",
        "start",
        "open",
        "respond",
        "answer",
    ]
)
# Free-text arguments, quoted after the words that introduce them: ' saying "Running late"'.
FREE_TEXT_LEADS = {
    "subject": " with the subject ",
    "title": " called ",
    "name": " called ",
    "summary": " about ",
    "message": " with the message ",
    "body": " saying ",
    "text": " saying ",
    "comment": " saying ",
    "note": " saying ",
    "notes": " saying ",
    "content": " with the content ",
    "contents": " with the content ",
    "description": " with the description ",
    "details": " with the details ",
    "memo": " with the memo ",
}
AMOUNT_WORDS = frozenset(["amount", "total", "price", "cost", "fee"])
QUERY_WORDS = frozenset(["query", "q", "keyword", "keywords", "search", "pattern"])
REASON_STARTS = frozenset(
    ["i", "i'm", "i've", "it", "it's", "we", "my", "the", "they", "he", "she", "our", "there"]
)
# Phrasal verbs that take a pronoun between verb and particle ("pull it up", "put it through").
SEPARABLE_PARTICLES = frozenset(["off", "up", "out", "over", "down", "back"])
SEPARABLE_VERBS = frozenset(["put through", "pass on", "send on"])
# The order a person reads an address in; other fields follow in their own order.
ADDRESS_ORDER = {
    k: i
    for i, k in enumerate(
        [
            "name",
            "company",
            "street",
            "line1",
            "address1",
            "line2",
            "address2",
            "city",
            "state",
            "region",
            "province",
            "postal_code",
            "postcode",
            "zip",
            "zip_code",
            "country",
        ]
    )
}
# Argument names that say nothing but "a value" (``a``, ``b``, ``num1``): the values are the object.
OPERAND_WORDS = frozenset(
    [
        "a",
        "b",
        "c",
        "x",
        "y",
        "z",
        "n",
        "m",
        "num",
        "number",
        "numbers",
        "value",
        "values",
        "val",
        "first",
        "second",
        "operand",
        "left",
        "right",
        "lhs",
        "rhs",
        "arg",
        "input",
        "1",
        "2",
        "3",
    ]
)
# Arguments that list the people a tool acts on: with no object noun, they are the object.
PEOPLE_WORDS = frozenset(
    [
        "emails",
        "email",
        "attendees",
        "invitees",
        "participants",
        "guests",
        "members",
        "users",
        "recipients",
        "people",
        "contacts",
    ]
)
# -- the simulated user's knowledge (whileai_env.writer.person) ------------------------------
# Words that follow an id's noun when a question names it: "order number", "booking reference".
ID_WORDS = ("id", "number", "no", "reference", "ref", "code", "key", "identifier", "num")
# A person's own data, by attribute, with the other ways a question names it.
PERSONAL_FACTS = {
    "name": ("full name", "name on the account"),
    "first name": ("given name", "forename"),
    "last name": ("surname", "family name"),
    "email": ("email address", "e-mail", "mail address"),
    "phone number": ("phone", "mobile", "mobile number", "telephone", "cell", "contact number"),
    "date of birth": ("dob", "birthday", "birth date", "birthdate", "born"),
    "address": ("home address", "street address", "mailing address", "billing address"),
    "zip code": ("zip", "postcode", "postal code", "post code"),
    "city": ("town",),
}
# Keys that say which kind of record a nested one is ("type": "paragraph"): not said aloud.
DISCRIMINATORS = frozenset(["type", "object", "kind"])
# Words a quoted rule clause must not open with: it would read as a fragment.
PRONOUNS = frozenset(["they", "it", "this", "that", "these", "those", "he", "she", "we", "you"])

# -- reading a tool's description (whileai_env.writer.description) ----------------------------
# Verbs a description of a read opens with that mean "give me": "Returns the balance" is a look-up.
DESCRIPTION_ALIASES = {
    "return": "get",
    "provide": "get",
    "obtain": "get",
    "print": "show",
    "output": "show",
    "report": "show",
    "capture": "take",
    "navigate": "go",
}
# A description's first word that is no action of the tool's ("This tool belongs to …").
STATIVE_VERBS = frozenset(
    [
        "be",
        "belong",
        "contain",
        "include",
        "represent",
        "allow",
        "let",
        "help",
        "demonstrate",
        "serve",
        "act",
        "mean",
        "denote",
        "support",
        "accept",
        "require",
        "need",
        "note",
        "it",
        "this",
        "that",
        "the",
        "a",
        "an",
        "these",
        "those",
        "our",
        "your",
        "primary",
        "best",
        "main",
        "simple",
        "advanced",
        "autonomous",
        "detailed",
        "use",
        "when",
        "what",
        "which",
        "who",
        "where",
        "how",
        "if",
        "for",
        "to",
        "in",
        "on",
        "with",
        "by",
        "from",
    ]
)
# Verbs that only say "do it"; what they do is their object's ("Performs a web search").
LIGHT_VERBS = frozenset(["perform", "do", "conduct", "make", "carry", "run", "execute"])
# Nouns of an action a light verb can carry: the action is the verb.
ACTION_NOUNS = frozenset(["search", "lookup", "look-up", "click", "scan", "crawl", "check"])
# Words before a description's object that say nothing about it ("a *specific* page").
DESCRIPTION_SKIP = frozenset(
    [
        "specific",
        "specified",
        "single",
        "optional",
        "provided",
        "particular",
        "certain",
        "desired",
        "selected",
        "full",
        "entire",
        "whole",
        "detailed",
        "list",
        "of",
        "numbered",
    ]
)
# Words that end a description's object ("a file *or* directory", "a page *using* …").
DESCRIPTION_STOP = frozenset(
    [
        "and",
        "or",
        "but",
        "that",
        "which",
        "who",
        "whose",
        "where",
        "when",
        "if",
        "so",
        "than",
        "using",
        "based",
        "via",
        "as",
        "like",
        "within",
        "without",
        "per",
        "including",
        "while",
        "then",
        "optionally",
        "only",
        "e",
        "i",
        "etc",
        "is",
        "are",
        "will",
        "can",
        "of",
        "what",
        "how",
        "whether",
        "why",
        "given",
        "currently",
        "something",
        "anything",
        "everything",
        "it",
        "them",
        "since",
        "until",
        "after",
        "before",
    ]
)
# Particles that make a phrasal verb with any verb ("log *out* the user", "clean *up* …").
ADVERB_PARTICLES = frozenset(["out", "up", "off", "down", "back"])
# Endings of words that, after an object's head, qualify it rather than name it ("tickets *created* by").
QUALIFIER_ENDINGS = ("ed", "ly", "ing")
# Endings of nouns, which a description may open with ("Information about …", "Management of …").
NOUN_SUFFIXES = ("tion", "sion", "ment", "ness", "ity", "ance", "ence", "ship", "ism", "ics", "ing")
