#!/usr/bin/env bash
# The main job on a fresh machine, offline: set up .venv, then simulate the seeded reference
# agent on an example spec, grading every row with task_checklist and streaming it to JSONL.
#   bash scripts/run-example.sh [SPEC] [extra `whileai-env simulate` options]
set -euo pipefail
cd "$(dirname "$0")/.."
spec="${1:-configs/specs/order-support.json}"
shift || true
bash scripts/setup.sh
mkdir -p runs
out="runs/$(basename "${spec%.*}")-rows.jsonl"
rm -f "$out" "$out.run.json"
.venv/bin/whileai-env check-spec "$spec" --samples 3
.venv/bin/whileai-env simulate "$spec" --agent seeded --mode explore --budget 500 -o "$out" "$@"
