#!/usr/bin/env bash
# The main job on a fresh machine, offline: set up .venv, check an example spec and draw tasks
# from its coverage grid.
#   bash scripts/run-example.sh [SPEC]
set -euo pipefail
cd "$(dirname "$0")/.."
spec="${1:-configs/specs/order-support.json}"
bash scripts/setup.sh
mkdir -p runs
.venv/bin/whileai-env check-spec "$spec"
.venv/bin/whileai-env draw-tasks "$spec" --situations 40 --seed 0 -o runs/tasks.jsonl
