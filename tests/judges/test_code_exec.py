"""CodeExec: hidden tests in a sandboxed child, which stops loops, fork bombs, memory hogs and the
network within its limits."""

from __future__ import annotations

import os
import socket
import threading
import time
from pathlib import Path

import pytest

from whileai_env.grading.judge import run_judge
from whileai_env.judges import CodeExec, sandbox
from whileai_env.judges.code_exec import reply_code

ADD_TESTS = ["assert add(1, 2) == 3", "assert add(-1, 1) == 0", "assert add(0.5, 0.5) == 1"]


def _reply(code: str) -> dict[str, str]:
    return {"final_text": f"Here you go:\n```python\n{code}\n```"}


def _survivors() -> list[str]:
    """Processes still running the sandbox child (there must be none after a check returns)."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if b"_sandbox_child.py" in cmdline:
            found.append(pid)
    return found


def test_reply_code_prefers_the_last_python_block():
    assert reply_code("```\na\n```\n```python\nb\n```") == "b\n"
    assert reply_code("print(1)") == "print(1)"


def test_hidden_tests_from_the_gold_give_partial_credit():
    row = {
        **_reply("def add(a, b):\n    return int(a) + int(b)"),
        "privileged": {"reference": ADD_TESTS},
    }
    (graded,) = run_judge([row], CodeExec())
    assert graded["judge_status"] == "ok"
    assert graded["reward"] == pytest.approx(2 / 3)
    assert "test 2: AssertionError" in graded["reason"]
    assert graded["judge_meta"]["sandbox"]["total"] == 3


def test_an_early_exit_does_not_pass_the_tests_it_skipped():
    for escape in ("import sys\nsys.exit(0)", "import os\nos._exit(0)"):
        result = CodeExec(tests=ADD_TESTS)(_reply(escape))
        assert result["reward"] == 0.0, escape


def test_the_hidden_tests_are_not_readable_by_the_solution():
    code = "import os\nLEAK = os.listdir('.')\ndef add(a, b):\n    return a + b"
    result = CodeExec(tests=["assert 'tests.json' not in LEAK"])(_reply(code))
    assert result["reward"] == 1.0


def test_an_infinite_loop_is_killed_at_the_wall_time_limit():
    started = time.monotonic()
    result = CodeExec(tests=ADD_TESTS, timeout_s=1.0, cpu_s=30)(_reply("while True:\n    pass"))
    assert time.monotonic() - started < 6
    assert (result["reward"], result["sandbox"]["stopped"]) == (0.0, "timeout")
    assert _survivors() == []


def test_a_cpu_spin_is_stopped_by_the_cpu_limit():
    result = CodeExec(tests=ADD_TESTS, timeout_s=20, cpu_s=1)(_reply("while True:\n    pass"))
    assert result["sandbox"]["stopped"] == "cpu"
    assert result["sandbox"]["wall_s"] < 10


def test_a_fork_bomb_hits_the_process_limit_and_leaves_nothing_behind():
    bomb = "import os\nwhile True:\n    os.fork()"
    started = time.monotonic()
    result = CodeExec(tests=ADD_TESTS, timeout_s=3.0, max_processes=4)(_reply(bomb))
    assert time.monotonic() - started < 10
    assert result["reward"] == 0.0
    assert "BlockingIOError" in result["reason"] or result["sandbox"]["stopped"] == "timeout"
    time.sleep(0.2)
    assert _survivors() == []


def test_a_memory_hog_meets_the_memory_limit():
    hog = "chunks = []\nwhile True:\n    chunks.append(bytearray(10 * 1024 * 1024))"
    started = time.monotonic()
    result = CodeExec(tests=ADD_TESTS, memory_mb=200, timeout_s=20)(_reply(hog))
    assert time.monotonic() - started < 15
    assert result["reward"] == 0.0
    assert "MemoryError" in result["reason"] or result["sandbox"]["stopped"] == "memory"


class _Listener:
    """A local TCP server that records whether anything connected."""

    def __init__(self) -> None:
        self.server = socket.create_server(("127.0.0.1", 0))
        self.server.settimeout(0.2)
        self.port = self.server.getsockname()[1]
        self.connected = threading.Event()
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def _accept(self) -> None:
        while not self.done.is_set():
            try:
                conn, _ = self.server.accept()
            except OSError:
                continue
            self.connected.set()
            conn.close()

    def close(self) -> None:
        self.done.set()
        self.thread.join()
        self.server.close()


CONNECT = "import socket\nsocket.create_connection(('127.0.0.1', {port}), timeout=2).close()"
SUBPROCESS_CONNECT = (
    "import subprocess, sys\n"
    "code = \"import socket; socket.create_connection(('127.0.0.1', {port}), timeout=2)\"\n"
    "assert subprocess.run([sys.executable, '-I', '-c', code]).returncode == 0"
)


def test_the_listener_sees_an_unsandboxed_connection():
    listener = _Listener()
    try:
        socket.create_connection(("127.0.0.1", listener.port), timeout=2).close()
        assert listener.connected.wait(2)
    finally:
        listener.close()


def test_the_audit_hook_blocks_a_network_call_without_a_namespace(monkeypatch):
    monkeypatch.setattr(sandbox, "_network_prefix", lambda: ())
    listener = _Listener()
    try:
        result = CodeExec(tests=["pass"])(_reply(CONNECT.format(port=listener.port)))
    finally:
        listener.close()
    assert result["sandbox"]["network"] == "audit hook"
    assert result["reward"] == 0.0
    assert "network access is blocked" in result["reason"]
    assert not listener.connected.is_set()


@pytest.mark.skipif(
    not sandbox._network_prefix(), reason="this machine cannot make a network namespace"
)
def test_the_namespace_blocks_a_connection_from_a_grandchild():
    listener = _Listener()
    try:
        code = SUBPROCESS_CONNECT.format(port=listener.port)
        result = CodeExec(tests=["pass"], timeout_s=10)(_reply(code))
    finally:
        listener.close()
    assert result["sandbox"]["network"].startswith("network namespace")
    assert result["reward"] == 0.0
    assert not listener.connected.is_set()


def test_output_past_its_cap_stops_the_run():
    flood = "while True:\n    print('x' * 4096)"
    result = CodeExec(tests=ADD_TESTS, timeout_s=10)(_reply(flood))
    assert (result["reward"], result["sandbox"]["stopped"]) == (0.0, "output")
