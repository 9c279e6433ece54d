"""Tool kinds on the foreign-spec corpus against the hand labels: agreement per spec and every
disagreement, with the evidence that decided the kind.

    .venv/bin/python scripts/bench/kinds.py            # table + disagreements
    .venv/bin/python scripts/bench/kinds.py --json     # one JSON object

The corpus is ``tests/corpus/*.json|*.yaml`` (specs converted from public tool definitions);
the labels are ``tests/corpus/labels.json``: ``{"<spec name>": {"<tool>": "read|create|update|delete"}}``.
A read labelled a write, or a write labelled a read, is marked ``R/W`` (the mistakes that change
a grade); a write of the wrong sub-kind (create for update) is marked ``w/w``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import whileai_env as wenv  # noqa: E402
from whileai_env.spec.kinds import WRITE_KINDS, explain_kind  # noqa: E402

CORPUS = ROOT / "tests" / "corpus"


def _raw_tools(path: Path) -> dict[str, dict]:
    """The spec file's tools by name, in their own shape (annotations kept)."""
    import yaml

    data = (
        json.loads(path.read_text()) if path.suffix == ".json" else yaml.safe_load(path.read_text())
    )
    tools = data if isinstance(data, list) else data.get("tools", [])
    out = {}
    for item in tools:
        body = item.get("function", item)
        out[body["name"]] = body
    return out


def compare(corpus: Path = CORPUS) -> dict:
    """Per spec: tools, agreements and the disagreements (tool, label, kind, evidence)."""
    labels = json.loads((corpus / "labels.json").read_text())
    report: dict = {"specs": {}, "tools": 0, "agree": 0, "read_write": 0}
    for path in sorted(
        p for p in corpus.iterdir() if p.suffix in (".json", ".yaml", ".yml") and p.stem != "labels"
    ):
        try:
            spec = wenv.load_spec(path)
        except wenv.SpecError as exc:
            report.setdefault("not_loaded", {})[path.name] = str(exc)
            continue
        wanted = labels.get(spec.name, {})
        raw = _raw_tools(path)
        rows = []
        for tool in spec.tools:
            if tool.name not in wanted:
                continue
            body = raw.get(tool.name, {})
            found = explain_kind(
                tool.name,
                tool.description,
                tool.parameters,
                tool.output_schema,
                body.get("annotations"),
            )
            rows.append(
                (tool.name, wanted[tool.name], tool.kind, f"{found.source}: {found.reason}")
            )
        bad = [r for r in rows if r[1] != r[2]]
        report["specs"][spec.name] = {
            "tools": len(rows),
            "agree": len(rows) - len(bad),
            "disagreements": bad,
        }
        report["tools"] += len(rows)
        report["agree"] += len(rows) - len(bad)
        report["read_write"] += sum(
            1 for r in bad if (r[1] in WRITE_KINDS) != (r[2] in WRITE_KINDS)
        )
    report["agreement"] = report["agree"] / max(1, report["tools"])
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    args = parser.parse_args()
    report = compare(args.corpus)
    if args.json:
        print(json.dumps(report, indent=1))
        return
    print(f"{'spec':<28} {'tools':>5} {'agree':>6}")
    for name, row in report["specs"].items():
        print(f"{name:<28} {row['tools']:>5} {row['agree'] / max(1, row['tools']):>6.1%}")
    print(
        f"{'all':<28} {report['tools']:>5} {report['agreement']:>6.1%}   "
        f"({report['tools'] - report['agree']} disagree, {report['read_write']} read/write)"
    )
    for name, why in report.get("not_loaded", {}).items():
        print(f"not loaded: {name}: {why}")
    print("\ndisagreements (spec, tool: label -> kind, evidence)")
    for name, row in report["specs"].items():
        for tool, label, kind, why in row["disagreements"]:
            mark = "R/W" if (label in WRITE_KINDS) != (kind in WRITE_KINDS) else "w/w"
            print(f"  {mark} {name}.{tool}: {label} -> {kind}   [{why}]")


if __name__ == "__main__":
    main()
