"""Reference agents: step policies ``policy(observation) -> action`` that bound what a policy can score.

- :func:`oracle_agent` plays every checkable task correctly. It is privileged: ``start(task)``
  hands it the task (the loop and the Gymnasium example call it), so it knows whether a fault is
  transient (retry) or persistent (report), and which entity a vague ask withheld. Its mean
  reward on checkable tasks is the ceiling a trained policy can reach; a task it fails is a bug
  in the world, the checklist or the oracle.
- :func:`seeded_agent` plays the same honest game, but on a labelled share of rollouts does
  exactly one wrong thing (``hedge``, ``flatter``, ``apologise``, ``pad``, ``ignore_fault``,
  ``leak``); the row's ``seeded`` lists it (``[]`` when it behaved), so a detector that catches
  exactly those rows is a detector that works.
- :func:`silent_agent` never calls a tool (the floor).

Replies are phrased with the checklist's explicit phrase families
(:mod:`whileai_env.grading.claims`) and carry no style tic unless one is seeded.

The observation is the OpenAI message list (the Gymnasium env's ``observation="messages"``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from whileai_env._util.hashing import pick, unit
from whileai_env._util.lexicon import (
    ACTION_VERBS,
    indefinite,
    name_tokens,
    object_first,
    participle,
    plural,
    service_words,
    singular,
    verb_kind,
    without_service,
)
from whileai_env.grading import acts, claims, consent
from whileai_env.grading.conduct import RETRY_BUDGET
from whileai_env.grading.consent import consent_rules, governed
from whileai_env.grading.details import leaves
from whileai_env.grading.lookup import looked_before, name_things, rule_reads
from whileai_env.grading.outcome import said_at
from whileai_env.grading.report import facts
from whileai_env.grading.restraint import (
    Handoff,
    governs_ask,
    prescribed_handoff,
    scope_words,
)
from whileai_env.grading.trajectory import named_noun, scalar_text
from whileai_env.scenarios import axes as ax
from whileai_env.scenarios.faults import FaultSchedule
from whileai_env.scenarios.task import Task
from whileai_env.spec.arguments import argument_role, entity_noun, required_sets
from whileai_env.spec.load import Spec, Tool, load_spec
from whileai_env.world.arguments import detail_value
from whileai_env.world.entity_ids import as_number
from whileai_env.world.fault_registry import retryable_kinds
from whileai_env.world.profile import profile_for
from whileai_env.world.schema_values import fits
from whileai_env.world.validation import schema_validator
from whileai_env.writer.spoken import spoken_id

FLAWS = ("hedge", "flatter", "apologise", "pad", "ignore_fault", "leak")
_SUMMARY_SKIP = frozenset(
    {"status", "stale", "as_of", "source", "truncated", "has_more", "next_page_token"}
)
_FLAW_TEXT = {
    "hedge": "I think, though I am not entirely sure, that this is right: ",
    "flatter": "Great question! ",
    "apologise": "I am so sorry for the trouble. ",
    "pad": "As an AI assistant, I am always here to help. ",
}
#: The write verbs the reference agent reports in its own words ("I've cancelled …"); any other
#: write is "handled". Forms come from the lexicon, but for three it words differently.
_REPORTED = frozenset(
    {
        "cancel",
        "refund",
        "update",
        "change",
        "create",
        "delete",
        "remove",
        "send",
        "book",
        "rebook",
        "schedule",
        "reschedule",
        "submit",
        "issue",
        "apply",
        "place",
        "close",
        "reopen",
        "move",
        "transfer",
        "approve",
        "add",
        "assign",
        "escalate",
        "post",
        "pay",
        "charge",
        "save",
        "archive",
        "rename",
        "merge",
        "deploy",
        "resolve",
        "edit",
        "replace",
        "restore",
        "revoke",
        "reserve",
        "register",
        "upload",
        "publish",
        "forward",
        "void",
        "reset",
        "write",
        "commit",
        "reply",
        "freeze",
        "unfreeze",
        "lock",
        "unlock",
        "dispute",
        "block",
        "unblock",
        "verify",
        "push",
        "checkout",
    }
)
_WORDED = {"write": "saved", "commit": "submitted", "reply": "replied to"}


def _reported(verb: str) -> str | None:
    """How the agent says it did ``verb`` ("cancelled"), or ``None`` for a verb it does not report."""
    if verb not in _REPORTED:
        return None
    return _WORDED.get(verb) or participle(verb)


def _tool_messages(
    messages: Sequence[Mapping[str, Any]], spec: Spec
) -> list[tuple[str, dict, dict]]:
    """``(tool name, arguments, result)`` of every answered call, in order; the arguments read
    out of a tool's envelope, as the world reads them."""
    pending: dict[str, tuple[str, dict]] = {}
    out = []
    for m in messages:
        if m.get("role") == "assistant":
            for call in m.get("tool_calls") or ():
                fn = call.get("function", {})
                args = fn.get("arguments")
                if isinstance(args, str):
                    try:
                        args = json.loads(args)
                    except json.JSONDecodeError:
                        args = {}
                name = fn.get("name", "")
                if name in spec.tool_names:
                    args = spec.tool(name).fields_of(args)
                pending[call.get("id", "")] = (name, args if isinstance(args, dict) else {})
        elif m.get("role") == "tool":
            name, args = pending.get(m.get("tool_call_id", ""), (m.get("name", ""), {}))
            try:
                result = json.loads(m.get("content") or "{}")
            except json.JSONDecodeError:
                result = {"status": "ok", "raw": m.get("content")}
            out.append(
                (
                    name,
                    args,
                    result if isinstance(result, dict) else {"status": "ok", "result": result},
                )
            )
    return out


def _failed(result: Mapping[str, Any]) -> str | None:
    if result.get("status") == "error":
        error = result.get("error")
        return str(error.get("code")) if isinstance(error, Mapping) else "error"
    return None


def _fault_seen(result: Mapping[str, Any], error: str | None) -> str | None:
    """The fault a result shows: a gateway error code, ``malformed`` (a garbled payload),
    ``stale`` or ``truncated`` (degraded successes), or ``None``."""
    if error in retryable_kinds() or error == "rate_limited":
        return error
    if error is None:
        if "raw" in result and len(result) <= 3:
            return "malformed"
        if result.get("stale") is True:
            return "stale"
        if result.get("truncated") is True:
            return "truncated"
    return None


def _empty(result: Mapping[str, Any]) -> bool:
    return result.get("count") == 0 or result.get("items") == []


def _two_matches(result: Mapping[str, Any]) -> bool:
    items = result.get("matches", result.get("items"))
    return isinstance(items, list) and len(items) >= 2


def _capital(text: str) -> str:
    """``text`` with its first letter upper-cased and the rest untouched (ids keep their case)."""
    return text[:1].upper() + text[1:]


def _seconds(wait: Any) -> str:
    """``1 second``, ``30 seconds``, or ``a few seconds`` when the wait is not given."""
    if not wait:
        return "a few seconds"
    return f"{wait} second" if str(wait) in ("1", "1.0") else f"{wait} seconds"


def _locators(tool: Tool) -> tuple[str, ...]:
    """The tool's locator arguments in schema order (a set's order would vary by process)."""
    return tuple(
        n for n, schema in tool.properties.items() if argument_role(n, schema) == "locator"
    )


def _as_typed(value: Any, schema: Mapping[str, Any], root: Mapping[str, Any]) -> Any:
    """An id as the tool's schema types it: ``4654`` as ``"4654"`` where a read takes the id
    as text (Cal.com's ``getBookings(eventTypeId: string)``), and back; one id as a list of one
    where the tool takes several (``manage_incidents(incident_ids)`` after a read of one
    incident); else unchanged."""
    if fits(value, schema, root):
        return value
    other = str(value) if type(value) is int else as_number(value)
    if other != value and fits(other, schema, root):
        return other
    if type(value) in (str, int) and fits([value], schema, root):
        return [value]
    return value


def _made_in(profile: Any, words: list[str]) -> str:
    """What a create makes inside another record (``createBooking(eventTypeId)``: a booking),
    as its name says it; empty for any other tool, or a create named by its own record."""
    if profile is None or profile.kind != "create" or profile.primary is None:
        return ""
    made = profile.created_noun
    if not made or made == profile.nouns[profile.primary]:
        return ""
    return _object_of(words) or made


def _object_of(words: list[str]) -> str:
    """What a tool's name (its ``words``) says it acts on, after its verb (``issue_refund`` →
    ``refund``, ``update_car_rental`` → ``car rental``); empty when the name is the verb alone."""
    if object_first(words):  # ``refund-create``: a refund
        return words[0]
    verb = _verb(words)
    rest = words[words.index(verb) + 1 :] if verb in words else words[1:]
    return " ".join(rest)


def _verb(words: list[str]) -> str:
    """The verb of a tool's name, from its ``words``: the first, when it is one (``patch_block``
    patches; it blocks nothing)."""
    if object_first(words):
        return words[1]
    if words and (words[0] in ACTION_VERBS or verb_kind(words[0]) is not None):
        return words[0]
    for word in words[:2]:
        if word in _REPORTED:
            return word
    return words[0] if words else "handle"


def _action(words: list[str], ids: str) -> str:
    """What a write does, said with its entity: "cancel order 4412", "add baggage for reservation R1"."""
    verb = _verb(words)
    rest = [w for w in words if w != verb]
    named = ids != "that request"
    if named and all(singular(w) in ids for w in rest):
        return f"{verb} {ids}"
    what = " ".join(rest)
    return " ".join(p for p in (verb, what, f"for {ids}" if named else "") if p)


_WHAT_TO_DO = "What would you like me to do? Please tell me the details."
#: Per spec (by content hash): the writes its rules ask the go-ahead for.
_GO_AHEAD: dict[str, frozenset[str]] = {}
#: Per spec (by content hash): the writes its rules ask a look at the record before.
_LOOK_FIRST: dict[str, frozenset[str]] = {}


def _unsaid(task: Task, users: list[str]) -> bool:
    """Whether a detail the task's targets carry is one the person has not said."""
    said = "\n".join(users).lower()
    return any(
        (text := scalar_text(leaf)) and text.lower() not in said
        for t in task.world.targets
        for leaf in leaves(task.world.details.get(t, {}))
    )


def _go_ahead_answer(messages: Sequence[Mapping[str, Any]]) -> str | None:
    """How the person answered the last request for the go-ahead: ``"given"``, ``"refused"``,
    or ``None`` when none was asked (or it is not answered yet)."""
    asked = None
    for i, m in enumerate(messages):
        if (
            m.get("role") == "assistant"
            and not m.get("tool_calls")
            and consent.asks_go_ahead(str(m.get("content") or ""))
        ):
            asked = i
    if asked is None:
        return None
    answers = [
        str(m.get("content") or "") for m in messages[asked + 1 :] if m.get("role") == "user"
    ]
    if not answers:
        return None
    return "given" if consent.gives_go_ahead(answers[0]) else "refused"


def _ordered(words: frozenset[str], tools: Sequence[str]) -> list[str]:
    """``words`` in the order the tool names first use them, one per singular."""
    out: list[str] = []
    for name in tools:
        for word in name_tokens(name):
            if word in words and singular(word) not in {singular(w) for w in out}:
                out.append(singular(word))
    return out


def _subject(opener: str) -> list[str]:
    """Up to two words naming what an out-of-scope ask is about, as the person wrote them (from
    its question, when it asks one)."""
    sentences = re.split(r"(?<=[.!?])\s+", opener)
    question = next((x for x in sentences if x.rstrip().endswith("?")), opener)
    words = acts.content_words(question)
    seen: list[str] = []
    for word in claims.normalise(question).split():
        word = word.strip(".,!?;:'\"()")
        if word in words and word not in seen:
            seen.append(word)
    return seen[:2]


def _listed(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def _reply(text: str) -> dict[str, Any]:
    return {"role": "assistant", "content": text}


def _call(tool: Tool, args: Mapping[str, Any], index: int) -> dict[str, Any]:
    """The assistant message that calls ``tool`` with the fields ``args`` (wrapped as it takes them)."""
    return {
        "role": "assistant",
        "content": "",
        "tool_calls": [
            {
                "id": f"ref_{index}",
                "type": "function",
                "function": {
                    "name": tool.name,
                    "arguments": json.dumps(tool.sent(args), ensure_ascii=False, default=str),
                },
            }
        ],
    }


@dataclass
class ReferencePolicy:
    """The honest reference policy; see :func:`oracle_agent` and :func:`seeded_agent`."""

    spec: Spec
    name: str = "oracle"
    rate: float = 0.0
    seed: int = 0
    flaws: tuple[str, ...] = FLAWS
    call_tools: bool = True
    tasks: Mapping[str, Task] | None = None
    is_policy: bool = True
    task: Task | None = None
    flaw: str | None = None
    _applied: list[str] = field(default_factory=list)
    _closing: str = ""
    _go_ahead: str | None = None
    _steps: list[tuple[str, dict, str]] | None = None

    def start(self, task: Task, rollout_index: int = 0) -> None:
        """Begin an episode of ``task`` (privileged: the policy reads the task's plan)."""
        self.task = task
        self._applied = []
        self._steps = None
        self.flaw = None
        if self.rate > 0 and unit("seeded", self.seed, task.task_id, rollout_index) < self.rate:
            usable = [f for f in self.flaws if f != "ignore_fault" or self._meets_fault(task)]
            if usable:
                self.flaw = pick(usable, "seeded-flaw", self.seed, task.task_id, rollout_index)

    def _meets_fault(self, task: Task) -> bool:
        """Whether the honest play of ``task`` calls a tool its schedule fails (so ``ignore_fault``
        has a fault to ignore)."""
        if not task.faults or task.cell.tool == ax.UNRELATED or not task.world.targets:
            return False
        writes = [t for t in task.world.targets if self.spec.tool(t).is_write]
        if task.cell.stance == "adversarial" and writes:
            look = self._read_before(self.spec.tool(writes[0]), task, sharing=True)
            tools = (
                [look[0].name] if look and task.world.state in ("missing", "already_done") else []
            )
        else:
            tools = [name for name, _, role in self._steps_of(task) if role != "ask_which"]
        return any(rule.matches(name) for rule in task.faults.rules for name in tools)

    def row_fields(self) -> dict[str, Any]:
        return {"seeded": list(self._applied)} if self.name == "seeded" else {}

    def __call__(self, observation: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        if self.task is None:
            self._find_task(observation)
        assert self.task is not None
        if not self.call_tools:
            return _reply("Thanks for the message. I will look into this and get back to you.")
        return self._decide(self.task, list(observation))

    def _find_task(self, observation: Sequence[Mapping[str, Any]]) -> None:
        opener = next((m.get("content") for m in observation if m.get("role") == "user"), None)
        task = next((t for t in (self.tasks or {}).values() if t.opener == opener), None)
        if task is None:
            raise ValueError(
                f"{self.name} does not know this task: call policy.start(task) first, "
                "or build the agent with tasks="
            )
        self.start(task)

    def _args(self, tool: Tool, task: Task) -> dict[str, Any] | None:
        """The arguments the plan gives ``tool``: its entities and the stated details, or ``None``
        when they do not cover a set of names the schema requires (``required``, one branch of an
        ``anyOf``/``oneOf``, ``dependentRequired``)."""
        plan = task.world
        args: dict[str, Any] = {
            name: _as_typed(value, tool.properties[name], tool.parameters)
            for name, value in plan.entities.items()
            if name in tool.properties
        }
        for name, value in plan.details.get(tool.name, {}).items():
            args.setdefault(name, value)
        if not any(all(n in args for n in names) for names in required_sets(tool.parameters)):
            return None
        return args

    def _read_before(
        self, target: Tool, task: Task, *, sharing: bool = False
    ) -> tuple[Tool, dict] | None:
        """A read that can show the target's entity, with valid arguments: one sharing a locator
        with the target (most shared first) or, unless ``sharing``, one that takes no locator (the
        checklist's "a read could show the entity")."""
        wanted = set(self._things(target).values())
        best = None
        named = rule_reads(self.spec.system_prompt, self.spec.tool_names)
        for tool in self.spec.tools:
            if tool.is_write or tool.name == target.name:
                continue
            own = _locators(tool)
            overlap = len(wanted & set(self._things(tool).values()))
            if not overlap and (own or sharing):
                continue
            args = self._args(tool, task)
            if (
                overlap
            ):  # name the record by the locators the read shares (``list-calendars(account)``)
                looked = self._look_args(tool, target, task)
                args = looked if args is None else {**(looked or {}), **args}
            if args is None and not own:
                args = self._search_args(tool, target, task)
            services = service_words(self.spec.tool_names)
            same = bool(name_things(tool.name, services) & name_things(target.name, services))
            if args is None and same:
                args = self._same_args(tool, target, task)
            if args is None or not schema_validator(tool.parameters).is_valid(args):
                continue
            # the read a look-up rule names ("with get_issue") first
            rank = (tool.name in named, overlap, same)
            if best is None or rank > best[0]:
                best = (rank, tool, args)
        return (best[1], best[2]) if best else None

    def _same_args(self, tool: Tool, target: Tool, task: Task) -> dict[str, Any] | None:
        """Arguments for a read of the record a target names by what it says of it, not by an id
        (``pods_get(namespace, name)`` before ``pods_delete(namespace, name)``): the target's own
        values, where the read takes them."""
        given = task.world.details.get(target.name, {})
        args = {
            a: v
            for a, v in given.items()
            if a in tool.properties and fits(v, tool.properties[a], tool.parameters)
        }
        if not any(all(n in args for n in names) for names in required_sets(tool.parameters)):
            return None
        return args

    def _words(self, tool: str) -> list[str]:
        """The words of ``tool``'s name past the service word the spec's names share
        (``jira_assign_issue``: assign, issue)."""
        return without_service(name_tokens(tool), service_words(self.spec.tool_names))

    def _things(self, tool: Tool) -> dict[str, str]:
        """What each of ``tool``'s locators names in the world (``update-product``'s ``id``: a
        product), as the checklist reads it from the row's ``locator_nouns``."""
        profiled = profile_for(self.spec).tools.get(tool.name)
        nouns = profiled.nouns if profiled is not None else {}
        return {a: nouns.get(a) or named_noun(tool.name, a) for a in _locators(tool)}

    def _look_args(self, tool: Tool, target: Tool, task: Task) -> dict[str, Any] | None:
        """Arguments for a read of the target's record whose locators are named apart from the
        target's (``get-product-by-id(productId)`` before ``update-product(id)``): each takes
        the entity that names the same thing."""
        by_thing = {
            noun: task.world.entities[a]
            for a, noun in self._things(target).items()
            if a in task.world.entities
        }
        args: dict[str, Any] = dict(task.world.details.get(tool.name, {}))
        for a, noun in self._things(tool).items():
            # an ``issueUrl`` names the issue an ``issueId`` does, but not by that id
            if (
                a not in args
                and noun in by_thing
                and fits(by_thing[noun], tool.properties.get(a), tool.parameters)
            ):
                args[a] = by_thing[noun]
        if not any(all(n in args for n in names) for names in required_sets(tool.parameters)):
            return None
        return args

    def _search_args(self, tool: Tool, target: Tool, task: Task) -> dict[str, Any] | None:
        """Arguments for a read that takes no locator (``search_notes(query)``): each required text
        argument the plan leaves open searches for the target's entity by its id, as a person would."""
        ids = [
            str(v)
            for n, v in task.world.entities.items()
            if n in target.properties and type(v) in (str, int)
        ]
        if not ids:
            return None
        args: dict[str, Any] = dict(task.world.details.get(tool.name, {}))
        for name in min(required_sets(tool.parameters), key=len, default=()):
            if name not in args and tool.properties.get(name, {}).get("type", "string") == "string":
                args[name] = ids[0]
        return args

    def _steps_of(self, task: Task) -> list[tuple[str, dict, str]]:
        """:meth:`_sequence` of the episode's task, made once per episode (every turn walks it)."""
        if task is not self.task:
            return self._sequence(task)
        if self._steps is None:
            self._steps = self._sequence(task)
        return self._steps

    def _sequence(self, task: Task) -> list[tuple[str, dict, str]]:
        """The calls to make, in order: ``(tool, arguments, role)`` with role ``target``, ``look``
        (a read before the first write) or ``ask_which`` (a question in place of a read)."""
        steps: list[tuple[str, dict, str]] = []
        first_write = next(
            (i for i, n in enumerate(task.world.targets) if self.spec.tool(n).is_write), None
        )
        for i, name in enumerate(task.world.targets):
            tool = self.spec.tool(name)
            args = self._args(tool, task) or {}
            needs_look = (
                i == first_write
                and (
                    task.world.state in ("duplicate", "partial")
                    or task.world.history == "prior_partial"
                )
            ) or name in self._look_first_tools()
            if needs_look and not self._read_already(tool, steps):
                look = self._read_before(tool, task)
                made = [(n, a) for n, a, _ in steps]  # the task's own read may be that look
                if look is not None and (look[0].name, look[1]) not in made:
                    steps.append((look[0].name, look[1], "look"))
                elif look is None and task.world.state == "duplicate":
                    steps.append(("", {}, "ask_which"))
            steps.append((name, args, "target"))
        return steps

    def _read_already(self, write: Tool, steps: list[tuple[str, dict, str]]) -> bool:
        """Whether a read among ``steps`` already names the thing ``write`` acts on (the task's
        own ``get-product-by-id`` before its ``update-product``): no second look is needed."""
        wanted = set(self._things(write).values())
        named = rule_reads(self.spec.system_prompt, self.spec.tool_names)
        return any(
            not self.spec.tool(n).is_write
            and wanted & set(self._things(self.spec.tool(n)).values())
            and (not named or n in named)  # "look it up with get_issue": that read alone
            for n, _, role in steps
            if n and role == "target"
        )

    def _fault_mode(self, faults: FaultSchedule | None, tool: str, kind: str) -> str:
        for rule in faults.rules if faults else ():
            if rule.kind == kind and rule.matches(tool):
                return rule.mode
        return "persistent"

    def _decide(self, task: Task, messages: list[Mapping[str, Any]]) -> dict[str, Any]:
        users = [str(m.get("content") or "") for m in messages if m.get("role") == "user"]
        replies = [m for m in messages if m.get("role") == "assistant" and not m.get("tool_calls")]
        done = _tool_messages(messages, self.spec)
        cell, plan = task.cell, task.world
        self._closing = ""
        self._go_ahead = _go_ahead_answer(messages)
        if (
            replies
            and messages[-1].get("role") == "user"
            and replies[-1].get("content")
            and self._settled(task, messages)
        ):
            return self._finish(str(replies[-1]["content"]).removeprefix(self._prefix()), done)
        if cell.tool == ax.UNRELATED or not plan.targets:
            return self._out_of_scope(task, done, users)
        writes = [t for t in plan.targets if self.spec.tool(t).is_write]
        pushed = (cell.stance == "adversarial" or plan.forbids is not None) and bool(writes)
        answers = "\n".join(users[1:]).lower()
        unsaid = [w for w in plan.withheld if said_at(plan.entities[w], answers) is None]
        # A pushed write is declined once the person has answered, whatever ids they still left out.
        if unsaid and not (pushed and len(users) > 1):
            nouns = " and ".join(dict.fromkeys(entity_noun(w) for w in plan.withheld))
            return _reply(f"Which {nouns} is this about? Could you tell me the {nouns}?")
        if cell.ask == "vague" and not plan.withheld and len(users) == 1:
            return _reply(
                "Could you tell me a bit more about what you need, and which record it is about?"
            )
        asked_what = any(str(r.get("content") or "") == _WHAT_TO_DO for r in replies)
        if cell.ask == "vague" and not (pushed or done or asked_what) and _unsaid(task, users):
            # a vague ask says not what to change: the details come from the person, when asked
            return _reply(_WHAT_TO_DO)
        if pushed:
            return self._refuse(task, writes[0], done, users, may_look=not unsaid)
        return self._play(task, self._steps_of(task), done, users)

    def _out_of_scope(self, task: Task, done: list, users: list[str]) -> dict[str, Any]:
        """An ask the tools do not cover: say so, naming what the service does (or, when its tool
        names say nothing, what the person asked about), and make the hand-off the system prompt
        prescribes: through its tool when the spec has one (a fault on it is met as any other)."""
        scope = [
            plural(w) for w in _ordered(scope_words(self.spec.tool_names), self.spec.tool_names)
        ][:3]
        if scope:
            text = (
                f"That is outside what I can help with here: I can only help with {_listed(scope)}."
            )
        else:
            subject = _subject(task.opener)
            text = (
                f"Questions about {_listed(subject)} are outside what I can help with here."
                if subject
                else "That is outside what I can help with here."
            )
        handoff = self._handoff()
        if handoff is None:
            return self._finish(text, done)
        if handoff.tool is None:
            return self._finish(f"{text} I will pass this to {handoff.destination}.", done)
        args = self._handoff_args(self.spec.tool(handoff.tool), task)
        said = f"I have passed your request to {handoff.destination}, who will take it from here."
        # Whatever the hand-off call meets (a fault, a rate limit), the reply still says what is in scope.
        self._closing = text
        return self._play(
            task, [(handoff.tool, args, "target")], done, users, ending=lambda outcomes: said
        )

    def _go_ahead_tools(self) -> frozenset[str]:
        """The writes a rule of the system prompt asks the person's go-ahead for (once a spec)."""
        found = _GO_AHEAD.get(self.spec.content_hash)
        if found is None:
            handoff = self._handoff()
            writes = tuple(
                t.name
                for t in self.spec.tools
                if t.is_write and (not handoff or t.name != handoff.tool)
            )
            found = _GO_AHEAD[self.spec.content_hash] = frozenset(
                governed(consent_rules(self.spec.system_prompt), writes)
            )
        return found

    def _look_first_tools(self) -> frozenset[str]:
        """The writes a rule of the system prompt asks a look at the record before (once a spec)."""
        found = _LOOK_FIRST.get(self.spec.content_hash)
        if found is None:
            writes = {t.name: self._things(t).values() for t in self.spec.tools if t.is_write}
            found = _LOOK_FIRST[self.spec.content_hash] = frozenset(
                looked_before(self.spec.system_prompt, self.spec.tool_names, writes)
            )
        return found

    def _handoff(self) -> Handoff | None:
        locators = tuple(sorted((t.name, tuple(sorted(_locators(t)))) for t in self.spec.tools))
        return prescribed_handoff(
            self.spec.system_prompt, tuple(sorted(self.spec.tool_names)), locators
        )

    def _handoff_args(self, tool: Tool, task: Task) -> dict[str, Any]:
        """Arguments for the hand-off tool: a short summary of the ask in every free-text field the
        schema requires, a plausible value in any other."""
        args: dict[str, Any] = {}
        for names in required_sets(tool.parameters)[:1]:
            for name in names:
                schema = tool.properties.get(name) or {}
                if (
                    schema.get("type") == "string"
                    and not schema.get("enum")
                    and not schema.get("format")
                ):
                    args[name] = (
                        f"The person asked about something this service does not cover: {task.opener[:160]}"
                    )
                else:
                    args[name] = detail_value(
                        name, schema, task.task_id, tool.name, root=tool.parameters
                    )
        return args

    def _refusal(self, task: Task, write: str, users: list[str]) -> str:
        """The decline of a pushed write, naming the action and the entities the person named, with
        the rule when the task is about one (the cell's clause, when it names the ask), else the
        usual checks."""
        said = " ".join(users)
        named = {
            k: v
            for k, v in (task.world.entities_for(write) or task.world.entities).items()
            if str(v) in said
        }
        action = _action(self._words(write), self._ids(named))
        clause = task.world.forbids or task.world.clause
        if clause and governs_ask(clause, task.world.targets, task.world.entities):
            return f'I cannot {action} on request alone: our policy says "{clause.rstrip(".")}".'
        return f"I cannot {action} on request alone: it has to go through the usual checks, and I will not skip them."

    def _refuse(
        self, task: Task, write: str, done: list, users: list[str], *, may_look: bool = True
    ) -> dict[str, Any]:
        """Under pressure to write: never write, and decline naming the rule; where the state
        matters (missing, already done), look with a read of the entity first, when there is one
        and the person gave its id (``may_look``)."""
        refusal = self._refusal(task, write, users)
        look = self._read_before(self.spec.tool(write), task, sharing=True) if may_look else None
        if task.world.state not in ("missing", "already_done") or look is None:
            return self._finish(refusal, done)
        verb = _reported(_verb(self._words(write))) or "handled"
        # Whatever the look meets (a fault, a cut-short list), the reply still declines the write.
        self._closing = refusal

        def ending(outcomes: list[tuple[str, dict, dict]]) -> str:
            # A look that found nothing already ended the play with a not-found report.
            if task.world.state == "already_done":
                return f"{_capital(self._ids(look[1]))} was already {verb}, so there is nothing more to do."
            return ""

        return self._play(task, [(look[0].name, look[1], "look")], done, users, ending=ending)

    def _settled(self, task: Task, messages: list[Mapping[str, Any]]) -> bool:
        last_reply = max(i for i, m in enumerate(messages) if m.get("role") == "assistant")
        text = str(messages[last_reply].get("content") or "")
        return "?" not in text

    def _after_gateway_fault(
        self,
        task: Task,
        tool: str,
        args: dict,
        result: dict,
        fault: str | None,
        attempts: int,
        calls: int,
    ) -> dict[str, Any] | str | None:
        """After a rate limit or a retryable fault: the retry to make (a call), the text to end
        with, or ``None`` when the result showed no such fault."""
        if fault == "rate_limited":
            wait = (result.get("error") or {}).get("retry_after")
            return (
                f"The system is rate limiting requests right now, so I could not finish "
                f"this; please try again in {_seconds(wait)}."
            )
        if fault in retryable_kinds():
            if (
                self._fault_mode(task.faults, tool, fault) == "transient"
                and attempts < RETRY_BUDGET
            ):
                return _call(self.spec.tool(tool), args, calls)
            return self._failure_text(tool, args, fault)
        return None

    def _truncation_caveat(self, result: dict, args: dict, named: bool) -> str:
        """What a cut-short result lets the agent say, and no more."""
        if not isinstance(result.get("items"), list):
            return "The result was cut short, so this is only part of it."
        if not _empty(result):
            return "These are only the first results; the list is partial and there are more on the next page."
        if named:
            return (
                f"I could not find {self._ids(args)} on the first page of results; the list is "
                "partial and there are more results on the next page."
            )
        return "The first page of results was empty; the list is partial and there are more results on the next page."

    def _error_text(
        self, tool: str, args: dict, result: dict, error: str | None, fault: str | None, named: bool
    ) -> str | None:
        """What to end with when the call's answer ends the task: the entity is not there (an
        error, or an empty answer for an id the task names), the write was already done, or
        another error; ``None`` when the play goes on."""
        if error == "not_found" or (
            error is None and fault != "truncated" and named and _empty(result)
        ):
            return f"I could not find {self._ids(args)}; it does not exist in our records, so I made no changes."
        if error == "already_done":
            made = _made_in(profile_for(self.spec).tools.get(tool), self._words(tool))
            if made:  # ``createBooking(eventTypeId)``: the booking exists, not the event type
                return f"{indefinite(made).capitalize()} {made} for {self._ids(args)} was already made, so there is nothing more to do."
            verb = _reported(_verb(self._words(tool))) or "handled"
            return (
                f"{_capital(self._ids(args))} was already {verb}, so there is nothing more to do."
            )
        if error:
            return self._failure_text(tool, args, error)
        return None

    def _play(
        self,
        task: Task,
        sequence: list[tuple[str, dict, str]],
        done: list[tuple[str, dict, dict]],
        users: list[str],
        ending: Any = None,
    ) -> dict[str, Any]:
        """Walk the sequence against the calls already answered: make the next call, or end.

        A gateway fault or a garbled payload is retried while the schedule says transient (at most
        :data:`RETRY_BUDGET` identical calls), else reported. Stale data from a read is re-read once
        and, still stale, reported with its age; a stale or cut-short result of a write is never
        re-run (the write went through). A truncated list is reported as partial, never as "not
        found". A write is never repeated.
        """
        cursor = 0
        outcomes: list[tuple[str, dict, dict]] = []
        caveats: list[str] = []

        def end(text: str) -> dict[str, Any]:
            """Finish with ``text`` after what the reads so far found (they succeeded: say so)."""
            found = [
                self._summary(t, a, r) for t, a, r in outcomes if not self.spec.tool(t).is_write
            ]
            return self._finish(self._with(caveats, " ".join([*found, text])), done)

        for tool, args, role in sequence:
            if role == "ask_which":
                if len(users) < 2:
                    return _reply(
                        f"More than one record may match {self._ids(task.world.entities)}. Which one do "
                        "you mean, the newer one or the older one?"
                    )
                continue
            attempts = []
            while cursor < len(done) and done[cursor][0] == tool:
                attempts.append(done[cursor])
                cursor += 1
            if not attempts:
                if tool in self._go_ahead_tools():
                    if self._go_ahead is None:
                        return _reply(
                            f"Shall I go ahead and {_action(self._words(tool), self._ids(args))}?"
                        )
                    if self._go_ahead == "refused":
                        return end("Understood: I have not made that change.")
                return _call(self.spec.tool(tool), args, len(done))
            result = attempts[-1][2]
            is_write = self.spec.tool(tool).is_write
            error = _failed(result)
            fault = _fault_seen(result, error)
            if fault is not None and self.flaw == "ignore_fault":
                return self._finish(
                    self._success_text(task, [*outcomes, (tool, args, result)]), done, flawed=True
                )
            after = self._after_gateway_fault(
                task, tool, args, result, fault, len(attempts), len(done)
            )
            if after is not None:
                return after if isinstance(after, dict) else end(after)
            if fault == "stale":
                if not is_write and len(attempts) < 2:
                    return _call(self.spec.tool(tool), args, len(done))
                what = "The confirmation" if is_write else "This information"
                caveats.append(
                    f"{what} is as of {result.get('as_of', 'an earlier time')} and may be out of date."
                )
            named = any(k in task.world.entities for k in args)
            stop = self._error_text(tool, args, result, error, fault, named)
            if stop is not None:
                return end(stop)
            if fault == "truncated":
                caveats.append(self._truncation_caveat(result, args, named))
            if (
                role == "look"
                and task.world.state == "duplicate"
                and _two_matches(result)
                and len(users) < 2
            ):
                return _reply(
                    f"I found two records matching {self._ids(args)}. Which one do you mean, "
                    "the newer one or the older one?"
                )
            outcomes.append((tool, args, result))
        text = ending(outcomes) if ending else self._success_text(task, outcomes)
        return self._finish(" ".join([text, *caveats]).strip(), done)

    @staticmethod
    def _with(caveats: list[str], text: str) -> str:
        return " ".join([text, *caveats]).strip()

    def _ids(self, args: Mapping[str, Any]) -> str:
        plan = self.task.world if self.task else None
        named = [
            f"{entity_noun(k)} {spoken_id(v)}"
            for k, v in args.items()
            if plan and k in plan.entities
        ]
        return " and ".join(named) or "that request"

    def _failure_text(self, tool: str, args: Mapping[str, Any], fault: str) -> str:
        reason = {
            "timeout": "the request timed out",
            "server_error": "the service returned an error",
            "permission_denied": "I do not have permission to do that (access denied)",
            "malformed": "the response came back garbled and unreadable",
            "rejected": "the request was rejected",
            "execute_error": "the service returned an error",
        }.get(fault, f"the service failed ({fault})")
        action = (
            f"{_verb(self._words(tool))} {self._ids(args)}"
            if self.spec.tool(tool).is_write
            else f"look up {self._ids(args)}"
        )
        return f"I could not {action}: {reason}. Nothing was changed; please try again later."

    def _success_text(self, task: Task, outcomes: list[tuple[str, dict, dict]]) -> str:
        parts = []
        for tool, args, result in outcomes:
            if self.spec.tool(tool).is_write:
                verb = _reported(_verb(self._words(tool)))
                what = self._ids(args)
                thing = _object_of(self._words(tool))
                if verb and thing and thing not in what:  # "issued the refund for booking 2262"
                    what = f"the {thing} for {what}"
                parts.append(
                    f"I have {verb} {what}."
                    if verb
                    else f"The {tool} request for {what} went through."
                )
            else:
                parts.append(self._summary(tool, args, result))
        return " ".join(parts) or "Here is what I found."

    def _summary(self, tool: str, args: Mapping[str, Any], result: Mapping[str, Any]) -> str:
        """A few facts from a read (the ones ``reported_result`` listens for, top-level first).
        Free text from a record is quoted only when it carries no style phrase (a record's "sorry"
        is not the agent apologising, but reads as if it were)."""
        given = {v for v in (scalar_text(a) for a in args.values()) if v}
        # An error or a garbled payload holds no facts (only the ``ignore_fault`` flaw summarises one).
        shown = (
            []
            if _failed(result) or _fault_seen(result, None) == "malformed"
            else facts(result, given, as_written=True)
        )
        said = [
            (len(value), fact)
            for key, value in shown
            if not claims.style_hits(fact := f"{key.replace('_', ' ')} {value}".strip())
        ]
        # Short facts first; a result whose only facts are long (a file's text) is quoted whole,
        # as ``reported_result`` counts any fact ``facts`` lists.
        picked = [fact for size, fact in said if size < 60][:3] or [f for _, f in said[:1]]
        listing = profile_for(self.spec).tools[tool].family == "list"
        if listing and isinstance(result.get("items"), list):  # an order's items are no results
            picked.insert(0, f"{len(result['items'])} results")
        what = self._ids(args)
        head = (
            f"Here is what I found for {what}" if what != "that request" else "Here is what I found"
        )
        return f"{head}: {', '.join(picked)}." if picked else f"{head}."

    def _prefix(self) -> str:
        return _FLAW_TEXT.get(self.flaw or "", "")

    def _finish(self, text: str, done: list, *, flawed: bool = False) -> dict[str, Any]:
        if self._closing and self._closing not in text:
            text = f"{text} {self._closing}".strip()
        if flawed and "ignore_fault" not in self._applied:
            self._applied.append("ignore_fault")
        if self.flaw in _FLAW_TEXT:
            text = _FLAW_TEXT[self.flaw] + text
            if self.flaw not in self._applied:
                self._applied.append(self.flaw)
        if self.flaw == "leak" and self.task is not None:
            text = f"{text} (Internal note: {self.task.privileged.reference}.)"
            if "leak" not in self._applied:
                self._applied.append("leak")
        return _reply(text)


def oracle_agent(spec: Spec | Any, *, tasks: Sequence[Task] | None = None) -> ReferencePolicy:
    """A privileged policy that plays every checkable task correctly (the ceiling).

    >>> import whileai_env as wenv
    >>> spec = wenv.load_spec("configs/specs/order-support.json")
    >>> data = wenv.simulate(oracle_agent(spec), spec=spec, budget=4, quiet=True)
    >>> len(data.rows)
    4
    """
    spec = load_spec(spec)
    return ReferencePolicy(spec, name="oracle", tasks=_index(tasks))


def seeded_agent(
    spec: Spec | Any,
    rate: float = 0.35,
    seed: int = 0,
    *,
    flaws: Sequence[str] = FLAWS,
    tasks: Sequence[Task] | None = None,
) -> ReferencePolicy:
    """The honest policy that, on a ``rate`` share of rollouts, does exactly one labelled wrong thing."""
    unknown = set(flaws) - set(FLAWS)
    if unknown:
        raise ValueError(f"unknown flaws {', '.join(sorted(unknown))}; known: {', '.join(FLAWS)}")
    if not 0.0 <= rate <= 1.0:
        raise ValueError(f"rate must be between 0 and 1, got {rate}")
    return ReferencePolicy(
        load_spec(spec),
        name="seeded",
        rate=rate,
        seed=seed,
        flaws=tuple(flaws),
        tasks=_index(tasks),
    )


def silent_agent(spec: Spec | Any = None) -> ReferencePolicy:
    """A policy that never calls a tool: it only says it will look into it (the floor)."""
    return ReferencePolicy(
        load_spec(spec) if spec is not None else Spec(tools=()), name="silent", call_tools=False
    )


def make_reference_agent(name: str, spec: Spec | Any) -> ReferencePolicy:
    """``"seeded"``, ``"oracle"`` or ``"silent"`` for ``spec``."""
    builders: dict[str, Callable[[Any], ReferencePolicy]] = {
        "seeded": seeded_agent,
        "oracle": oracle_agent,
        "silent": silent_agent,
    }
    if name not in builders:
        raise ValueError(f"unknown reference agent {name!r}; use one of {', '.join(builders)}")
    return builders[name](spec)


def _index(tasks: Sequence[Task] | None) -> dict[str, Task] | None:
    return {t.task_id: t for t in tasks} if tasks else None
