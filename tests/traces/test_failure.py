"""step_failure names a traced call's failure on the grid's axes, whatever the API's wording."""

from __future__ import annotations

import pytest

from whileai_env.traces.failure import FAULT_TO_AXIS, failure_name, step_failure


@pytest.mark.parametrize(
    ("step", "expected"),
    [
        ({"result": {"error": "timeout"}}, ("condition", "timeout")),
        ({"error": "DeadlineExceeded"}, ("condition", "timeout")),
        ({"result": {"status": 504, "message": "Gateway Timeout"}}, ("condition", "timeout")),
        ({"result": {"status_code": 429}}, ("condition", "rate_limited")),
        (
            {"result": {"error": {"code": 403, "message": "Forbidden"}}},
            ("condition", "permission_denied"),
        ),
        (
            {"result": {"status": 503, "message": "Service Unavailable"}},
            ("condition", "server_error"),
        ),
        ({"result": {"status": 500}}, ("condition", "server_error")),
        (
            {"result": {"status": "error", "message": "record not found"}},
            ("world_state", "missing"),
        ),
        ({"result": {"status": 409, "message": "Conflict"}}, ("world_state", "already_done")),
        ({"result": "Error: garbled payload, unparseable"}, ("condition", "malformed")),
        ({"fault": "stale"}, ("condition", "stale")),
        ({"ok": False}, ("condition", "error")),
        ({"result": {"success": False, "message": "something odd"}}, ("condition", "error")),
    ],
)
def test_failures_are_named(step, expected):
    assert step_failure(step) == expected


@pytest.mark.parametrize(
    "step",
    [
        {"result": {"id": "1", "status": "shipped"}},
        {"result": {"status": 200, "items": []}},
        {"result": "all good"},
        {"result": None},
        {},
    ],
)
def test_successes_are_not_failures(step):
    assert step_failure(step) is None and failure_name(step) is None


def test_a_caller_map_overrides_the_default():
    table = {**FAULT_TO_AXIS, "timeout": ("condition", "server_error")}
    assert step_failure({"error": "timeout"}, table) == ("condition", "server_error")


def test_a_number_in_the_message_is_not_an_http_status():
    assert step_failure({"error": "order 555 not found"}) == ("world_state", "missing")
    assert step_failure({"error": "HTTP 503 from the backend"}) == ("condition", "server_error")
