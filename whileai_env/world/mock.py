"""The mock world: ``World.call(name, arguments)`` answers like a real API, and never raises.

One call goes through these steps, in this order (the order a real service has):

1. Unknown tool → ``unknown_tool``.
2. The fault schedule (per-tool call index; ``*`` rules count every call). A *gateway* fault
   (timeout, permission_denied, rate_limited, server_error) answers now: the call does nothing.
3. Arguments: a JSON object (or a JSON string of one), valid against the tool's schema, with no
   placeholder values; otherwise ``rejected`` naming the field.
4. The answer: the user's ``execute=`` function, or the mock (entity store, result families,
   output schema).
5. A *payload* fault (stale, malformed, truncated) degrades an ok answer. One that fails the
   call (``malformed``) on a write is answered from a dry run: the write is not applied.

Every call, rejected or not, goes into ``world.ledger`` in the shape ``docs/internals.md`` fixes.

>>> import whileai_env as wenv
>>> w = wenv.world([{"name": "calculate", "parameters": {"properties": {"expression": {"type": "string"}},
...                  "required": ["expression"]}}])
>>> w.call("calculate", {"expression": "12*(3+4)"})["result"]
84
>>> w.call("calculate", {})["error"]["field"]
'expression'
"""

from __future__ import annotations

import copy
import difflib
import traceback
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import jsonschema

from whileai_env._util.hashing import canonical_json, pick, stable_hash
from whileai_env.scenarios.faults import FaultRule, FaultSchedule
from whileai_env.scenarios.task import Task
from whileai_env.spec.load import Spec, load_spec
from whileai_env.types import Execute
from whileai_env.world.binding import active_world
from whileai_env.world.context import Call, error, not_found
from whileai_env.world.entity_ids import mint_id, numeric_id_args, typed_ids
from whileai_env.world.fault_registry import fault_kind
from whileai_env.world.options import WorldOptions, coerce_options
from whileai_env.world.output import Hinter, StoreReader, keep_drawn
from whileai_env.world.profile import ToolProfile, locator_noun, profile_for
from whileai_env.world.records import RecordContext
from whileai_env.world.results import BUILDERS, ArgumentProblem
from whileai_env.world.store import Entity, PlanView, Store, named_ids
from whileai_env.world.synth import synth
from whileai_env.world.validation import (
    FORMAT_CHECKER,
    ArgumentShapeError,
    clean_arguments,
    find_placeholder,
    json_safe,
)
from whileai_env.world.values import draw, iso
from whileai_env.world.workspace import BUILDERS as WORKSPACE_BUILDERS
from whileai_env.world.workspace import Workspace

_UNSET: Any = object()
_OUTPUT_VALIDATORS: dict[tuple[str, str], Any] = {}


@dataclass
class _Outcome:
    """What one call came to, filled in as it goes: the result, the fault rule and whether it fired."""

    recorded: Any
    #: The arguments as sent, when the world read ``recorded`` out of a tool's envelope.
    sent: Any = None
    result: dict[str, Any] = field(default_factory=dict)
    rule: FaultRule | None = None
    fired: bool = False
    kind: str | None = None


def _rejected(problem: Mapping[str, str]) -> dict[str, Any]:
    return error(
        "rejected", problem["message"], **{k: v for k, v in problem.items() if k != "message"}
    )


class World:
    """A seeded mock of the spec's tools for one task (or, without a task, an open world).

    ``spec`` is anything :func:`whileai_env.load_spec` accepts. With a ``task`` the task's
    ``WorldPlan`` decides which ids exist and in what state, and its fault schedule applies;
    ``faults=`` (a ``FaultSchedule``, its dict or JSON) overrides the schedule. ``options`` is a
    :class:`WorldOptions` (or a dict of its fields). ``execute(tool_name, arguments)`` answers
    calls instead of the mock, after the schedule and the argument checks; what it raises
    becomes an ``execute_error`` result. A bug inside the world itself answers
    ``server_error`` (500) and is noted in ``internal_errors``; it never reaches the agent as
    an exception.

    After calls: ``ledger`` (one step per call, ``docs/internals.md``), ``faults_fired``.

    >>> import whileai_env as wenv
    >>> w = wenv.World([{"name": "get_order", "parameters": {"properties": {"order_id": {"type": "string"}},
    ...                  "required": ["order_id"]}}], seed=3)
    >>> first = w.call("get_order", {"order_id": "48213"})
    >>> first == w.call("get_order", {"order_id": "48213"}), len(w.ledger)
    (True, 2)
    """

    def __init__(
        self,
        spec: Any,
        task: Task | None = None,
        *,
        seed: int = 0,
        options: WorldOptions | Mapping[str, Any] | None = None,
        execute: Execute | None = None,
        faults: FaultSchedule | Mapping[str, Any] | list | None = None,
    ) -> None:
        self.spec: Spec = load_spec(spec)
        self.options: WorldOptions = coerce_options(options)
        if execute is not None and not callable(execute):
            raise TypeError("execute must be a callable execute(tool_name, arguments)")
        self.execute = execute
        self._profile = profile_for(self.spec)
        self._epoch = self.options.clock_epoch
        self._options_json = self.options.key
        self.seed = int(seed)
        self.follows = False
        self._faults_given: Any = None
        self.reset(task, faults=faults)

    # -- episode ---------------------------------------------------------------------------

    def reset(
        self, task: Task | None = None, *, seed: int | None = None, faults: Any = _UNSET
    ) -> World:
        """Start a new episode: bind ``task`` (or none) and clear the store, the ledger and the
        call counters. The schedule is ``faults`` if given; left out, the one given before (to
        the constructor or an earlier reset) stays; ``None`` falls back to the task's own.
        Returns ``self``, so ``world.reset(task).call(...)`` reads naturally."""
        self.task = task
        if seed is not None:
            self.seed = int(seed)
        if task is not None:
            self.seed = int(task.seed)
        if faults is not _UNSET:
            self._faults_given = faults
        faults = self._faults_given
        schedule = (
            _as_schedule(faults)
            if faults is not None
            else (task.faults if task is not None else None)
        )
        for rule in schedule.rules if schedule else ():
            fault_kind(rule.kind)
        self.schedule: FaultSchedule | None = schedule if schedule else None
        self.key = (
            f"{self.seed}|{task.scenario_id}|{task.situation}"
            if task is not None
            else str(self.seed)
        )
        self.ledger: list[dict[str, Any]] = []
        self.faults_fired: list[dict[str, Any]] = []
        self.internal_errors: list[str] = []
        self._tool_calls: dict[str, int] = {}
        self._known_calls = 0
        self._workspace: Workspace | None = None
        plan = _plan_view(task, self._noun_of)
        currency = self.options.currency or pick(self.options.currencies, "currency", self.seed)
        self.ctx = RecordContext(
            now=self._epoch,
            currency=currency,
            amount_range=self.options.amount_range,
            statuses=self._profile.statuses,
            enums=self._profile.enums,
            extras=self._profile.extras,
            related=self._profile.related,
            id_for=self._id_for,
            senses=self._profile.senses,
        )
        signature = f"{self.spec.content_hash}|{self._options_json}|{self.seed}"
        self.store = Store(
            key=self.key,
            ctx=self.ctx,
            spec=self._profile,
            exists_share=self.options.exists_share,
            plan=plan,
            now=self._epoch,
            signature=signature,
            record_key=str(self.seed),
        )
        return self

    def _noun_of(self, arg: str, targets: Sequence[str] = ()) -> str:
        """The noun argument ``arg`` names: in the task's target tools first (a label tool's
        ``id`` is a label's, whatever another tool's ``id`` names), then in any tool."""
        tools = self._profile.tools
        for tp in [*(tools[t] for t in targets if t in tools), *tools.values()]:
            if arg in tp.nouns:
                return tp.nouns[arg]
        return locator_noun(arg) or "record"

    def _id_for(self, noun: str, r: Any) -> Any:
        """A new id of ``noun`` in the spec's one format for it (``R10646``, ``u_48213``), drawn from ``r``."""
        return mint_id(
            self.spec, noun, self._profile.id_key(noun), r, self._profile.id_schemas.get(noun)
        )

    @property
    def workspace(self) -> Workspace:
        """The repository coding tools act on, laid out on first use."""
        if self._workspace is None:
            plan = self.store.plan
            missing = plan.state == "missing"
            paths: tuple[list[str], list[str]] = ([], [])
            branches: tuple[list[str], list[str]] = ([], [])
            current = None
            for value, arg in plan.values.items():
                noun = self._noun_of(arg)
                if noun in ("file", "directory"):
                    paths[missing].append(value)
                elif noun == "branch":
                    branches[missing].append(value)
                    if plan.state == "already_done":
                        current = value
            for arg, value in _stated_details(
                plan
            ):  # a branch or file the task names in passing is there
                noun = self._noun_of(arg)
                if noun in ("file", "directory") and value not in paths[1]:
                    paths[0].append(value)
                elif noun == "branch" and value not in branches[1]:
                    branches[0].append(value)
            commits = [
                t
                for t in plan.targets
                if t in self._profile.tools
                and self._profile.tools[t].family == "git"
                and self._profile.tools[t].created_noun == "commit"
            ]
            dirty = (plan.state != "already_done") if commits else None
            self._workspace = Workspace.build(
                self.key, self._epoch, paths=paths, branches=branches, current=current, dirty=dirty
            )
        return self._workspace

    def now(self, index: int) -> int:
        """The episode clock at call ``index`` (seconds since the epoch)."""
        return self._epoch + index * self.options.seconds_per_call

    @property
    def tools(self) -> list[dict[str, Any]]:
        """The spec's tools in OpenAI function-calling shape, for an agent's request."""
        return self.spec.openai_tools()

    # -- calls -----------------------------------------------------------------------------

    def call(
        self, name: Any, arguments: Any = None, *, turn: int = 0, call_id: str | None = None
    ) -> dict[str, Any]:
        """Answer one tool call like a real API; record it in the ledger. Never raises.

        A world made by :func:`world` *follows*: while a rollout's world is bound
        (:func:`whileai_env.world.binding.bound`), its calls go to that world, so the rollout's faults
        fire and its ledger records them.
        """
        if self.follows:
            active = active_world()
            if active is not None and active is not self:
                return active.call(name, arguments, turn=turn, call_id=call_id)
        index = len(self.ledger)
        outcome = _Outcome(recorded=arguments)
        try:
            self._respond(name, arguments, index, outcome)
        except Exception as exc:
            self.internal_errors.append(
                f"call {index} ({name!r}): {type(exc).__name__}: {exc}\n"
                + "".join(traceback.format_tb(exc.__traceback__)[-3:])
            )
            outcome.result = error(
                "server_error",
                "500 Internal Server Error: the service failed to handle the request",
                http_status=500,
            )
            outcome.fired = False
        self._record(name, index, outcome, turn, call_id)
        return outcome.result

    def _respond(self, name: Any, arguments: Any, index: int, outcome: _Outcome) -> None:
        """Steps 1-5 of a call (lookup, gateway fault, arguments, answer, payload fault) into ``outcome``."""
        profile = self._profile.tools.get(name) if isinstance(name, str) else None
        shape_error = None
        args: dict[str, Any] = {}
        try:
            args = clean_arguments(arguments)
            outcome.recorded = args
        except ArgumentShapeError as exc:
            outcome.recorded = json_safe(arguments)
            shape_error = error(
                "rejected", f"{exc.field}: {exc}", field=exc.field, problem=exc.problem
            )
        if profile is None:
            outcome.result = self._unknown(name)
            return
        sent, args = args, profile.tool.fields_of(args)
        if args is not sent:
            outcome.recorded, outcome.sent = args, sent
        made = self._profile.upserts.get(profile.name)
        if made is not None and not (profile.primary and args.get(profile.primary)):
            profile = made  # an upsert naming no record of its own makes one
        outcome.kind = profile.kind
        rule = outcome.rule = self._rule_for(profile.name)
        fk = fault_kind(rule.kind) if rule is not None else None
        if fk is not None and rule is not None and not fk.needs_result:
            outcome.result = fk.builder(
                profile.tool, args, None, self._params(rule, index), f"{self.key}|{index}"
            )
            outcome.fired = True
            return
        dry = fk is not None and not fk.degraded and profile.tool.is_write
        result = (
            shape_error
            or self._check(profile, sent, args)
            or (self._dry_run(profile, args, index) if dry else self._answer(profile, args, index))
        )
        if fk is not None and rule is not None and result.get("status") == "ok":
            result = fk.builder(
                profile.tool, args, result, self._params(rule, index), f"{self.key}|{index}"
            )
            outcome.fired = True
        outcome.result = (
            result if isinstance(result, dict) else {"status": "ok", "result": json_safe(result)}
        )

    def _record(
        self, name: Any, index: int, outcome: _Outcome, turn: Any, call_id: str | None
    ) -> None:
        """Append the call's step to the ledger (and a fired fault to ``faults_fired``)."""
        result, rule, fired = outcome.result, outcome.rule, outcome.fired
        status = result.get("status")
        err = result.get("error") if status == "error" else None
        recorded = outcome.recorded
        step = {
            "index": index,
            "tool": name if isinstance(name, str) else json_safe(name),
            "arguments": recorded if isinstance(recorded, dict) else json_safe(recorded),
            "result": result,
            "ok": status == "ok" and not fired,
            "error": err.get("code")
            if isinstance(err, dict)
            else ("error" if status == "error" else None),
            "fault": rule.kind if fired and rule is not None else None,
            "fault_mode": rule.mode if fired and rule is not None else None,
            "kind": outcome.kind,
            "turn": turn if isinstance(turn, int) else json_safe(turn),
            "call_id": str(call_id) if call_id is not None else f"call_{index}",
        }
        if outcome.sent is not None:
            step["sent"] = outcome.sent
        self.ledger.append(step)
        if fired and rule is not None:
            self.faults_fired.append(
                {"index": index, "tool": step["tool"], "kind": rule.kind, "mode": rule.mode}
            )

    def _unknown(self, name: Any) -> dict[str, Any]:
        names = self.spec.tool_names
        shown = name if isinstance(name, str) else json_safe(name)
        close = difflib.get_close_matches(name, names, n=1) if isinstance(name, str) else []
        hint = f"; did you mean {close[0]!r}?" if close else "."
        return error(
            "unknown_tool",
            f"no tool named {shown!r}{hint} Available: {', '.join(names)}",
            available=list(names),
        )

    def _rule_for(self, tool: str) -> FaultRule | None:
        tool_index = self._tool_calls.get(tool, 0)
        self._tool_calls[tool] = tool_index + 1
        call_index = self._known_calls
        self._known_calls += 1
        if self.schedule is None:
            return None
        return self.schedule.fault_for(tool, tool_index, call_index)

    def _params(self, rule: FaultRule, index: int) -> dict[str, Any]:
        now = self.now(index)
        return {
            "timeout_s": self.options.timeout_s,
            "retry_after": self.options.retry_after_s,
            "age_hours": self.options.stale_age_hours,
            "http_statuses": list(self.options.server_error_statuses),
            **rule.params,
            "now": iso(now),
            "now_epoch": now,
        }

    def _check(
        self, profile: ToolProfile, sent: dict[str, Any], args: dict[str, Any]
    ) -> dict[str, Any] | None:
        """The rejection of a call whose arguments (as ``sent``) break the schema or hold a
        placeholder (read in the fields ``args``); ``None`` for a call the tool takes."""
        problem = profile.validator.check(sent, formats=self.options.check_formats)
        if problem is None and self.options.reject_placeholders:
            problem = find_placeholder(
                args, profile.properties, self.store.is_known, profile.locators
            )
        return _rejected(problem) if problem else None

    def _answer(self, profile: ToolProfile, args: dict[str, Any], index: int) -> dict[str, Any]:
        if self.execute is not None:
            return self._execute(profile, args)
        call = Call(
            profile=profile,
            args=args,
            index=index,
            now=self.now(index),
            key=self.key,
            store=self.store,
            spec=self._profile,
            ctx=self.ctx,
            options=self.options,
        )
        family = profile.family
        try:
            if family in WORKSPACE_BUILDERS:
                call.workspace = self.workspace
                result = self._missing_record(profile, args) or WORKSPACE_BUILDERS[family](call)
            else:
                result = BUILDERS[family](call)
        except ArgumentProblem as exc:
            return error("rejected", str(exc), field=exc.field, problem="out_of_range")
        numeric = numeric_id_args(self.spec)
        if numeric and result.get("status") == "ok":  # ids as the tools taking them want them
            result = typed_ids(result, numeric)
        if profile.output_schema is not None and result.get("status") == "ok":
            result = self._conform(profile, result, call)
        return result

    def _missing_record(self, profile: ToolProfile, args: dict[str, Any]) -> dict[str, Any] | None:
        """``not_found`` for a coding tool's call on the task's missing record that is no file or
        branch (``list_pipelines(project_id)`` of a missing project): the repository the tool acts
        on lays out files and branches, not the records around it."""
        plan = self.store.plan
        if plan.state != "missing":
            return None
        for arg in profile.checked:
            noun = profile.nouns.get(arg, "")
            if noun in ("file", "directory", "branch"):
                continue
            for ident in named_ids(args.get(arg)):
                if str(ident) in plan.values:
                    return not_found(noun, ident, arg)
        return None

    def _dry_run(self, profile: ToolProfile, args: dict[str, Any], index: int) -> dict[str, Any]:
        """The answer a write would have had, on a copy of the episode's state: a payload fault
        that fails the call (``malformed``) garbles it, and a failed call does nothing, so a
        retry after a transient one is safe. A user's ``execute=`` is not called."""
        if self.execute is not None:
            return {"status": "ok"}
        saved_store, saved_workspace = self.store, self._workspace
        self.store = saved_store.copy()
        self._workspace = copy.deepcopy(saved_workspace)
        try:
            return self._answer(profile, args, index)
        finally:
            self.store, self._workspace = saved_store, saved_workspace

    def _execute(self, profile: ToolProfile, args: dict[str, Any]) -> dict[str, Any]:
        try:
            sent = profile.tool.sent(args) if profile.tool.envelope else args
            value = self.execute(profile.name, clean_arguments(sent))  # type: ignore[misc]
        except Exception as exc:
            return error("execute_error", f"{type(exc).__name__}: {exc}"[:500])
        if isinstance(value, Mapping):
            out = json_safe(dict(value))
            return out if "status" in out else {"status": "ok", **out}
        return {"status": "ok", "result": json_safe(value)}

    def _conform(self, profile: ToolProfile, result: dict[str, Any], call: Call) -> dict[str, Any]:
        """``result`` fitted to the tool's output schema, every field read from the entity store
        (:mod:`whileai_env.world.output`); a drawn field the store lacked is stored once."""
        schema = profile.output_schema
        payload = {k: v for k, v in result.items() if k != "status"}
        reader = StoreReader(self.store, self._profile, call.args)
        subject = self._result_entity(profile, call, payload, reader)
        tool = profile.tool
        hint = Hinter(reader, schema or {}, call.args, tool.is_write, tool.name).hint(
            schema, payload, subject
        )
        validator = _output_validator(self.spec, profile)
        value: Any = None
        for given in (hint, None):
            r = draw(
                self.key,
                "output",
                profile.name,
                canonical_json(call.args),
                "hinted" if given else "fresh",
            )
            # drawn at the episode's epoch, not the call's clock: the same read draws the same
            value = synth(schema, given, r, now=self._epoch)
            if validator.is_valid(value):
                break
        if not profile.tool.is_write or profile.kind == "create":
            echoed = call.args if profile.kind == "create" else None
            keep_drawn(value, hint if given is not None else {}, subject, reader, echoed)
        if profile.nest_output or not isinstance(value, dict):
            out = {"status": "ok", "result": value}
        else:
            out = {"status": "ok", **value}
        self.store.register(value)
        return out

    def _result_entity(
        self, profile: ToolProfile, call: Call, payload: dict[str, Any], reader: StoreReader
    ) -> Entity | None:
        """The stored entity a result is about: the call's subject, else the one it names."""
        primary = profile.primary
        named = call.args.get(primary) if primary is not None else None
        if isinstance(named, list) and named:  # a batch write: the first record it names
            named = named[0]
        if primary is not None and type(named) in (str, int) and profile.kind != "create":
            found = self.store.peek(profile.nouns[primary], named)
            if found is not None:
                return found
        if profile.kind == "create":  # the new record, not the parent it was created in
            noun = profile.created_noun or profile.name_noun
            ident = payload.get(self._profile.id_key(noun))
            created = self.store.peek(noun, ident) if ident is not None else None
            if created is not None:
                return created
        return reader.entity_of(payload)


def _output_validator(spec: Spec, profile: ToolProfile) -> Any:
    key = (spec.content_hash, profile.name)
    found = _OUTPUT_VALIDATORS.get(key)
    if found is None:
        schema = profile.output_schema or {}
        cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
        found = _OUTPUT_VALIDATORS[key] = cls(schema, format_checker=FORMAT_CHECKER)
    return found


def _stated_details(plan: PlanView) -> list[tuple[str, str]]:
    """The (argument, value) pairs the task states for its tools beyond its entities."""
    return [
        (arg, value)
        for per_tool in plan.details.values()
        for arg, given in per_tool.items()
        for value in named_ids(given)
        if value not in plan.values
    ]


def _as_schedule(faults: Any) -> FaultSchedule:
    if isinstance(faults, FaultSchedule):
        return faults
    if isinstance(faults, str):
        return FaultSchedule.from_json(faults)
    return FaultSchedule.from_dict(faults)


def _plan_view(task: Task | None, noun_of: Callable[[str, Sequence[str]], str]) -> PlanView:
    """What the store reads of ``task``'s plan: every id its entities name (each item of a list
    locator too) and every value its user states, so a stated list of paths or ids is as
    present, or as missing, as a single one."""
    if task is None:
        return PlanView()
    plan = task.world
    values = {ident: k for k, v in plan.entities.items() for ident in named_ids(v)}
    nouns = {value: noun_of(arg, plan.targets) for value, arg in values.items()}
    stated = set(values)
    for per_tool in plan.details.values():
        for value in per_tool.values():
            stated.update(named_ids(value))
    details = {tool: dict(d) for tool, d in plan.details.items()}
    return PlanView(
        state=plan.state,
        values=values,
        targets=tuple(plan.targets),
        details=details,
        stated=frozenset(stated),
        nouns=nouns,
        person_seed=stable_hash("person", task.seed, task.scenario_id, task.situation, "person"),
    )


def world(tools_or_spec: Any, seed: int = 0, **kwargs: Any) -> World:
    """A :class:`World` over ``tools_or_spec`` for a callable agent to call through.

    Calls made through it meet the fault schedule (``faults=``) and are recorded in its ledger.
    Inside a simulation the world *follows*: while a rollout's world is bound
    (:func:`whileai_env.world.binding.bound`) calls go to that world instead, so the agent meets that
    rollout's faults and the calls land in its ledger. ``reset(task)`` starts a new episode.

    >>> import whileai_env as wenv
    >>> w = wenv.world([{"name": "get_order", "parameters": {"properties": {"order_id": {"type": "string"}}}}],
    ...                faults={"rules": [{"kind": "timeout", "tool": "get_order", "mode": "transient"}]})
    >>> w.call("get_order", {"order_id": "48213"})["error"]["code"]
    'timeout'
    """
    made = World(tools_or_spec, seed=seed, **kwargs)
    made.follows = True
    return made
