"""What a field is about, from its name, its description, its schema and the tool it belongs to.

A *concept* names the kind of value a field holds: ``first_name``, ``email``, ``city``,
``currency``, ``birth_date``, ``sql``, ``argv``, ``money``, ``limit`` … The generators in
:mod:`whileai_env.world.makers` draw a value for each; the schema walker
(:mod:`whileai_env.world.schema_values`) checks it against the schema and falls back to a
value drawn from the schema alone when it does not fit. ``None`` means nothing is known
beyond the schema. The rules read words (``name_tokens`` splits camelCase and dashes), so they
hold for a spec nobody here has seen: ``passengerFirstName``, ``dest-airport``, ``zip_code``.

>>> string_concept(field("first_name", {}))
'first_name'
>>> string_concept(field("customer_name", {}))
'person_name'
>>> number_concept(field("target_celsius", {"maximum": 32}))
'temperature'
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from whileai_env._util.lexicon import name_tokens, singular
from whileai_env.world.hints import Hints, hints_of

PERSON_NOUNS = frozenset(
    {
        "customer",
        "user",
        "passenger",
        "author",
        "assignee",
        "contact",
        "recipient",
        "sender",
        "person",
        "employee",
        "member",
        "patient",
        "guest",
        "holder",
        "cardholder",
        "traveler",
        "traveller",
        "driver",
        "owner",
        "full",
        "display",
        "reviewer",
        "requester",
        "client",
        "student",
        "teacher",
        "attendee",
        "participant",
        "buyer",
        "seller",
        "applicant",
        "beneficiary",
        "payee",
        "account",
    }
)
COMPANY_NOUNS = frozenset(
    {
        "company",
        "organization",
        "organisation",
        "business",
        "merchant",
        "vendor",
        "supplier",
        "employer",
        "brand",
        "org",
    }
)


@dataclass(frozen=True)
class Field:
    """One field as the concept rules see it: its words, the words before its last one
    (``customer`` in ``customer_name``), the noun of its tool or parent, its description
    (lowercased) and hints, whether it names an entity, and whether its tool writes."""

    name: str
    words: tuple[str, ...]
    stems: tuple[str, ...]
    noun: str
    text: str
    hints: Hints
    locator: bool = False
    writes: bool = False
    siblings: frozenset[str] = frozenset()

    @property
    def last(self) -> str:
        return self.words[-1] if self.words else ""

    @property
    def qualifier(self) -> tuple[str, ...]:
        return self.words[:-1]

    def has(self, *words: str) -> bool:
        """Whether the name has one of ``words`` (as written or in the singular)."""
        return any(w in self.words or w in self.stems for w in words)

    def says(self, *phrases: str) -> bool:
        return any(p in self.text for p in phrases)

    def beside(self, *words: str) -> bool:
        """Whether a field beside this one has one of ``words`` in its name (``repo`` beside ``owner``)."""
        return any(w in name_tokens(other) for other in self.siblings for w in words)


def field(
    name: str,
    schema: Mapping[str, Any] | None,
    *,
    noun: str = "",
    locator: bool = False,
    writes: bool = False,
    siblings: frozenset[str] = frozenset(),
) -> Field:
    """The :class:`Field` of argument or property ``name`` with ``schema`` (``issue_id_or_url``
    reads as its first alternative, ``issue_id``; a description saying "the ID of" makes a locator)."""
    schema = schema if isinstance(schema, Mapping) else {}
    words, stems = _name_words(name)
    hints = hints_of(schema)
    text = hints.text.lower()
    locator = locator or any(
        p in text for p in ("the id of", " id of the", "identifier of", "unique id")
    )
    return Field(
        name=name,
        words=words,
        stems=stems,
        noun=noun,
        text=text,
        hints=hints,
        locator=locator,
        writes=writes,
        siblings=siblings - {name},
    )


@functools.lru_cache(maxsize=8192)
def _name_words(name: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A field name's words up to an ``or`` (``issue_id_or_url`` → ``issue id``) and their
    singulars, kept per name: every drawn value makes its field again."""
    words = tuple(w for token in name_tokens(name) for w in _compound(token))
    if "or" in words[1:]:
        words = words[: words.index("or", 1)]
    return words, tuple(singular(w) for w in words)


#: Words that end a field name run together in lowercase (``closedate``, ``firstname``,
#: ``jobtitle``, ``dealstage``: HubSpot, Salesforce and many SQL schemas spell them so).
_COMPOUND_ENDS = (
    "date",
    "time",
    "name",
    "email",
    "phone",
    "title",
    "address",
    "stage",
    "status",
    "amount",
    "country",
    "domain",
    "industry",
    "number",
)
#: Run-together words that are words of their own (``username`` is no "user name" rule's).
_WHOLE_WORDS = frozenset(
    {
        "username",
        "filename",
        "hostname",
        "pathname",
        "nickname",
        "surname",
        "mandate",
        "datetime",
        "runtime",
        "lifetime",
        "downtime",
        "microphone",
    }
)


def _compound(token: str) -> tuple[str, ...]:
    """``closedate`` → ``close date``: a lowercase token of a known prefix and a field word."""
    if len(token) < 7 or token in _WHOLE_WORDS:
        return (token,)
    for end in _COMPOUND_ENDS:
        head = token[: -len(end)]
        # "candidate", "validate": a head ending in "i" is no word of its own
        if token.endswith(end) and len(head) >= 3 and head.isalpha() and not head.endswith("i"):
            return (*_compound(head), end) if len(head) >= 7 else (head, end)
    return (token,)


_STANDARD_CONCEPTS = {
    "currency": "currency",
    "country2": "country_code",
    "country3": "country_code3",
    "airport": "airport",
    "e164": "e164",
    "language": "language",
    "locale": "locale",
    "timezone": "timezone",
    "uuid": "uuid",
}


_NAMED_THINGS = tuple(
    (frozenset(ws.split()), c)
    for ws, c in (
        ("branch", "branch"),
        ("repo repository", "repo"),
        ("file", "filename"),
        ("table", "table"),
        ("database db", "database"),
        ("library package module", "library"),
        ("app application", "app_name"),
        ("city town", "city"),
        ("country", "country_name"),
        ("user login screen", "username"),
        ("host", "hostname"),
        ("domain", "domain"),
        ("bucket namespace", "slug"),
        ("column field", "column"),
        ("channel", "channel"),
        ("tag label", "tag"),
        ("image", "image"),
        ("region", "cloud_region"),
    )
)


def _person_part(f: Field) -> str | None:
    w = f.words
    if f.has("first", "given", "forename", "firstname", "givenname") and (
        f.has("name") or f.last in ("first", "given", "firstname")
    ):
        return "first_name"
    if f.has("last", "surname", "family", "lastname", "familyname") and (
        f.has("name") or f.last in ("surname", "lastname")
    ):
        return "last_name"
    if f.last in ("from", "to", "source", "target") and f.says(
        "name of the entity", "entity name", "node"
    ):
        return "thing_name"
    if f.last in COMPANY_NOUNS and len(w) == 1 and not f.locator:
        return "company"  # a contact's ``company``: the company's name
    if f.last == "name" or (len(w) >= 2 and w[-2:] == ("name", "s")):
        qual = set(f.qualifier) or {f.noun}
        for words, concept in _NAMED_THINGS:
            if qual & words:
                return concept
        if qual & PERSON_NOUNS or f.says(
            "full name", "person's name", "customer name", "your name"
        ):
            return "person_name"
        if qual & COMPANY_NOUNS:
            return "company"
        return "thing_name"
    return None


def _place(f: Field) -> str | None:
    if f.last in ("origin", "destination", "location", "place", "near", "waypoint") and f.says(
        "address", "place", "coordinates", "location", "city", "where"
    ):
        return "address" if not f.says("airport", "iata") else "airport"
    if (
        f.has("street", "line1")
        or (f.has("address") and f.has("1", "line"))
        or f.name.lower() in ("address1", "addr1")
    ):
        return "street"
    if f.has("line2", "apt", "apartment", "suite") or (f.has("address") and f.has("2")):
        return "address2"
    if f.has("city", "town", "locality"):
        return "city"
    if f.has("zip", "postcode", "postal", "zipcode"):
        return "postcode"
    if f.has("province") or (
        f.last == "state"
        and (
            f.says("address", "province", "us state")
            or f.has("address")
            or f.beside("city", "zip", "postcode", "country")
        )
    ):
        return "region"
    if f.has("country"):
        return (
            "country_name" if f.says("country name", "full name of the country") else "country_code"
        )
    if f.last == "address" and not f.has("email", "ip", "mac", "wallet") and not f.says("email"):
        return "address"
    return None


def _code(f: Field) -> str | None:
    if f.has("sql") or (
        f.has("query", "statement") and f.says("sql", "select ", "database", "table")
    ):
        return "sql"
    if f.has("argv") or (
        f.last in ("command", "cmd", "args", "arg")
        and f.says("command", "shell", "executable", "argument")
    ):
        return "command"
    if f.last in ("command", "cmd", "shell"):
        return "command"
    if f.says("javascript", " js ", "playwright", "puppeteer", "browser") and f.has(
        "script", "code", "function", "expression", "js"
    ):
        return "javascript"
    if f.has("script", "code", "snippet") and f.says("python"):
        return "python"
    if f.has("glob") or (
        f.has("pattern") and (f.says("glob", "*.") or f.noun in ("file", "files"))
    ):
        return "glob"
    if f.has("regex", "regexp") or (
        f.has("pattern", "query", "search", "q", "expression")
        and f.says("regular expression", "regex")
    ):
        return "regex"
    if f.has("expression", "expr", "formula", "equation"):
        return "expression"
    return None


def _repository(f: Field) -> str | None:
    if f.has("repo", "repository") and f.has("path", "dir", "directory"):
        return "repo_path"
    if f.last in ("target", "base", "head", "source", "ref", "revision") and (
        f.says("branch", "commit") or f.noun in ("branch", "diff", "git", "commit")
    ):
        return "branch"
    if f.has("repo", "repository"):
        if f.has("url"):
            return "url"
        if f.says("owner/", "owner/name", "owner/repo", "full name", "org/repo"):
            return "repo_full"
        return "repo"
    if f.last == "owner" and (
        f.says("repositor", "username", "organization", "github", "gitlab", "account")
        or f.beside("repo", "repository")
    ):
        return "username"
    if f.has("branch") or (f.last == "ref" and f.says("branch", "git")):
        return "branch"
    if f.has("sha", "hash", "revision") or (f.has("commit") and f.last in ("id", "commit", "sha")):
        return "sha"
    if f.last == "version" or f.has("semver"):
        return "version"
    return None


def _time(f: Field) -> str | None:
    if f.has("dob", "birth", "birthday", "birthdate"):
        return "birth_date"
    fmt = f.hints.format
    if (
        f.has("timestamp", "datetime")
        or (f.last == "at" and len(f.words) > 1)
        or fmt == "date-time"
    ):
        return "date_time" if fmt != "date" else "date"
    if f.has("date", "day") and f.last not in ("range", "format"):
        return "date"
    if fmt == "hh:mm" or (f.last == "time" and not f.has("zone")):
        return "clock_time"
    if fmt == "date":
        return "date"
    if (
        f.last in ("timeout", "duration", "interval", "ttl", "since", "delay", "wait", "period")
        and f.hints.examples
    ):
        return None
    if f.has("cron", "schedule") and f.says("cron"):
        return "cron"
    return None


#: A description that says first that the field is an email address.
_EMAIL_FIRST = re.compile(
    r"^(?:the |an? )?(?:e-?mail address|e-?mail of|e-?mail to|e-?mail where)\b"
)


def _contact(f: Field) -> str | None:
    if f.has("email", "mail") and not f.has("mailbox"):
        return "email"
    if f.last in ("to", "cc", "bcc", "recipient", "recipients", "sender", "from") and f.says(
        "email", "address", "recipient"
    ):
        return "email"
    if _EMAIL_FIRST.match(f.text):  # "Email address to forward matching emails to"
        return "email"
    if f.has("phone", "mobile", "telephone", "tel", "msisdn", "fax"):
        return "phone"
    if f.has("username", "login", "handle", "screen") or (f.last == "user" and not f.locator):
        return "username"
    if f.last in (
        "owner",
        "assignee",
        "author",
        "reviewer",
        "approver",
        "organizer",
        "creator",
        "requester",
    ):
        account = f.says("username", "login", "handle", "github") or (
            f.last == "owner" and f.beside("repo", "repository", "project")
        )  # a repository's owner is an account (``octocat``), not a person's full name
        return "username" if account else "person_name"
    if f.has("url", "uri", "link", "href", "website", "homepage", "webhook", "endpoint"):
        return "url"
    if f.has("hostname", "host"):
        return "hostname"
    if f.last == "domain" or f.has("domains"):
        return "domain"
    if f.last == "ip" or f.has("ipv4", "ip_address"):
        return "ipv4"
    if f.has("uuid", "guid"):
        return "uuid"
    return None


def _text(f: Field) -> str | None:
    last = f.last
    if f.has("reason", "cause", "justification", "why"):
        return "reason"
    if last in ("query", "q", "search", "keyword", "keywords", "term", "terms", "phrase") or f.has(
        "search"
    ):
        return "query"
    if last == "title" and f.has("job", "position", "professional"):
        return "job_title"
    if last in ("title", "subject", "headline", "topic") or (
        last == "summary" and re.search(r"\b(?:title|subject|headline)\b", f.text)
    ):
        return "title"  # an event's or issue's summary its description calls its title
    if last == "prompt" and f.says("image", "picture", "art", "photo", "draw"):
        return "image_prompt"
    if last in ("message", "msg") and (
        f.has("commit") or f.beside("branch", "files") or f.says("commit") or f.noun == "commit"
    ):
        return "commit_message"
    if last in (
        "body",
        "content",
        "text",
        "message",
        "msg",
        "details",
        "detail",
        "note",
        "notes",
        "comment",
        "reply",
        "feedback",
        "instruction",
        "instructions",
        "prompt",
        "question",
        "answer",
        "thought",
        "observation",
        "contents",
        "description",
        "bio",
        "caption",
        "markdown",
        "html",
        "summary",
        "input",
        "insight",
        "explanation",
        "analysis",
    ):
        return "text"
    if last == "type" and len(f.words) > 1 and f.words[-2] == "relation":
        return "relation_type"
    if (
        last in ("type", "kind")
        and len(f.words) > 1
        and f.words[-2] in ("entity", "node", "object", "record", "item")
    ):
        return "entity_type"
    if last in ("tag", "label", "keyword", "category", "topic"):
        return "label" if last == "label" and f.says("=", "key") else "tag"
    return None


def _misc(f: Field) -> str | None:
    last = f.last
    table = {
        "currency": "currency",
        "language": "language",
        "lang": "language",
        "locale": "locale",
        "timezone": "timezone",
        "tz": "timezone",
        "airport": "airport",
        "iata": "airport",
        "slug": "slug",
        "namespace": "namespace",
        "image": "image",
        "color": "color",
        "colour": "color",
        "mime": "mime",
        "priority": "priority",
        "role": "role",
        "status": "status",
        "state": "status",
        "password": "secret",
        "token": "secret",
        "secret": "secret",
        "encoding": "encoding",
        "region": "cloud_region",
        "zone": "cloud_region",
        "table": "table",
        "column": "column",
        "field": "column",
        "database": "database",
        "db": "database",
        "schema": "database",
        "channel": "channel",
        "project": "project",
        "path": "path",
        "file": "path",
        "filepath": "path",
        "filename": "filename",
        "dir": "directory",
        "directory": "directory",
        "folder": "directory",
        "cwd": "directory",
        "kind": "k8s_kind",
        "resource": "k8s_resource",
        "method": "http_method",
        "format": "format_name",
        "sort": "column",
        "order": "sort_order",
        "direction": "sort_order",
        "container": "thing_name",
        "pod": "thing_name",
        "context": "thing_name",
        "cluster": "thing_name",
        "bucket": "slug",
        "workspace": "slug",
        "organization": "slug",
        "org": "slug",
        "team": "slug",
        "selector": "css_selector",
        "key": "cache_key",
        "value": "plain_value",
        "app": "app_name",
        "library": "library",
        "package": "library",
        "module": "library",
    }
    if last == "selector" and f.says("label", "kubernetes", "k8s"):
        return "label"
    if last in ("target", "element") and f.says(
        "element", "selector", "snapshot", "button", "field"
    ):
        return "css_selector"
    if f.has("flight") and f.last in ("number", "no", "num", "code"):
        return "flight_number"
    if f.has("library", "package", "dependency") and f.last in ("name", "library", "package", "id"):
        return "library"
    if f.has("app", "application") and f.last == "name":
        return "app_name"
    if f.has("airport", "iata") or (
        last in ("origin", "destination", "from", "to") and f.says("airport", "iata")
    ):
        return "airport"
    if f.has("mime") or (f.has("content", "media") and f.has("type")):
        return "mime"
    if f.has("region") and (
        f.says("aws", "cloud", "gcp", "azure", "us-east")
        or any("-" in str(e) for e in f.hints.examples)
    ):
        return "cloud_region"
    if f.has("filename") or (f.has("file") and f.has("name")):
        return "filename"
    if f.has("path", "filepath") and (
        (f.says("director", "folder") and not f.says("file"))
        or f.noun in ("directory", "folder", "tree", "dir")
    ):
        return "directory"
    if f.has("path", "file", "filepath"):
        return "path"
    if f.has("language") and f.says("programming", "python", "typescript"):
        return "programming_language"
    if last in ("order", "direction") and not f.says("asc", "desc", "ascending", "descending"):
        return None
    found = table.get(last)
    if found:
        return found
    if f.has("currency"):
        return "currency"
    return None


def _kept_per_field(rule: Callable[[Field], str | None]) -> Callable[[Field], str | None]:
    """``rule`` with its answer kept per field (a pure function of the field, asked again for
    every value drawn for an argument); a field whose hints hold a list (an example that is an
    array) cannot be a key, and is answered afresh."""
    kept = functools.lru_cache(maxsize=8192)(rule)

    @functools.wraps(rule)
    def concept(f: Field) -> str | None:
        try:
            hash(f)
        except TypeError:
            return rule(f)
        return kept(f)

    return concept


@_kept_per_field
def string_concept(f: Field) -> str | None:
    """The concept of a string field, or ``None``."""
    standard = _STANDARD_CONCEPTS.get(f.hints.standard or "")
    if standard == "timezone" and f.hints.format and not f.has("zone", "timezone", "tz"):
        # "Event start time ... For per-field timezone, use ...": a moment whose description
        # speaks of its zone, not a zone
        standard = None
    if standard and not (standard == "uuid" and not f.locator and f.has("name")):
        return standard
    for rule in (_person_part, _contact, _place, _time, _code, _repository, _text, _misc):
        found = rule(f)
        if found:
            return found
    return None


_NUMBER_WORDS: tuple[tuple[frozenset[str], str], ...] = tuple(
    (frozenset(ws.split()), c)
    for ws, c in (
        ("cents cent", "cents"),
        (
            "amount price cost fee total balance fare salary budget payment charge refund subtotal tax tip discount "
            "off deposit credit debit spend revenue value",
            "money",
        ),
        ("percent percentage pct", "percent"),
        ("ratio fraction probability confidence threshold similarity", "ratio"),
        ("age", "age"),
        ("year", "year"),
        ("month", "month"),
        ("hour", "hour"),
        ("minute", "minute"),
        ("port", "port"),
        ("lat latitude", "latitude"),
        ("lng lon long longitude", "longitude"),
        ("temperature temp celsius fahrenheit", "temperature"),
        ("limit top max per size maxresult", "limit"),
        ("page", "page"),
        ("offset skip cursor start", "offset"),
        ("timeout delay wait interval duration ttl", "seconds"),
        ("millisecond ms", "milliseconds"),
        (
            "quantity qty count seat guest passenger adult child bag night item unit copy ticket room",
            "quantity",
        ),
        ("rating star", "rating"),
        ("score", "score"),
        ("width height", "pixels"),
        ("zoom", "zoom"),
        ("radius distance", "meters"),
        ("token", "tokens"),
        ("depth level", "depth"),
        ("retry attempt", "retries"),
        ("index position", "index"),
        ("priority", "priority"),
        ("weight", "weight"),
        ("byte bytes", "bytes"),
        ("line", "line"),
        ("timestamp epoch", "epoch"),
        ("number id num no", "number_id"),
        ("version", "version"),
    )
)


@_kept_per_field
def number_concept(f: Field) -> str | None:
    """The concept of a number or integer field, or ``None``."""
    if f.hints.unit == "cents":
        return "cents"
    if f.hints.format == "epoch":
        return "epoch"
    if f.has("temperature", "temp") and f.says("sampling", "randomness", "creativ", "model", "llm"):
        return "llm_temperature"
    if "day" in f.words or "days" in f.words:
        return "day_of_month" if f.says("day of the month", "day of month") else "days"
    if f.has("max", "maximum") and f.has(
        "result", "results", "item", "items", "record", "records", "row", "rows"
    ):
        return "limit"
    if f.has("num", "number") and f.has("result", "results"):
        return "limit"
    words = set(f.words) | set(f.stems)
    if "total" in words and len(words) > 1 and not words & _MONEY_WORDS:
        return "quantity"
    if words & {"number", "num", "no"} and not f.locator and len(words) > 1:
        return "ordinal"
    for vocabulary, concept in _NUMBER_WORDS:
        if words & vocabulary:
            return concept
    return None


_MONEY_WORDS = frozenset(
    [
        "amount",
        "price",
        "cost",
        "fee",
        "balance",
        "fare",
        "salary",
        "budget",
        "payment",
        "charge",
        "refund",
        "subtotal",
        "tax",
    ]
)

#: A plausible range per number concept (before the schema's and the description's bounds),
#: and whether the value is whole.
NUMBER_RANGES: dict[str, tuple[float, float, bool]] = {
    "cents": (500, 250_000, True),
    "money": (5, 2400, False),
    "percent": (5, 95, True),
    "ratio": (0.1, 0.9, False),
    "age": (18, 85, True),
    "year": (2019, 2026, True),
    "month": (1, 12, True),
    "hour": (8, 18, True),
    "minute": (0, 59, True),
    "port": (1024, 9999, True),
    "latitude": (-60, 70, False),
    "longitude": (-150, 150, False),
    "temperature": (16, 30, False),
    "llm_temperature": (0.1, 1.0, False),
    "limit": (5, 50, True),
    "page": (1, 5, True),
    "offset": (0, 100, True),
    "seconds": (5, 120, True),
    "milliseconds": (500, 30_000, True),
    "quantity": (1, 4, True),
    "rating": (1, 5, True),
    "score": (40, 99, True),
    "pixels": (320, 1920, True),
    "zoom": (3, 18, True),
    "meters": (100, 5000, True),
    "tokens": (256, 4096, True),
    "depth": (1, 5, True),
    "retries": (1, 5, True),
    "index": (0, 5, True),
    "priority": (1, 5, True),
    "weight": (1, 30, False),
    "bytes": (1024, 5_000_000, True),
    "line": (1, 200, True),
    "epoch": (0, 0, True),
    "number_id": (12, 4800, True),
    "version": (1, 12, True),
    "days": (1, 30, True),
    "day_of_month": (1, 28, True),
    "ordinal": (1, 8, True),
}
