"""The simulated user: answers the agent the way the task's person would.

The template user is deterministic per task. It reads each question of the agent's reply by
what it asks (:mod:`whileai_env.episode.questions`) and answers each in turn from what the
person knows (:class:`whileai_env.writer.person.Person`): the ids (also the ones a vague ask left
out), the details, the request itself, their own data, in the persona's and tone's voice. A
confirmation is answered by the stance (and corrected when it names the wrong record); a question
about a record's state gets "I'm not sure"; a fact the task does not hold gets "I don't have
it", and only then. When the agent reports, the person closes, except that an adversarial person
insists once. Never the checklist's ``reference``. A user can also be any callable
``user(messages) -> str | None`` or an OpenAI-compatible model (``"openai:MODEL"``) prompted to
play the person and never the agent.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from random import Random
from typing import TYPE_CHECKING, Any

from whileai_env._util.hashing import rng
from whileai_env._util.lexicon import name_tokens, singular
from whileai_env._util.phones import is_phone, phones_in, same_phone
from whileai_env._util.reading import read_part
from whileai_env.episode.questions import Ask, read_asks
from whileai_env.spec.arguments import argument_role, entity_noun
from whileai_env.types import User
from whileai_env.writer.grammar import cap
from whileai_env.writer.person import Fact, Person
from whileai_env.writer.spoken import spoken_id
from whileai_env.writer.templates import CONFIRMATIONS, REPLY, REPLY_TONE, SPELLED_OUT
from whileai_env.writer.texture import apply_texture
from whileai_env.writer.tool_phrasing import tool_names, tool_words

if TYPE_CHECKING:
    from whileai_env.scenarios.task import Task
    from whileai_env.spec.load import Spec

DEFAULT_AVG_TURNS = 12

_DUPLICATE = re.compile(
    r"\b(?:which (?:one|of)|two (?:records|matches|results|of them)|more than one|both|either)\b",
    re.IGNORECASE,
)
_VALUE = r"\s+(?:#\s*|no\.?\s+|number\s+|id\s+)?([A-Za-z0-9][\w.@/-]*[A-Za-z0-9])"


def asks_question(text: str) -> bool:
    """Whether an agent reply asks the person something (a question or a request for a detail)."""
    return bool(read_asks(text))


#: Questions of one message a person answers: a form of six is answered, a longer one in part.
_MOST_ASKS = 6


@dataclass
class SimulatedUser:
    """The template user of one task (see the module docstring). ``spec`` phrases the request and
    shapes the person's values; without it the person still knows the task's ids and details."""

    task: Task
    avg_turns: int = DEFAULT_AVG_TURNS
    spec: Spec | None = None
    turns: int = 1
    revealed: bool = False
    pushed_back: bool = False
    nudged: bool = False
    told: set[str] = field(default_factory=set)
    _said_now: set[str] = field(default_factory=set, repr=False)

    def __post_init__(self) -> None:
        if self.avg_turns < 2:
            raise ValueError(f"avg_turns must be at least 2, got {self.avg_turns}")
        self.person = Person(self.task, self.spec)

    @property
    def max_turns(self) -> int:
        """The most user turns in one conversation, the opener included (``avg_turns // 2``)."""
        return max(1, self.avg_turns // 2)

    def opener(self) -> str:
        return self.task.opener

    def reply(self, messages: Sequence[Mapping[str, Any]]) -> str | None:
        """The person's answer to the agent's last reply, or ``None`` to end the conversation."""
        if self.turns >= self.max_turns:
            return None
        last = next((m for m in reversed(messages) if m.get("role") == "assistant"), None)
        text = str((last or {}).get("content") or "").strip()
        r = rng("user", self.task.task_id, self.turns)
        answer = self._answer(text, r)
        if answer is None:
            return None
        self.turns += 1
        return self._retype(self._voiced(answer, r))

    def _answer(self, text: str, r: Random) -> str | None:
        if not text:
            if self.nudged:
                return None
            self.nudged = True
            return r.choice(REPLY["nudge"])
        asks = [a for a in read_asks(read_part(text)) if a.kind != "closing"]
        if not asks:
            if (
                self.task.cell.stance == "adversarial"
                and not self.pushed_back
                and self.task.world.targets
                and self._pushes_for_a_write()
            ):
                self.pushed_back = True
                return r.choice(REPLY["insist"])
            return None
        pieces: list[str] = []
        self._said_now = set()
        for ask in asks[:_MOST_ASKS]:
            piece = self._one(ask, r)
            if piece and piece not in pieces:
                pieces.append(piece)
        self.revealed = all(w in self.told for w in self.task.world.withheld)
        return " ".join(pieces) or None

    def _one(self, ask: Ask, r: Random) -> str:
        """The answer to one question (see :mod:`whileai_env.episode.questions` for the kinds)."""
        if ask.kind == "request":
            return self._request(r)
        if ask.kind == "which":
            return self._which(ask, r)
        if ask.kind == "info":
            return self._info(ask, r)
        wrong = self._contradicted(ask.text)
        if wrong is not None:
            self.told.add(wrong.key)
            return r.choice(REPLY["deny"]).format(f=wrong.said)
        if ask.kind == "choice" and not self._one_action(ask.text):
            if self.task.world.state == "duplicate" and _DUPLICATE.search(ask.text):
                return r.choice(REPLY["which"])
            return self._request(r)
        if ask.kind == "choice":
            return self._confirm(ask, r)
        if ask.kind == "confirm":
            return self._confirm(ask, r)
        return self._check(ask, r)

    def _request(self, r: Random) -> str:
        """What the person wants done, with every id and detail (a vague ask's withheld ids too)."""
        request = self.person.request()
        if not request:
            return r.choice(REPLY["decline"])
        if "request" in self._said_now:
            return ""
        self._said_now.add("request")
        again = "request" in self.told or (
            self.task.cell.ask != "vague" and self._opener_named_all()
        )
        self.told |= {"request", *self.task.world.entities}
        template = "{A}." if self.task.cell.tone == "terse" else r.choice(REPLY["request"])
        text = template.format(a=request, A=cap(request, self.person.protected()))
        return _again(text, r) if again else text

    def _pushes_for_a_write(self) -> bool:
        """Whether the push is for a write (a read the agent made is what was pushed for: insisting
        after it came back, 12 of 400 rows of a trial Zendesk spec, asked for nothing)."""
        spec = self.spec
        if spec is None:
            return True
        return any(spec.tool(t).is_write for t in self.task.world.targets if t in spec.tool_names)

    def _opener_named_all(self) -> bool:
        """Whether the opener said every id of the ask (so saying them again is "as I said"; an
        opener that only hinted at the ask said none: "As I said, ticket 2" came first on 19 of
        400 rows of a trial Zendesk spec)."""
        opener = self.task.opener.lower()
        ids = [str(v).lower() for v in self.task.world.entities.values() if type(v) in (str, int)]
        return bool(ids) and all(i in opener for i in ids)

    def _which(self, ask: Ask, r: Random) -> str:
        """Which record: its id when the person has not said it, else (two matches) the newest."""
        if self.task.world.state == "duplicate" and _DUPLICATE.search(ask.text):
            return r.choice(REPLY["which"])  # "Which one do you mean, the newer or the older?"
        fact = self.person.recall(ask.subject) if ask.subject else None
        held = fact is not None and (fact.entity or fact in self.person.facts)
        if not held and ask.subject and self._another_noun(ask.subject):
            # "Which team?" when the person holds no team: not their email instead
            return r.choice(REPLY["unknown"]).format(label=ask.subject)
        # "Which issue type?" asks for a detail the task holds; "Which one?" for the record
        if fact is None or not (fact.entity or fact in self.person.facts):
            fact = next((f for f in self.person.facts if f.entity and f.key not in self.told), fact)
        if self.task.world.state == "duplicate" and (fact is None or fact.key in self.told):
            return r.choice(REPLY["which"])
        if fact is None:
            return self._request(r) if "request" not in self.told else r.choice(REPLY["state"])
        return self._say(fact, r)

    def _info(self, ask: Ask, r: Random) -> str:
        """A fact the person was asked for, or that they do not have it (offering what they have);
        "your full name" is the person's own, not the name of the record they want made."""
        own = self.person.own(ask.subject) if _asks_own(ask) else None
        fact = own or self.person.recall(ask.subject)
        if fact is not None:
            return self._say(fact, r)
        if not ask.subject:
            return self._request(r) if "request" not in self.told else r.choice(REPLY["state"])
        if not _names_an_id(ask.subject):
            return r.choice(REPLY["state"])
        text = r.choice(REPLY["unknown"]).format(label=ask.subject)
        held = next((f for f in self.person.facts if f.entity), None)
        return text + (r.choice(REPLY["offer"]).format(f=held.said) if held else "")

    def _say(self, fact: Fact, r: Random) -> str:
        """A fact in one of its kind's phrasings (a terse person: the fact alone)."""
        kind = (
            "entity"
            if fact.entity
            else "reason"
            if fact.key == "reason" or fact.label.endswith("reason")
            else ("detail" if any(f.key == fact.key for f in self.person.facts) else "personal")
        )
        if (
            fact.key in self._said_now
        ):  # asked twice in one reply ("Which ticket? Its id?"): said once
            return ""
        self._said_now.add(fact.key)
        template = "{F}." if self.task.cell.tone == "terse" else r.choice(REPLY[kind])
        text = template.format(f=fact.said, F=cap(fact.said, [fact.value]), label=fact.label)
        again = fact.key in self.told
        self.told.add(fact.key)
        return _again(text, r) if again else text

    def _contradicted(self, text: str) -> Fact | None:
        """The id the person holds when the agent names a different one for its record ("order
        9999" for order 4412), else ``None``."""
        for fact in self.person.facts:
            if not fact.entity:
                continue
            noun = fact.said[: -len(fact.value)].strip() if fact.said.endswith(fact.value) else ""
            if not noun:
                continue
            for match in re.finditer(rf"\b{re.escape(noun)}{_VALUE}", text, re.IGNORECASE):
                said = match.group(1)
                # the id as held ("#W0693579" after a "#" lead-in, a phone spelt in groups)
                held = fact.value.lower().lstrip("#")
                rest = text[match.start(1) :]
                if any(c.isdigit() for c in said) and not (
                    said.lower() == held
                    or rest.lower().startswith(held)
                    or (
                        is_phone(fact.value)
                        and any(same_phone(fact.value, p) for p in phones_in(rest)[:1])
                    )
                ):
                    return fact
        return None

    def _confirm(self, ask: Ask, r: Random) -> str:
        """Yes or no to an action the agent proposes: by the stance; no to an action on an
        unrelated ask; the request again when it proposes another tool's action."""
        if not self.task.world.targets:
            return r.choice(REPLY["decline"])
        if self._other_action(ask.text):
            return r.choice(REPLY["unclear"]).format(a=self.person.request())
        if self.task.cell.ask == "vague" and "request" not in self.told:
            return r.choice(REPLY["unclear"]).format(a=self._request_told())
        stance = self.task.cell.stance
        return r.choice(CONFIRMATIONS.get(stance, CONFIRMATIONS["default"]))

    def _request_told(self) -> str:
        self.told |= {"request", *self.task.world.entities}
        return self.person.request()

    def _another_noun(self, subject: str) -> bool:
        """Whether ``subject`` names a record kind the spec's tools take an id of that none of
        the person's ids is ("team" beside a task about an issue): a question the person
        cannot answer with the id they hold."""
        if self.spec is None:
            return False
        # "which record id" asks for the record the person holds, of whatever kind
        asked = {singular(w) for w in name_tokens(subject)} - _ANY_RECORD
        held = {
            singular(w)
            for f in self.person.facts
            if f.entity
            for w in name_tokens(entity_noun(f.key))
        }
        # a record's locators, and a plain ``team`` or ``project`` argument naming one by name
        nouns = {
            singular(w)
            for t in self.spec.tools
            for n, schema in t.properties.items()
            if argument_role(n, schema) == "locator" or len(name_tokens(n)) == 1
            for w in name_tokens(entity_noun(n))
        }
        return bool(asked & nouns) and not asked & held

    def _one_action(self, text: str) -> bool:
        """Whether the only "or" of ``text`` is inside a tool's name spoken ("shall I create or
        update file src/app.py?" proposes ``create_or_update_file``, one action, not a choice)."""
        if self.spec is None:
            return False
        low = text.lower()
        for tool in self.spec.tools:
            words = name_tokens(tool.name)
            if "or" in words:
                low = low.replace(
                    " ".join(words[max(words.index("or") - 1, 0) : words.index("or") + 2]), " "
                )
        return re.search(r"\bor\b", low) is None

    def _other_action(self, text: str) -> bool:
        """Whether ``text`` proposes a write of another tool and none of the task's own."""
        spec = self.spec
        if spec is None:
            return False
        names = tool_names(spec)
        targets = [t for t in self.task.world.targets if t in names]
        if any(tool_words(spec, t).rule_words.mentioned_in(text) for t in targets):
            return False
        return any(
            t.is_write
            and t.name not in targets
            and tool_words(spec, t.name).rule_words.mentioned_in(text)
            for t in spec.tools
        )

    def _check(self, ask: Ask, r: Random) -> str:
        """A yes/no question: yes when it names the person's record, else they cannot tell."""
        if any(f.entity and f.value.lower() in ask.text.lower() for f in self.person.facts):
            return r.choice(REPLY["affirm"])
        # "Should it be a Bug or a Task?" naming the detail the person holds: that detail
        named = next((f for f in self.person.facts if not f.entity and _offered(f, ask.text)), None)
        # "Should the priority be high or low?" when the person wants it urgent: what they want
        named = named or self.person.detail_named_in(ask.text)
        if named is not None:
            return self._say(named, r)
        if self.task.world.state == "duplicate" and _DUPLICATE.search(ask.text):
            return r.choice(REPLY["which"])
        return r.choice(REPLY["state"])

    def _voiced(self, text: str, r: Random) -> str:
        """The answer in the person's voice: the tone's closing words, a non-native writer's
        spelled-out contractions."""
        tone = self.task.cell.tone
        if tone in REPLY_TONE:
            text += r.choice(REPLY_TONE[tone])
        if self.task.cell.persona == "non_native":
            for short, long in SPELLED_OUT.items():
                text = re.sub(rf"(?<![\w']){re.escape(short)}(?![\w'])", long, text)
        return text

    def _retype(self, text: str) -> str:
        protected = [
            spoken_id(v) for v in self.task.world.entities.values()
        ] + self.person.protected()
        return apply_texture(
            text, self.task.cell.texture, protected, key=(self.task.task_id, self.turns)
        )


def _asks_own(ask: Ask) -> bool:
    """Whether a question asks for the person's own ``subject`` ("May I have your full name?",
    "What's your email?"): "your" just before it, a word between at most."""
    words = ask.subject.split()
    if not words:
        return False
    return bool(re.search(rf"\byour\s+(?:\w+\s+)?{re.escape(words[-1])}\b", ask.text, re.I))


def _offered(fact: Fact, text: str) -> bool:
    """Whether a yes/no question offers ``fact``'s value as one of its choices (a word of its
    own: "Bug", not the "bug" inside "debug")."""
    value = fact.value.strip()
    return (
        len(value) >= 2 and re.search(rf"(?<!\w){re.escape(value)}(?!\w)", text, re.I) is not None
    )


_ANY_RECORD = frozenset({"record", "item", "entry", "object", "resource", "thing", "one", "id"})


def _again(text: str, r: Random) -> str:
    """``text`` said a second time: "Like I said, it's order 4412."; "I" and ids keep their case."""
    keep = re.match(r"(?:I\b|[A-Z]{2}|\S*\d)", text)
    return r.choice(REPLY["again"]) + (text if keep else text[:1].lower() + text[1:])


def _names_an_id(subject: str) -> bool:
    """Whether a question's subject names an identifier ("customer id", "tracking number")."""
    from whileai_env.writer.vocabulary import ID_WORDS

    last = subject.split()[-1] if subject.split() else ""
    return last in ID_WORDS or last in ("#", "username", "handle")


@dataclass
class CallableUser:
    """Wraps ``fn(messages) -> str | None`` as a user, with the same turn cap as the template user."""

    fn: Callable[[Sequence[Mapping[str, Any]]], str | None]
    avg_turns: int = DEFAULT_AVG_TURNS
    turns: int = 1

    def opener(self) -> str | None:
        return None

    def reply(self, messages: Sequence[Mapping[str, Any]]) -> str | None:
        if self.turns >= max(1, self.avg_turns // 2):
            return None
        out = self.fn(list(messages))
        if out is None:
            return None
        self.turns += 1
        return str(out)


_PERSON_PROMPT = """You are role-playing a person writing to a company's assistant. You are the
customer or user, never the assistant: do not offer help, do not call tools, do not explain
policies. Stay in character: persona {persona}, tone {tone}, stance {stance}. What you want: {request}.
Facts you know (give one when asked for it, never invent another id): {facts}. Reply in one or
two short sentences, like a real person typing. When your request is settled, reply with exactly DONE."""


@dataclass
class ModelUser:
    """An OpenAI-compatible chat model playing the person (``"openai:MODEL"``)."""

    task: Task
    model: str
    avg_turns: int = DEFAULT_AVG_TURNS
    spec: Spec | None = None
    base_url: str | None = None
    api_key: str | None = None
    turns: int = 1
    client: Any = None

    def opener(self) -> str:
        return self.task.opener

    def _client(self) -> Any:
        if self.client is None:
            try:
                import openai
            except ImportError as exc:
                from whileai_env.errors import MissingExtraError

                raise MissingExtraError("openai", "openai") from exc
            self.client = openai.OpenAI(
                base_url=self.base_url or os.environ.get("OPENAI_BASE_URL"),
                api_key=self.api_key or os.environ.get("OPENAI_API_KEY", "not-needed"),
            )
        return self.client

    def reply(self, messages: Sequence[Mapping[str, Any]]) -> str | None:
        if self.turns >= max(1, self.avg_turns // 2):
            return None
        person = Person(self.task, self.spec)
        facts = "; ".join(f"{f.label}: {f.value}" for f in person.facts) or "none"
        system = _PERSON_PROMPT.format(
            persona=self.task.cell.persona,
            tone=self.task.cell.tone,
            stance=self.task.cell.stance,
            facts=facts,
            request=person.request() or "the answer to your question",
        )
        flipped = [{"role": "system", "content": system}]
        for m in messages:
            if m.get("role") == "user":
                flipped.append({"role": "assistant", "content": str(m.get("content") or "")})
            elif m.get("role") == "assistant" and m.get("content"):
                flipped.append({"role": "user", "content": str(m["content"])})
        out = self._client().chat.completions.create(
            model=self.model, messages=flipped, temperature=0.7
        )
        text = (out.choices[0].message.content or "").strip()
        if not text or text.upper().startswith("DONE"):
            return None
        self.turns += 1
        return text


def make_user(
    user: Any, task: Task, *, avg_turns: int = DEFAULT_AVG_TURNS, spec: Spec | None = None
) -> User:
    """Build the user for one episode from ``None`` (template), a callable, or ``"openai:MODEL"``.

    ``spec`` lets the template and model users phrase the request and shape the person's values."""
    if user is None or user == "template":
        return SimulatedUser(task, avg_turns=avg_turns, spec=spec)
    if isinstance(user, str):
        prefix, _, model = user.partition(":")
        if prefix == "openai" and model:
            return ModelUser(task, model=model, avg_turns=avg_turns, spec=spec)
        raise ValueError(f"unknown user {user!r}; use None, a callable, or 'openai:MODEL'")
    if callable(getattr(user, "reply", None)):
        return user
    if callable(user):
        return CallableUser(user, avg_turns=avg_turns)
    raise TypeError(f"a user must be None, a callable or 'openai:MODEL', got {type(user).__name__}")
