"""Graded rows for the report tests: the seeded agent (after) and the silent one (before) on the
same tasks of the order-support spec, four repeats each so pass^k and pass@k are measured."""

from __future__ import annotations

import pytest

import whileai_env as wenv
from tests.conftest import SPECS_DIR
from whileai_env.grading.checklist import task_checklist

SPEC = SPECS_DIR / "order-support.json"


def graded_rows(agent: str = "seeded", tasks=None) -> list[dict]:
    """60 graded rows of ``agent`` (15 tasks x 4 repeats), or its rows on ``tasks``'s task set."""
    data = wenv.simulate(
        agent,
        spec=SPEC,
        budget=60,
        mode="sft",
        repeats=4,
        tasks=tasks,
        quiet=True,
        grader=task_checklist,
    )
    return list(data.rows)


@pytest.fixture(scope="session")
def rows() -> list[dict]:
    return graded_rows()


@pytest.fixture(scope="session")
def before(rows) -> list[dict]:
    return graded_rows("silent", tasks=rows)
