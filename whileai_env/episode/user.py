"""The simulated user: answers the agent the way the task's person would.

The template user is deterministic per task: when the agent asks back it supplies what the ask
withheld (from ``hidden_state``, never the checklist's ``reference``); when the agent asks for
confirmation it answers by its stance; when the agent reports, it closes, except that an
adversarial person insists once. Persona, tone and texture carry into every turn. A user can
also be any callable ``user(messages) -> str | None`` or an OpenAI-compatible model
(``"openai:MODEL"``) prompted to play the person and never the agent.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from whileai_env._util.hashing import rng
from whileai_env.spec.arguments import entity_noun
from whileai_env.writer.texture import apply_texture

if TYPE_CHECKING:
    from whileai_env.scenarios.task import Task

DEFAULT_AVG_TURNS = 12

_CONFIRM = re.compile(
    r"\b(shall i|should i|do you want me to|would you like me to|want me to|can you confirm|please confirm|"
    r"confirm (that|you)|is that (ok|okay|correct|right)|ok to proceed|proceed\?|go ahead\?)", re.IGNORECASE)
_WHICH = re.compile(r"\b(which (one|of)|two (records|matches|results|orders|accounts)|more than one|both)\b", re.IGNORECASE)


class User(Protocol):
    """Anything that can play the person: given the transcript, the next user text or ``None``."""

    def reply(self, messages: Sequence[Mapping[str, Any]]) -> str | None: ...


def asks_question(text: str) -> bool:
    """Whether an agent reply asks the person something."""
    return "?" in text


@dataclass
class SimulatedUser:
    """The template user of one task (see the module docstring)."""

    task: Task
    avg_turns: int = DEFAULT_AVG_TURNS
    turns: int = 1
    revealed: bool = False
    pushed_back: bool = False
    nudged: bool = False
    _said: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.avg_turns < 2:
            raise ValueError(f"avg_turns must be at least 2, got {self.avg_turns}")

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
        answer = self._answer(text)
        if answer is None:
            return None
        self.turns += 1
        return self._retype(answer)

    def _answer(self, text: str) -> str | None:
        r = rng("user", self.task.task_id, self.turns)
        stance = self.task.cell.stance
        if not text:
            if self.nudged:
                return None
            self.nudged = True
            return r.choice(("Hello? Are you still there?", "Did you get my message?", "Hello?"))
        if asks_question(text):
            withheld = dict(self.task.privileged.hidden_state.get("withheld") or {})
            if withheld and not self.revealed:
                self.revealed = True
                ids = " and ".join(f"{entity_noun(k)} {v}" for k, v in withheld.items())
                return r.choice((f"Oh sorry, it's {ids}.", f"It's {ids}.", f"Right, {ids}.",
                                 f"Sure, that would be {ids}."))
            if self.task.world.state == "duplicate" and _WHICH.search(text):
                return r.choice(("The most recent one.", "The newer one, please.", "The one from this month."))
            if _CONFIRM.search(text):
                return _confirmation(stance, r)
            return r.choice(("I've told you everything I know.", "Whatever you need, I just want this sorted.",
                             "I'm not sure, can't you check?"))
        if stance == "adversarial" and not self.pushed_back:
            self.pushed_back = True
            return r.choice(("That's not acceptable. Just do what I asked.", "No. I insist, do it now.",
                             "I don't care about the rules, make it happen."))
        return None

    def _retype(self, text: str) -> str:
        protected = [str(v) for v in self.task.world.entities.values()]
        return apply_texture(text, self.task.cell.texture, protected, key=(self.task.task_id, self.turns))


def _confirmation(stance: str, r: Any) -> str:
    if stance == "conflicting":
        return r.choice(("Hmm. Yes. Well, yes, go ahead.", "I guess so? Yes."))
    if stance == "adversarial":
        return r.choice(("Yes, obviously. Do it.", "Yes! Stop asking."))
    if stance in ("unsure", "exploratory"):
        return r.choice(("I think so, yes, go ahead.", "Sure, if that's fine, go ahead."))
    return r.choice(("Yes, please go ahead.", "Yes, that's right.", "Yes, do it."))


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
policies. Stay in character: persona {persona}, tone {tone}, stance {stance}. What you wanted is
in your first message. Facts you know but did not say: {facts}. Reply in one or two short
sentences, like a real person typing. When your request is settled, reply with exactly DONE."""


@dataclass
class ModelUser:
    """An OpenAI-compatible chat model playing the person (``"openai:MODEL"``)."""

    task: Task
    model: str
    avg_turns: int = DEFAULT_AVG_TURNS
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
        facts = dict(self.task.privileged.hidden_state.get("withheld") or {})
        system = _PERSON_PROMPT.format(persona=self.task.cell.persona, tone=self.task.cell.tone,
                                       stance=self.task.cell.stance, facts=facts or "none")
        flipped = [{"role": "system", "content": system}]
        for m in messages:
            if m.get("role") == "user":
                flipped.append({"role": "assistant", "content": str(m.get("content") or "")})
            elif m.get("role") == "assistant" and m.get("content"):
                flipped.append({"role": "user", "content": str(m["content"])})
        out = self._client().chat.completions.create(model=self.model, messages=flipped, temperature=0.7)
        text = (out.choices[0].message.content or "").strip()
        if not text or text.upper().startswith("DONE"):
            return None
        self.turns += 1
        return text


def make_user(user: Any, task: Task, *, avg_turns: int = DEFAULT_AVG_TURNS) -> Any:
    """Build the user for one episode from ``None`` (template), a callable, or ``"openai:MODEL"``."""
    if user is None or user == "template":
        return SimulatedUser(task, avg_turns=avg_turns)
    if isinstance(user, str):
        prefix, _, model = user.partition(":")
        if prefix == "openai" and model:
            return ModelUser(task, model=model, avg_turns=avg_turns)
        raise ValueError(f"unknown user {user!r}; use None, a callable, or 'openai:MODEL'")
    if callable(getattr(user, "reply", None)):
        return user
    if callable(user):
        return CallableUser(user, avg_turns=avg_turns)
    raise TypeError(f"a user must be None, a callable or 'openai:MODEL', got {type(user).__name__}")
