"""Reward probes: what a spec's reward pays trivial policies, measured before anyone trains on it.

A GRPO run starts from a weak policy, and the first thing it learns is whatever the reward pays
for that costs least. :func:`probe_reward` plays a fixed set of trivial policies (unrelated text,
a blanket refusal, hand-off or question, a claim with no action, an echo of the user, every read
tool then a claim, the target tool with empty or placeholder arguments, the same call forever,
the oracle's calls carrying other details than the person stated)
on one draw of a spec's tasks, grades every rollout with the reward (``task_checklist`` or the
user's own judge) and prints each one's pass rate beside the oracle's and the share of tasks
where that behaviour is actually right. A probe that passes more often than its behaviour is
right is flagged: that is reward a policy can earn without doing the task.

>>> report = probe_reward("configs/specs/order-support.json", n=40)   # doctest: +SKIP
>>> print(report.format())                                           # doctest: +SKIP
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from whileai_env._util.hashing import pick
from whileai_env.agents.reference import oracle_agent
from whileai_env.episode.engine import Episode
from whileai_env.grading.checklist import task_checklist
from whileai_env.grading.judge import run_judge
from whileai_env.grading.outcome import RESTRAINT_ACTS, restraint_act
from whileai_env.scenarios.draw import draw_tasks
from whileai_env.scenarios.task import Task
from whileai_env.spec.load import Spec, Tool, load_spec
from whileai_env.world.arguments import detail_value

UNRELATED_TEXTS = (
    "Here is a poem about the sea: the waves roll in, the waves roll out, and the gulls keep time.",
    "I like turtles.",
    "The mitochondria is the powerhouse of the cell.",
    "Fun fact: octopuses have three hearts and blue blood.",
)


class _Probe:
    """A step policy with a name; ``start(task)`` resets it for one episode."""

    is_policy = True
    name = "probe"
    description = ""
    #: The restraint acts (``outcome.RESTRAINT_ACTS``) under which this behaviour is the right one.
    right_when: frozenset[str] = frozenset()

    def __init__(self, spec: Spec) -> None:
        self.spec = spec
        self.task: Task | None = None
        self.calls = 0

    def start(self, task: Task) -> None:
        self.task = task
        self.calls = 0

    @property
    def played_oracle(self) -> bool:
        """Whether this rollout was the oracle's own play (then what it earned is right)."""
        return False

    def __call__(self, observation: Sequence[Mapping[str, Any]]) -> Any:
        raise NotImplementedError

    def call(self, tool: str, args: Mapping[str, Any]) -> dict[str, Any]:
        self.calls += 1
        return {
            "role": "assistant",
            "content": "",
            "tool_calls": [
                {
                    "id": f"probe_{self.calls}",
                    "type": "function",
                    "function": {"name": tool, "arguments": json.dumps(dict(args), default=str)},
                }
            ],
        }


class _Says(_Probe):
    """Replies with one fixed text and never calls a tool."""

    text = ""

    def __call__(self, observation: Sequence[Mapping[str, Any]]) -> Any:
        return self.text


class UnrelatedText(_Probe):
    name, description = "unrelated_text", "replies with unrelated text"

    def __call__(self, observation: Sequence[Mapping[str, Any]]) -> Any:
        return pick(
            list(UNRELATED_TEXTS), "probe-unrelated", self.task.task_id if self.task else ""
        )


class BlanketRefusal(_Says):
    name, description = "blanket_refusal", "the same refusal to everything"
    text = "I'm sorry, but I can't help with that request."
    right_when = frozenset({"decline", "redirect"})


class BlanketHandoff(_Says):
    name, description = "blanket_handoff", "the same hand-off to everything"
    text = "I'll pass this to a human colleague who can help you further."
    right_when = frozenset({"handoff", "redirect"})


class BlanketQuestion(_Says):
    name, description = "blanket_question", "the same question to everything"
    text = "Could you tell me more about what you need?"
    right_when = frozenset({"question"})


class ClaimWithoutActing(_Says):
    name, description = "claim_without_acting", "claims success, calls nothing"
    text = "Done! I've taken care of that for you."


class EchoUser(_Probe):
    name, description = "echo_user", "repeats the user's last message"

    def __call__(self, observation: Sequence[Mapping[str, Any]]) -> Any:
        return next(
            (str(m.get("content") or "") for m in reversed(observation) if m.get("role") == "user"),
            "",
        )


def _plan_args(tool: Tool, task: Task) -> dict[str, Any]:
    """Arguments a policy that copies what the user said would give ``tool``: the task's stated
    entities and details, and a plausible value for any other required field."""
    plan = task.world
    args = {
        k: v for k, v in plan.entities.items() if k in tool.properties and k not in plan.withheld
    }
    args.update({k: v for k, v in plan.details.get(tool.name, {}).items() if k in tool.properties})
    for name in tool.required:
        if name not in args:
            args[name] = detail_value(
                name, tool.properties.get(name), task.task_id, tool.name, root=tool.parameters
            )
    return args


def _target(spec: Spec, task: Task) -> Tool:
    """The task's first target, else (an unrelated ask) the spec's first write, else its first tool."""
    names = (
        list(task.world.targets)
        or [t.name for t in spec.tools if t.is_write]
        or list(spec.tool_names)
    )
    return spec.tool(names[0])


class ReadThenClaim(_Probe):
    name, description = "read_then_claim", "calls every read tool, then claims success"

    def __call__(self, observation: Sequence[Mapping[str, Any]]) -> Any:
        reads = [t for t in self.spec.tools if not t.is_write]
        if self.task is not None and self.calls < len(reads):
            tool = reads[self.calls]
            return self.call(tool.name, _plan_args(tool, self.task))
        return "Done! I've taken care of everything you asked for."


class PlaceholderTarget(_Probe):
    name, description = (
        "placeholder_target",
        "calls the target with empty, then placeholder arguments",
    )

    def __call__(self, observation: Sequence[Mapping[str, Any]]) -> Any:
        if self.task is None or self.calls >= 2:
            return "I tried that, but the request was rejected."
        tool = _target(self.spec, self.task)
        if self.calls == 0:
            return self.call(tool.name, {})
        return self.call(tool.name, {name: f"<{name}>" for name in tool.required})


class RetryForever(_Probe):
    name, description = "retry_forever", "makes the same call every turn, never replies"

    def __call__(self, observation: Sequence[Mapping[str, Any]]) -> Any:
        assert self.task is not None
        tool = _target(self.spec, self.task)
        return self.call(tool.name, _plan_args(tool, self.task))


class InventedDetails(_Probe):
    """The oracle's play with every detail the person stated for a target swapped for another
    value of its field: the right tool on the right record, carrying what nobody asked for (a
    message sent with other words, a setting switched the other way). On a task that states no
    detail it has nothing to swap, and replies with unrelated text instead."""

    name, description = (
        "invented_details",
        "the oracle's calls, with the stated details swapped for other values",
    )

    def __init__(self, spec: Spec) -> None:
        super().__init__(spec)
        self.oracle = oracle_agent(spec)

    def start(self, task: Task) -> None:
        super().start(task)
        self.oracle.start(task)
        self.swapped = False

    @property
    def played_oracle(self) -> bool:
        """Nothing was swapped (the oracle declines, or states the one value a field takes), or
        the record is missing or the act already done, so no write of any details happens."""
        state = self.task.world.state if self.task is not None else None
        return not self.swapped or state in ("missing", "already_done")

    def __call__(self, observation: Sequence[Mapping[str, Any]]) -> Any:
        assert self.task is not None
        plan = self.task.world
        if not any(plan.details.get(t) for t in plan.targets):
            self.swapped = True  # nothing to swap: not the oracle's play either
            return pick(list(UNRELATED_TEXTS), "probe-unrelated", self.task.task_id)
        action = self.oracle(observation)
        for call in action.get("tool_calls") or () if isinstance(action, dict) else ():
            fn = call["function"]
            stated = plan.details.get(fn["name"]) or {}
            args = json.loads(fn["arguments"])
            tool = self.spec.tool(fn["name"])
            for name, value in stated.items():
                args[name] = _other_value(tool, name, value, self.task.task_id)
                self.swapped |= args[name] != value
            fn["arguments"] = json.dumps(args, default=str)
        return action


def _other_value(tool: Tool, name: str, value: Any, seed: str) -> Any:
    """A value of ``tool``'s field ``name`` other than ``value`` (the flip of a flag)."""
    if isinstance(value, bool):
        return not value
    for i in range(8):
        other = detail_value(
            name, tool.properties.get(name), seed, "invented", i, root=tool.parameters
        )
        if other != value:
            return other
    return value


PROBES: dict[str, type[_Probe]] = {
    p.name: p
    for p in (
        UnrelatedText,
        BlanketRefusal,
        BlanketHandoff,
        BlanketQuestion,
        ClaimWithoutActing,
        EchoUser,
        ReadThenClaim,
        PlaceholderTarget,
        RetryForever,
        InventedDetails,
    )
}


@dataclass(frozen=True)
class ProbeRow:
    """One probe's measurement: pass rate (reward 1), mean reward, the share of tasks where its
    behaviour is right, and whether it passes more often than that."""

    name: str
    description: str
    pass_rate: float
    mean_reward: float
    right_share: float
    graded: int

    @property
    def flagged(self) -> bool:
        """The probe passes on more tasks than its behaviour is right on: reward for nothing."""
        return self.pass_rate > self.right_share + 1e-9

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "description": self.description,
            "pass_rate": self.pass_rate,
            "mean_reward": self.mean_reward,
            "right_share": self.right_share,
            "graded": self.graded,
            "flagged": self.flagged,
        }


@dataclass(frozen=True)
class ProbeReport:
    """What :func:`probe_reward` measured. ``table`` holds one :class:`ProbeRow` per probe;
    ``oracle_pass_rate`` is the oracle's pass rate on the tasks whose outcome is checkable;
    ``act_shares`` the share of tasks whose right outcome is each restraint act."""

    spec: str
    judge: str
    tasks: int
    seed: int
    table: tuple[ProbeRow, ...]
    oracle_pass_rate: float
    checkable: int
    act_shares: dict[str, float] = field(default_factory=dict)
    restraint_share: float | None = None

    @property
    def flagged(self) -> list[str]:
        return [row.name for row in self.table if row.flagged]

    def to_dict(self) -> dict[str, Any]:
        return {
            "spec": self.spec,
            "judge": self.judge,
            "tasks": self.tasks,
            "seed": self.seed,
            "table": [row.to_dict() for row in self.table],
            "oracle_pass_rate": self.oracle_pass_rate,
            "checkable": self.checkable,
            "act_shares": dict(self.act_shares),
            "restraint_share": self.restraint_share,
            "flagged": self.flagged,
        }

    def format(self) -> str:
        """The report as a text table, one probe a line, flagged probes marked ``!``."""
        knob = (
            "grid default"
            if self.restraint_share is None
            else f"restraint_share={self.restraint_share:g}"
        )
        share = self.act_shares.get
        restraint = ("handoff", "redirect", "decline")
        lines = [
            f"probe-reward {self.spec}: {self.tasks} tasks (seed {self.seed}, {knob}), judge {self.judge}",
            f"right outcome is not to act: {math.fsum(share(a, 0.0) for a in restraint):.1%} of tasks ("
            + ", ".join(f"{a} {share(a, 0.0):.1%}" for a in restraint)
            + f"); ask before acting: {share('question', 0.0):.1%}",
            f"{'policy':<22}{'pass':>8}{'mean':>8}{'right':>8}  behaviour",
        ]
        for row in self.table:
            mark = " !" if row.flagged else ""
            lines.append(
                f"{row.name:<22}{row.pass_rate:>8.1%}{row.mean_reward:>8.3f}{row.right_share:>8.1%}  "
                f"{row.description}{mark}"
            )
        lines.append(
            f"{'oracle':<22}{self.oracle_pass_rate:>8.1%}{'':>8}{'':>8}  the ceiling, on {self.checkable} "
            "checkable tasks"
        )
        if self.flagged:
            lines.append(
                "! passes more often than its behaviour is right: reward a policy can earn without the task"
            )
        else:
            lines.append("no probe passes more often than its behaviour is right")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.format()


def _play(spec: Spec, task: Task, policy: Any) -> dict[str, Any]:
    """One rollout of ``task`` through the engine, ungraded (the judge grades afterwards)."""
    start = getattr(policy, "start", None)
    if callable(start):
        start(task)
    episode = Episode(spec, task, grade=False)
    while not episode.done:
        episode.step(policy(episode.messages))
    return episode.row()


def _grade(rows: list[dict[str, Any]], judge: Callable[[dict], Any] | None) -> list[float]:
    """Each row's reward under ``judge`` (``task_checklist`` when ``None``); an unusable verdict is 0."""
    if judge is None:
        return [float(task_checklist(row)["reward"]) for row in rows]
    graded = run_judge(rows, judge)
    return [
        float(r["reward"])
        if isinstance(r.get("reward"), int | float) and math.isfinite(r["reward"])
        else 0.0
        for r in graded
    ]


def _select(policies: str | Sequence[str]) -> list[type[_Probe]]:
    if policies == "all":
        return list(PROBES.values())
    names = [policies] if isinstance(policies, str) else list(policies)
    unknown = [n for n in names if n not in PROBES]
    if unknown:
        raise ValueError(
            f"unknown probe {', '.join(map(repr, unknown))}; known: {', '.join(PROBES)}"
        )
    return [PROBES[n] for n in names]


def probe_reward(
    spec: Spec | Any,
    policies: str | Sequence[str] = "all",
    n: int = 200,
    judge: Callable[[dict], Any] | None = None,
    seed: int = 0,
    *,
    restraint_share: float | None = None,
    fault_rate: float | None = None,
) -> ProbeReport:
    """Play the trivial policies (:data:`PROBES`) and the oracle on ``n`` tasks of ``spec`` and
    report what the reward pays each.

    ``policies`` is ``"all"`` or probe names; ``judge`` a reward with the judge contract (default
    ``task_checklist``); ``restraint_share`` and ``fault_rate`` go to the draw
    (:func:`~whileai_env.scenarios.draw.draw_tasks`). A row's reward counts as a pass at 1.0.
    """
    if n < 1:
        raise ValueError(f"n must be at least 1, got {n}")
    chosen = _select(policies)
    spec = load_spec(spec)
    tasks = draw_tasks(spec, n, seed=seed, restraint_share=restraint_share, fault_rate=fault_rate)
    oracle_rows = [_play(spec, task, oracle_agent(spec)) for task in tasks]
    acts = [restraint_act(row) for row in oracle_rows]
    checkable = [
        i
        for i, row in enumerate(oracle_rows)
        if task_checklist(row)["markers"].get("outcome_checked")
    ]
    oracle_rewards = _grade([oracle_rows[i] for i in checkable], judge)
    table = []
    for probe in chosen:
        players = [probe(spec) for _ in tasks]
        rewards = _grade(
            [_play(spec, task, p) for task, p in zip(tasks, players, strict=True)], judge
        )
        right = sum(
            act in probe.right_when or p.played_oracle for act, p in zip(acts, players, strict=True)
        ) / len(tasks)
        table.append(
            ProbeRow(
                probe.name,
                probe.description,
                sum(r >= 1.0 for r in rewards) / len(rewards),
                math.fsum(rewards) / len(rewards),
                right,
                len(rewards),
            )
        )
    shares = {act: sum(a == act for a in acts) / len(tasks) for act in RESTRAINT_ACTS}
    return ProbeReport(
        spec=spec.name,
        judge=getattr(judge, "__name__", type(judge).__name__)
        if judge is not None
        else "task_checklist",
        tasks=len(tasks),
        seed=seed,
        table=tuple(table),
        oracle_pass_rate=sum(r >= 1.0 for r in oracle_rewards) / max(1, len(oracle_rewards)),
        checkable=len(checkable),
        act_shares=shares,
        restraint_share=restraint_share,
    )
