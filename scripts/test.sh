#!/usr/bin/env bash
# Set up .venv with the test extras and run the whole test suite (and the linter).
#   bash scripts/test.sh [pytest args...]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh "${WHILEAI_TEST_EXTRAS:-dev,openai,train}"
.venv/bin/ruff check .
.venv/bin/python -m pytest "$@"
