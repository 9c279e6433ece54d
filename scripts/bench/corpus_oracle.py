"""The reference (oracle) agent on every corpus spec: its ceiling, and the calls the world rejects.

For each spec and each ``fault_rate`` (0.8 and 0.0 by default) the oracle plays ``--budget``
tasks drawn in ``explore`` mode. A table per spec gives the mean reward on *checkable* tasks
(``markers.outcome_checked == 1``, as ``tests/agents/test_reference.py`` selects them), the tasks
below 1 by cause, and the reference calls whose arguments fail the tool's own schema, checked
independently of the package: ``jsonschema``'s Draft 2020-12 validator with its format checker
(install ``jsonschema[format-nongpl]`` so date-time, time, uri and hostname are checked too).

A task below 1 is counted by its first cause: ``kind/family`` when the target tool's kind
disagrees with the hand label in ``tests/corpus/labels.json`` (item 4 of issue 10, not a value
problem), else the ``problem`` of the first ``rejected`` call (``pattern_mismatch``, ``missing``,
``out_of_range`` …), else ``other`` (the grade's reason is printed for those with ``-v``).

    .venv/bin/python scripts/bench/corpus_oracle.py                  # tests/corpus/*.json|yaml
    .venv/bin/python scripts/bench/corpus_oracle.py --budget 100 path/to/spec.json -v
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import jsonschema

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import whileai_env as wenv  # noqa: E402


def corpus_paths(given: list[str]) -> list[Path]:
    """The specs named on the command line, else every JSON/YAML file of ``tests/corpus``."""
    if given:
        return [Path(p) for p in given]
    folder = ROOT / "tests" / "corpus"
    return sorted(
        p
        for p in folder.iterdir()
        if p.suffix in (".json", ".yaml", ".yml") and p.name != "labels.json"
    )


def kind_labels(spec_path: Path) -> dict[str, str]:
    """Hand kind labels for this spec's tools (``labels.json`` beside it), if any."""
    labels = spec_path.parent / "labels.json"
    if not labels.is_file():
        return {}
    table = json.loads(labels.read_text(encoding="utf-8"))
    found = table.get(spec_path.stem) or table.get(spec_path.name) or {}
    return {k: v for k, v in found.items() if isinstance(v, str)} if isinstance(found, dict) else {}


def schema_failures(spec: wenv.Spec, rows: list[dict[str, Any]]) -> list[str]:
    """Reference calls whose arguments fail the tool's own schema (independent jsonschema check)."""
    validators = {}
    for tool in spec.tools:
        schema = dict(tool.parameters)
        cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
        validators[tool.name] = cls(
            schema, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
        )
    failures = []
    for row in rows:
        for step in row["steps"]:
            check = validators.get(step["tool"])
            if check is None:
                continue
            error = jsonschema.exceptions.best_match(check.iter_errors(step["arguments"]))
            if error is not None:
                path = "/".join(str(p) for p in error.absolute_path) or "(root)"
                failures.append(f"{step['tool']}.{path}: {error.message[:160]}")
    return failures


def cause(row: dict[str, Any], spec: wenv.Spec, labels: dict[str, str]) -> str:
    """Why a checkable task scored below 1 (see the module docstring)."""
    for target in row["world"].get("targets", []) if isinstance(row.get("world"), dict) else []:
        label = labels.get(target)
        if (
            label
            and spec.tool(target).kind != label
            and not (label == "write" and spec.tool(target).is_write)
        ):
            return "kind/family"
    for step in row["steps"]:
        error = step["result"].get("error") if isinstance(step.get("result"), dict) else None
        if isinstance(error, dict) and error.get("code") == "rejected":
            return str(error.get("problem") or "rejected")
    return "other"


def measure(path: Path, budget: int, rate: float, verbose: bool) -> dict[str, Any]:
    """Play the oracle on ``budget`` tasks of one spec at one fault rate; summarise the rows."""
    spec = wenv.load_spec(path)
    rows = (
        wenv.simulate(
            "oracle", spec=spec, mode="explore", budget=budget, fault_rate=rate, quiet=True
        )
        .grade()
        .rows
    )
    checkable = [r for r in rows if r["markers"].get("outcome_checked") == 1.0]
    labels = kind_labels(path)
    below = [r for r in checkable if r["reward"] < 1.0]
    causes = Counter(cause(r, spec, labels) for r in below)
    if verbose:
        for r in below[:8]:
            print(
                f"    {cause(r, spec, labels):>16}  {r['scenario_dimensions']['tool']}: {r['reason'][:150]}"
            )
    mean = sum(r["reward"] for r in checkable) / len(checkable) if checkable else float("nan")
    return {
        "rows": len(rows),
        "checkable": len(checkable),
        "mean": mean,
        "causes": causes,
        "schema": schema_failures(spec, rows),
        "calls": sum(len(r["steps"]) for r in rows),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("specs", nargs="*", help="spec files (default: tests/corpus/*.json|yaml)")
    parser.add_argument("--budget", type=int, default=300, help="tasks per spec and rate")
    parser.add_argument("--rates", type=float, nargs="+", default=[0.8, 0.0])
    parser.add_argument(
        "-v", "--verbose", action="store_true", help="print failing tasks and schema failures"
    )
    args = parser.parse_args(argv)
    totals: Counter[str] = Counter()
    worst = 1.0
    for path in corpus_paths(args.specs):
        print(f"\n{path.name}")
        try:
            wenv.load_spec(path)
        except wenv.SpecError as exc:
            print(f"  does not load: {exc}")
            continue
        print(
            f"  {'rate':>4} {'rows':>5} {'check':>5} {'oracle':>7} {'calls':>6} {'schema✗':>8}  below 1 by cause"
        )
        for rate in args.rates:
            m = measure(path, args.budget, rate, args.verbose)
            worst = min(worst, m["mean"]) if m["checkable"] else worst
            totals.update(m["causes"])
            totals["schema failures"] += len(m["schema"])
            totals["calls"] += m["calls"]
            totals["checkable"] += m["checkable"]
            totals["below 1"] += sum(m["causes"].values())
            causes = ", ".join(f"{k} {n}" for k, n in m["causes"].most_common()) or "-"
            print(
                f"  {rate:>4} {m['rows']:>5} {m['checkable']:>5} {m['mean']:>7.4f} {m['calls']:>6} "
                f"{len(m['schema']):>8}  {causes}"
            )
            if args.verbose:
                for line in sorted(set(m["schema"]))[:8]:
                    print(f"    schema: {line}")
    print(
        f"\nall specs: worst oracle mean {worst:.4f}; "
        + ", ".join(f"{k} {n}" for k, n in totals.items())
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
