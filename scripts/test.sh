#!/usr/bin/env bash
# Set up .venv with the test extras; run the linter, the formatter check, the type checker and the
# whole test suite (doctests included).
#   bash scripts/test.sh [pytest args...]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh "${WHILEAI_TEST_EXTRAS:-dev,openai,train,math,ray}"
.venv/bin/ruff check .
.venv/bin/ruff format --check .
.venv/bin/mypy  # the package, zero errors ([tool.mypy] in pyproject.toml)
.venv/bin/python -m pytest "$@"
