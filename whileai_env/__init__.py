"""whileai-env: an agent's tool specs and system prompt as a seeded, verifiable RL environment.

The public API is this namespace. It is generated from one table, :data:`_PUBLIC` (name → the
module that defines it), and every name loads on first use (PEP 562), so ``import whileai_env``
stays light: it imports the errors and registers the Gymnasium id, nothing else.

>>> import whileai_env as wenv
>>> spec = wenv.load_spec(tools=[{"name": "get_order", "parameters": {"type": "object",
...     "properties": {"order_id": {"type": "string"}}, "required": ["order_id"]}}])
>>> [task.dimensions["tool"] in ("get_order", "unrelated") for task in wenv.draw_tasks(spec, 3, seed=0)]
[True, True, True]
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

import gymnasium as _gymnasium

from whileai_env.errors import (
    AgentError,
    ConfigError,
    EpisodeOver,
    JudgeOutputError,
    LabelsError,
    MissingExtraError,
    OutputExistsError,
    PrivilegedLeakError,
    PublishGateError,
    ResumeMismatchError,
    RowError,
    SpecError,
    StoreError,
    TraceError,
    WhileaiError,
    WorkerError,
)

if "whileai/agent-v0" not in _gymnasium.registry:
    _gymnasium.register(id="whileai/agent-v0", entry_point="whileai_env.envs.gym:AgentEnv")

__version__ = "0.1.0"

_ERRORS = (
    "AgentError",
    "ConfigError",
    "EpisodeOver",
    "JudgeOutputError",
    "LabelsError",
    "MissingExtraError",
    "OutputExistsError",
    "PrivilegedLeakError",
    "PublishGateError",
    "ResumeMismatchError",
    "RowError",
    "SpecError",
    "StoreError",
    "TraceError",
    "WhileaiError",
    "WorkerError",
)

#: The public API: name -> the module that defines it.
_PUBLIC: dict[str, str] = {
    # spec
    "Spec": "whileai_env.spec.load",
    "Tool": "whileai_env.spec.load",
    "load_spec": "whileai_env.spec.load",
    "Clause": "whileai_env.spec.clauses",
    "split_policy": "whileai_env.spec.clauses",
    # scenarios
    "Cell": "whileai_env.scenarios.grid",
    "Grid": "whileai_env.scenarios.grid",
    "build_grid": "whileai_env.scenarios.grid",
    "TOPOLOGY": "whileai_env.scenarios.task",
    "Privileged": "whileai_env.scenarios.task",
    "Task": "whileai_env.scenarios.task",
    "Topology": "whileai_env.scenarios.task",
    "WorldPlan": "whileai_env.scenarios.task",
    "draw_tasks": "whileai_env.scenarios.draw",
    "make_task": "whileai_env.scenarios.draw",
    "rebuild_task": "whileai_env.scenarios.draw",
    "tasks_from_rows": "whileai_env.scenarios.draw",
    "FaultRule": "whileai_env.scenarios.faults",
    "FaultSchedule": "whileai_env.scenarios.faults",
    "write_opener": "whileai_env.writer.opener",
    # world
    "World": "whileai_env.world.mock",
    "WorldOptions": "whileai_env.world.options",
    "register_fault_kind": "whileai_env.world.fault_registry",
    # episode
    "Episode": "whileai_env.episode.engine",
    "StepResult": "whileai_env.episode.engine",
    "StopReason": "whileai_env.episode.stops",
    "SimulatedUser": "whileai_env.episode.user",
    # grading
    "task_checklist": "whileai_env.grading.checklist",
    "conduct_grade": "whileai_env.grading.conduct",
    "leak_report": "whileai_env.grading.leak",
    "format_leak_report": "whileai_env.grading.leak",
    "style_markers": "whileai_env.grading.style",
    "style_report": "whileai_env.grading.style",
    "JUDGE_STATUSES": "whileai_env.grading.judge",
    "Verdict": "whileai_env.grading.judge",
    "judge_report": "whileai_env.grading.judge",
    "normalise_verdict": "whileai_env.grading.judge",
    "run_judge": "whileai_env.grading.judge",
    # data
    "Judgment": "whileai_env.data.rows",
    "Marker": "whileai_env.data.rows",
    "Rollout": "whileai_env.data.rows",
    "RowParts": "whileai_env.data.rows",
    "export_row": "whileai_env.data.rows",
    "from_row": "whileai_env.data.rows",
    "row_errors": "whileai_env.data.rows",
    "to_row": "whileai_env.data.rows",
    "validate_row": "whileai_env.data.rows",
    "read_rows": "whileai_env.data.jsonl",
    "write_rows": "whileai_env.data.jsonl",
    # analysis
    "PassAt": "whileai_env.analysis.passk",
    "pass_at": "whileai_env.analysis.passk",
    "probe_reward": "whileai_env.analysis.probes",
    "optimize": "whileai_env.analysis.selection",
    "curriculum": "whileai_env.analysis.curriculum",
    "format_curriculum": "whileai_env.analysis.curriculum",
    "retire_solved": "whileai_env.analysis.curriculum",
    "build_preference_pairs": "whileai_env.analysis.pairs",
    "fault_ablation_pairs": "whileai_env.analysis.ablation",
    "format_hack_scan": "whileai_env.analysis.hack_scan",
    "hack_scan": "whileai_env.analysis.hack_scan",
    "compare_runs": "whileai_env.analysis.compare",
    "eval_variance": "whileai_env.analysis.compare",
    "delta_report": "whileai_env.analysis.delta",
    "format_delta_report": "whileai_env.analysis.delta",
    "format_judge_trust": "whileai_env.analysis.judge_trust",
    "judge_agreement": "whileai_env.analysis.judge_trust",
    "judge_trust": "whileai_env.analysis.judge_trust",
    "grounding_report": "whileai_env.analysis.grounding",
    "mark_grounding": "whileai_env.analysis.grounding",
    "decontaminate": "whileai_env.analysis.decontaminate",
    # judges (verifiers as judges; All / Any / Weighted stay in whileai_env.judges)
    "CodeExec": "whileai_env.judges.code_exec",
    "verifier": "whileai_env.judges.compose",
    "MathEqual": "whileai_env.judges.numeric",
    "Numeric": "whileai_env.judges.numeric",
    "JSONField": "whileai_env.judges.structured",
    "JSONSchema": "whileai_env.judges.structured",
    "JSONValid": "whileai_env.judges.structured",
    "ExactMatch": "whileai_env.judges.text",
    "Includes": "whileai_env.judges.text",
    "MultipleChoice": "whileai_env.judges.text",
    "Regex": "whileai_env.judges.text",
    # simulation
    "simulate": "whileai_env.simulation.run",
    "SimulationConfig": "whileai_env.simulation.config",
    "SimulationData": "whileai_env.simulation.data",
    "ScoredData": "whileai_env.simulation.data",
    # agents
    "oracle_agent": "whileai_env.agents.reference",
    "seeded_agent": "whileai_env.agents.reference",
    "silent_agent": "whileai_env.agents.reference",
    # verifiers and export
    "load_environment": "whileai_env.envs.verifiers",
    "export_environment": "whileai_env.export.package",
    # training exports and the dataset store
    "export_dataset": "whileai_env.export.dataset",
    "export_training": "whileai_env.export.dataset",
    "to_hf_dataset": "whileai_env.export.dataset",
    "training_rows": "whileai_env.export.dataset",
    "export_preference": "whileai_env.export.preference",
    "preference_rows": "whileai_env.export.preference",
    "Store": "whileai_env.store.store",
    # model judges and their trust checks
    "rubric_judge": "whileai_env.judges.rubric",
    "likert_judge": "whileai_env.judges.likert",
    "write_rubrics": "whileai_env.judges.rubrics",
    "judge_probes": "whileai_env.analysis.judge_probes",
    "judge_pairs": "whileai_env.analysis.judge_pairs",
    "attach_labels": "whileai_env.analysis.labels",
    "refusal_report": "whileai_env.analysis.refusals",
    # sizing and the publish gate
    "recommend": "whileai_env.analysis.recommend",
    "Recommendation": "whileai_env.analysis.recommend",
    "publish_gate": "whileai_env.export.gate",
    "calibration_of": "whileai_env.export.gate",
    "hack_scan_diff": "whileai_env.analysis.hack_diff",
    "format_hack_scan_diff": "whileai_env.analysis.hack_diff",
    # traces
    "load_traces": "whileai_env.traces.load",
    "rows_from_otel": "whileai_env.traces.otel",
    "tools_from_traces": "whileai_env.traces.tools",
    "infer_harness": "whileai_env.traces.tools",
    "mine_traces": "whileai_env.traces.mining",
    "flaw_rows": "whileai_env.traces.mining",
    "opening_share": "whileai_env.traces.mining",
    "trace_report": "whileai_env.traces.report",
    "format_trace_report": "whileai_env.traces.report",
    "dimensions_from_traces": "whileai_env.traces.aim",
    "leakage_report": "whileai_env.traces.leakage",
    "drop_leaky_rows": "whileai_env.traces.leakage",
    "split_pseudo_production": "whileai_env.traces.split",
    "simulate_from_traces": "whileai_env.traces.simulate",
    # report
    "write_report": "whileai_env.report.page",
    "summary_table": "whileai_env.report.summary",
}
#: Subpackages reachable as attributes (``whileai_env.world`` is also callable: ``wenv.world(tools)``).
_SUBMODULES = ("world", "types", "judges", "store")

__all__ = sorted([*_PUBLIC, *_ERRORS, *_SUBMODULES, "__version__"])

if TYPE_CHECKING:  # what type checkers read; tests/test_public_api.py checks it matches _PUBLIC
    from whileai_env.agents.reference import oracle_agent, seeded_agent, silent_agent
    from whileai_env.analysis.ablation import fault_ablation_pairs
    from whileai_env.analysis.compare import compare_runs, eval_variance
    from whileai_env.analysis.curriculum import curriculum, format_curriculum, retire_solved
    from whileai_env.analysis.decontaminate import decontaminate
    from whileai_env.analysis.delta import delta_report, format_delta_report
    from whileai_env.analysis.grounding import grounding_report, mark_grounding
    from whileai_env.analysis.hack_diff import format_hack_scan_diff, hack_scan_diff
    from whileai_env.analysis.hack_scan import format_hack_scan, hack_scan
    from whileai_env.analysis.judge_pairs import judge_pairs
    from whileai_env.analysis.judge_probes import judge_probes
    from whileai_env.analysis.judge_trust import format_judge_trust, judge_agreement, judge_trust
    from whileai_env.analysis.labels import attach_labels
    from whileai_env.analysis.pairs import build_preference_pairs
    from whileai_env.analysis.passk import PassAt, pass_at
    from whileai_env.analysis.probes import probe_reward
    from whileai_env.analysis.recommend import Recommendation, recommend
    from whileai_env.analysis.refusals import refusal_report
    from whileai_env.analysis.selection import optimize
    from whileai_env.data.jsonl import read_rows, write_rows
    from whileai_env.data.rows import (
        Judgment,
        Marker,
        Rollout,
        RowParts,
        export_row,
        from_row,
        row_errors,
        to_row,
        validate_row,
    )
    from whileai_env.envs.verifiers import load_environment
    from whileai_env.episode.engine import Episode, StepResult
    from whileai_env.episode.stops import StopReason
    from whileai_env.episode.user import SimulatedUser
    from whileai_env.export.dataset import (
        export_dataset,
        export_training,
        to_hf_dataset,
        training_rows,
    )
    from whileai_env.export.gate import calibration_of, publish_gate
    from whileai_env.export.package import export_environment
    from whileai_env.export.preference import export_preference, preference_rows
    from whileai_env.grading.checklist import task_checklist
    from whileai_env.grading.conduct import conduct_grade
    from whileai_env.grading.judge import (
        JUDGE_STATUSES,
        Verdict,
        judge_report,
        normalise_verdict,
        run_judge,
    )
    from whileai_env.grading.leak import format_leak_report, leak_report
    from whileai_env.grading.style import style_markers, style_report
    from whileai_env.judges.code_exec import CodeExec
    from whileai_env.judges.compose import verifier
    from whileai_env.judges.likert import likert_judge
    from whileai_env.judges.numeric import MathEqual, Numeric
    from whileai_env.judges.rubric import rubric_judge
    from whileai_env.judges.rubrics import write_rubrics
    from whileai_env.judges.structured import JSONField, JSONSchema, JSONValid
    from whileai_env.judges.text import ExactMatch, Includes, MultipleChoice, Regex
    from whileai_env.report.page import write_report
    from whileai_env.report.summary import summary_table
    from whileai_env.scenarios.draw import draw_tasks, make_task, rebuild_task, tasks_from_rows
    from whileai_env.scenarios.faults import FaultRule, FaultSchedule
    from whileai_env.scenarios.grid import Cell, Grid, build_grid
    from whileai_env.scenarios.task import TOPOLOGY, Privileged, Task, Topology, WorldPlan
    from whileai_env.simulation.config import SimulationConfig
    from whileai_env.simulation.data import ScoredData, SimulationData
    from whileai_env.simulation.run import simulate
    from whileai_env.spec.clauses import Clause, split_policy
    from whileai_env.spec.load import Spec, Tool, load_spec
    from whileai_env.store.store import Store
    from whileai_env.traces.aim import dimensions_from_traces
    from whileai_env.traces.leakage import drop_leaky_rows, leakage_report
    from whileai_env.traces.load import load_traces
    from whileai_env.traces.mining import flaw_rows, mine_traces, opening_share
    from whileai_env.traces.otel import rows_from_otel
    from whileai_env.traces.report import format_trace_report, trace_report
    from whileai_env.traces.simulate import simulate_from_traces
    from whileai_env.traces.split import split_pseudo_production
    from whileai_env.traces.tools import infer_harness, tools_from_traces
    from whileai_env.world.fault_registry import register_fault_kind
    from whileai_env.world.mock import World
    from whileai_env.world.options import WorldOptions
    from whileai_env.writer.opener import write_opener


def __getattr__(name: str) -> Any:
    if name in _SUBMODULES:
        return importlib.import_module(f"whileai_env.{name}")
    module = _PUBLIC.get(name)
    if module is None:
        raise AttributeError(f"module 'whileai_env' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__
