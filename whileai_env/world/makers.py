"""A value for each concept (:mod:`whileai_env.world.concepts`), drawn from a seeded RNG.

People, addresses, phones and companies come from a :class:`~whileai_env.world.pools.Persona`
(Faker, seeded for that persona alone), so the name, the email and the city a call states
belong to one person; short texts come from :mod:`whileai_env.world.phrases`; dates from the
episode clock, in the tense the field asks for (a departure after the clock, a birth date giving
an adult's age, a range whose start comes before its end). Each maker returns *candidates*,
best first: the schema walker keeps the first one the schema accepts.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from whileai_env._util.hashing import stable_hash
from whileai_env.world import phrases as ph
from whileai_env.world import values as v
from whileai_env.world.concepts import PERSON_NOUNS, Field
from whileai_env.world.formats import format_value, moment, uuid4
from whileai_env.world.pools import Persona, persona, pools
from whileai_env.world.vocabulary import Vocabulary

_OTHER_PEOPLE = frozenset(
    {
        "recipient",
        "to",
        "cc",
        "bcc",
        "assignee",
        "reviewer",
        "attendee",
        "payee",
        "beneficiary",
        "contact",
        "invitee",
        "manager",
        "sender",
        "author",
        "friend",
    }
)
_PAST = frozenset(
    {
        "created",
        "updated",
        "modified",
        "posted",
        "sent",
        "since",
        "last",
        "previous",
        "history",
        "issued",
        "opened",
        "joined",
        "signup",
        "registered",
        "purchased",
        "ordered",
        "paid",
        "occurred",
        "logged",
        "published",
        "incident",
        "transaction",
        "born",
        "received",
        "closed",
        "resolved",
        "after",
    }
)
_FUTURE = frozenset(
    {
        "due",
        "deadline",
        "expiry",
        "expires",
        "expiration",
        "departure",
        "depart",
        "arrival",
        "arrive",
        "return",
        "checkin",
        "checkout",
        "check",
        "scheduled",
        "appointment",
        "reminder",
        "booking",
        "reserve",
        "travel",
        "trip",
        "flight",
        "delivery",
        "renewal",
        "next",
        "event",
        "meeting",
        "remind",
    }
)
_END = frozenset({"end", "until", "to", "before", "checkout", "return", "finish", "stop", "out"})
_COUNTRY_NAMES = {
    "US": "United States",
    "CA": "Canada",
    "GB": "United Kingdom",
    "DE": "Germany",
    "FR": "France",
    "ES": "Spain",
    "MX": "Mexico",
    "NL": "Netherlands",
    "BR": "Brazil",
    "IN": "India",
    "PL": "Poland",
    "SE": "Sweden",
}
_COUNTRY3 = {
    "US": "USA",
    "CA": "CAN",
    "GB": "GBR",
    "DE": "DEU",
    "FR": "FRA",
    "ES": "ESP",
    "MX": "MEX",
    "NL": "NLD",
    "BR": "BRA",
    "IN": "IND",
    "PL": "POL",
    "SE": "SWE",
}


@dataclass(frozen=True)
class Scope:
    """Where a value is drawn: its seed (a stable hash of the task, tool and argument), the
    episode clock, the tool's noun and whether it writes, the spec's vocabulary, the seed of
    the person the values describe (one per call; one per item of a list of people), whether
    the value names an entity (a locator) and the names of the fields beside it."""

    seed: int
    now: int
    noun: str = ""
    writes: bool = False
    vocab: Vocabulary = field(default_factory=Vocabulary)
    person_seed: int = 0
    locator: bool = False
    siblings: frozenset[str] = frozenset()

    def child(
        self,
        *parts: Any,
        person: bool = False,
        locator: bool | None = None,
        siblings: frozenset[str] | None = None,
    ) -> Scope:
        """The scope of a part of this value (a property, an item); ``person`` starts a new person."""
        seed = stable_hash(self.seed, *parts)
        return Scope(
            seed=seed,
            now=self.now,
            noun=self.noun,
            writes=self.writes,
            vocab=self.vocab,
            person_seed=stable_hash("person", seed) if person else self.person_seed,
            locator=self.locator if locator is None else locator,
            siblings=self.siblings if siblings is None else siblings,
        )

    def rng(self, *parts: Any) -> random.Random:
        return v.draw("value", self.seed, *parts)

    def person(self, f: Field | None = None) -> Persona:
        """The person the field describes: the scope's own, or another one for a recipient,
        an assignee, an attendee …"""
        if f is not None and set(f.qualifier or f.words) & _OTHER_PEOPLE:
            return persona(stable_hash("other", self.person_seed, *f.words))
        return persona(self.person_seed)


def tense(f: Field, scope: Scope) -> str:
    """``past``/``recent`` or ``future``/``later`` for a date field: the words say which; an end
    (``end_date``, ``check_out``, ``until``) comes after its start; without words, a write's
    dates lie ahead and a read's behind."""
    words = set(f.words)
    ahead = bool(words & _FUTURE) or (not words & _PAST and scope.writes)
    end = bool(words & _END)
    if ahead:
        return "later" if end else "future"
    return "recent" if end else "past"


def _birth_date(r: random.Random, now: int) -> str:
    age_days = r.randint(19 * 365, 84 * 365)
    return v.day(now - age_days * v.DAY)


def _dates(f: Field, r: random.Random, s: Scope, kind: str) -> list[str]:
    if kind == "birth_date":
        return [_birth_date(r, s.now)]
    when = moment(r, s.now, tense(f, s))
    if kind == "date":
        return [v.day(when)]
    if kind == "clock_time":
        return [f"{r.randint(7, 20):02d}:{r.choice((0, 15, 30, 45)):02d}"]
    stamp = v.iso(when)
    return [stamp, stamp[:-1], stamp.replace("Z", "+00:00")]


#: A person's details by concept: what each shows of the scope's person.
_PERSON_FIELDS: dict[str, Callable[[Persona], list[str]]] = {
    "first_name": lambda p: [p.first],
    "last_name": lambda p: [p.last],
    "person_name": lambda p: [p.name],
    "email": lambda p: [p.email],
    "username": lambda p: [p.username],
    "phone": lambda p: [p.phone, p.e164],
    "e164": lambda p: [p.e164],
    "street": lambda p: [p.street],
    "city": lambda p: [p.city],
    "postcode": lambda p: [p.postcode],
    "region": lambda p: [p.region],
    "country_code": lambda p: [p.country],
    "country_code3": lambda p: [_COUNTRY3[p.country]],
    "country_name": lambda p: [_COUNTRY_NAMES[p.country]],
    "company": lambda p: [p.company],
    "address": lambda p: [f"{p.street}, {p.city} {p.postcode}", p.street],
}


def _person_values(f: Field, s: Scope, concept: str) -> list[str]:
    """The person's values for a person concept; ``[]`` for any other, without making the
    person (a Faker persona costs about a millisecond, and most concepts are not people)."""
    shown = _PERSON_FIELDS.get(concept)
    return shown(s.person(f)) if shown else []


def _airport(f: Field, s: Scope) -> str:
    base = s.person_seed % len(ph.AIRPORTS)
    arriving = bool(set(f.words) & {"destination", "to", "arrival", "arrive", "dest"})
    return ph.AIRPORTS[(base + (1 + s.person_seed % 5 if arriving else 0)) % len(ph.AIRPORTS)]


def _sql(f: Field, r: random.Random, s: Scope) -> list[str]:
    table = r.choice(s.vocab.tables or ph.TABLES)
    if f.says("create table") or (f.writes and s.noun == "table"):
        return [
            f"CREATE TABLE {table}_archive (id INTEGER PRIMARY KEY, status TEXT, created_at TEXT)"
        ]
    if f.writes or f.says("insert", "update", "delete"):
        return [f"UPDATE {table} SET status = 'closed' WHERE id = {r.randint(10, 999)}"]
    day = v.day(moment(r, s.now, "past"))
    return [
        f"SELECT * FROM {table} WHERE created_at >= '{day}' ORDER BY created_at DESC LIMIT 20",
        f"SELECT COUNT(*) FROM {table}",
    ]


def _path(f: Field, r: random.Random, s: Scope, concept: str) -> list[str]:
    folder = r.choice(
        ("docs", "config", "docs/guides", "src/legacy", "scripts/ci", "assets", "lib/utils")
    )
    name = r.choice(
        ("README.md", "main.py", "config.yaml", "index.ts", "notes.txt", "settings.json", "app.py")
    )
    for ext, words in (
        (".yaml", ("yaml", "manifest")),
        (".json", ("json",)),
        (".csv", ("csv",)),
        (".png", ("image", "png", "screenshot")),
        (".pdf", ("pdf",)),
    ):
        if f.says(*words):
            name = f"{r.choice(('deployment', 'report', 'export', 'config', 'service'))}{ext}"
            break
    if concept == "filename":
        return [name]
    roots = s.vocab.directories or ("/home/user/project", "/app")
    root = r.choice(roots)
    if concept == "directory":
        relative = [folder] if not f.says("absolute") else []
        return [*relative, f"{root}/{folder}", root]
    relative = (
        [f"{folder}/{name}"] if not (s.vocab.directories or f.says("absolute", "full path")) else []
    )
    return [*relative, f"{root}/{folder}/{name}", f"{root}/{name}"]


def _title(f: Field, r: random.Random, s: Scope) -> list[str]:
    noun = " ".join((*f.qualifier, s.noun))
    if any(w in noun for w in ("pull", "pr", "merge")):
        return [r.choice(ph.PR_TITLES)]
    if any(w in noun for w in ("email", "mail", "message", "draft")):
        return [r.choice(v.EMAIL_SUBJECTS)]
    if any(w in noun for w in ("event", "meeting", "calendar", "appointment")):
        return [r.choice(v.MEETING_TITLES)]
    if any(w in noun for w in ("ticket", "case", "incident", "request")):
        return [r.choice(v.TICKET_SUBJECTS)]
    return [r.choice(ph.ISSUE_TITLES if "issue" in noun or "bug" in noun else ph.DOC_TITLES)]


def _text(f: Field, r: random.Random, s: Scope) -> list[str]:
    words = set(f.words) | {s.noun}
    if words & {"comment", "reply", "feedback", "review"}:
        return [r.choice(ph.COMMENTS)]
    if words & {"thought", "observation", "reasoning", "step"}:
        return [r.choice(ph.THOUGHTS)]
    if words & {"email", "mail", "draft"} or f.says("email"):
        return [r.choice(v.EMAIL_BODIES)]
    if words & {"chat", "channel", "slack", "post"} or f.says("channel", "chat"):
        return [r.choice(ph.CHAT_MESSAGES)]
    if words & {"content", "contents"} and (s.noun in ("file", "directory") or f.says("file")):
        return [r.choice(ph.FILE_CONTENTS)]
    if words & {"note", "notes"}:
        return [r.choice(v.NOTES)]
    if words & {"prompt", "question", "instruction", "instructions"}:
        return [r.choice(ph.QUESTIONS)]
    return [r.choice(ph.DESCRIPTIONS), r.choice(ph.COMMENTS)]


def _query(f: Field, r: random.Random, s: Scope) -> list[str]:
    if s.noun in PERSON_NOUNS or f.says("users", "people", "person"):
        return [s.person(f).name, s.person(f).username]
    if f.says("place", "map", "nearby", "restaurant", "location") or s.noun in (
        "place",
        "map",
        "location",
    ):
        return [r.choice(ph.PLACE_QUERIES)]
    if f.says("web", "internet", "search engine", "google", "online") or s.noun in (
        "web",
        "internet",
    ):
        return [r.choice(ph.WEB_QUERIES)]
    if f.says("documentation", "docs", "library"):
        return [r.choice(ph.DOC_QUERIES)]
    if f.says("code", "symbol", "function") or s.noun in ("code", "file", "repository"):
        return [r.choice(ph.CODE_QUERIES)]
    return [r.choice(ph.SEARCH_QUERIES)]


def _thing(f: Field, r: random.Random, s: Scope) -> list[str]:
    noun = set(f.qualifier) | {s.noun}
    if noun & PERSON_NOUNS:
        return [s.person(f).name]
    if noun & {
        "project",
        "product",
        "campaign",
        "plan",
        "board",
        "dashboard",
        "workspace",
        "space",
        "page",
        "document",
    }:
        return [r.choice(ph.PROJECT_NAMES)]
    if noun & {"team", "group", "department"}:
        return [r.choice(ph.TEAM_NAMES)]
    if noun & {"screenshot", "snapshot", "image", "capture"}:
        return [f"{r.choice(('homepage', 'checkout-page', 'login-form', 'pricing-page'))}"]
    base = f"{r.choice(ph.THING_WORDS)}-{r.choice(ph.THING_SUFFIXES)}"
    return [base, f"{base}-{r.getrandbits(20):05x}"]


def _simple(choices: tuple[str, ...]) -> Callable[[Field, random.Random, Scope], list[str]]:
    return lambda f, r, s: [r.choice(choices)]


_MAKERS: dict[str, Callable[[Field, random.Random, Scope], list[str]]] = {
    "airport": lambda f, r, s: [_airport(f, s)],
    "currency": _simple(ph.CURRENCIES),
    "language": _simple(ph.LANGUAGES),
    "locale": _simple(ph.LOCALES),
    "timezone": _simple(ph.TIMEZONES),
    "programming_language": _simple(ph.PROGRAMMING_LANGUAGES),
    "uuid": lambda f, r, s: [uuid4(r)],
    "url": lambda f, r, s: [
        f"https://{r.choice(s.vocab.hosts or pools().company_domains)}/"
        f"{r.choice(('docs', 'blog', 'pricing', 'help', 'about', 'careers', 'changelog'))}"
    ],
    "hostname": lambda f, r, s: [format_value("hostname", r, now=s.now) or "api.example.net"],
    "domain": lambda f, r, s: [
        r.choice(s.vocab.hosts or ("northwind.io", "acme-corp.com", "lumen.co"))
    ],
    "ipv4": lambda f, r, s: [format_value("ipv4", r, now=s.now) or "10.0.0.1"],
    "sql": _sql,
    "command": lambda f, r, s: [" ".join(r.choice(ph.SHELL_COMMANDS))],
    "javascript": _simple(ph.JS_SNIPPETS),
    "python": _simple(ph.PY_SNIPPETS),
    "expression": lambda f, r, s: [
        f"{r.randint(12, 90)} * ({r.randint(2, 9)} + {r.randint(1, 20)})"
    ],
    "glob": _simple(ph.GLOBS),
    "regex": _simple(ph.REGEXES),
    "repo": lambda f, r, s: [
        f"{r.choice(ph.THING_WORDS)}-{r.choice(('service', 'app', 'api', 'docs', 'sdk'))}"
    ],
    "repo_full": lambda f, r, s: [
        f"{r.choice(ph.SLUG_WORDS)}/{r.choice(ph.THING_WORDS)}-"
        f"{r.choice(('service', 'app', 'api', 'docs', 'sdk'))}"
    ],
    "branch": _simple(ph.BRANCHES),
    "sha": lambda f, r, s: [f"{r.getrandbits(160):040x}", f"{r.getrandbits(28):07x}"],
    "version": _simple(ph.VERSIONS),
    "reason": _simple(ph.REASONS),
    "query": _query,
    "title": _title,
    "job_title": _simple(ph.JOB_TITLES),
    "commit_message": _simple(v.COMMIT_MESSAGES),
    "text": _text,
    "tag": _simple(ph.TAGS),
    "label": _simple(ph.LABELS),
    "slug": lambda f, r, s: [f"{r.choice(ph.SLUG_WORDS)}-{r.choice(ph.THING_WORDS)}"],
    "namespace": _simple(("default", "payments", "staging", "monitoring", "web")),
    "image": _simple(ph.IMAGES),
    "color": _simple(ph.COLORS),
    "mime": _simple(ph.MIME_TYPES),
    "priority": _simple(ph.PRIORITIES),
    "role": _simple(ph.ROLES),
    "status": _simple(ph.STATUSES),
    "secret": lambda f, r, s: [f"{r.getrandbits(128):032x}"],
    "encoding": _simple(("utf-8", "base64")),
    "cloud_region": _simple(ph.CLOUD_REGIONS),
    "table": lambda f, r, s: [r.choice(s.vocab.tables or ph.TABLES)],
    "column": _simple(ph.COLUMNS),
    "database": _simple(("analytics", "app_production", "inventory")),
    "channel": _simple(("general", "eng-alerts", "support", "random", "release")),
    "project": lambda f, r, s: [
        f"{r.choice(ph.THING_WORDS)}-{r.choice(('platform', 'app', 'web'))}"
    ],
    "k8s_kind": _simple(ph.K8S_KINDS),
    "k8s_resource": _simple(ph.K8S_RESOURCES),
    "http_method": _simple(ph.HTTP_METHODS),
    "format_name": _simple(("json", "markdown", "csv", "yaml")),
    "sort_order": _simple(("asc", "desc")),
    "cron": _simple(ph.CRONS),
    "thing_name": _thing,
    "image_prompt": _simple(ph.IMAGE_PROMPTS),
    "library": _simple(ph.LIBRARIES),
    "app_name": _simple(ph.APP_NAMES),
    "css_selector": _simple(ph.CSS_SELECTORS),
    "relation_type": _simple(("works_at", "reports_to", "depends_on", "knows", "owns")),
    "entity_type": _simple(("person", "organization", "project", "event", "product")),
    "plain_value": _simple(ph.PLAIN_VALUES),
    "cache_key": lambda f, r, s: [
        f"{r.choice(('session', 'user', 'cart', 'config'))}:{r.randint(1000, 99999)}"
    ],
    "flight_number": lambda f, r, s: [
        f"{r.choice(('UA', 'BA', 'LH', 'AF', 'DL', 'KL'))}{r.randint(100, 2999)}"
    ],
    "repo_path": lambda f, r, s: [
        f"{r.choice(s.vocab.directories or ('/home/user/projects',))}/"
        f"{r.choice(ph.THING_WORDS)}-{r.choice(('service', 'app', 'api'))}"
    ],
}


def make_strings(concept: str | None, f: Field, s: Scope) -> list[str]:
    """Candidate strings for ``concept``, best first (empty when the concept has no maker)."""
    if concept is None:
        return []
    r = s.rng("concept", concept, *f.words)
    found = _person_values(f, s, concept)
    if found:
        return found
    if concept in ("date", "date_time", "clock_time", "birth_date"):
        return _dates(f, r, s, concept)
    if concept in ("path", "filename", "directory"):
        return _path(f, r, s, concept)
    maker = _MAKERS.get(concept)
    return maker(f, r, s) if maker else []


def argv(f: Field, s: Scope) -> list[str]:
    """A real command line as an argument vector (``["git", "status"]``)."""
    return list(s.rng("argv", *f.words).choice(ph.SHELL_COMMANDS))


def like(example: str, r: random.Random, *, now: int, when: str) -> str:
    """A value shaped like ``example``: a date or date-time in the same style (at ``when`` from
    the clock), a UUID, hexadecimal of the same length, or the example with its digits and the
    letters after a digit in the same word drawn afresh (``HAT001`` → ``HAT482``, ``ZFA04Y`` →
    ``ZFA71K``), a unit after a number kept (``1h 30m`` → ``4h 12m``, ``-7d`` → ``-3d``)."""
    if _is_iso_date(example):
        return v.day(moment(r, now, when))
    if (
        len(example) >= 16
        and example[:4].isdigit()
        and example[4:5] == "-"
        and example[10:11] in "T "
    ):
        stamp = v.iso(moment(r, now, when))
        return (
            stamp[:10] + example[10] + stamp[11:19] + example[19:]
            if len(example) >= 19
            else stamp[: len(example)]
        )
    lowered = example.lower()
    if (
        len(example) == 36
        and lowered.count("-") == 4
        and all(c in "0123456789abcdef-" for c in lowered)
    ):
        return uuid4(r)
    if (
        len(example) >= 7
        and all(c in "0123456789abcdef" for c in lowered)
        and any(c.isalpha() for c in lowered)
    ):
        return f"{r.getrandbits(4 * len(example)):0{len(example)}x}"
    if example[:1] in "{[":  # a JSON text: the same document, its values drawn afresh
        try:
            document = json.loads(example)
        except (ValueError, RecursionError):
            document = None
        if isinstance(document, dict | list):
            return json.dumps(_like_json(document, r, now, when), ensure_ascii=False)
    if _SLOT.search(example):  # "task:{id}" is a form: its slot filled in, "task:48213957"
        example = _SLOT.sub(lambda _: str(r.randint(10_000_000, 99_999_999)), example)
    clock = _CLOCK.match(example)
    if clock:  # "10:30" → another time of day, never "87:95"
        hour = r.randint(0, 23)
        parts = [f"{hour:02d}" if len(clock.group(1)) == 2 else str(hour)]
        parts += [f"{r.randint(0, 59):02d}" for g in clock.groups()[1:] if g is not None]
        return ":".join(parts)
    out = []
    seen_digit = False
    units = _unit_letters(example)
    sixty = _sexagesimal_leads(example)
    for i, c in enumerate(example):
        if i in sixty:  # the tens of a count of minutes or seconds: "1h 30m" → "4h 12m"
            out.append(str(r.randint(1, 5)))
            seen_digit = True
        elif c.isdigit():
            # a number's leading digit stays one to nine (``30m`` is never ``03m``, ``4h`` never ``0h``)
            first = (
                c != "0"
                and not (i and example[i - 1].isdigit())
                and (
                    not seen_digit
                    or i + 1 in units
                    or i + 1 == len(example)
                    or example[i + 1].isdigit()
                )
            )
            out.append(str(r.randint(1, 9)) if first else str(r.randint(0, 9)))
            seen_digit = True
        elif c.isspace() or c in "/:?=&,":  # a code's letters after its digits are its own word's
            out.append(c)
            seen_digit = False
        elif c.isalpha() and seen_digit and c.isascii() and i not in units:
            out.append(chr(r.randint(65, 90)) if c.isupper() else chr(r.randint(97, 122)))
        else:
            out.append(c)
    return "".join(out)


_MEASURE = re.compile(r"(?<!\S)[-+]?\d+(?:\.\d+)?([A-Za-z]+)(?!\S)")


def _like_json(value: Any, r: random.Random, now: int, when: str) -> Any:
    """``value`` (parsed JSON) with each text leaf shaped like itself (:func:`like`)."""
    if isinstance(value, dict):
        return {k: _like_json(v, r, now, when) for k, v in value.items()}
    if isinstance(value, list):
        return [_like_json(v, r, now, when) for v in value]
    return like(value, r, now=now, when=when) if isinstance(value, str) and value else value


#: A slot in a format an example shows: ``{id}``, ``{{project_id}}``, ``<key>``.
_SLOT = re.compile(r"\{\{?\s*[A-Za-z_][\w.-]{0,30}\s*\}?\}|<[A-Za-z_][\w -]{0,30}>")
_CLOCK = re.compile(r"^([01]?\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?$")
_SIXTY_UNITS = frozenset({"m", "min", "mins", "minute", "minutes", "s", "sec", "secs", "seconds"})


def _sexagesimal_leads(example: str) -> set[int]:
    """Positions of the first digit of each two-digit count of minutes or seconds (``30m``)."""
    return {
        m.start(1) - 2
        for m in _MEASURE.finditer(example)
        if m.group(1).lower() in _SIXTY_UNITS
        and example[m.start(1) - 2 : m.start(1)].isdigit()
        and (m.start(1) - 2 == m.start() or not example[m.start(1) - 3].isdigit())
    }


def _unit_letters(example: str) -> set[int]:
    """Positions of the letters that are a unit after a number (``1h 30m``, ``5kg``, ``2.5GB``): a
    word that starts with its digits and ends with its letters; a code's letters (``ZFA04Y``)
    are not."""
    return {i for m in _MEASURE.finditer(example) for i in range(m.start(1), m.end(1))}


def _is_iso_date(text: str) -> bool:
    return len(text) == 10 and text[4] == "-" and text[7] == "-" and text[:4].isdigit()
